// The kinds of action a rule can take, one definition each in ACTIONS: how
// its settings are checked when the rule is saved, and what it does in a run.
// A kind is either
//   - `commit`: it writes in the run's transaction (text through the write
//     gate, into the run's one change; a webhook delivery into the outbox),
//     which also records the run's log: done exactly once with the run;
//   - `after`: it starts work of its own once that transaction has committed
//     (auto-translation jobs, a publication, a Git push); the run's log is
//     saved after each, and a run taken over after a crash goes on after the
//     last entry saved. One that acted but died before saving its entry is
//     done again, and must not act twice: each gets its action's idempotency
//     key (actionKey: automation:<runId>:<index>), which the jobs and the
//     publication it starts carry; done again, it finds and logs those (the
//     same job ids, the same publication) instead of starting new ones. A
//     push done again is harmless as it is (see PUSH_TO_GIT).
// Adding a kind is one more entry here and its name in ACTION_KINDS; the
// GraphQL input carries its settings. PUSH_TO_GIT pushes the export to the
// project's Git connection (src/gitsync/push.ts) after the run commits.
import { Prisma } from '../generated/prisma/client.js';
import { prisma, type Db } from '../db.js';
import { arrayLiteral } from '../db/array-literal.js';
import { badRequest } from '../errors.js';
import type { Change } from '../content/changes.js';
import { writeTranslations } from '../content/translations/gate.js';
import type { Cell, ReviewStatus } from '../content/translations/store.js';
import { startJobsFromSettings } from '../jobs/from-settings.js';
import { publishEnvironment } from '../hosting/publish.js';
import { listEnvironments, LATEST } from '../hosting/environments.js';
import { wakeDispatchers } from '../webhooks/dispatcher.js';
import { pushWhenFree, type PushRequest } from '../gitsync/push.js';
import type { Matched, Pair } from './match.js';

export const ACTION_KINDS = [
  'AUTO_TRANSLATE',
  'SET_REVIEW_STATUS',
  'CLEAR_OTHER_LANGUAGES',
  'PUBLISH',
  'WEBHOOK',
  'PUSH_TO_GIT',
] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** Which cells a review-status action sets: the ones that changed, or the same keys' cells in the other languages. */
export const ACTION_CELLS = ['CHANGED', 'OTHER_LANGUAGES'] as const;
export type ActionCells = (typeof ACTION_CELLS)[number];

/** An action as given (GraphQL input): the fields its kind reads. */
export interface ActionInput {
  kind: string;
  languages?: readonly string[] | null;
  status?: string | null;
  cells?: string | null;
  environment?: string | null;
  webhookId?: number | null;
  force?: boolean | null;
}

/** An action as stored on the rule (AutomationRule.actions). */
export interface StoredAction {
  kind: ActionKind;
  /** AUTO_TRANSLATE: target languages (empty: every language but the source ones); the others: languages acted on (empty: any). */
  languages: string[];
  status?: ReviewStatus;
  cells?: ActionCells;
  environment?: string;
  webhookId?: number;
  force?: boolean;
}

/** What one action did, for the run's log. */
export interface ActionLog {
  kind: ActionKind;
  /** The action's position among the rule's actions (set by the runner). */
  index?: number;
  ok: boolean;
  summary: string;
  /** Cells written (commit actions). */
  cells?: number;
  jobIds?: string[];
  publicationId?: number | null;
  deliveryId?: string;
}

export interface RunContext {
  projectId: number;
  ruleId: number;
  runId: bigint;
  /** The change that triggered the run (null: a schedule tick). */
  activityId: bigint | null;
  matched: Matched;
  /** The service's settings a Git push needs (absent: the runner was started without them). */
  config?: PushRequest['config'];
}

/** The idempotency key of a run's action: the one rule for it, built by the runner once per action and passed down. */
export function actionKey(runId: bigint, index: number): string {
  return `automation:${runId}:${index}`;
}

export interface AfterContext extends RunContext {
  /** actionKey of this action in this run. */
  idempotencyKey: string;
}

export interface CommitContext extends RunContext {
  tx: Db;
  /** The run's one change for its text writes, opened on first use. */
  change(): Promise<Change>;
}

interface ActionDefinition {
  phase: 'commit' | 'after';
  /** Checks the settings of one action when the rule is saved. */
  validate(projectId: number, input: ActionInput, languages: string[]): Promise<StoredAction>;
  commit?(ctx: CommitContext, action: StoredAction): Promise<ActionLog>;
  after?(ctx: AfterContext, action: StoredAction): Promise<ActionLog>;
}

async function projectLanguages(projectId: number, db: Db = prisma()) {
  return db.language.findMany({
    where: { projectId },
    select: { id: true, key: true },
    orderBy: [{ order: 'asc' }, { id: 'asc' }],
  });
}

function checkLanguages(known: string[], languages: string[], field: string): string[] {
  const unknown = languages.filter((l) => !known.includes(l));
  if (unknown.length) throw badRequest(`${field}: ${unknown.map((l) => `'${l}'`).join(', ')} not in this project`);
  return languages;
}

/**
 * The cells an action acts on: the changed cells (in `languages` when given),
 * or the changed keys' cells in every other language (in `languages`).
 */
async function targetCells(ctx: CommitContext, action: StoredAction): Promise<Pair[]> {
  const all = await projectLanguages(ctx.projectId, ctx.tx);
  const wanted = new Set(
    action.languages.length
      ? all.filter((l) => action.languages.includes(l.key)).map((l) => l.id)
      : all.map((l) => l.id),
  );
  if (action.cells === 'OTHER_LANGUAGES') {
    const changed = new Map<number, Set<number>>();
    for (const c of ctx.matched.cells)
      (changed.get(c.keyId) ?? changed.set(c.keyId, new Set()).get(c.keyId)!).add(c.languageId);
    const pairs: Pair[] = [];
    for (const [keyId, languages] of changed)
      for (const id of wanted) if (!languages.has(id)) pairs.push({ keyId, languageId: id });
    return pairs;
  }
  return ctx.matched.cells.filter((c) => wanted.has(c.languageId));
}

/** The texts and statuses of base cells (rows only: a cell without a row has nothing to review or clear): one statement. */
function currentCells(tx: Db, projectId: number, pairs: Pair[]) {
  return tx.$queryRaw<
    { keyId: number; languageId: number; text: string; reviewStatus: ReviewStatus }[]
  >(Prisma.sql`/* automations:current-cells */
    SELECT t."keyId", t."languageId", t.text, t."reviewStatus"::text AS "reviewStatus"
      FROM unnest(${arrayLiteral(pairs, (p) => p.keyId)}::int[], ${arrayLiteral(pairs, (p) => p.languageId)}::int[]) AS p(key_id, language_id)
      JOIN "Translation" t ON t."keyId" = p.key_id AND t."languageId" = p.language_id AND t."projectId" = ${projectId}`);
}

async function writeCells(ctx: CommitContext, cells: Cell[]): Promise<number> {
  if (cells.length === 0) return 0;
  const result = await writeTranslations(ctx.tx, ctx.projectId, cells, {
    replace: true,
    listRefusals: 0,
    change: await ctx.change(),
  });
  return result.inserted + result.updated;
}

export const ACTIONS: Record<ActionKind, ActionDefinition> = {
  AUTO_TRANSLATE: {
    phase: 'after',
    async validate(_projectId, input, languages) {
      return {
        kind: 'AUTO_TRANSLATE',
        languages: checkLanguages(languages, [...new Set(input.languages ?? [])], 'languages'),
        force: !!input.force,
      };
    },
    async after(ctx, action) {
      // The changed keys only; a schedule (no keys) translates whatever is missing.
      if (ctx.matched.keyIds && ctx.matched.keyIds.length === 0)
        return { kind: action.kind, ok: true, summary: 'No key to translate', jobIds: [] };
      const jobs = await startJobsFromSettings(
        ctx.projectId,
        action.languages,
        action.force ? ['FORCE_REPLACE'] : [],
        ctx.matched.keyIds ? { keyIds: ctx.matched.keyIds } : undefined,
        ctx.idempotencyKey,
      );
      // Started, not skipped (a repeat finds its jobs already ended, maybe).
      const started = jobs.filter((j) => !(j.request as { skipped?: boolean }).skipped);
      const keys = ctx.matched.keyIds
        ? `${ctx.matched.keyIds.length} key${ctx.matched.keyIds.length === 1 ? '' : 's'}`
        : 'every key';
      return {
        kind: action.kind,
        ok: true,
        jobIds: jobs.map((j) => j.id),
        summary:
          `Auto-translation of ${keys} started for ${started.map((j) => (j.request as { targetProjectLanguage: string }).targetProjectLanguage).join(', ') || 'no language'}` +
          (jobs.length > started.length ? `; ${jobs.length - started.length} language(s) skipped` : ''),
      };
    },
  },
  SET_REVIEW_STATUS: {
    phase: 'commit',
    async validate(_projectId, input, languages) {
      if (input.status !== 'REVIEWED' && input.status !== 'NOT_REVIEWED')
        throw badRequest('SET_REVIEW_STATUS: status must be REVIEWED or NOT_REVIEWED');
      const cells = (input.cells ?? 'CHANGED') as ActionCells;
      if (!ACTION_CELLS.includes(cells))
        throw badRequest(`SET_REVIEW_STATUS: cells must be one of ${ACTION_CELLS.join(', ')}`);
      return {
        kind: 'SET_REVIEW_STATUS',
        languages: checkLanguages(languages, [...new Set(input.languages ?? [])], 'languages'),
        status: input.status,
        cells,
      };
    },
    async commit(ctx, action) {
      const pairs = await targetCells(ctx, action);
      const rows = pairs.length ? await currentCells(ctx.tx, ctx.projectId, pairs) : [];
      // An empty cell has nothing to review; one already in the status is left alone (no event).
      const cells = rows
        .filter((r) => r.text !== '' && r.reviewStatus !== action.status)
        .map((r) => ({
          keyId: r.keyId,
          languageId: r.languageId,
          customerId: null,
          text: r.text,
          reviewStatus: action.status!,
        }));
      const written = await writeCells(ctx, cells);
      return {
        kind: action.kind,
        ok: true,
        cells: written,
        summary: `${written} cell${written === 1 ? '' : 's'} set to ${action.status}`,
      };
    },
  },
  CLEAR_OTHER_LANGUAGES: {
    phase: 'commit',
    async validate(_projectId, input, languages) {
      return {
        kind: 'CLEAR_OTHER_LANGUAGES',
        languages: checkLanguages(languages, [...new Set(input.languages ?? [])], 'languages'),
      };
    },
    async commit(ctx, action) {
      const pairs = await targetCells(ctx, { ...action, cells: 'OTHER_LANGUAGES' });
      const rows = pairs.length ? await currentCells(ctx.tx, ctx.projectId, pairs) : [];
      const cells = rows
        .filter((r) => r.text !== '')
        .map((r) => ({
          keyId: r.keyId,
          languageId: r.languageId,
          customerId: null,
          text: '',
          reviewStatus: 'NOT_REVIEWED' as const,
        }));
      const written = await writeCells(ctx, cells);
      return {
        kind: action.kind,
        ok: true,
        cells: written,
        summary: `${written} text${written === 1 ? '' : 's'} of other languages cleared`,
      };
    },
  },
  PUBLISH: {
    phase: 'after',
    async validate(projectId, input) {
      const environment = input.environment?.trim() || LATEST;
      const known = (await listEnvironments(projectId)).map((e) => e.key);
      if (!known.includes(environment)) throw badRequest(`PUBLISH: environment '${environment}' not in this project`);
      return { kind: 'PUBLISH', languages: [], environment };
    },
    async after(ctx, action) {
      const result = await publishEnvironment({
        projectId: ctx.projectId,
        environmentKey: action.environment ?? LATEST,
        idempotencyKey: ctx.idempotencyKey,
      });
      // Still running: this action's publication, whose publisher stopped with the run's runner; the hosting takeover completes it.
      const summary =
        result.state === 'RUNNING'
          ? `Publishing ${result.environmentKey} (publication ${result.id}), started before a restart; it completes on its own`
          : `Published ${result.environmentKey} (version ${result.version})`;
      return { kind: action.kind, ok: true, summary, publicationId: result.id };
    },
  },
  PUSH_TO_GIT: {
    phase: 'after',
    async validate(projectId) {
      const connected = await prisma().gitConnection.findUnique({ where: { projectId }, select: { id: true } });
      if (!connected) throw badRequest('PUSH_TO_GIT: connect the project to a Git repository first (docs/git-sync.md)');
      return { kind: 'PUSH_TO_GIT', languages: [] };
    },
    async after(ctx, action) {
      if (!ctx.config)
        return {
          kind: action.kind,
          ok: false,
          summary: 'This instance cannot push to Git (started without its settings)',
        };
      // No idempotency key needed: done again (a run taken over before its log was saved), the push rebuilds the
      // same branch from the same base and export, finds the remote branch already holding it (nothing pushed) and
      // updates the one open pull request instead of opening another (test/api/gitsync-automation.test.ts); with
      // texts changed since, it proposes them, as the next push would.
      // A sync still running (often the pull whose import started this chain) is waited for, not failed on.
      const result = await pushWhenFree({ projectId: ctx.projectId, trigger: 'AUTOMATION', config: ctx.config });
      const pr = result.pullRequest ? `; pull request ${result.pullRequest.url}` : '';
      return {
        kind: action.kind,
        ok: true,
        summary: result.pushed
          ? `Pushed ${result.files.length} files to ${result.branch}${pr}`
          : `Nothing new to push${pr}`,
      };
    },
  },
  WEBHOOK: {
    phase: 'commit',
    async validate(projectId, input) {
      if (!input.webhookId) throw badRequest("WEBHOOK: webhookId is required (one of the project's webhooks)");
      const webhook = await prisma().webhook.findFirst({
        where: { id: input.webhookId, projectId },
        select: { id: true },
      });
      if (!webhook) throw badRequest(`WEBHOOK: webhook ${input.webhookId} not in this project`);
      return { kind: 'WEBHOOK', languages: [], webhookId: webhook.id };
    },
    async commit(ctx, action) {
      // Into the webhooks' outbox with the run's transaction: signed, retried and guarded like every delivery (src/webhooks/).
      const rows = await ctx.tx.$queryRaw<{ id: bigint }[]>(Prisma.sql`/* automations:queue-webhook */
        INSERT INTO "WebhookDelivery" ("webhookId", "activityId", trigger)
        SELECT id, ${ctx.activityId}::bigint, 'AUTOMATION' FROM "Webhook" WHERE id = ${action.webhookId} AND "projectId" = ${ctx.projectId} AND enabled
        RETURNING id`);
      if (!rows[0]) return { kind: action.kind, ok: false, summary: `Webhook ${action.webhookId} is gone or disabled` };
      return {
        kind: action.kind,
        ok: true,
        deliveryId: String(rows[0].id),
        summary: `Webhook ${action.webhookId} called (delivery ${rows[0].id})`,
      };
    },
  },
};

/** Called once the run's transaction has committed, so queued deliveries go out without waiting for a poll. */
export function afterCommit(logs: ActionLog[]): void {
  if (logs.some((l) => l.kind === 'WEBHOOK' && l.ok)) wakeDispatchers();
}

/** Checks the actions of a rule being saved. */
export async function validateActions(projectId: number, inputs: readonly ActionInput[]): Promise<StoredAction[]> {
  const languages = (await projectLanguages(projectId)).map((l) => l.key);
  const actions: StoredAction[] = [];
  for (const [i, input] of inputs.entries()) {
    const definition = ACTIONS[input.kind as ActionKind];
    if (!definition) throw badRequest(`actions[${i}].kind must be one of ${ACTION_KINDS.join(', ')}`);
    actions.push(await definition.validate(projectId, input, languages));
  }
  return actions;
}

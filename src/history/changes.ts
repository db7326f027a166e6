// Change events: every write of content and every project-level action opens
// one Activity row in its own transaction (`openChange`), before it writes.
// The write gate then records the cells it writes as events of that activity
// (one batch row per statement: cell-events.ts), in the statement that writes
// them (gate.ts), so a chunk of 50,000 cells costs no statement more. Opening a change also queues the
// project's webhooks that want its trigger (the outbox, src/webhooks/), in the
// same statement: one statement per change, whatever its size. The same
// statement queues the runs of the project's automation rules that the
// change's kind can trigger (automationTriggersOf; src/automations/): one row
// per rule and change, unique, so a change runs each rule at most once.
import type { Db } from '../db.js';
import { insertCellEvents } from './cell-events.js';
import { currentOrigin, noteOpened, type Origin } from './origin.js';

/** What a change did. */
export type ChangeKind =
  | 'TRANSLATIONS' // v1 POST/PATCH, v2 PATCH, the GraphQL mutation
  | 'KEYS' // create, update, delete keys
  | 'LANGUAGES'
  | 'CUSTOMERS'
  | 'IMPORT'
  | 'EXPORT'
  | 'PUBLICATION'
  | 'JOB_STARTED'
  | 'AUTO_TRANSLATION' // the cells a job wrote
  | 'JOB_FINISHED'
  | 'SETTINGS'
  | 'PURGE'
  | 'REVERT'
  | 'AUTOMATION' // the cells an automation run wrote (review status, cleared texts)
  | 'QUALITY'; // a quality-check finding dismissed or restored, a publication gate overridden (src/findings/)

export const CHANGE_KINDS: readonly ChangeKind[] = [
  'TRANSLATIONS', 'KEYS', 'LANGUAGES', 'CUSTOMERS', 'IMPORT', 'EXPORT', 'PUBLICATION',
  'JOB_STARTED', 'AUTO_TRANSLATION', 'JOB_FINISHED', 'SETTINGS', 'PURGE', 'REVERT', 'AUTOMATION', 'QUALITY',
];

/** Webhook triggers (the vendor's names). */
export type Trigger = 'CHANGE' | 'IMPORT' | 'EXPORT' | 'PUBLICATION' | 'ENVIRONMENT_PUBLICATION' | 'AUTO_TRANSLATION_SUCCESS' | 'REVERT';

export const TRIGGERS: readonly Trigger[] = ['CHANGE', 'IMPORT', 'EXPORT', 'PUBLICATION', 'ENVIRONMENT_PUBLICATION', 'AUTO_TRANSLATION_SUCCESS', 'REVERT'];

/** The webhook trigger a change fires, if any. */
export function triggerOf(kind: ChangeKind, details: Record<string, unknown>): Trigger | null {
  switch (kind) {
    case 'TRANSLATIONS': case 'KEYS': case 'LANGUAGES': case 'CUSTOMERS': case 'PURGE': case 'AUTO_TRANSLATION': case 'AUTOMATION': return 'CHANGE';
    case 'IMPORT': return 'IMPORT';
    case 'EXPORT': return 'EXPORT';
    case 'PUBLICATION': return details.environment === '_latest' ? 'PUBLICATION' : 'ENVIRONMENT_PUBLICATION';
    case 'JOB_FINISHED': return details.state === 'SUCCESS' ? 'AUTO_TRANSLATION_SUCCESS' : null;
    case 'REVERT': return 'REVERT';
    default: return null;
  }
}

/** What can trigger an automation rule (src/automations/, docs/automations.md). */
export type AutomationTrigger = 'TEXTS_CHANGED' | 'KEY_CREATED' | 'IMPORT_FINISHED' | 'AUTO_TRANSLATION_FINISHED' | 'REVIEW_STATUS_CHANGED' | 'SCHEDULE';

export const AUTOMATION_TRIGGERS: readonly AutomationTrigger[] = ['TEXTS_CHANGED', 'KEY_CREATED', 'IMPORT_FINISHED', 'AUTO_TRANSLATION_FINISHED', 'REVIEW_STATUS_CHANGED', 'SCHEDULE'];

/**
 * The triggers a change of each kind may fire as it opens; whether it really
 * did (its cells, the keys it created) is decided when the run is taken
 * (src/automations/match.ts). A job's cells and its end are queued when the
 * job ends (src/jobs/finish.ts), as its webhooks are.
 */
const AUTOMATION_TRIGGERS_OF: Partial<Record<ChangeKind, AutomationTrigger[]>> = {
  TRANSLATIONS: ['TEXTS_CHANGED', 'REVIEW_STATUS_CHANGED', 'KEY_CREATED'],
  IMPORT: ['TEXTS_CHANGED', 'REVIEW_STATUS_CHANGED', 'KEY_CREATED', 'IMPORT_FINISHED'],
  KEYS: ['KEY_CREATED'],
  REVERT: ['TEXTS_CHANGED', 'REVIEW_STATUS_CHANGED'],
  AUTOMATION: ['TEXTS_CHANGED', 'REVIEW_STATUS_CHANGED'],
};

/** A chain of rules (a run's change triggering another rule's run …) stops at this depth. */
export const MAX_AUTOMATION_DEPTH = 3;

/** The triggers of a change kind, as an SQL text[] expression of the kind's parameter. */
function automationTriggersSql(kind: string): string {
  const cases = Object.entries(AUTOMATION_TRIGGERS_OF).map(([k, triggers]) => `WHEN '${k}' THEN ARRAY[${triggers.map((t) => `'${t}'`).join(', ')}]`);
  return `(CASE ${kind}::text ${cases.join(' ')} ELSE ARRAY[]::text[] END)`;
}

/**
 * What a rule's source filter compares with (CONSOLE, API, CLI, JOB,
 * AUTOMATION, SYSTEM), from the change's actor kind and source: SQL.
 */
export function sourceClassSql(actorKind: string, source: string): string {
  return `(CASE WHEN ${actorKind}::text = 'JOB' THEN 'JOB' WHEN ${actorKind}::text = 'AUTOMATION' THEN 'AUTOMATION'
                WHEN ${source}::text = 'WEB' THEN 'CONSOLE' WHEN ${source}::text = 'CLI' THEN 'CLI'
                WHEN ${source}::text IN ('API', 'GRAPHQL') THEN 'API' ELSE 'SYSTEM' END)`;
}

/**
 * The INSERT queueing the runs of a change: every enabled rule of the project
 * whose trigger is in `triggers` and whose source filter admits the change,
 * except the rule acting (`self`: a rule never fires on its own origin), while
 * the chain is not deeper than MAX_AUTOMATION_DEPTH. All arguments are SQL.
 */
function queueRunsSql(at: { activity: string; project: string; triggers: string; sourceClass: string; self: string; depth: string; from?: string }): string {
  return `INSERT INTO "AutomationRun" ("ruleId", "projectId", "activityId", trigger, depth)
       SELECT r.id, r."projectId", ${at.activity}, r.trigger, ${at.depth}
         FROM ${at.from ? `${at.from}, ` : ''}"AutomationRule" r
        WHERE r."projectId" = ${at.project} AND r.enabled AND r.trigger = ANY(${at.triggers})
          AND (cardinality(r.sources) = 0 OR ${at.sourceClass} = ANY(r.sources))
          AND r.id IS DISTINCT FROM ${at.self} AND ${at.depth} <= ${MAX_AUTOMATION_DEPTH}
        ORDER BY r.id
       ON CONFLICT DO NOTHING`;
}

/** The depth of the runs a change made in `origin` triggers. */
function depthOf(origin: Origin): number {
  return (origin.automation?.depth ?? 0) + 1;
}

/** An open change: the activity its events belong to. */
export interface Change {
  id: bigint;
  projectId: number;
}

export interface OpenOptions {
  /** Defaults to the current origin (origin.ts). */
  origin?: Origin;
  /** Content edits that are not cells (keys, languages, customers): they count for lastEditedAt. */
  edits?: number;
  revertOf?: bigint;
}

/** Opens a change in the caller's transaction (one statement, webhooks queued with it). */
export async function openChange(db: Db, projectId: number, kind: ChangeKind, details: Record<string, unknown> = {}, options: OpenOptions = {}): Promise<Change> {
  const [row] = await openChangeStatement(db, projectId, kind, details, options);
  noteOpened(projectId, row!.id);
  return { id: row!.id, projectId };
}

/**
 * A new change's id, taken before the change is opened, so that opening it
 * and writing its cells can go to the database as one batch (update-one.ts).
 * Part of a statement the caller already sends: `SELECT ${NEXT_CHANGE_ID} AS change_id`.
 */
export const NEXT_CHANGE_ID = `nextval(pg_get_serial_sequence('"Activity"', 'id'))`;

/**
 * Opening a change inside the statement that writes its cells (the write
 * gate's, for a one-cell write: update-one.ts), with an id taken earlier
 * (NEXT_CHANGE_ID): the parameters, read now — the origin from the request's
 * scope, where the change is also noted for its announcement — and the SQL
 * of the common table expressions (openChangeCtes) that take them.
 */
export function openChangeParams(change: Change, kind: ChangeKind, details: Record<string, unknown> = {}, options: OpenOptions = {}): unknown[] {
  const origin = options.origin ?? currentOrigin();
  noteOpened(change.projectId, change.id);
  const trigger = kind === 'AUTO_TRANSLATION' ? null : triggerOf(kind, details);
  return [change.id, change.projectId, kind, origin.actorKind, origin.actorId, origin.source, JSON.stringify(details), options.edits ?? 0, options.revertOf ?? null, trigger, depthOf(origin), origin.automation?.ruleId ?? null];
}

/**
 * CTEs `activity` and `queued` opening a change (as openChange does) with the
 * parameters of openChangeParams from $first on; the change's cell count is an
 * SQL expression of the enclosing statement (its events are written by
 * sibling CTEs: the row cannot be updated in the same statement).
 */
export function openChangeCtes(first: number, counts: { cells: string }): string {
  const $ = (n: number) => `$${first + n - 1}`;
  return `activity AS (
       INSERT INTO "Activity" (id, "projectId", kind, "actorKind", "actorId", source, details, edits, "revertOf", cells)
       VALUES (${$(1)}::bigint, ${$(2)}::int, ${$(3)}::text, ${$(4)}::text, ${$(5)}::text, ${$(6)}::text, ${$(7)}::jsonb, ${$(8)}::int, ${$(9)}::bigint,
               ${counts.cells}) RETURNING id
     ), queued AS (
       INSERT INTO "WebhookDelivery" ("webhookId", "activityId", trigger)
       SELECT w.id, activity.id, ${$(10)}::text FROM activity JOIN "Webhook" w ON w."projectId" = ${$(2)}::int AND w.enabled AND ${$(10)}::text = ANY(w.triggers)
        ORDER BY w.id
     ), automated AS (
       ${queueRunsSql({
         activity: 'activity.id', project: `${$(2)}::int`, triggers: automationTriggersSql($(3)), sourceClass: sourceClassSql($(4), $(6)),
         self: `${$(12)}::int`, depth: `${$(11)}::int`, from: 'activity',
       })}
     )`;
}

/**
 * The statement opening a change by itself, with the parameters of
 * openChangeParams, not yet sent: for a caller that sends it in one batched
 * transaction with the statements writing the change's content (import-v1.ts).
 */
export function openChangeQuery(db: Db, opening: unknown[]) {
  return db.$queryRawUnsafe<{ id: bigint }[]>(OPEN_CHANGE_SQL, ...opening);
}

const OPEN_CHANGE_SQL = `WITH ${openChangeCtes(1, { cells: '0' })} SELECT id FROM activity`;

function openChangeStatement(db: Db, projectId: number, kind: ChangeKind, details: Record<string, unknown>, options: OpenOptions & { id?: bigint }) {
  const origin = options.origin ?? currentOrigin();
  // A job's cells are told about once the job has ended (queueWebhooks from its end), not while it still writes.
  const trigger = kind === 'AUTO_TRANSLATION' ? null : triggerOf(kind, details);
  return db.$queryRawUnsafe<{ id: bigint }[]>(
    `WITH activity AS (
       INSERT INTO "Activity" (id, "projectId", kind, "actorKind", "actorId", source, details, edits, "revertOf")
       VALUES (coalesce($10::bigint, ${NEXT_CHANGE_ID}), $1, $2, $3, $4, $5, $6::jsonb, $7, $8::bigint) RETURNING id
     ), queued AS (
       INSERT INTO "WebhookDelivery" ("webhookId", "activityId", trigger)
       SELECT w.id, activity.id, $9::text FROM activity JOIN "Webhook" w ON w."projectId" = $1 AND w.enabled AND $9::text = ANY(w.triggers)
        ORDER BY w.id
     ), automated AS (
       ${queueRunsSql({ activity: 'activity.id', project: '$1', triggers: automationTriggersSql('$2'), sourceClass: sourceClassSql('$3', '$5'), self: '$12::int', depth: '$11::int', from: 'activity' })}
     )
     SELECT id FROM activity`,
    projectId, kind, origin.actorKind, origin.actorId, origin.source, JSON.stringify(details), options.edits ?? 0, options.revertOf ?? null, trigger, options.id ?? null,
    depthOf(origin), origin.automation?.ruleId ?? null,
  );
}

/** Queues the project's webhooks that want `trigger` for a change opened earlier (a job's cells, when the job ends). */
export async function queueWebhooks(db: Db, change: Change, trigger: Trigger): Promise<void> {
  await db.$executeRawUnsafe(
    `INSERT INTO "WebhookDelivery" ("webhookId", "activityId", trigger)
     SELECT id, $2::bigint, $3 FROM "Webhook" WHERE "projectId" = $1 AND enabled AND $3 = ANY(triggers) ORDER BY id`,
    change.projectId, change.id, trigger,
  );
}

/**
 * Queues the runs of the project's rules that want one of `triggers` for a
 * change opened earlier (a job's cells and its end, when the job ends), in
 * the caller's transaction; `origin` is the origin the change was made in.
 */
export async function queueAutomations(db: Db, change: Change, triggers: AutomationTrigger[], origin: Origin): Promise<void> {
  if (triggers.length === 0) return;
  await db.$executeRawUnsafe(
    `/* automations:queue */ ${queueRunsSql({ activity: '$2::bigint', project: '$1::int', triggers: '$3::text[]', sourceClass: sourceClassSql('$4', '$5'), self: '$6::int', depth: '$7::int' })}`,
    change.projectId, change.id, triggers, origin.actorKind, origin.source, origin.automation?.ruleId ?? null, depthOf(origin),
  );
}

/**
 * Records, before they are deleted with their key, language or customer, the texts of
 * the cells that go (new text empty): one statement, whatever their number.
 */
export async function recordDeletedCells(db: Db, change: Change, scope: { keyIds: number[] } | { languageId: number } | { customerIds: number[] }): Promise<void> {
  const where = 'keyIds' in scope ? `t."keyId" = ANY($3::int[])` : 'languageId' in scope ? `t."languageId" = $3` : `t."customerId" = ANY($3::int[])`;
  // A customer's cells are its overrides only.
  const base = 'customerIds' in scope ? '' : `SELECT t."keyId", t."languageId", NULL::int AS "customerId", t.text, t."reviewStatus" FROM "Translation" t WHERE t."projectId" = $2 AND ${where}
       UNION ALL
       `;
  await db.$executeRawUnsafe(
    `WITH gone AS (
       ${base}SELECT t."keyId", t."languageId", t."customerId", t.text, t."reviewStatus" FROM "CustomerTranslation" t WHERE t."projectId" = $2 AND ${where}
     ), events AS (
       ${insertCellEvents({
         activity: '$1::bigint', project: '$2', split: true, cells: `
         SELECT row_number() OVER (ORDER BY g."keyId", g."languageId", g."customerId" NULLS FIRST) AS ord, g."keyId", g."languageId", g."customerId",
                k.key, k.namespace, g.text AS "oldText", ''::text AS "newText", g."reviewStatus" AS "oldStatus", 'NOT_REVIEWED'::"ReviewStatus" AS "newStatus"
           FROM gone g JOIN "TranslationKey" k ON k.id = g."keyId"`,
       })}
     )
     UPDATE "Activity" SET cells = cells + (SELECT coalesce(sum(n), 0)::int FROM events) WHERE id = $1::bigint`,
    change.id, change.projectId, 'keyIds' in scope ? scope.keyIds : 'languageId' in scope ? scope.languageId : scope.customerIds,
  );
}

/** Adds to a change's details (top-level merge) and its edit count, in the caller's transaction. */
export async function amendChange(db: Db, change: Change, details: Record<string, unknown>, edits = 0): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE "Activity" SET details = details || $2::jsonb, edits = edits + $3 WHERE id = $1::bigint`,
    change.id, JSON.stringify(details), edits,
  );
}

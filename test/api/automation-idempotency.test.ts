// An automation's `after` actions act once per run however often the run is
// taken over (issue #40): a runner that dies after an action acted but before
// the run's log recorded it leaves the action to be done again by the runner
// that takes the run over, and the action's idempotency key
// (automation:<runId>:<index>) makes that repeat find the jobs or the
// publication already started instead of starting a second set. Simulated
// here as a crash would leave it: the action done (its `after` called with
// the run's context), the log without its entry, the run's lease then expired.
// (A repeated PUSH_TO_GIT is harmless as it is: test/api/gitsync-automation.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { importOk } from '../support/transfer.js';
import { projectIdOf } from '../support/content.js';
import {
  ACTIONS,
  actionKey,
  type ActionLog,
  type AfterContext,
  type StoredAction,
} from '../../src/automations/actions.js';
import { AppError } from '../../src/errors.js';
import { matchRun, type Matched } from '../../src/automations/match.js';
import { ruleView } from '../../src/automations/rules.js';

let service: TestService;
let account: TestAccount;

async function ok(query: string, variables: Record<string, unknown> = {}) {
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { authorization: account.token, 'content-type': 'application/json' },
    payload: { query, variables },
  });
  const body = res.json() as { data?: any; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

async function until<T>(what: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (done(value)) return value;
    if (Date.now() > end)
      throw new Error(
        `timed out; last value: ${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A project with en, de and fr, de and fr auto-translated by the offline PSEUDO provider, and a rule with these actions (on imports: none follows). */
async function setUp(name: string, actions: Record<string, unknown>[]) {
  const p = await account.project(name);
  await importOk(service, p.apiKey, JSON.stringify({ en: { a: 'Apple', b: 'Bread' }, de: { a: '' }, fr: { a: '' } }), {
    uploadFormat: 'multi-language-json',
    importOptions: 'REPLACE_TRANSLATION_IF_FOUND',
  });
  for (const l of ['de', 'fr']) {
    await ok(
      `mutation($p: String, $l: String!) { setAutoTranslationSettings(projectToken: $p, languageKey: $l, settings: { translationProvider: PSEUDO, targetLanguage: $l, sourceProjectLanguage: "en" }) { languageKey } }`,
      { p: p.projectToken, l },
    );
  }
  const rule = (
    await ok(
      `mutation($p: String, $input: AutomationRuleInput!) { createAutomationRule(projectToken: $p, input: $input) { id actions { kind environment } } }`,
      { p: p.projectToken, input: { name, trigger: 'IMPORT_FINISHED', actions } },
    )
  ).createAutomationRule as { id: number };
  const projectId = await projectIdOf(service.db, p.projectToken);
  const change = await service.db.prisma.activity.findFirstOrThrow({ where: { projectId, kind: 'IMPORT' } });
  const row = await service.db.prisma.automationRule.findUniqueOrThrow({ where: { id: rule.id } });
  // What the run is about, as its runner sees it.
  const matched: Matched = await matchRun(ruleView(row), projectId, {
    id: change.id,
    kind: change.kind,
    details: change.details as Record<string, unknown>,
  });
  return {
    projectId,
    ruleId: rule.id,
    activityId: change.id,
    actions: row.actions as unknown as StoredAction[],
    matched,
  };
}

type Project = Awaited<ReturnType<typeof setUp>>;

/** A run held by an instance that is about to die: RUNNING under its lease, its log as it saved it. */
function heldRun(p: Project, log: ActionLog[] = []) {
  return service.db.prisma.automationRun.create({
    data: {
      ruleId: p.ruleId,
      projectId: p.projectId,
      activityId: p.activityId,
      trigger: 'IMPORT_FINISHED',
      state: 'RUNNING',
      attempts: 1,
      committed: true,
      leaseOwner: 'dying-instance',
      leaseExpiresAt: new Date(Date.now() + 600_000),
      log: log as object[],
    },
  });
}

/** What the dying runner's action saw. */
function contextOf(p: Project, runId: bigint, index: number): AfterContext {
  return {
    projectId: p.projectId,
    ruleId: p.ruleId,
    runId,
    activityId: p.activityId,
    matched: p.matched,
    idempotencyKey: actionKey(runId, index),
  };
}

/** The dying runner's lease runs out: another runner takes the run over; its end. */
async function expireAndAwait(runId: bigint) {
  await service.db.prisma.automationRun.update({
    where: { id: runId },
    data: { leaseExpiresAt: new Date(Date.now() - 1_000) },
  });
  return until(
    () => service.db.prisma.automationRun.findUniqueOrThrow({ where: { id: runId } }),
    (r) => r.state === 'DONE' || r.state === 'FAILED',
  );
}

const sorted = (ids: string[] | undefined) => [...(ids ?? [])].sort();

beforeAll(async () => {
  service = await startTestService({ env: { JOB_POLL_MS: '100' } });
  account = await service.account();
});
afterAll(async () => {
  await service.close();
});

describe('AUTO_TRANSLATE done again', () => {
  it('returns the jobs it started (the same ids, the same summary), also when two do it at once', async () => {
    const p = await setUp('jobs twice', [{ kind: 'AUTO_TRANSLATE' }]);
    const run = await heldRun(p);
    const context = contextOf(p, run.id, 0);
    const first = await ACTIONS.AUTO_TRANSLATE.after!(context, p.actions[0]!);
    expect(first.jobIds).toHaveLength(2);
    const again = await ACTIONS.AUTO_TRANSLATE.after!(context, p.actions[0]!);
    expect(again).toEqual(first);
    expect(await service.db.prisma.job.count({ where: { projectId: p.projectId } })).toBe(2);
    expect(
      sorted(
        (await service.db.prisma.job.findMany({ where: { idempotencyKey: `automation:${run.id}:0` } })).map(
          (j) => j.id,
        ),
      ),
    ).toEqual(sorted(first.jobIds));

    // A takeover racing the original (another action's key): both find one set of jobs (the advisory lock on the key).
    const racing = contextOf(p, run.id, 7);
    const [a, b] = await Promise.all([
      ACTIONS.AUTO_TRANSLATE.after!(racing, p.actions[0]!),
      ACTIONS.AUTO_TRANSLATE.after!(racing, p.actions[0]!),
    ]);
    expect(sorted(a.jobIds)).toEqual(sorted(b.jobIds));
    expect(await service.db.prisma.job.count({ where: { projectId: p.projectId } })).toBe(4);
    // Another key is another action: its own jobs.
    expect(sorted(a.jobIds)).not.toEqual(sorted(first.jobIds));
  });

  it('a run taken over after its runner died between starting the jobs and saving the log logs those jobs and starts none', async () => {
    const p = await setUp('jobs takeover', [{ kind: 'AUTO_TRANSLATE' }, { kind: 'PUBLISH' }]);
    const run = await heldRun(p);
    const started = await ACTIONS.AUTO_TRANSLATE.after!(contextOf(p, run.id, 0), p.actions[0]!);
    const done = await expireAndAwait(run.id);
    expect(done).toMatchObject({ state: 'DONE', attempts: 2 });
    const log = done.log as unknown as ActionLog[];
    expect(log.map((l) => [l.kind, l.index, l.ok])).toEqual([
      ['AUTO_TRANSLATE', 0, true],
      ['PUBLISH', 1, true],
    ]);
    expect(sorted(log[0]!.jobIds)).toEqual(sorted(started.jobIds));
    expect(await service.db.prisma.job.count({ where: { projectId: p.projectId } })).toBe(2);
    // The action after it was done once, by the runner that took over, under its own key.
    const publications = await service.db.prisma.publication.findMany({ where: { projectId: p.projectId } });
    expect(publications.map((x) => [x.id, x.idempotencyKey])).toEqual([
      [log[1]!.publicationId, `automation:${run.id}:1`],
    ]);
  });
});

describe('PUBLISH done again', () => {
  it('returns the publication it made; one still running is reported running; one that failed is a failure, not a second publication', async () => {
    const p = await setUp('publish twice', [{ kind: 'PUBLISH' }]);
    const run = await heldRun(p);
    const first = await ACTIONS.PUBLISH.after!(contextOf(p, run.id, 0), p.actions[0]!);
    expect(first).toMatchObject({ ok: true, summary: expect.stringMatching(/^Published _latest \(version /) });
    expect(await ACTIONS.PUBLISH.after!(contextOf(p, run.id, 0), p.actions[0]!)).toEqual(first);
    expect(await service.db.prisma.publication.count({ where: { projectId: p.projectId } })).toBe(1);
    // A takeover racing the original (another action's key): one publication, which both name (the project's lock).
    const [x, y] = await Promise.all([
      ACTIONS.PUBLISH.after!(contextOf(p, run.id, 2), p.actions[0]!),
      ACTIONS.PUBLISH.after!(contextOf(p, run.id, 2), p.actions[0]!),
    ]);
    expect(x.publicationId).toBe(y.publicationId);
    expect(await service.db.prisma.publication.count({ where: { projectId: p.projectId } })).toBe(2);

    // Its publisher died with the runner: still RUNNING (the hosting takeover completes it), not published a second time.
    const environment = await service.db.prisma.environment.findFirstOrThrow({
      where: { projectId: p.projectId, key: '_latest' },
    });
    const running = await service.db.prisma.publication.create({
      data: {
        projectId: p.projectId,
        environmentId: environment.id,
        version: 'dying-version',
        state: 'RUNNING',
        leaseExpiresAt: new Date(Date.now() + 600_000),
        idempotencyKey: actionKey(run.id, 1),
      },
    });
    expect(await ACTIONS.PUBLISH.after!(contextOf(p, run.id, 1), p.actions[0]!)).toMatchObject({
      ok: true,
      publicationId: running.id,
      summary: expect.stringMatching(/started before a restart/),
    });
    await service.db.prisma.publication.update({
      where: { id: running.id },
      data: { state: 'FAILED', message: 'the disk is full', leaseExpiresAt: null },
    });
    const failed = await ACTIONS.PUBLISH.after!(contextOf(p, run.id, 1), p.actions[0]!).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(AppError);
    expect((failed as Error).message).toBe(`Publication ${running.id} of _latest failed: the disk is full`);
    expect(await service.db.prisma.publication.count({ where: { projectId: p.projectId } })).toBe(3);
  });

  it('a run taken over after its runner died between publishing and saving the log logs that publication and publishes nothing', async () => {
    const p = await setUp('publish takeover', [{ kind: 'PUBLISH' }]);
    const run = await heldRun(p);
    const published = await ACTIONS.PUBLISH.after!(contextOf(p, run.id, 0), p.actions[0]!);
    const done = await expireAndAwait(run.id);
    expect(done).toMatchObject({ state: 'DONE', attempts: 2 });
    expect(done.log).toEqual([{ ...published, index: 0 }]);
    expect(await service.db.prisma.publication.count({ where: { projectId: p.projectId } })).toBe(1);
  });
});

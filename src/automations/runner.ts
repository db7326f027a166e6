// The automation runner: every instance with a job worker runs one. Runs are
// queued PENDING in the transaction of the change that triggers them
// (src/content/changes.ts), one per rule and change (a unique index), so a
// change that rolled back queued nothing and one that committed is never
// forgotten. A runner leases a run with FOR UPDATE SKIP LOCKED (two instances
// never take the same run) and ends it with a statement conditional on its
// lease, in the transaction that writes the run's text (actions.ts: `commit`
// actions), so those happen exactly once. Actions that start work of their
// own (`after`) save the log after each; a run whose runner died is taken
// over when its lease expires and goes on after the last one saved. The one
// it died in (acted, log not saved) is done again with the same idempotency
// key (actionKey), which finds the jobs or publication it started instead of
// starting them twice: each action acts once however often the run is taken over.
//
// Schedules: a SCHEDULE rule's next tick is in `nextRunAt`; the instance whose
// statement moves it to the tick after (FOR UPDATE SKIP LOCKED) queues the
// run for that tick, unique per rule and tick, so one instance fires each tick.
//
// Everything a run does is done as its rule (origin actor AUTOMATION, source
// AUTOMATION): the rule never fires on that origin, and a chain of rules
// stops at MAX_AUTOMATION_DEPTH (src/content/changes.ts).
import { Prisma } from '../generated/prisma/client.js';
import { prisma, type Db } from '../db.js';
import { logger } from '../log.js';
import { openChange, type Change } from '../content/changes.js';
import { withOrigin, type Origin } from '../content/origin.js';
import { announceChanges } from '../history/notify.js';
import { onOutboundQueued } from '../content/outbound-queue.js';
import { AppError } from '../errors.js';
import { ACTIONS, actionKey, afterCommit, type ActionLog, type RunContext } from './actions.js';
import { matchRun } from './match.js';
import { nextTick, ruleView, type RuleView } from './rules.js';
import { pruneRuns } from './runs.js';
import { PollLoop } from '../poll-loop.js';

/** Schedules are looked at at most this often (a tick is a second at the finest). */
const SCHEDULE_CHECK_MS = 500;
const PRUNE_EVERY_MS = 3_600_000;

export interface RunnerOptions {
  owner: string;
  pollMs?: number;
  leaseMs?: number;
  /** Attempts after which a run that keeps failing unexpectedly is given up. */
  maxAttempts?: number;
  /** The service's settings, for actions that need them (PUSH_TO_GIT). */
  config?: RunContext['config'];
}

interface ClaimedRun {
  id: bigint;
  ruleId: number;
  projectId: number;
  activityId: bigint | null;
  tick: Date | null;
  depth: number;
  attempts: number;
  log: ActionLog[];
  committed: boolean;
}

class LeaseLost extends Error {
  constructor() {
    super('the run was taken over by another runner');
  }
}

const runners = new Set<AutomationRunner>();

/** Wakes this instance's runners (after a change commits), so a run starts without waiting for a poll. */
export function wakeRunners(): void {
  for (const runner of runners) runner.wake();
}

export class AutomationRunner {
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly loop: PollLoop;
  private unsubscribe: (() => void) | undefined;
  private lastScheduleCheck = 0;
  private lastPrune = 0;

  constructor(private readonly options: RunnerOptions) {
    this.pollMs = options.pollMs ?? 2_000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.maxAttempts = options.maxAttempts ?? 3;
    this.loop = new PollLoop({
      failure: 'automation run failed',
      sleepMs: () => Math.min(this.pollMs, this.nextScheduleCheck()),
      round: () => this.round(),
    });
  }

  start(): void {
    runners.add(this);
    this.unsubscribe = onOutboundQueued(() => this.wake());
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    runners.delete(this);
    this.unsubscribe?.();
    await this.loop.stop();
  }

  private async round(): Promise<boolean> {
    if (Date.now() - this.lastScheduleCheck >= SCHEDULE_CHECK_MS) {
      this.lastScheduleCheck = Date.now();
      await this.fireSchedules();
    }
    if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      await pruneRuns();
    }
    const run = await this.claim();
    if (run) await this.execute(run);
    return !!run;
  }

  /** When a schedule may next fall due: soon when a rule has one, else the poll. */
  private nextScheduleCheck(): number {
    return this.hasSchedules ? SCHEDULE_CHECK_MS : this.pollMs;
  }

  private hasSchedules = false;

  /** Queues a run for every due tick of an enabled SCHEDULE rule this instance wins (one statement per rule due). */
  private async fireSchedules(): Promise<void> {
    const [scheduled] = await prisma().$queryRaw<{ any: boolean }[]>(Prisma.sql`/* automations:has-schedules */
      SELECT EXISTS (SELECT 1 FROM "AutomationRule" WHERE trigger = 'SCHEDULE' AND enabled AND "nextRunAt" <= now() + interval '1 minute') AS any`);
    this.hasSchedules = !!scheduled?.any;
    if (!this.hasSchedules) return;
    for (;;) {
      const fired = await prisma().$transaction(async (tx) => {
        const [rule] = await tx.$queryRaw<
          { id: number; projectId: number; schedule: string; nextRunAt: Date }[]
        >(Prisma.sql`/* automations:due-schedule */
          SELECT id, "projectId", schedule, "nextRunAt" FROM "AutomationRule"
           WHERE trigger = 'SCHEDULE' AND enabled AND "nextRunAt" <= now()
           ORDER BY "nextRunAt" FOR UPDATE SKIP LOCKED LIMIT 1`);
        if (!rule) return false;
        // The tick after now: ticks missed while no instance ran are not caught up one by one.
        await tx.$executeRaw(
          Prisma.sql`/* automations:next-tick */ UPDATE "AutomationRule" SET "nextRunAt" = ${nextTick(rule.schedule)} WHERE id = ${rule.id}`,
        );
        await tx.$executeRaw(Prisma.sql`/* automations:queue-tick */
          INSERT INTO "AutomationRun" ("ruleId", "projectId", tick, trigger, depth) VALUES (${rule.id}, ${rule.projectId}, ${rule.nextRunAt}, 'SCHEDULE', 1)
          ON CONFLICT DO NOTHING`);
        return true;
      });
      if (!fired) return;
    }
  }

  private async claim(): Promise<ClaimedRun | undefined> {
    const [run] = await prisma().$queryRaw<ClaimedRun[]>(Prisma.sql`/* automations:claim */
      UPDATE "AutomationRun" SET state = 'RUNNING', "leaseOwner" = ${this.options.owner},
             "leaseExpiresAt" = now() + make_interval(secs => ${this.leaseMs}::float8 / 1000), attempts = attempts + 1
       WHERE id = (SELECT id FROM "AutomationRun"
                    WHERE state = 'PENDING' OR (state = 'RUNNING' AND "leaseExpiresAt" < now())
                    ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1)
       RETURNING id, "ruleId", "projectId", "activityId", tick, depth, attempts, log, committed`);
    return run;
  }

  private async execute(run: ClaimedRun): Promise<void> {
    const row = await prisma().automationRule.findUnique({ where: { id: run.ruleId } });
    if (!row || !row.enabled) {
      await this.discard(run);
      return;
    }
    const rule = ruleView(row);
    const origin: Origin = {
      actorKind: 'AUTOMATION',
      actorId: String(rule.id),
      source: 'AUTOMATION',
      automation: { ruleId: rule.id, runId: String(run.id), depth: run.depth },
    };
    const heartbeat = setInterval(
      () => {
        void this.renew(run.id);
      },
      Math.max(200, Math.floor(this.leaseMs / 3)),
    );
    try {
      await withOrigin(origin, () => this.perform(rule, run), announceChanges);
    } catch (error) {
      if (error instanceof LeaseLost) return;
      const expected = error instanceof AppError;
      if (!expected) logger().error({ err: error, runId: String(run.id) }, 'automation run failed unexpectedly');
      // A refusal (a plan without auto-translation, an environment gone) will not change on retry; anything else is retried.
      if (expected || run.attempts >= this.maxAttempts) await this.finish(run, 'FAILED', (error as Error).message);
      else await this.release(run.id);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async perform(rule: RuleView, run: ClaimedRun): Promise<void> {
    const change =
      run.activityId === null
        ? null
        : await prisma().activity.findUnique({
            where: { id: run.activityId },
            select: { id: true, kind: true, details: true },
          });
    if (run.activityId !== null && !change) {
      await this.discard(run);
      return;
    }
    const matched = await matchRun(
      rule,
      run.projectId,
      change && { id: change.id, kind: change.kind, details: change.details as Record<string, unknown> },
    );
    // A change its filters do not admit leaves no run behind (the log lists what rules did).
    if (matched.skip) {
      await this.discard(run);
      return;
    }
    const context: RunContext = {
      projectId: run.projectId,
      ruleId: rule.id,
      runId: run.id,
      activityId: run.activityId,
      matched,
      config: this.options.config,
    };
    const log = [...run.log];
    // The commit actions and the run's bookkeeping in one transaction (a run taken over after a crash has them already).
    if (!run.committed) {
      const committed = await prisma().$transaction(async (tx) => {
        let opened: Change | undefined;
        const commitContext = {
          ...context,
          tx,
          change: async () =>
            (opened ??= await openChange(tx, run.projectId, 'AUTOMATION', {
              ruleId: rule.id,
              rule: rule.name,
              runId: String(run.id),
              trigger: rule.trigger,
            })),
        };
        const entries: ActionLog[] = [];
        for (const [index, action] of rule.actions.entries()) {
          const definition = ACTIONS[action.kind];
          if (definition.phase === 'commit')
            entries.push({ ...(await definition.commit!(commitContext, action)), index });
        }
        await this.save(tx, run.id, entries, opened?.id ?? null);
        return entries;
      });
      afterCommit(committed);
      log.push(...committed);
    }
    for (const [index, action] of rule.actions.entries()) {
      const definition = ACTIONS[action.kind];
      if (definition.phase !== 'after' || log.some((l) => l.index === index)) continue;
      let entry: ActionLog;
      try {
        entry = {
          ...(await definition.after!({ ...context, idempotencyKey: actionKey(run.id, index) }, action)),
          index,
        };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        entry = { kind: action.kind, ok: false, summary: error.message, index };
      }
      log.push(entry);
      await this.save(prisma(), run.id, log, undefined);
    }
    log.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    const failed = log.filter((l) => !l.ok);
    await this.finish(
      run,
      failed.length ? 'FAILED' : 'DONE',
      failed.length ? failed.map((l) => l.summary).join('; ') : null,
      log,
    );
  }

  /** Saves the log (and the run's change), only while this runner holds the run. */
  private async save(db: Db, runId: bigint, log: ActionLog[], changeId: bigint | null | undefined): Promise<void> {
    const updated = await db.$executeRaw(Prisma.sql`/* automations:save-log */
      UPDATE "AutomationRun" SET log = ${JSON.stringify(log)}::jsonb, committed = true${changeId !== undefined ? Prisma.sql`, "changeId" = ${changeId}::bigint` : Prisma.empty}
       WHERE id = ${runId} AND "leaseOwner" = ${this.options.owner} AND state = 'RUNNING'`);
    if (updated === 0) throw new LeaseLost();
  }

  private async finish(
    run: ClaimedRun,
    state: 'DONE' | 'FAILED',
    error: string | null,
    log?: ActionLog[],
  ): Promise<void> {
    await prisma().$executeRaw(Prisma.sql`/* automations:finish */
      UPDATE "AutomationRun" SET state = ${state}, error = ${error},${log ? Prisma.sql` log = ${JSON.stringify(log)}::jsonb,` : Prisma.empty} "finishedAt" = now(), "leaseExpiresAt" = NULL
       WHERE id = ${run.id} AND "leaseOwner" = ${this.options.owner} AND state = 'RUNNING'`);
  }

  /** A run with nothing to do (filters, a rule disabled or deleted since): removed, its unique row no longer needed. */
  private async discard(run: ClaimedRun): Promise<void> {
    await prisma().$executeRaw(Prisma.sql`/* automations:discard */
      DELETE FROM "AutomationRun" WHERE id = ${run.id} AND "leaseOwner" = ${this.options.owner} AND state = 'RUNNING'`);
  }

  private async renew(runId: bigint): Promise<void> {
    await prisma()
      .$executeRaw(
        Prisma.sql`/* automations:renew */
      UPDATE "AutomationRun" SET "leaseExpiresAt" = now() + make_interval(secs => ${this.leaseMs}::float8 / 1000)
       WHERE id = ${runId} AND "leaseOwner" = ${this.options.owner} AND state = 'RUNNING'`,
      )
      .catch(() => {});
  }

  private async release(runId: bigint): Promise<void> {
    await prisma()
      .$executeRaw(
        Prisma.sql`/* automations:release */
      UPDATE "AutomationRun" SET state = 'PENDING', "leaseOwner" = NULL, "leaseExpiresAt" = NULL
       WHERE id = ${runId} AND "leaseOwner" = ${this.options.owner} AND state = 'RUNNING'`,
      )
      .catch(() => {});
  }
}

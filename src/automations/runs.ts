// The log of a project's automation runs, and reverting one: the text its run
// wrote (its own change) and the texts its auto-translation jobs wrote go back
// in one REVERT change (src/history/revert.ts), where no one changed them since.
import { Prisma } from '../generated/prisma/client.js';
import { prisma } from '../db.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { revertChanges, type RevertResult } from '../history/revert.js';
import type { AutomationRun } from '../generated/prisma/client.js';
import type { ActionLog } from './actions.js';

export const RUN_PAGE = { defaultSize: 20, maxSize: 100 };
/** Ended runs are kept this long (as webhook deliveries), then deleted by the runner. */
export const RUN_LOG_DAYS = 30;

/** Deletes ended runs older than RUN_LOG_DAYS; returns how many. */
export async function pruneRuns(): Promise<number> {
  return prisma().$executeRaw(Prisma.sql`/* automations:prune-runs */
    DELETE FROM "AutomationRun" WHERE state IN ('DONE', 'FAILED') AND "createdAt" < now() - make_interval(days => ${RUN_LOG_DAYS})`);
}

export interface RunView {
  id: bigint;
  ruleId: number;
  ruleName: string;
  activityId: bigint | null;
  tick: Date | null;
  trigger: string;
  depth: number;
  state: string;
  attempts: number;
  log: ActionLog[];
  changeId: bigint | null;
  revertedBy: bigint | null;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

function view(run: AutomationRun & { rule: { name: string } }): RunView {
  const { rule, log, ...rest } = run;
  return { ...rest, ruleName: rule.name, log: log as unknown as ActionLog[] };
}

/** Runs of the project (or of one rule), newest first. */
export async function listRuns(
  projectId: number,
  options: { ruleId?: number | null; page?: number | null; size?: number | null },
): Promise<RunView[]> {
  const size = options.size ?? RUN_PAGE.defaultSize;
  if (size < 1 || size > RUN_PAGE.maxSize) throw badRequest(`size must be between 1 and ${RUN_PAGE.maxSize}`);
  const page = options.page ?? 0;
  if (page < 0) throw badRequest('page must not be negative');
  const rows = await prisma().automationRun.findMany({
    where: { projectId, ...(options.ruleId != null && { ruleId: options.ruleId }) },
    include: { rule: { select: { name: true } } },
    orderBy: { id: 'desc' },
    skip: page * size,
    take: size,
  });
  return rows.map(view);
}

async function getRun(projectId: number, id: bigint) {
  const run = await prisma().automationRun.findFirst({
    where: { id, projectId },
    include: { rule: { select: { name: true } } },
  });
  if (!run) throw notFound(`automation run ${id} not found`);
  return run;
}

/** Reverts what a run wrote, as one change. */
export async function revertRun(projectId: number, id: bigint): Promise<RevertResult> {
  const run = await getRun(projectId, id);
  if (run.revertedBy !== null) throw conflict(`automation run ${id} was already reverted (change ${run.revertedBy})`);
  if (run.state === 'PENDING' || run.state === 'RUNNING') throw conflict(`automation run ${id} has not ended yet`);
  const log = run.log as unknown as ActionLog[];
  const jobIds = log.flatMap((l) => l.jobIds ?? []);
  const jobs = jobIds.length
    ? await prisma().job.findMany({
        where: { id: { in: jobIds }, projectId },
        select: { id: true, state: true, checkpoint: true },
      })
    : [];
  if (jobs.some((j) => j.state === 'STARTED'))
    throw conflict(`automation run ${id} has auto-translation jobs still running; revert it once they have ended`);
  const changes = [
    ...(run.changeId !== null ? [run.changeId] : []),
    ...jobs
      .map((j) => (j.checkpoint as { activityId?: string }).activityId)
      .filter((a): a is string => !!a)
      .map(BigInt),
  ];
  if (changes.length === 0)
    throw badRequest(`automation run ${id} wrote no translation text; there is nothing to revert`);
  const result = await revertChanges(projectId, changes, { automationRunId: String(id), ruleId: run.ruleId });
  await prisma().automationRun.update({ where: { id }, data: { revertedBy: result.activityId } });
  return result;
}

export async function runView(projectId: number, id: bigint): Promise<RunView> {
  return view(await getRun(projectId, id));
}

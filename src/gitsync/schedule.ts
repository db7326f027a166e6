// Scheduled pushes: each connection's cron expression (croner), looked for
// every GIT_SCHEDULE_POLL_MS by the instances that run workers. One instance
// claims each due run (a compare-and-set of lastScheduledAt), and the
// connection's lease keeps it from overlapping another sync.
import { Cron } from 'croner';
import type { Config } from '../config.js';
import { prisma } from '../db.js';
import { logger } from '../log.js';
import { pushProjectToGit } from './push.js';

/** Claims and runs the pushes that are due; returns the projects pushed. */
export async function runDueSchedules(config: Config, now = new Date()): Promise<number[]> {
  const rows = await prisma().gitConnection.findMany({
    where: { pushSchedule: { not: null } },
    select: { id: true, projectId: true, pushSchedule: true, lastScheduledAt: true, createdAt: true },
  });
  const ran: number[] = [];
  for (const row of rows) {
    let next: Date | null;
    try {
      const cron = new Cron(row.pushSchedule!, { paused: true });
      next = cron.nextRun(row.lastScheduledAt ?? row.createdAt);
      cron.stop();
    } catch {
      continue;
    }
    if (!next || next > now) continue;
    const { count } = await prisma().gitConnection.updateMany({
      where: { id: row.id, lastScheduledAt: row.lastScheduledAt },
      data: { lastScheduledAt: now },
    });
    if (count !== 1) continue;
    try {
      await pushProjectToGit({ projectId: row.projectId, trigger: 'SCHEDULE', config });
      ran.push(row.projectId);
    } catch (error) {
      logger().warn({ projectId: row.projectId, err: (error as Error).message }, 'git sync: scheduled push failed');
    }
  }
  return ran;
}

export function startGitSchedules(config: Config): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(() => runDueSchedules(config))
      .catch((error: Error) => logger().warn({ err: error.message }, 'git sync: schedule pass failed'));
  }, config.git.schedulePollMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

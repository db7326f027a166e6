// A settled service: the background work that a scenario's own set-up started
// (the findings of an import's cells, the memory's term catch-up on
// PostgreSQL) is done, and the database's upkeep behind it (checkpoint; on
// PGlite the vacuum pass too), before anything is measured. Without it the
// set-up's work lands on the measured requests: on PGlite the findings of a
// 10,000-key × 10-language import are computed in the service's own thread's
// database for minutes after it answered, and every request measured
// meanwhile is slow (the pages and request rows of 2026-11-30).
import { memoryReleaseDue, pendingFindings } from '../../src/findings/updater.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { database, prisma } from '../../src/db.js';
import type { Figure } from './types.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every queued finding stored. */
export async function findingsDrained(): Promise<void> {
  while ((await pendingFindings()) > 0) await pause(100);
}

/**
 * The memory the findings updater gives back after a backlog (an import's
 * findings) given back: that release, a few hundred milliseconds of full
 * collections, runs in the round that finds the queue empty, just after the
 * queue's count reads 0, and landed in the first measured window
 * (docs/benchmarks.md, "Giving the memory back after an import"). Not
 * forever, should no round run.
 */
async function memoryGivenBack(): Promise<void> {
  for (let waited = 0; memoryReleaseDue() && waited < 10_000; waited += 100) await pause(100);
}

/** The translation memory's term queue (PostgreSQL only) is empty. */
async function termsCurrent(): Promise<boolean> {
  const [{ queued }] = await prisma().$queryRaw<{ queued: boolean }[]>(
    Prisma.sql`/* bench:memory-terms-queued */ SELECT EXISTS (SELECT 1 FROM "MemoryTermQueue") AS queued`,
  );
  return !queued;
}

/** Background work of the set-up done, and the database's upkeep (checkpoint, vacuum) behind it. */
export async function settle(db: Figure['db']): Promise<void> {
  await findingsDrained();
  await memoryGivenBack();
  if (db === 'postgres') {
    while (!(await termsCurrent())) await pause(100);
    await prisma().$executeRaw(Prisma.sql`CHECKPOINT`);
  } else await database().settle?.();
}

// Planner statistics of a table that a transaction grows in bulk (an import's
// keys), brought up to date inside that transaction. The statistics are the
// last ANALYZE's: a new project's keys are not in them, so the planner takes
// a statement's "the project's keys" for one row and joins two of the write
// gate's CTEs of thousands of rows each by a nested loop, comparing every
// pair (docs/benchmarks.md, "The embedded database's planner after a bulk
// write"). An ANALYZE inside the transaction counts the rows it wrote.
//
// On the embedded database only: its one connection runs one transaction at
// a time anyway, and nothing else analyzes a table before the periodic pass
// (pglite-vacuum.ts). On PostgreSQL an ANALYZE holds its table's
// SHARE UPDATE EXCLUSIVE lock until the transaction ends, which would make
// two imports of different projects wait for each other.
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import type { Database } from './client.js';

/** Tables a bulk write may analyze (the name is put into the statement). */
export type AnalyzedTable = 'TranslationKey';

/**
 * Rows below which no statistics are looked at: a join the planner gets wrong
 * for fewer rows costs less than the statement that would prevent it.
 */
const MIN_GROWTH = 1_000;

/**
 * Analyzes `table` when `grownBy` rows written since its statistics exceed
 * autovacuum's analyze rule (threshold + scale factor × the rows it had).
 * Returns whether it did; the caller counts its rows again from zero then.
 */
export async function analyzeAfterGrowth(
  db: Pick<PrismaClient, '$queryRaw' | '$executeRaw'>,
  kind: Database['kind'],
  table: AnalyzedTable,
  grownBy: number,
): Promise<boolean> {
  if (kind !== 'pglite' || grownBy < MIN_GROWTH) return false;
  const name = Prisma.raw(`"${table}"`);
  const [due] = await db.$queryRaw<{ due: boolean }[]>(Prisma.sql`/* db:analyze-due */
    SELECT ${grownBy}::float8 > current_setting('autovacuum_analyze_threshold')::float8
                                + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0) AS due
      FROM pg_class c WHERE c.oid = ${`"${table}"`}::regclass`);
  if (!due?.due) return false;
  await db.$executeRaw(Prisma.sql`/* db:analyze-grown */ ANALYZE ${name}`);
  return true;
}

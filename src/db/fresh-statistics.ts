// Planner statistics of a table that a transaction grows in bulk (the keys an
// import creates, or a v1 write with CREATE_KEY_IF_NOT_FOUND, or a v1 import,
// before the write gate writes their cells), brought up to date inside that
// transaction. The statistics are the last ANALYZE's: a new project's keys
// are not in them, so the planner takes a statement's "the project's keys"
// for one row and joins two of the write gate's CTEs of thousands of rows
// each by a nested loop, comparing every pair (docs/benchmarks.md, "The
// embedded database's planner after a bulk write"). An ANALYZE inside the
// transaction counts the rows it wrote.
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
 * Rows from which a bulk write analyzes: a join of two CTEs planned for one
 * row costs the square of their rows, negligible below a few thousand cells.
 */
export const MIN_ANALYZED_ROWS = 100;

export interface GrowingTable {
  /** Counts rows the transaction wrote; analyzes the table when they have doubled since it last did. */
  grew(rows: number): Promise<void>;
  /** ANALYZEs run so far (tests). */
  readonly analyzed: number;
}

/**
 * A table a transaction grows in bulk. Its statistics are renewed each time
 * the rows written have doubled, from MIN_ANALYZED_ROWS on: whatever the
 * table's size, the planner's count of the transaction's rows is never off by
 * more than half, at the cost of a few ANALYZEs, each reading a bounded
 * sample. Does nothing on PostgreSQL (above).
 */
export function growingTable(
  db: Pick<PrismaClient, '$executeRaw'>,
  kind: Database['kind'],
  table: AnalyzedTable,
): GrowingTable {
  let written = 0;
  let next = MIN_ANALYZED_ROWS;
  let analyzed = 0;
  return {
    async grew(rows) {
      written += rows;
      if (kind !== 'pglite' || written < next) return;
      await db.$executeRaw(Prisma.sql`/* db:analyze-grown */ ANALYZE ${Prisma.raw(`"${table}"`)}`);
      analyzed++;
      next = 2 * written;
    },
    get analyzed() {
      return analyzed;
    },
  };
}

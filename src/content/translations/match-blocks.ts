// How many cells a cell filter keeps in each block of a project's keys
// (BLOCK_KEYS keys in (namespace, key) order) and in each key of the block,
// kept in memory so that a deep filtered page reads only its own keys instead
// of walking every key before it (cells.ts). Counted on the read side, in one
// statement that also returns the snapshot it counted in; nothing is
// maintained by writes.
//
// An entry is used only inside the page's own statement, and only if no
// change of the project's content committed that the counting snapshot did
// not see (freshSql): every write of content writes its change's Activity
// row in its own transaction, and a trigger stamps the row with that
// transaction's id (the migration activity_xid). Otherwise that statement
// answers no cell, and a second one walks every key as it would without an
// entry. So a stale entry is never used, and a write costs nothing more than
// the stamp.
import { Prisma } from '../../generated/prisma/client.js';

const { sql } = Prisma;

/**
 * Keys per block. A page finds its first block by a binary search of the
 * blocks, then in each block that holds it the run of its keys by the block's
 * counts per key, read along the key index from the block's first key (fewer
 * than BLOCK_KEYS index entries skipped per block, no cell read).
 */
export const BLOCK_KEYS = 64;

/** A page starting before this many cells walks from the first key: its walk is short, no counts needed. */
export const DEEP_CELLS = 2000;

/** Entries kept (least recently used dropped first). */
const MAX_ENTRIES = 256;

/**
 * Blocks kept in all entries together, the least recently used entries
 * dropped first (one entry may hold more). A block is about 400 bytes (its
 * first key, two counts, its keys' counts as text of 130–190 bytes; 403
 * measured with keys of 40 characters), so about 25 MiB; an entry of a
 * project of 200,000 keys holds 3,125.
 */
const MAX_BLOCKS = 65_536;

/**
 * An entry is recounted after this long even if nothing changed, so that no
 * entry outlives the history's retention (which deletes Activity rows, the
 * evidence of a change) nor keeps memory for a project no longer read.
 */
const MAX_AGE_MS = 10 * 60_000;

export interface Block {
  /** The block's first key in (namespace, key) order. */
  first: [string, string];
  /** Matching cells in the block, and in the blocks before it. */
  cells: number;
  before: number;
  /** Matching cells of each key of the block in order, comma-separated (parsed only for the blocks a page reads). */
  perKey: string;
}

export interface MatchBlocks {
  /** pg_current_snapshot() of the counting statement, as text. */
  snapshot: string;
  blocks: Block[];
  countedAt: number;
}

const entries = new Map<string, MatchBlocks>();
let keptBlocks = 0;

function remove(key: string): MatchBlocks | undefined {
  const entry = entries.get(key);
  if (entry) {
    entries.delete(key);
    keptBlocks -= entry.blocks.length;
  }
  return entry;
}

// Counts belong to the database they were taken in: the freshness check compares transaction ids, which
// mean nothing in another database (test files that share a process each open their own, from one
// template; a filtered page there was answered from another database's counts: the suite, 2026-11-30).
const databaseNumbers = new WeakMap<object, number>();
let lastDatabaseNumber = 0;

/** A number of its own for each database object this process opened (part of an entry's key). */
export function databaseNumber(database: object | undefined): number {
  if (!database) return 0;
  let n = databaseNumbers.get(database);
  if (n === undefined) databaseNumbers.set(database, (n = ++lastDatabaseNumber));
  return n;
}

/** The entry for a project and filter, if there is one young enough. */
export function cachedBlocks(key: string, now = Date.now()): MatchBlocks | undefined {
  const entry = remove(key);
  if (!entry || now - entry.countedAt > MAX_AGE_MS) return undefined;
  // Again at the end of the map's order: the most recently used.
  entries.set(key, entry);
  keptBlocks += entry.blocks.length;
  return entry;
}

export function storeBlocks(key: string, entry: MatchBlocks): void {
  remove(key);
  entries.set(key, entry);
  keptBlocks += entry.blocks.length;
  while (entries.size > 1 && (entries.size > MAX_ENTRIES || keptBlocks > MAX_BLOCKS))
    remove(entries.keys().next().value!);
}

/** Forgets an entry found stale. */
export function dropBlocks(key: string): void {
  remove(key);
}

/** Forgets every entry (tests). */
export function forgetBlocks(): void {
  entries.clear();
  keptBlocks = 0;
}

/** Entries and blocks kept (tests). */
export function keptCounts(): { entries: number; blocks: number } {
  return { entries: entries.size, blocks: keptBlocks };
}

/** The rows of the counting statement (one per block, in order) as an entry. */
export function blocksOf(
  rows: { snapshot: string; ns0: string; k0: string; n: number | bigint; per_key: string }[],
): MatchBlocks {
  let before = 0;
  const blocks = rows.map((r) => {
    const block: Block = { first: [r.ns0, r.k0], cells: Number(r.n), before, perKey: r.per_key };
    before += block.cells;
    return block;
  });
  return { snapshot: rows[0]?.snapshot ?? '', blocks, countedAt: Date.now() };
}

/** The matching cells of every block. */
export function totalOf(entry: MatchBlocks): number {
  const last = entry.blocks.at(-1);
  return last ? last.before + last.cells : 0;
}

/**
 * The keys holding cells offset … offset + size - 1, from the counts: for
 * each block that holds some, the run of its keys from the first to the last
 * that does (the block's first key, the keys to skip from it, the keys to
 * read, where its keys start in `before`), and for each key of each run the
 * matching cells before it (-1 for a key without one). A page reads only
 * those runs of the key index, and no cell before its own.
 */
export interface PageKeys {
  runs: { first: [string, string]; skip: number; keys: number; base: number }[];
  before: number[];
}

export function pageKeys(entry: MatchBlocks, offset: number, size: number): PageKeys {
  const { blocks } = entry;
  // The first block that ends after the offset (blocks' ends grow: binary search).
  let lo = 0;
  let hi = blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (blocks[mid]!.before + blocks[mid]!.cells > offset) hi = mid;
    else lo = mid + 1;
  }
  const out: PageKeys = { runs: [], before: [] };
  const end = offset + size;
  for (let i = lo; i < blocks.length && blocks[i]!.before < end; i++) {
    const block = blocks[i]!;
    if (block.cells === 0) continue;
    let before = block.before;
    const run: number[] = [];
    let skip = -1;
    let kept = 0;
    const counts = block.perKey.split(',');
    for (let at = 0; at < counts.length && before < end; at++) {
      const n = Number(counts[at]);
      const held = n > 0 && before + n > offset;
      if (held && skip < 0) skip = at;
      if (skip >= 0) {
        run.push(held ? before : -1);
        if (held) kept = run.length;
      }
      before += n;
    }
    if (skip < 0) continue;
    out.runs.push({ first: block.first, skip, keys: kept, base: out.before.length });
    for (let j = 0; j < kept; j++) out.before.push(run[j]!);
  }
  return out;
}

/**
 * True in a statement whose snapshot sees no change of the project that
 * `snapshot` did not: no Activity row of the project written by a
 * transaction `snapshot` does not see. Every transaction it does not see has
 * an id at least its xmin, so the read is a range of (projectId, xid).
 */
export function freshSql(projectId: number, snapshot: string): Prisma.Sql {
  const xmin = BigInt(snapshot.split(':')[0]!);
  return sql`NOT EXISTS (SELECT 1 FROM "Activity" a WHERE a."projectId" = ${projectId} AND a.xid >= (SELECT ${xmin}::bigint)
                 AND NOT pg_visible_in_snapshot(a.xid::text::xid8, (SELECT ${snapshot}::pg_snapshot)))`;
}

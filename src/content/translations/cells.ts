// Reading translation cells. Every key has a cell in every language of its
// project: the Translation row, or an empty cell when there is none. Seen
// through a customer, a cell shows the customer's override when its text is
// not empty, and the base translation otherwise. Filters, order and pages are
// all applied in SQL.
//
// A page reads only its own rows. Cells are ordered by (namespace, key) and
// then by language order, so without a filter on the cells themselves the
// n-th cell is key n / L, language n % L (L languages): the page's keys are
// skipped to along the key index and only they are joined to their cells.
// With a filter on text or status, the keys before the page are walked in
// index order, each key's matching cells counted from a (partial) index alone
// (matchCount), to the key that holds the page's first cell; only the page's
// own keys are then read with their cells, instead of sorting every cell of
// the project. A deep page reads only its own keys, found from the number of
// matching cells in each key, counted once and kept while no change of the
// project's content commits (match-blocks.ts).
import { customerIdOf } from '../customers.js';
import { databaseIfOpen, prisma, type Db } from '../../db.js';
import { containsPattern } from '../../db/contains.js';
import { readRows } from '../../db/read-rows.js';
import { Prisma, type TranslationKey } from '../../generated/prisma/client.js';
import { checkPage, keyConnectionRows, type KeyFilter, type KeySort } from '../keys/list.js';
import {
  BLOCK_KEYS,
  DEEP_CELLS,
  blocksOf,
  cachedBlocks,
  dropBlocks,
  databaseNumber,
  freshSql,
  pageKeys,
  storeBlocks,
  totalOf,
} from './match-blocks.js';
import type { ReviewStatus } from './store.js';

const { sql, join, empty } = Prisma;

/** A cell as a page of cells shows it (the GraphQL type Translation). */
export interface CellView {
  key: string;
  namespace: string;
  language: string;
  text: string;
  reviewStatus: ReviewStatus;
  /** null for a cell that was never written. */
  lastModifiedAt: Date | null;
  /** The customer the cell is seen through (its key), null for base translations. */
  customerKey: string | null;
  /** True when the text is the customer's own override. */
  isOverride: boolean;
}

/** A cell with the id of its key, for the callers that group cells by key. */
export interface TranslationCell extends CellView {
  keyId: number;
}

export interface TranslationFilter {
  /** Contained in the text, ignoring case. */
  text?: string | null;
  textStatus?: 'EMPTY' | 'NOT_EMPTY' | null;
  reviewStatus?: ReviewStatus | null;
  key?: string | null;
  namespace?: string | null;
  language?: string | null;
  /** Show that customer's translations. */
  customerKey?: string | null;
}

export const TRANSLATION_PAGE = { defaultSize: 100, maxSize: 500 } as const;

/** A text to contain found in at most this many cells is rare: its page is read from its cells (the trigram index on PostgreSQL), no key walked. */
export const RARE_TEXT = 1000;

type Customer = { id: number; key: string } | null;

const and = (conditions: Prisma.Sql[]) => (conditions.length ? join(conditions, ' AND ') : sql`true`);

/** The project's keys that the key-level filters keep (alias k, or the one given). */
function keyConditions(projectId: number, filter: TranslationFilter, alias = 'k'): Prisma.Sql {
  const k = Prisma.raw(alias);
  const conditions = [sql`${k}."projectId" = ${projectId}`];
  if (filter.key != null) conditions.push(sql`${k}.key = ${filter.key}`);
  if (filter.namespace != null) conditions.push(sql`${k}.namespace = ${filter.namespace}`);
  return and(conditions);
}

/** The project's languages that the language filter keeps (alias l). */
function languageConditions(projectId: number, filter: TranslationFilter): Prisma.Sql {
  const conditions = [sql`l."projectId" = ${projectId}`];
  if (filter.language != null) conditions.push(sql`l.key = ${filter.language}`);
  return and(conditions);
}

/**
 * The cell of key ks and language l (both in scope): the key's id and the
 * columns a page shows (pageCell); a customer's override where it has text.
 */
function cellColumns(customer: Customer): { columns: Prisma.Sql; joins: Prisma.Sql } {
  const overrideJoin = customer
    ? sql`LEFT JOIN LATERAL (SELECT ct.text, ct."reviewStatus", ct."lastModifiedAt" FROM "CustomerTranslation" ct
           WHERE ct."keyId" = ks.id AND ct."languageId" = l.id AND ct."customerId" = ${customer.id} LIMIT 1) ct ON true`
    : empty;
  const override = customer ? sql`ct.text <> ''` : sql`false`;
  const pick = (overrideColumn: Prisma.Sql, base: Prisma.Sql) =>
    customer ? sql`CASE WHEN ${override} THEN ${overrideColumn} ELSE ${base} END` : base;
  return {
    columns: sql`ks.id AS "keyId", ks.key, ks.namespace, l.key AS language,
      ${pick(sql`ct.text`, sql`coalesce(t.text, '')`)} AS text,
      ${pick(sql`ct."reviewStatus"::text`, sql`coalesce(t."reviewStatus"::text, 'NOT_REVIEWED')`)} AS "reviewStatus",
      ${pick(sql`ct."lastModifiedAt"`, sql`t."lastModifiedAt"`)} AS "lastModifiedAt"${
        customer
          ? sql`,
      (${override}) IS TRUE AS "isOverride"`
          : empty
      }`,
    // LATERAL with LIMIT 1 (never flattened into a join): one primary-key
    // lookup per cell, whatever the planner guesses
    // of how many keys a page has (its bounds are known only at run time).
    joins: sql`LEFT JOIN LATERAL (SELECT t.text, t."reviewStatus", t."lastModifiedAt" FROM "Translation" t
                WHERE t."keyId" = ks.id AND t."languageId" = l.id LIMIT 1) t ON true ${overrideJoin}`,
  };
}

/** The filters on a cell's own text and status (over the columns of cellColumns, alias c or the one given); null when there are none. */
function cellConditions(filter: TranslationFilter, alias = 'c'): Prisma.Sql | null {
  const c = Prisma.raw(alias);
  const conditions: Prisma.Sql[] = [];
  if (filter.text != null && filter.text !== '')
    conditions.push(sql`strpos(lower(${c}.text), lower(${filter.text}::text)) > 0`);
  if (filter.textStatus === 'EMPTY') conditions.push(sql`${c}.text = ''`);
  if (filter.textStatus === 'NOT_EMPTY') conditions.push(sql`${c}.text <> ''`);
  if (filter.reviewStatus != null) conditions.push(sql`${c}."reviewStatus"::text = ${filter.reviewStatus}`);
  return conditions.length ? and(conditions) : null;
}

/**
 * A page's columns: what the page shows and nothing the service knows
 * without reading it. The ids stay out, and so do the customer's key and,
 * without a customer, "isOverride" (false): viewOf sets them. Each column is a
 * field of every row to send and decode: on the embedded database the four
 * took a 500-cell page's statement from 5.2 to 7.0 ms with PGlite's own parser
 * of answers, and about 0.25 ms more with pg-protocol's (docs/benchmarks.md,
 * "A page's columns").
 */
const pageCell = (customer: Customer, alias = 'c') => {
  const c = Prisma.raw(alias);
  return sql`${c}.key, ${c}.namespace, ${c}.language, ${c}.text, ${c}."reviewStatus", ${c}."lastModifiedAt"${customer ? sql`, ${c}."isOverride"` : empty}`;
};

/** A page's rows as cells: the customer's key, and without a customer no override (set in place: no copy of 500 rows). */
function viewOf<T extends Pick<CellView, 'customerKey' | 'isOverride'> = CellView>(
  rows: Omit<T, 'customerKey' | 'isOverride'>[],
  customer: Customer,
): T[] {
  const cells = rows as T[];
  const key = customer?.key ?? null;
  if (customer) for (const cell of cells) cell.customerKey = key;
  else
    for (const cell of cells) {
      cell.customerKey = null;
      cell.isOverride = false;
    }
  return cells;
}

async function customerOf(projectId: number, key: string | null | undefined, db: Db): Promise<Customer> {
  if (key == null || key === '') return null;
  return { id: await customerIdOf(projectId, key, db), key };
}

/**
 * The cells of the keys in `keys` (a subquery of TranslationKey columns id,
 * key, namespace) and the filtered languages, as TranslationCell columns plus
 * "languageOrder" (alias c is for the caller).
 */
function cellsOf(customer: Customer, keys: Prisma.Sql, languages: Prisma.Sql): Prisma.Sql {
  const { columns, joins } = cellColumns(customer);
  return sql`(SELECT ${columns}, l."order" AS "languageOrder" FROM ${keys} ks CROSS JOIN ${languages} l ${joins})`;
}

/**
 * The keys among `keyIds` that the key-level filters keep (columns id, key, namespace), each read by its
 * primary key. Written as `k.id = ANY(ids)` beside `k."projectId" = …`, the plan PostgreSQL keeps for a
 * named statement (made without the array's length), or one made while the project's keys were newer than
 * the table's statistics, walked the project's key index once per id: 25 ms for the 50 keys of a GraphQL
 * page at 10,000 keys. The subquery holds the lookup by id alone (OFFSET 0
 * keeps the project's condition out of it), so in any plan it reads one key row per id.
 */
const keysById = (projectId: number, filter: TranslationFilter, keyIds: number[]) =>
  sql`(SELECT k.id, k.key, k.namespace FROM unnest(${[...new Set(keyIds)]}::int[]) AS i(id)
        JOIN LATERAL (SELECT tk.id, tk.key, tk.namespace, tk."projectId" FROM "TranslationKey" tk WHERE tk.id = i.id OFFSET 0) k ON true
       WHERE ${keyConditions(projectId, filter)})`;
const languagesWhere = (projectId: number, filter: TranslationFilter) =>
  sql`(SELECT l.id, l.key, l."order" FROM "Language" l WHERE ${languageConditions(projectId, filter)})`;
const ORDER = sql`ORDER BY c.namespace, c.key, c."languageOrder", c.language`;

/**
 * Reads a statement's rows. The page's statements go through the driver
 * adapter (readRows: Prisma's query interpreter was a fifth of a filtered
 * page's CPU time, 500 rows); tests pass a reader that records them.
 */
export type RowReader = <T>(statement: Prisma.Sql) => Promise<T[]>;

/** One page of cells, ordered by namespace, key and language order. */
export async function queryTranslations(
  projectId: number,
  filter: TranslationFilter,
  page: number,
  size: number,
  read: RowReader = readRows,
): Promise<CellView[]> {
  checkPage(page, size, TRANSLATION_PAGE.maxSize);
  if (size === 0) return [];
  const customer = await customerOf(projectId, filter.customerKey, prisma());
  const offset = page * size;
  const onCells = cellConditions(filter);
  if (onCells === null) {
    // Key n / L and language n % L: skip whole keys along the key index, then
    // the first cells of the first key. The language count is an InitPlan, so
    // the skip is computed once, before the key scan starts.
    // The first key is found by an index-only skip over (namespace, key);
    // only the page's keys are then read from the table.
    const keys = keyConditions(projectId, filter);
    const pageKeys = sql`(SELECT k.id, k.key, k.namespace FROM "TranslationKey" k
       WHERE ${keys} AND (k.namespace, k.key) >= (SELECT skip.namespace, skip.key FROM "TranslationKey" skip WHERE ${keyConditions(projectId, filter, 'skip')}
                                                   ORDER BY skip.namespace, skip.key OFFSET (SELECT ${offset}::bigint / n FROM n) LIMIT 1)
       ORDER BY k.namespace, k.key
       LIMIT (SELECT (${offset}::bigint % n + ${size} + n - 1) / n FROM n))`;
    const rows = await read<CellView>(sql`/* translations:page-by-position */
      WITH langs AS MATERIALIZED ${languagesWhere(projectId, filter)},
           n AS (SELECT greatest(count(*), 1)::bigint AS n FROM langs)
      SELECT ${pageCell(customer)} FROM ${cellsOf(customer, pageKeys, sql`langs`)} c
      ${ORDER}
      OFFSET (SELECT ${offset}::bigint % n FROM n) LIMIT ${size}`);
    return viewOf(rows, customer);
  }
  // Filtered cells: walk the keys along the key index, counting each key's
  // matching cells from an index alone (matchCount), with a running sum, to
  // the key that holds the page's first cell; then only the page's keys are
  // joined to their cells, numbered in language order, and the page starts
  // at the cell whose position (cells before its key + its number) is the
  // offset. The walk is one index-only probe per key walked, never a sort of
  // the project's cells; it stops when the page is full. A deep page reads
  // only its own keys, from the counts of matching cells per key
  // (match-blocks.ts), when those are still true.
  // At most `size` keys hold the page (each kept key has a matching cell);
  // the keys are pulled one at a time, so a dense filter stops sooner.
  const { columns, joins } = cellColumns(customer);
  const walked = keyConditions(projectId, filter);
  // A text to contain: a statement that stops at RARE_TEXT + 1 cells tells a
  // rare text (in at most RARE_TEXT cells) from a common one, and for a rare
  // one answers the page from those cells, sorted (no key is walked). For a
  // common one every key is walked, and the page fills soon. PostgreSQL finds
  // the cells by its trigram index; the embedded database, which has none,
  // scans the cells until the last one or the limit: for a rare text once,
  // where walking every key tested each key's cells one probe at a time (573
  // against 332 ms for a scan of 500,000 cells, docs/benchmarks.md, "A rare
  // text on the embedded database").
  const keys = sql`(SELECT k.id, k.key, k.namespace FROM "TranslationKey" k WHERE ${walked})`;
  const blockKey = JSON.stringify([
    databaseNumber(databaseIfOpen()),
    projectId,
    filter.text ?? null,
    filter.textStatus ?? null,
    filter.reviewStatus ?? null,
    filter.key ?? null,
    filter.namespace ?? null,
    filter.language ?? null,
    customer?.id ?? null,
  ]);
  let blocks = cachedBlocks(blockKey);
  // A text its counts per block say is common needs no look at the trigram
  // index (were they stale, the page's statement walks every key: the same cells).
  const common = blocks !== undefined && totalOf(blocks) > RARE_TEXT;
  const langs = sql`langs AS MATERIALIZED ${languagesWhere(projectId, filter)}`;
  if (filter.text != null && filter.text !== '' && !customer && !common) {
    // One row at least: the page's rows, or one without a cell (key null) whose "common" says whether the text
    // is common (null on the page's rows). The cells ILIKE finds are those strpos(lower(...)) keeps (ILIKE lowers
    // both sides), so the page is the same as the walk's, and their text is not tested again (0.5 ms of a 3.2 ms
    // statement for 750 cells on PostgreSQL, 2,000,000 translations). Each cell's key is read by its primary key
    // (the subquery, as in keysById: a plan may otherwise read every key of the project to join them).
    const rows = await read<CellView & { common: boolean | null }>(sql`/* translations:rare-text-page */
      WITH ${langs},
           hits AS MATERIALIZED (SELECT h."keyId", h."languageId", h.text, h."reviewStatus", h."lastModifiedAt" FROM "Translation" h
                                  WHERE h."projectId" = ${projectId} AND h.text ILIKE ${containsPattern(filter.text)} LIMIT ${RARE_TEXT + 1}),
           common AS MATERIALIZED (SELECT count(*) > ${RARE_TEXT} AS yes FROM hits)
      SELECT ${pageCell(customer, 'p')}, CASE WHEN p.key IS NULL THEN cm.yes END AS common
        FROM common cm LEFT JOIN LATERAL (
          SELECT k.key, k.namespace, l.key AS language, t.text, t."reviewStatus"::text AS "reviewStatus", t."lastModifiedAt", l."order" AS "languageOrder"
            FROM hits t JOIN langs l ON l.id = t."languageId"
            JOIN LATERAL (SELECT tk.key, tk.namespace, tk."projectId" FROM "TranslationKey" tk WHERE tk.id = t."keyId" OFFSET 0) k ON true
           WHERE NOT cm.yes AND ${keyConditions(projectId, filter)} AND ${rowConditions({ ...filter, text: null }, 't')}
           ORDER BY k.namespace, k.key, l."order", l.key
          OFFSET ${offset} LIMIT ${size}) p ON true
       ORDER BY p.namespace, p.key, p."languageOrder", p.language`);
    if (rows[0]!.key !== null) {
      // "common" is the rows' last column: deleting the last property an object got keeps its fast shape in V8.
      for (const row of rows) delete (row as { common?: unknown }).common;
      return viewOf(rows, customer);
    }
    if (!rows[0]!.common) return [];
  }
  const count = matchCount(filter, customer);
  // The walk from the first key: the keys before the page and its own.
  const fromFirst = sql`SELECT w.id, w.key, w.namespace, w.before FROM (
        SELECT k.id, k.key, k.namespace, m.n, (sum(m.n) OVER (ORDER BY k.namespace, k.key ROWS UNBOUNDED PRECEDING))::bigint - m.n AS before
          FROM ${keys} k CROSS JOIN LATERAL (SELECT ${count} AS n OFFSET 0) m
         WHERE m.n > 0
         ORDER BY k.namespace, k.key) w
       WHERE w.before + w.n > ${offset}
       ORDER BY w.namespace, w.key
       LIMIT ${size}`;
  if (!blocks && offset >= DEEP_CELLS) {
    const B = Prisma.raw(String(BLOCK_KEYS));
    blocks = blocksOf(
      await read<Parameters<typeof blocksOf>[0][number]>(sql`/* translations:count-blocks */
      WITH ${langs}
      SELECT pg_current_snapshot()::text AS snapshot,
             max(b.namespace) FILTER (WHERE (b.rn - 1) % ${B} = 0) AS ns0, max(b.key) FILTER (WHERE (b.rn - 1) % ${B} = 0) AS k0,
             sum(b.n)::bigint AS n, string_agg(b.n::text, ',' ORDER BY b.rn) AS per_key
        FROM (SELECT k.namespace, k.key, m.n, row_number() OVER w AS rn, (row_number() OVER w - 1) / ${B} AS block
                FROM ${keys} k CROSS JOIN LATERAL (SELECT ${count} AS n OFFSET 0) m
              WINDOW w AS (ORDER BY k.namespace, k.key)) b
       GROUP BY b.block
       ORDER BY b.block`),
    );
    storeBlocks(blockKey, blocks);
  }
  // A filter only a cell with a row passes (needsRow; no customer, whose override may stand for a missing row): a
  // page's key's rows come from one scan of an index, not a probe per language (a first page of 500 cells,
  // NOT_EMPTY: 680 probes of 3 buffers each; 3,197 -> 583 buffers, the hand-written baseline's, execution 1.9 -> 1.2 ms
  // on PostgreSQL).
  const cellsOfKey =
    !customer && needsRow(filter)
      ? sql`FROM "Translation" t JOIN langs l ON l.id = t."languageId" WHERE t."keyId" = ks.id AND ${rowConditions(filter, 't')}`
      : sql`FROM langs l ${joins}`;
  const pageOf = (
    walk: Prisma.Sql,
    from: Prisma.Sql = sql`${offset}`,
    limit: Prisma.Sql = sql`${size}`,
  ) => sql`SELECT ${pageCell(customer)}, c.rank FROM (${walk}) ks
    CROSS JOIN LATERAL (
      SELECT c.*, row_number() OVER (ORDER BY c."languageOrder", c.language) AS rank
        FROM (SELECT ${columns}, l."order" AS "languageOrder" ${cellsOfKey}) c
       WHERE ${onCells}) c
    WHERE ks.before + c.rank > ${from}
    ORDER BY ks.namespace, ks.key, c.rank
    LIMIT ${limit}`;
  // The rank orders the page's rows; it is not sent.
  const walkFromFirst = async () =>
    viewOf(
      await read<CellView>(sql`/* translations:page-filtered */
      WITH ${langs} SELECT ${pageCell(customer, 'p')} FROM (${pageOf(fromFirst)}) p ORDER BY p.namespace, p.key, p.rank`),
      customer,
    );
  if (!blocks) return walkFromFirst();
  // The page's keys, from the counts per key: each run of them read along the key index from its block's first key
  // (skipping the keys before it, the index alone), with the matching cells before each key; no cell before the
  // page is read. In the page's statement, used only if no change committed since they were counted, else the
  // walk from the first key.
  // The runs' arrays are each behind a subquery: a plan made for their values (the planner counts a constant
  // array's elements) looked so much cheaper than the generic plan that PostgreSQL planned the NOT_EMPTY page's
  // statement at every run (0.4–0.5 ms); hidden, it keeps the generic plan, and the page took 0.46 ms less on
  // PostgreSQL, 0.72 on PGlite (docs/benchmarks.md, "Deep filtered pages read only their own keys"). At 200,000
  // keys the page's offset and size, the cells-before array and the counts' snapshot had the same effect on every
  // filter (0 generic plans of 12 runs), so they are behind subqueries too (freshSql; stop 72).
  const { runs, before } = pageKeys(blocks, offset, size);
  const fromCounts = sql`SELECT k.id, k.key, k.namespace, k.before
      FROM unnest((SELECT ${runs.map((r) => r.first[0])}::text[]), (SELECT ${runs.map((r) => r.first[1])}::text[]),
                  (SELECT ${runs.map((r) => r.skip)}::int[]), (SELECT ${runs.map((r) => r.keys)}::int[]), (SELECT ${runs.map((r) => r.base)}::int[]))
           AS r(ns0, k0, skip, keys, base)
      CROSS JOIN LATERAL (
        SELECT s.id, s.key, s.namespace, ((SELECT ${before}::bigint[]))[r.base + row_number() OVER (ORDER BY s.namespace, s.key)] AS before FROM (
          SELECT tk.id, tk.key, tk.namespace FROM "TranslationKey" tk
           WHERE ${keyConditions(projectId, filter, 'tk')} AND (tk.namespace, tk.key) >= (r.ns0, r.k0)
           ORDER BY tk.namespace, tk.key OFFSET r.skip LIMIT r.keys) s) k
     WHERE k.before >= 0`;
  // One row at least: the page's rows, or one without a cell (key null) whose "fresh" says whether the counts
  // were fresh (null on the page's rows: a row with a cell was read with fresh counts). Stale counts are dropped
  // and the page is read again by the walk from the first key, in a statement of its own (a snapshot of its own:
  // the page of that moment). Carrying that walk in this statement too, for the rare stale case, cost planning
  // it at every deep page.
  const rows = await read<CellView & { fresh: boolean | null }>(sql`/* translations:page-filtered-blocks */
    WITH ${langs}, fresh AS MATERIALIZED (SELECT ${freshSql(projectId, blocks.snapshot)} AS ok)
    SELECT ${pageCell(customer, 'p')}, CASE WHEN p.key IS NULL THEN fr.ok END AS fresh
      FROM fresh fr LEFT JOIN LATERAL (SELECT * FROM (${pageOf(fromCounts, sql`(SELECT ${offset}::bigint)`, sql`(SELECT ${size}::int)`)}) p0 WHERE fr.ok) p ON true
    ORDER BY p.namespace, p.key, p.rank`);
  if (rows[0]!.key === null) {
    if (rows[0]!.fresh) return [];
    dropBlocks(blockKey);
    return walkFromFirst();
  }
  // "fresh" is the rows' last column: deleting the last property an object got keeps its fast shape in V8.
  for (const row of rows) delete (row as { fresh?: unknown }).fresh;
  return viewOf(rows, customer);
}

/**
 * How many of key k's cells (in the languages of langs) the cell filters
 * keep, as an expression over k; the filters are those of cellConditions,
 * here on the Translation rows, where a cell without a row is an empty
 * NOT_REVIEWED one. The plan for each filter:
 * - textStatus NOT_EMPTY, reviewStatus REVIEWED: the key's entries in the
 *   partial index Translation_filled_idx (text <> '') or
 *   Translation_reviewed_idx, counted index-only;
 * - textStatus EMPTY, reviewStatus NOT_REVIEWED: every cell matches unless
 *   its row is in one of those indexes: the languages less the key's entries
 *   there (index-only again); both: less the rows in either (a BitmapOr);
 * - text contains (and the combinations with a text): the key's rows in
 *   the filled index, each text tested from the table (rows without text
 *   never contain a non-empty text); a rare text's page comes from its
 *   cells, found by the trigram index on PostgreSQL, by a scan on the
 *   embedded database (queryTranslations);
 * - seen through a customer, a cell is its override where that has a text,
 *   else its base: the base count above, corrected for the key's overrides
 *   with a text (one probe of CustomerTranslation's primary key per key;
 *   a key has few), each counted as itself instead of as its base.
 * The literals in the conditions are what the partial indexes' predicates
 * are proved from (a bound parameter would not prove them in a generic plan).
 */
function matchCount(filter: TranslationFilter, customer: Customer): Prisma.Sql {
  const onLanguages = filter.language != null ? sql`AND f."languageId" = ANY(ARRAY(SELECT l.id FROM langs l))` : empty;
  const rows = (condition: Prisma.Sql) =>
    sql`(SELECT count(*) FROM "Translation" f WHERE f."keyId" = k.id ${onLanguages} AND ${condition})`;
  if (customer) {
    return sql`(${matchCount(filter, null)} + (
      SELECT coalesce(sum(CASE WHEN ${cellConditions(filter, 'oc')!} THEN 1 ELSE 0 END - CASE WHEN ${cellConditions(filter, 'bc')!} THEN 1 ELSE 0 END), 0)
        FROM "CustomerTranslation" o LEFT JOIN "Translation" b ON b."keyId" = o."keyId" AND b."languageId" = o."languageId"
        CROSS JOIN LATERAL (SELECT o.text, o."reviewStatus") oc
        CROSS JOIN LATERAL (SELECT coalesce(b.text, '') AS text, coalesce(b."reviewStatus"::text, 'NOT_REVIEWED') AS "reviewStatus") bc
       WHERE o."keyId" = k.id AND o."customerId" = ${customer.id} AND o.text <> ''
         ${filter.language != null ? sql`AND o."languageId" = ANY(ARRAY(SELECT l.id FROM langs l))` : empty}))`;
  }
  if (!needsRow(filter)) {
    // An empty NOT_REVIEWED cell matches: count the rows that do not.
    const unless: Prisma.Sql[] = [];
    if (filter.textStatus === 'EMPTY') unless.push(sql`f.text <> ''`);
    if (filter.reviewStatus === 'NOT_REVIEWED') unless.push(sql`f."reviewStatus" = 'REVIEWED'`);
    return sql`((SELECT count(*) FROM langs) - ${rows(sql`(${join(unless, ' OR ')})`)})`;
  }
  return rows(rowConditions(filter, 'f'));
}

/** Whether only a cell with a Translation row passes the cell filters (a text to contain, NOT_EMPTY, REVIEWED). */
function needsRow(filter: TranslationFilter): boolean {
  return (
    (filter.text != null && filter.text !== '') ||
    filter.textStatus === 'NOT_EMPTY' ||
    filter.reviewStatus === 'REVIEWED'
  );
}

/**
 * The cell filters on the Translation rows of alias `alias`, for a filter that
 * needsRow, with the literals the partial indexes' predicates are proved from.
 */
function rowConditions(filter: TranslationFilter, alias: string): Prisma.Sql {
  const f = Prisma.raw(alias);
  const text = filter.text != null && filter.text !== '' ? filter.text : null;
  const conditions: Prisma.Sql[] = [];
  if (text !== null || filter.textStatus === 'NOT_EMPTY') conditions.push(sql`${f}.text <> ''`);
  if (text !== null) conditions.push(sql`strpos(lower(${f}.text), lower(${text}::text)) > 0`);
  if (filter.textStatus === 'EMPTY') conditions.push(sql`${f}.text = ''`);
  if (filter.reviewStatus === 'REVIEWED') conditions.push(sql`${f}."reviewStatus" = 'REVIEWED'`);
  if (filter.reviewStatus === 'NOT_REVIEWED') conditions.push(sql`${f}."reviewStatus" = 'NOT_REVIEWED'`);
  return and(conditions);
}

export async function countTranslations(
  projectId: number,
  filter: TranslationFilter,
  db: Db = prisma(),
): Promise<number> {
  const customer = await customerOf(projectId, filter.customerKey, db);
  const onCells = cellConditions(filter);
  const [row] = await db.$queryRaw<{ n: number }[]>(
    onCells === null
      ? sql`/* translations:count-by-position */
        SELECT ((SELECT count(*) FROM "TranslationKey" k WHERE ${keyConditions(projectId, filter)})
              * (SELECT count(*) FROM "Language" l WHERE ${languageConditions(projectId, filter)}))::int AS n`
      : sql`/* translations:count-filtered */
        WITH langs AS MATERIALIZED ${languagesWhere(projectId, filter)}
        SELECT coalesce(sum(m.n), 0)::int AS n FROM "TranslationKey" k CROSS JOIN LATERAL (SELECT ${matchCount(filter, customer)} AS n OFFSET 0) m
         WHERE ${keyConditions(projectId, filter)}`,
  );
  return row!.n;
}

/** The columns of a cell a read may leave out; its key's, its language and its view are always there. */
export type CellColumn = 'text' | 'reviewStatus' | 'lastModifiedAt';
export const CELL_COLUMNS: readonly CellColumn[] = ['text', 'reviewStatus', 'lastModifiedAt'];

/** A cell read with some of its columns: those left out are undefined. */
export type PartialCell = Omit<TranslationCell, CellColumn> & { [C in CellColumn]?: TranslationCell[C] };

/** What each column is for a language without a Translation row. */
const NO_ROW: { [C in CellColumn]: TranslationCell[C] } = {
  text: '',
  reviewStatus: 'NOT_REVIEWED',
  lastModifiedAt: null,
};

/**
 * A page of the keys' connection (keyConnectionRows) with each key's cells, every language of the project
 * as cellsOfKeys reads them (base translations, in language order), in the page's own statement: the GraphQL
 * read of keys and their translations in one statement instead of two (#41). Only the given columns are read.
 *
 * Each key's rows are read by the prefix of Translation's primary key (one range scan, no language joined,
 * nothing sorted), one JSON array per column so that no value is built per cell; the project's languages,
 * in their order, once for the statement (an uncorrelated subquery). The cells are laid out here: a
 * language without a row is an empty, NOT_REVIEWED, never-written cell. Against the cells as cellsOf makes
 * them (a probe per key and language, a JSON array per cell sorted per key), the statement cost the embedded
 * database 26% less CPU with every column and 40% less with the texts alone (docs/benchmarks.md, "The
 * GraphQL read, round four").
 */
export async function keyConnectionWithCells(
  projectId: number,
  filter: KeyFilter,
  sort: KeySort | null | undefined,
  request: Parameters<typeof keyConnectionRows>[3],
  columns: readonly CellColumn[] = CELL_COLUMNS,
): Promise<{ key: TranslationKey; cells: PartialCell[] }[]> {
  const read = CELL_COLUMNS.filter((column) => columns.includes(column));
  const aggregates = read.map((column) => sql`, json_agg(t.${Prisma.raw(`"${column}"`)})`);
  const extra = sql`(SELECT json_build_array(json_agg(t."languageId")${aggregates.length ? join(aggregates, '') : empty})
      FROM "Translation" t WHERE t."keyId" = p.id) AS "keyRows",
    (SELECT json_build_array(array_agg(l.id ORDER BY l."order", l.key), array_agg(l.key ORDER BY l."order", l.key))
      FROM "Language" l WHERE ${languageConditions(projectId, {})}) AS "projectLanguages"`;
  // keyRows: the language ids of the key's rows, then one array per column read (null: the key has no row).
  const rows = await keyConnectionRows<{ keyRows: unknown[][]; projectLanguages: [number[] | null, string[] | null] }>(
    projectId,
    filter,
    sort,
    request,
    extra,
  );
  if (rows.length === 0) return [];
  const [ids, names] = rows[0]!.projectLanguages;
  const languages = names ?? [];
  const position = new Map((ids ?? []).map((id, i) => [id, i]));
  // A cell without a row: every column present (one shape), undefined where it was not read.
  const text = read.includes('text') ? NO_ROW.text : undefined;
  const reviewStatus = read.includes('reviewStatus') ? NO_ROW.reviewStatus : undefined;
  const lastModifiedAt = read.includes('lastModifiedAt') ? NO_ROW.lastModifiedAt : undefined;
  return rows.map(({ keyRows, projectLanguages: _, ...key }) => {
    const cells = languages.map((language): Omit<PartialCell, 'customerKey' | 'isOverride'> => ({
      keyId: key.id,
      key: key.key,
      namespace: key.namespace,
      language,
      text,
      reviewStatus,
      lastModifiedAt,
    }));
    const [rowLanguages, ...values] = keyRows as [number[] | null, ...unknown[][]];
    rowLanguages?.forEach((languageId, j) => {
      const cell = cells[position.get(languageId) ?? -1];
      if (!cell) return;
      read.forEach((column, c) => {
        const value = values[c]![j];
        // JSON writes a timestamp without its zone; the columns hold UTC.
        if (column === 'lastModifiedAt') cell.lastModifiedAt = value == null ? null : new Date(`${value as string}Z`);
        else (cell as Record<CellColumn, unknown>)[column] = value;
      });
    });
    return { key, cells: viewOf<PartialCell>(cells, null) };
  });
}

/** Every cell of the given keys (one statement whatever their number), seen through a customer when given. */
export async function cellsOfKeys(
  projectId: number,
  keyIds: number[],
  customer: Customer,
  filter: TranslationFilter = {},
  read: RowReader = readRows,
): Promise<TranslationCell[]> {
  if (keyIds.length === 0) return [];
  const onCells = cellConditions(filter);
  const rows = await read<TranslationCell>(sql`/* translations:cells-of-keys */
    SELECT c."keyId", ${pageCell(customer)} FROM ${cellsOf(customer, keysById(projectId, filter, keyIds), languagesWhere(projectId, filter))} c
    ${onCells ? sql`WHERE ${onCells}` : empty}
    ${ORDER}`);
  return viewOf(rows, customer);
}

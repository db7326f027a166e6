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
// With a filter on text or status, the keys are walked in index order and
// each key's cells filtered until the page is full (an incremental sort keeps
// the walk in order), instead of sorting every cell of the project.
import { customerIdOf } from '../customers/customers.js';
import { prisma, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { checkPage } from '../keys/list.js';
import type { ReviewStatus } from './store.js';

const { sql, join, empty } = Prisma;

export interface TranslationCell {
  keyId: number;
  languageId: number;
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

type Customer = { id: number; key: string } | null;

const and = (conditions: Prisma.Sql[]) => (conditions.length ? join(conditions, ' AND ') : sql`true`);

/** The project's keys that the key-level filters keep (alias k, or the one given). */
function keyConditions(projectId: number, filter: TranslationFilter, keyIds?: number[], alias = 'k'): Prisma.Sql {
  const k = Prisma.raw(alias);
  const conditions = [sql`${k}."projectId" = ${projectId}`];
  if (keyIds) conditions.push(sql`${k}.id = ANY(${keyIds}::int[])`);
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
 * The cell of key ks and language l (both in scope), as the columns of a
 * TranslationCell plus the orders; a customer's override where it has text.
 */
function cellColumns(customer: Customer): { columns: Prisma.Sql; joins: Prisma.Sql } {
  const overrideJoin = customer
    ? sql`LEFT JOIN LATERAL (SELECT ct.text, ct."reviewStatus", ct."lastModifiedAt" FROM "CustomerTranslation" ct
           WHERE ct."keyId" = ks.id AND ct."languageId" = l.id AND ct."customerId" = ${customer.id} LIMIT 1) ct ON true`
    : empty;
  const override = customer ? sql`ct.text <> ''` : sql`false`;
  const pick = (overrideColumn: Prisma.Sql, base: Prisma.Sql) => (customer ? sql`CASE WHEN ${override} THEN ${overrideColumn} ELSE ${base} END` : base);
  return {
    columns: sql`ks.id AS "keyId", l.id AS "languageId", ks.key, ks.namespace, l.key AS language,
      ${pick(sql`ct.text`, sql`coalesce(t.text, '')`)} AS text,
      ${pick(sql`ct."reviewStatus"::text`, sql`coalesce(t."reviewStatus"::text, 'NOT_REVIEWED')`)} AS "reviewStatus",
      ${pick(sql`ct."lastModifiedAt"`, sql`t."lastModifiedAt"`)} AS "lastModifiedAt",
      ${customer ? sql`${customer.key}::text` : sql`NULL::text`} AS "customerKey",
      (${override}) IS TRUE AS "isOverride"`,
    // LATERAL with LIMIT 1 (never flattened into a join): one primary-key
    // lookup per cell, whatever the planner guesses
    // of how many keys a page has (its bounds are known only at run time).
    joins: sql`LEFT JOIN LATERAL (SELECT t.text, t."reviewStatus", t."lastModifiedAt" FROM "Translation" t
                WHERE t."keyId" = ks.id AND t."languageId" = l.id LIMIT 1) t ON true ${overrideJoin}`,
  };
}

/** The filters on a cell's own text and status (over the columns of cellColumns, alias c); null when there are none. */
function cellConditions(filter: TranslationFilter): Prisma.Sql | null {
  const conditions: Prisma.Sql[] = [];
  if (filter.text != null && filter.text !== '') conditions.push(sql`strpos(lower(c.text), lower(${filter.text}::text)) > 0`);
  if (filter.textStatus === 'EMPTY') conditions.push(sql`c.text = ''`);
  if (filter.textStatus === 'NOT_EMPTY') conditions.push(sql`c.text <> ''`);
  if (filter.reviewStatus != null) conditions.push(sql`c."reviewStatus" = ${filter.reviewStatus}`);
  return conditions.length ? and(conditions) : null;
}

const CELL = sql`c."keyId", c."languageId", c.key, c.namespace, c.language, c.text, c."reviewStatus", c."lastModifiedAt", c."customerKey", c."isOverride"`;

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

const keysWhere = (projectId: number, filter: TranslationFilter, keyIds?: number[]) =>
  sql`(SELECT k.id, k.key, k.namespace FROM "TranslationKey" k WHERE ${keyConditions(projectId, filter, keyIds)})`;
const languagesWhere = (projectId: number, filter: TranslationFilter) =>
  sql`(SELECT l.id, l.key, l."order" FROM "Language" l WHERE ${languageConditions(projectId, filter)})`;
const ORDER = sql`ORDER BY c.namespace, c.key, c."languageOrder", c.language`;

/** One page of cells, ordered by namespace, key and language order. */
export async function queryTranslations(projectId: number, filter: TranslationFilter, page: number, size: number, db: Db = prisma()): Promise<TranslationCell[]> {
  checkPage(page, size, TRANSLATION_PAGE.maxSize);
  if (size === 0) return [];
  const customer = await customerOf(projectId, filter.customerKey, db);
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
       WHERE ${keys} AND (k.namespace, k.key) >= (SELECT skip.namespace, skip.key FROM "TranslationKey" skip WHERE ${keyConditions(projectId, filter, undefined, 'skip')}
                                                   ORDER BY skip.namespace, skip.key OFFSET (SELECT ${offset}::bigint / n FROM n) LIMIT 1)
       ORDER BY k.namespace, k.key
       LIMIT (SELECT (${offset}::bigint % n + ${size} + n - 1) / n FROM n))`;
    return db.$queryRaw<TranslationCell[]>(sql`/* translations:page-by-position */
      WITH langs AS MATERIALIZED ${languagesWhere(projectId, filter)},
           n AS (SELECT greatest(count(*), 1)::bigint AS n FROM langs)
      SELECT ${CELL} FROM ${cellsOf(customer, pageKeys, sql`langs`)} c
      ${ORDER}
      OFFSET (SELECT ${offset}::bigint % n FROM n) LIMIT ${size}`);
  }
  // Filtered cells: walk the keys along the key index, each key's cells
  // filtered as it comes (LATERAL), so that an incremental sort on the
  // languages keeps the walk in order and stops when the page is full.
  const { columns, joins } = cellColumns(customer);
  return db.$queryRaw<TranslationCell[]>(sql`/* translations:page-filtered */
    WITH langs AS MATERIALIZED ${languagesWhere(projectId, filter)}
    SELECT ${CELL} FROM ${keysWhere(projectId, filter)} k
     CROSS JOIN LATERAL (SELECT ${columns}, l."order" AS "languageOrder" FROM (SELECT k.id, k.key, k.namespace) ks CROSS JOIN langs l ${joins}) c
     WHERE ${onCells}
     ORDER BY k.namespace, k.key, c."languageOrder", c.language
    OFFSET ${offset} LIMIT ${size}`);
}

export async function countTranslations(projectId: number, filter: TranslationFilter, db: Db = prisma()): Promise<number> {
  const customer = await customerOf(projectId, filter.customerKey, db);
  const onCells = cellConditions(filter);
  const [row] = await db.$queryRaw<{ n: number }[]>(
    onCells === null
      ? sql`/* translations:count-by-position */
        SELECT ((SELECT count(*) FROM "TranslationKey" k WHERE ${keyConditions(projectId, filter)})
              * (SELECT count(*) FROM "Language" l WHERE ${languageConditions(projectId, filter)}))::int AS n`
      : sql`/* translations:count-filtered */
        SELECT count(*)::int AS n FROM ${cellsOf(customer, keysWhere(projectId, filter), languagesWhere(projectId, filter))} c WHERE ${onCells}`,
  );
  return row!.n;
}

/** Every cell of the given keys (one statement whatever their number), seen through a customer when given. */
export async function cellsOfKeys(projectId: number, keyIds: number[], customer: Customer, filter: TranslationFilter = {}, db: Db = prisma()): Promise<TranslationCell[]> {
  if (keyIds.length === 0) return [];
  const onCells = cellConditions(filter);
  return db.$queryRaw<TranslationCell[]>(sql`/* translations:cells-of-keys */
    SELECT ${CELL} FROM ${cellsOf(customer, keysWhere(projectId, filter, keyIds), languagesWhere(projectId, filter))} c
    ${onCells ? sql`WHERE ${onCells}` : empty}
    ${ORDER}`);
}

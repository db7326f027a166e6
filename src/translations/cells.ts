// Reading translation cells. Every key has a cell in every language of its
// project: the Translation row, or an empty cell when there is none. Seen
// through a customer, a cell shows the customer's override when its text is
// not empty, and the base translation otherwise. Filters, order and pages are
// all applied in SQL.
import { customerIdOf } from '../customers/customers.js';
import { prisma, type Db } from '../db.js';
import { checkPage } from '../keys/list.js';
import type { ReviewStatus } from './store.js';

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

class Sql {
  params: unknown[] = [];
  conditions: string[] = [];
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  where(condition: string): void {
    this.conditions.push(condition);
  }
}

/**
 * The cells of a project seen as base translations (customerKey null) or
 * through one customer (its numeric id), with the filter's conditions.
 */
function cellsQuery(projectId: number, customer: { id: number; key: string } | null, filter: TranslationFilter, keyIds?: number[]): Sql & { from: string } {
  const sql = new Sql();
  const project = sql.param(projectId);
  const override = customer ? `ct.text <> ''` : 'false';
  // Without a customer there is no override table to read from.
  const pick = (overrideColumn: string, base: string) => (customer ? `CASE WHEN ${override} THEN ${overrideColumn} ELSE ${base} END` : base);
  const customerJoin = customer
    ? `LEFT JOIN "CustomerTranslation" ct ON ct."keyId" = k.id AND ct."languageId" = l.id AND ct."customerId" = ${sql.param(customer.id)}`
    : '';
  const customerKey = customer ? `${sql.param(customer.key)}::text` : 'NULL::text';
  const inner: string[] = [`k."projectId" = ${project}`];
  if (keyIds) inner.push(`k.id = ANY(${sql.param(keyIds)}::int[])`);
  if (filter.key != null) inner.push(`k.key = ${sql.param(filter.key)}`);
  if (filter.namespace != null) inner.push(`k.namespace = ${sql.param(filter.namespace)}`);
  if (filter.language != null) inner.push(`l.key = ${sql.param(filter.language)}`);
  const from = `(
    SELECT k.id AS "keyId", l.id AS "languageId", k.key, k.namespace, l.key AS language, l."order" AS "languageOrder",
           ${pick('ct.text', `coalesce(t.text, '')`)} AS text,
           ${pick('ct."reviewStatus"::text', `coalesce(t."reviewStatus"::text, 'NOT_REVIEWED')`)} AS "reviewStatus",
           ${pick('ct."lastModifiedAt"', 't."lastModifiedAt"')} AS "lastModifiedAt",
           ${customerKey} AS "customerKey",
           (${override}) IS TRUE AS "isOverride"
      FROM "TranslationKey" k
      JOIN "Language" l ON l."projectId" = k."projectId"
      LEFT JOIN "Translation" t ON t."keyId" = k.id AND t."languageId" = l.id
      ${customerJoin}
     WHERE ${inner.join(' AND ')}
  ) c`;
  if (filter.text != null && filter.text !== '') sql.where(`strpos(lower(c.text), lower(${sql.param(filter.text)}::text)) > 0`);
  if (filter.textStatus === 'EMPTY') sql.where(`c.text = ''`);
  if (filter.textStatus === 'NOT_EMPTY') sql.where(`c.text <> ''`);
  if (filter.reviewStatus != null) sql.where(`c."reviewStatus" = ${sql.param(filter.reviewStatus)}`);
  return Object.assign(sql, { from });
}

const whereClause = (sql: Sql) => (sql.conditions.length ? `WHERE ${sql.conditions.join(' AND ')}` : '');
const ORDER = `ORDER BY c.namespace, c.key, c."languageOrder", c.language`;
const COLUMNS = `c."keyId", c."languageId", c.key, c.namespace, c.language, c.text, c."reviewStatus", c."lastModifiedAt", c."customerKey", c."isOverride"`;

async function customerOf(projectId: number, key: string | null | undefined, db: Db) {
  if (key == null || key === '') return null;
  return { id: await customerIdOf(projectId, key, db), key };
}

/** One page of cells, ordered by namespace, key and language order. */
export async function queryTranslations(projectId: number, filter: TranslationFilter, page: number, size: number, db: Db = prisma()): Promise<TranslationCell[]> {
  checkPage(page, size, TRANSLATION_PAGE.maxSize);
  const sql = cellsQuery(projectId, await customerOf(projectId, filter.customerKey, db), filter);
  const limit = sql.param(size);
  const offset = sql.param(page * size);
  return db.$queryRawUnsafe<TranslationCell[]>(
    `SELECT ${COLUMNS} FROM ${sql.from} ${whereClause(sql)} ${ORDER} LIMIT ${limit} OFFSET ${offset}`,
    ...sql.params,
  );
}

export async function countTranslations(projectId: number, filter: TranslationFilter, db: Db = prisma()): Promise<number> {
  const sql = cellsQuery(projectId, await customerOf(projectId, filter.customerKey, db), filter);
  const [row] = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${sql.from} ${whereClause(sql)}`, ...sql.params);
  return row!.n;
}

/** Every cell of the given keys (one statement whatever their number), seen through a customer when given. */
export async function cellsOfKeys(projectId: number, keyIds: number[], customer: { id: number; key: string } | null, filter: TranslationFilter = {}, db: Db = prisma()): Promise<TranslationCell[]> {
  if (keyIds.length === 0) return [];
  const sql = cellsQuery(projectId, customer, filter, keyIds);
  return db.$queryRawUnsafe<TranslationCell[]>(`SELECT ${COLUMNS} FROM ${sql.from} ${whereClause(sql)} ${ORDER}`, ...sql.params);
}

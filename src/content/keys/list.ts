// Listing translation keys: exact key / namespace filters and the contract's
// sorts, paginated in SQL. The REST page and the GraphQL connection share
// these filters and orders.
import { prisma } from '../../db.js';
import { badRequest } from '../../errors.js';
import { Prisma, type TranslationKey } from '../../generated/prisma/client.js';
import { pageCountCte, pageIdsSql } from '../../db/page-ids.js';

export const KEY_SORTS = ['last_seen_at', 'modified_at', 'created_at', 'deprecated_at'] as const;
export type KeySort = (typeof KEY_SORTS)[number];

export const KEY_PAGE = { defaultSize: 100, maxSize: 2500 } as const;

export interface KeyFilter {
  key?: string | null;
  namespace?: string | null;
}

export function keyWhere(projectId: number, filter: KeyFilter = {}): Prisma.TranslationKeyWhereInput {
  return {
    projectId,
    ...(filter.key != null ? { key: filter.key } : {}),
    ...(filter.namespace != null ? { namespace: filter.namespace } : {}),
  };
}

/**
 * Without a sort: creation order (import order), oldest first. A sort puts
 * the most recent first; keys never deprecated come last for deprecated_at.
 * The id breaks ties so pages never overlap. One table for both forms below.
 */
const KEY_ORDERS: Record<KeySort | 'import', { column: string; desc: boolean; nullsLast?: boolean }> = {
  import: { column: 'importOrder', desc: false },
  last_seen_at: { column: 'lastSeenAt', desc: true },
  modified_at: { column: 'modifiedAt', desc: true },
  created_at: { column: 'createdAt', desc: true },
  deprecated_at: { column: 'deprecatedAt', desc: true, nullsLast: true },
};

/** The order as Prisma's orderBy (the GraphQL connection). */
export function keyOrderBy(sort?: KeySort | null): Prisma.TranslationKeyOrderByWithRelationInput[] {
  const { column, desc, nullsLast } = KEY_ORDERS[sort ?? 'import'];
  const direction = desc ? 'desc' : 'asc';
  const first = nullsLast ? { [column]: { sort: direction, nulls: 'last' } } : { [column]: direction };
  return [first as Prisma.TranslationKeyOrderByWithRelationInput, { id: 'asc' }];
}

/**
 * The same order as SQL over the key's own column names (the REST page's statement, below), under `alias` if
 * given; `reversed`, the exact opposite order (a page near the end is read backwards from the end).
 */
function keyOrderSql(sort: KeySort | null | undefined, { alias = '', reversed = false } = {}): Prisma.Sql {
  const { column, desc, nullsLast } = KEY_ORDERS[sort ?? 'import'];
  const prefix = alias ? `${alias}.` : '';
  const down = desc !== reversed;
  // Where nulls go, said only for the column that has them (the others keep their index's default).
  const nulls = nullsLast ? (reversed ? ' NULLS FIRST' : ' NULLS LAST') : '';
  return Prisma.raw(`${prefix}"${column}" ${down ? 'DESC' : 'ASC'}${nulls}, ${prefix}id ${reversed ? 'DESC' : 'ASC'}`);
}

/** keyWhere as SQL. */
function keyWhereSql(projectId: number, filter: KeyFilter): Prisma.Sql {
  const conditions = [Prisma.sql`"projectId" = ${projectId}`];
  if (filter.key != null) conditions.push(Prisma.sql`key = ${filter.key}`);
  if (filter.namespace != null) conditions.push(Prisma.sql`namespace = ${filter.namespace}`);
  return Prisma.join(conditions, ' AND ');
}

export function checkPage(page: number, size: number, maxSize: number): void {
  if (!Number.isInteger(page) || page < 0) throw badRequest(`page must be an integer of at least 0; got ${page}`);
  if (!Number.isInteger(size) || size < 0 || size > maxSize)
    throw badRequest(`size must be an integer between 0 and ${maxSize}; got ${size}`);
}

export interface PageMetadata {
  number: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

/**
 * The statement of one page, with the number of keys the filter keeps: one statement, so both come from one
 * snapshot. The count reads an index alone (every key of the project once). The page's ids are walked along the
 * sort's index alone (it holds the sort column and the id) from the nearer end (src/db/page-ids.ts). Only the
 * page's own rows are read from the table, by primary key (the ids handed over as an array: a join may be
 * planned as a hash join that scans the table). A page past the end is one row with the count and no key (k.id null).
 */
export function keyPageSql(
  projectId: number,
  filter: KeyFilter,
  sort: KeySort | null | undefined,
  page: number,
  size: number,
): Prisma.Sql {
  const where = keyWhereSql(projectId, filter);
  const ids = Prisma.sql`SELECT id FROM "TranslationKey" WHERE ${where}`;
  return Prisma.sql`/* keys:page */
    WITH ${pageCountCte(Prisma.sql`FROM "TranslationKey" WHERE ${where}`)}
    SELECT n.total AS "pageTotal", k.* FROM n LEFT JOIN LATERAL (
      SELECT * FROM "TranslationKey"
       WHERE id = ANY(${pageIdsSql(ids, keyOrderSql(sort), keyOrderSql(sort, { reversed: true }), page, size)})) k ON true
    ORDER BY ${keyOrderSql(sort, { alias: 'k' })}`;
}

/** One page of keys and the page metadata. */
export async function listKeyPage(
  projectId: number,
  filter: KeyFilter,
  sort: KeySort | null | undefined,
  page: number,
  size: number,
) {
  checkPage(page, size, KEY_PAGE.maxSize);
  const found = await prisma().$queryRaw<(Omit<TranslationKey, 'id'> & { id: number | null; pageTotal: number })[]>(
    keyPageSql(projectId, filter, sort, page, size),
  );
  const totalElements = found[0]!.pageTotal;
  const rows = found.filter((row) => row.id !== null).map(({ pageTotal: _, ...key }) => key as TranslationKey);
  const metadata: PageMetadata = {
    number: page,
    size,
    totalElements,
    totalPages: size === 0 ? 0 : Math.ceil(totalElements / size),
  };
  return { content: rows, page: metadata };
}

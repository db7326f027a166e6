// Listing translation keys: exact key / namespace filters and the contract's
// sorts, paginated in SQL. The REST page and the GraphQL connection share
// these filters and orders.
import { prisma } from '../../db.js';
import { badRequest } from '../../errors.js';
import { Prisma, type TranslationKey } from '../../generated/prisma/client.js';

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

/** The same order as SQL over the key's own column names (the REST page's statement, below). */
function keyOrderSql(sort?: KeySort | null): Prisma.Sql {
  const { column, desc, nullsLast } = KEY_ORDERS[sort ?? 'import'];
  return Prisma.raw(`"${column}" ${desc ? 'DESC' : 'ASC'}${nullsLast ? ' NULLS LAST' : ''}, id ASC`);
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
 * The statement of one page: the OFFSET walks the ids alone, along the sort's index (index-only: it holds the
 * sort column and the id), and only the page's own rows are read from the table, so a deep page does not read
 * every key before it. The ids are handed over as an array (looked up by primary key), not joined: a join
 * may be planned as a hash join that scans the table.
 */
export function keyPageSql(
  projectId: number,
  filter: KeyFilter,
  sort: KeySort | null | undefined,
  page: number,
  size: number,
): Prisma.Sql {
  return Prisma.sql`/* keys:page */
    SELECT * FROM "TranslationKey" WHERE id = ANY(ARRAY(SELECT id FROM "TranslationKey" WHERE ${keyWhereSql(projectId, filter)}
                                                          ORDER BY ${keyOrderSql(sort)} LIMIT ${size} OFFSET ${page * size}))
     ORDER BY ${keyOrderSql(sort)}`;
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
  const [rows, totalElements] = await Promise.all([
    prisma().$queryRaw<TranslationKey[]>(keyPageSql(projectId, filter, sort, page, size)),
    prisma().translationKey.count({ where: keyWhere(projectId, filter) }),
  ]);
  const metadata: PageMetadata = {
    number: page,
    size,
    totalElements,
    totalPages: size === 0 ? 0 : Math.ceil(totalElements / size),
  };
  return { content: rows, page: metadata };
}

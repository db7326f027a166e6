// Listing translation keys: exact key / namespace filters and the contract's
// sorts, paginated in SQL. The REST page and the GraphQL connection share
// these filters and orders.
import { readRows } from '../../db/read-rows.js';
import { badRequest } from '../../errors.js';
import { Prisma, type TranslationKey } from '../../generated/prisma/client.js';
import {
  PAGE_IDS,
  pageCtes,
  pageOrderSql,
  seekIdsSql,
  type PageList,
  type PageOrder,
  type SeekRequest,
} from '../../db/page-ids.js';

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
 * The id breaks ties so pages never overlap. The REST page and the GraphQL connection read by it.
 */
const KEY_ORDERS: Record<KeySort | 'import', PageOrder> = {
  import: { column: '"importOrder"', desc: false, idDesc: false },
  last_seen_at: { column: '"lastSeenAt"', desc: true, idDesc: false },
  modified_at: { column: '"modifiedAt"', desc: true, idDesc: false },
  created_at: { column: '"createdAt"', desc: true, idDesc: false },
  deprecated_at: { column: '"deprecatedAt"', desc: true, nullsLast: true, idDesc: false },
};

/** The order as Prisma's orderBy (the first page of the GraphQL connection). */
export function keyOrderBy(sort?: KeySort | null): Prisma.TranslationKeyOrderByWithRelationInput[] {
  const { column, desc, nullsLast } = KEY_ORDERS[sort ?? 'import'];
  const field = column.replaceAll('"', '');
  const direction = desc ? 'desc' : 'asc';
  const first = nullsLast ? { [field]: { sort: direction, nulls: 'last' } } : { [field]: direction };
  return [first as Prisma.TranslationKeyOrderByWithRelationInput, { id: 'asc' }];
}

/** The keys the filter keeps, as a list the paged reads walk (src/db/page-ids.ts). */
function keyList(projectId: number, filter: KeyFilter): PageList {
  return { table: '"TranslationKey"', alias: 'k', where: keyWhereSql(projectId, filter) };
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
 * snapshot. The page's ids are walked along the sort's index alone (it holds the sort column and the id); far
 * from the start the count goes on along it from the page's last key, so every key is read once; near the
 * start the keys are counted first (src/db/page-ids.ts; `countFirstWithin` says how near).
 * Only the page's own rows are read from the table, by primary key. A page past the end is one row with the
 * count and no key (k.id null).
 */
export function keyPageSql(
  projectId: number,
  filter: KeyFilter,
  sort: KeySort | null | undefined,
  page: number,
  size: number,
  countFirstWithin?: number,
): Prisma.Sql {
  const order = KEY_ORDERS[sort ?? 'import'];
  return Prisma.sql`/* keys:page */
    WITH ${pageCtes(keyList(projectId, filter), order, page, size, countFirstWithin)}
    SELECT n.total AS "pageTotal", k.* FROM n LEFT JOIN LATERAL (
      SELECT * FROM "TranslationKey" WHERE id = ANY(${PAGE_IDS})) k ON true
    ORDER BY ${pageOrderSql(order, 'k')}`;
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
  const found = await readRows<Omit<TranslationKey, 'id'> & { id: number | null; pageTotal: number }>(
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

/** The statement of keyConnectionIds. */
export function keyConnectionSql(
  projectId: number,
  filter: KeyFilter,
  sort: KeySort | null | undefined,
  request: SeekRequest,
): Prisma.Sql {
  return Prisma.sql`/* keys:connection */ ${seekIdsSql(keyList(projectId, filter), KEY_ORDERS[sort ?? 'import'], request)}`;
}

/**
 * The ids of a page of the keys' connection (GraphQL), in the list's order: from the cursor's key (itself
 * included, then `skip` skipped) forwards, or backwards for a negative `take`, along the sort's index
 * (src/db/page-ids.ts).
 */
export async function keyConnectionIds(
  projectId: number,
  filter: KeyFilter,
  sort: KeySort | null | undefined,
  request: SeekRequest,
): Promise<number[]> {
  const rows = await readRows<{ id: number }>(keyConnectionSql(projectId, filter, sort, request));
  const ids = rows.map((row) => row.id);
  return request.take < 0 ? ids.reverse() : ids;
}

/**
 * The keys of a page of the connection, every column, in the list's order: from either end of the list
 * (`cursorId` absent: `take` keys after `skip`, or the last `-take` for a negative take, along the sort's index),
 * or from a cursor (the ids of keyConnectionSql, then their rows by primary key). One statement read without
 * the ORM's query interpreter (src/db/read-rows.ts): for the connection's pages whose selection loads no
 * relation, where the ORM's read of 50 keys cost about as much CPU as the database's (#41).
 */
export async function keyConnectionRows<Extra extends object = object>(
  projectId: number,
  filter: KeyFilter,
  sort: KeySort | null | undefined,
  request: Omit<SeekRequest, 'cursorId'> & { cursorId?: number },
  /** Columns computed per key of the page (over its row, alias p), read in the same statement. */
  extra: Prisma.Sql = Prisma.empty,
): Promise<(TranslationKey & Extra)[]> {
  const order = KEY_ORDERS[sort ?? 'import'];
  const backward = request.take < 0;
  const { cursorId } = request;
  const page =
    cursorId === undefined
      ? Prisma.sql`SELECT k.* FROM "TranslationKey" k WHERE ${keyWhereSql(projectId, filter)}
          ORDER BY ${pageOrderSql(order, 'k', { reversed: backward })} LIMIT ${Math.abs(request.take)} OFFSET ${request.skip}`
      : Prisma.sql`SELECT k.* FROM (${keyConnectionSql(projectId, filter, sort, { ...request, cursorId })}) s
          JOIN LATERAL (SELECT * FROM "TranslationKey" WHERE id = s.id) k ON true
          ORDER BY ${pageOrderSql({ ...order, column: 'v' }, 's', { reversed: backward })}`;
  const name = cursorId === undefined ? 'connection-end' : 'connection-rows';
  // The extra columns are computed over the page's rows only (a subquery in the select list of the page's own
  // statement could be computed for every row its sort reads); a subquery in FROM keeps its order.
  const statement =
    extra === Prisma.empty
      ? Prisma.sql`${Prisma.raw(`/* keys:${name} */ `)}${page}`
      : Prisma.sql`${Prisma.raw(`/* keys:${name}-extra */ `)}SELECT p.*, ${extra} FROM (${page}) p`;
  const rows = await readRows<TranslationKey & Extra>(statement);
  return backward ? rows.reverse() : rows;
}

// One page of a list read by position (page and size), with the list's count, in one statement (one snapshot).
// Two ways to read it, both along the list's sort index (which holds the sort column and the id):
// - count first: the list is counted, then the page's ids are walked from the nearer end of the order (past
//   the middle, backwards from the last entry), so no walk passes more than half of the list;
// - count on: the page's ids are walked from the start, and the count is the page's position plus its rows
//   plus the entries after its last row, counted on from that row (ranges of the same index, found by the
//   row's sort value and id). No entry is read twice, so a page anywhere costs what the count alone costs.
// A page far from the start is read the second way, unless the list's count reads the table (see
// `countsTable`): at 200,000 keys on PostgreSQL the middle page took 14.5–18 ms against 20–24 ms counted
// first. Near the start the first way is cheaper: its count reads the smallest index, which the counts on
// along the sort's index cannot (first pages 16–18 against 17–20 ms).
// A list whose count reads the table (the activity log on PostgreSQL) is better read in two statements side
// by side on two connections, the count (countSql) and the walk from the start (walkCtes): the page costs the
// slower of the two instead of their sum.
// Used by the paged key list (src/content/keys/list.ts) and the activity log (src/history/activity-log.ts).
import { Prisma } from '../generated/prisma/client.js';

/** A list's order: a sort column, then the id to break ties, each in its own direction. */
export interface PageOrder {
  /** The sort column's SQL name (`at`, `"createdAt"`). */
  column: string;
  desc: boolean;
  /** The column may be null, and nulls come after every value. */
  nullsLast?: boolean;
  idDesc: boolean;
}

/** The list: its table under an alias, and the rows it keeps (a condition over that alias). */
export interface PageList {
  table: string;
  alias: string;
  where: Prisma.Sql;
  /**
   * The planner counts the list by reading the table (narrow rows: the activity log), which costs as much
   * for the entries after a page as for all of them: then every page is counted first.
   */
  countsTable?: boolean;
}

/** The list's table under its alias, for FROM. */
const tableOf = (list: PageList) => Prisma.raw(`${list.table} ${list.alias}`);

/** Pages that start within this many entries of the list's start are counted first. */
export const COUNT_FIRST_WITHIN = 10_000;

/** The order as an ORDER BY list over `alias`'s columns, or `reversed`, its exact opposite. */
export function pageOrderSql(order: PageOrder, alias: string, { reversed = false } = {}): Prisma.Sql {
  const nulls = order.nullsLast ? (reversed ? ' NULLS FIRST' : ' NULLS LAST') : '';
  const direction = (desc: boolean) => (desc !== reversed ? 'DESC' : 'ASC');
  return Prisma.raw(
    `${alias}.${order.column} ${direction(order.desc)}${nulls}, ${alias}.id ${direction(order.idDesc)}`,
  );
}

/**
 * The CTEs of one page: `page_rows(id)`, the page's ids, and `n(total)`, the count of the list. A page past
 * the end has no ids and the count. `countFirstWithin` (tests read both ways at any position with it).
 */
export function pageCtes(
  list: PageList,
  order: PageOrder,
  page: number,
  size: number,
  countFirstWithin = COUNT_FIRST_WITHIN,
): Prisma.Sql {
  const offset = page * size;
  return list.countsTable || offset <= countFirstWithin
    ? countFirst(list, order, offset, size)
    : countOn(list, order, offset, size);
}

/**
 * The CTE `page_rows(id)` alone: the page's ids walked from the start of the order, for a statement whose
 * count is read apart (listCountSql).
 */
export function walkCtes(list: PageList, order: PageOrder, page: number, size: number): Prisma.Sql {
  return Prisma.sql`page_rows AS MATERIALIZED (SELECT ${Prisma.raw(`${list.alias}.id`)} FROM ${tableOf(list)} WHERE ${list.where}
    ORDER BY ${pageOrderSql(order, list.alias)} LIMIT ${size} OFFSET ${page * size}::bigint)`;
}

/** The list's count as a statement of its own (`total`), for walkCtes. */
export function listCountSql(list: PageList): Prisma.Sql {
  return Prisma.sql`SELECT ${countSql(list)}::int AS total`;
}

/** The page's ids as an array, for `id = ANY(…)` (a join may be planned as a hash join that scans the table). */
export const PAGE_IDS = Prisma.sql`ARRAY(SELECT id FROM page_rows)`;

/**
 * Every count is kept in one process (its OFFSET 0): a parallel plan, workers started for every page, took
 * 3–7× as long on a loaded 2-core machine, and started them even for a range the statement then skipped.
 */
function countSql(list: PageList, condition?: Prisma.Sql): Prisma.Sql {
  const where = condition ? Prisma.sql`(${list.where}) AND ${condition}` : list.where;
  return Prisma.sql`(SELECT count(*) FROM (SELECT 1 FROM ${tableOf(list)} WHERE ${where} OFFSET 0) s)`;
}

function countFirst(list: PageList, order: PageOrder, offset: number, size: number): Prisma.Sql {
  const ids = Prisma.sql`SELECT ${Prisma.raw(`${list.alias}.id`)} FROM ${tableOf(list)} WHERE ${list.where}`;
  return Prisma.sql`n AS MATERIALIZED (SELECT ${countSql(list)}::int AS total),
    page_rows AS MATERIALIZED (SELECT unnest(CASE WHEN ${2 * offset + size}::bigint <= n.total
      THEN ARRAY(${ids} ORDER BY ${pageOrderSql(order, list.alias)} LIMIT ${size} OFFSET ${offset}::bigint)
      ELSE ARRAY(${ids} ORDER BY ${pageOrderSql(order, list.alias, { reversed: true })}
             LIMIT greatest(least(${size}, n.total - ${offset}::bigint), 0) OFFSET greatest(n.total - ${offset + size}::bigint, 0))
    END) AS id FROM n)`;
}

/**
 * Each count after the page's last row is one range of the index: later values, and the same value with
 * later ids; with nulls last, every null after a value, or the nulls with later ids after a null. A page past
 * the end (no rows) has nothing to count on from, so the list is counted whole.
 */
function countOn(list: PageList, order: PageOrder, offset: number, size: number): Prisma.Sql {
  const column = Prisma.raw(`${list.alias}.${order.column}`);
  const id = Prisma.raw(`${list.alias}.id`);
  const later = (desc: boolean) => Prisma.raw(desc ? '<' : '>');
  const value = Prisma.sql`(SELECT v FROM page_last)`;
  const laterId = Prisma.sql`${id} ${later(order.idDesc)} (SELECT id FROM page_last)`;
  let after = Prisma.sql`${countSql(list, Prisma.sql`${column} ${later(order.desc)} ${value}`)}
    + ${countSql(list, Prisma.sql`${column} = ${value} AND ${laterId}`)}`;
  // A CASE, whose counts run only when reached: a one-time filter on the scan itself passed every row
  // through one more node (4 ms of 20 at 180,000 nulls).
  if (order.nullsLast)
    after = Prisma.sql`CASE WHEN ${value} IS NULL THEN ${countSql(list, Prisma.sql`${column} IS NULL AND ${laterId}`)}
      ELSE ${after} + ${countSql(list, Prisma.sql`${column} IS NULL`)} END`;
  return Prisma.sql`page_rows AS MATERIALIZED (
      SELECT ${id} AS id, ${column} AS v FROM ${tableOf(list)} WHERE ${list.where}
       ORDER BY ${pageOrderSql(order, list.alias)} LIMIT ${size} OFFSET ${offset}::bigint),
    page_last AS MATERIALIZED (
      SELECT id, v FROM page_rows p ORDER BY ${pageOrderSql({ ...order, column: 'v' }, 'p', { reversed: true })} LIMIT 1),
    n AS MATERIALIZED (SELECT (CASE WHEN EXISTS (SELECT FROM page_rows)
      THEN ${offset}::bigint + (SELECT count(*) FROM page_rows) + ${after}
      ELSE ${countSql(list)} END)::int AS total)`;
}

/** A page of a connection (GraphQL): from a cursor's row, the rows after it (take > 0) or before it (take < 0). */
export interface SeekRequest {
  /** The id of the cursor's row. */
  cursorId: number;
  /** Rows from the cursor's row (itself included), then `skip` of them skipped. */
  take: number;
  skip: number;
}

/**
 * The ids of a connection's page (`SELECT id, v`), in the page's direction (backwards: from the cursor towards
 * the start). Each side of the cursor's row is the ordered merge of index ranges, each cut at the page's size
 * (the same value with later ids; later values; with nulls last, the nulls after a value, or the nulls with
 * later ids after a null), so the page reads its own entries wherever it is. (Prisma's cursor, `col < v OR (col = v AND id >= w)`, is no index
 * condition: it walked every key before the page, 30–470 ms at 200,000 keys.) A cursor whose row the list does
 * not keep gives no rows.
 */
export function seekIdsSql(list: PageList, order: PageOrder, { cursorId, take, skip }: SeekRequest): Prisma.Sql {
  const backward = take < 0;
  const limit = Math.abs(take) + skip;
  const from = Prisma.sql`FROM ${tableOf(list)}`;
  const column = Prisma.raw(`${list.alias}.${order.column}`);
  const id = Prisma.raw(`${list.alias}.id`);
  const direction = pageOrderSql(order, list.alias, { reversed: backward });
  const outer = pageOrderSql({ ...order, column: 'v' }, 's', { reversed: backward });
  const select = Prisma.sql`SELECT ${id} AS id, ${column} AS v ${from}`;
  // The side of the cursor's row the page is on, in the page's direction: "later" forward, "earlier" backward.
  const beyond = (desc: boolean) => Prisma.raw(desc !== backward ? '<' : '>');
  const value = Prisma.sql`(SELECT c.${Prisma.raw(order.column)} FROM ${Prisma.raw(`${list.table} c`)} WHERE c.id = ${cursorId})`;
  const sameOrBeyondId = Prisma.sql`${id} ${beyond(order.idDesc)}= ${cursorId}`;
  const idOrder = Prisma.raw(`${list.alias}.id ${order.idDesc !== backward ? 'DESC' : 'ASC'}`);
  const branch = (condition: Prisma.Sql, by: Prisma.Sql) =>
    Prisma.sql`(${select} WHERE (${list.where}) AND ${condition} ORDER BY ${by} LIMIT ${limit})`;
  const branches = [
    branch(Prisma.sql`${column} = ${value} AND ${sameOrBeyondId}`, idOrder),
    branch(Prisma.sql`${column} ${beyond(order.desc)} ${value}`, direction),
  ];
  if (order.nullsLast && !backward)
    branches.push(
      branch(Prisma.sql`${column} IS NULL AND ${value} IS NOT NULL`, idOrder),
      branch(Prisma.sql`${column} IS NULL AND ${value} IS NULL AND ${sameOrBeyondId}`, idOrder),
    );
  if (order.nullsLast && backward)
    branches.push(
      branch(Prisma.sql`${column} IS NULL AND ${value} IS NULL AND ${sameOrBeyondId}`, idOrder),
      branch(Prisma.sql`${column} IS NOT NULL AND ${value} IS NULL`, direction),
    );
  const kept = Prisma.sql`EXISTS (SELECT FROM ${tableOf(list)} WHERE ${id} = ${cursorId} AND (${list.where}))`;
  return Prisma.sql`SELECT s.id, s.v FROM (${Prisma.join(branches, ' UNION ALL ')}) s WHERE ${kept}
    ORDER BY ${outer} LIMIT ${Math.abs(take)} OFFSET ${skip}`;
}

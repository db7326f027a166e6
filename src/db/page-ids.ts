// The ids of one page of a list read by position (page and size), walked from the nearer end of the list's
// order: a page in the second half is read backwards from the last entry, with the list's count saying where,
// so no page walks more than half of the list along its index and the last page walks its own entries only.
// Shared by the paged key list (src/content/keys/list.ts) and the activity log (src/history/activity-log.ts).
import { Prisma } from '../generated/prisma/client.js';

/**
 * The count of the rows `from` (a FROM … WHERE clause) keeps, as a materialized CTE `n(total)`. Kept in one
 * process (the OFFSET 0): its parallel plan, workers started for every page, took 3–7× as long on a loaded
 * 2-core machine.
 */
export function pageCountCte(from: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`n AS MATERIALIZED (SELECT count(*)::int AS total FROM (SELECT 1 ${from} OFFSET 0) s)`;
}

/**
 * An array of the page's ids: `ids` (SELECT id FROM … WHERE …) cut in `order` or, past the middle, in
 * `reversed` (the exact opposite order) from the end; `n.total` is the count of pageCountCte.
 */
export function pageIdsSql(
  ids: Prisma.Sql,
  order: Prisma.Sql,
  reversed: Prisma.Sql,
  page: number,
  size: number,
): Prisma.Sql {
  const offset = page * size;
  return Prisma.sql`CASE WHEN ${2 * offset + size}::bigint <= n.total
    THEN ARRAY(${ids} ORDER BY ${order} LIMIT ${size} OFFSET ${offset})
    ELSE ARRAY(${ids} ORDER BY ${reversed}
                LIMIT greatest(least(${size}, n.total - ${offset}::bigint), 0) OFFSET greatest(n.total - ${offset + size}::bigint, 0))
  END`;
}

// Cell change events as stored: one CellChangeBatch row per statement that
// wrote cells, the cells as parallel arrays in the order written (one row per
// cell made the history most of a re-import's cost on PGlite). Each cell
// still has its own event id, batch id + position - 1: a batch's id is a
// multiple of 2^24 taken from its own sequence and a batch holds at most 2^24
// cells, so ids never overlap and grow with every write. Writers insert
// batches with insertCellEventsSql; readers get one row per cell from cellEventsSql,
// reading of each batch only the positions they need (array slices: a batch's
// arrays are read once per query, not once per cell).

import { Prisma } from '../generated/prisma/client.js';

/** Cells per batch at most, and the step between the ids of two new batches. */
export const BATCH_SPAN = 2 ** 24;

const SPAN = Prisma.raw(String(BATCH_SPAN));

/** An SQL expression: a fragment (a parameter is passed as Prisma.sql`${value}`). */
export type Expr = Prisma.Sql;

/**
 * An INSERT of the change events of `cells` (a SELECT with the columns ord,
 * "keyId", "languageId", "customerId", key, namespace, "oldText", "newText",
 * "oldStatus", "newStatus"; ord gives the order), as batches of `activity` in
 * `project` (SQL expressions). Returns each batch's id and cell count n.
 * One batch unless `split`: a caller whose cells may number more than
 * BATCH_SPAN splits them (grouping costs a sort; the gate's chunks are far
 * smaller and it checks that they are). `activity: 'per-cell'`: the cells
 * have a column "activityId", and each change gets its batch (a group of
 * one-cell writes, each its own change: translations/cell-groups.ts).
 */
export function insertCellEventsSql(at: {
  activity: Expr | 'per-cell';
  project: Expr;
  cells: Expr;
  split?: boolean;
}): Prisma.Sql {
  const agg = (column: string) => Prisma.raw(`array_agg(${column} ORDER BY ord)`);
  const perCell = at.activity === 'per-cell';
  const activity = perCell ? Prisma.sql`"activityId"` : (at.activity as Expr);
  return Prisma.sql`INSERT INTO "CellChangeBatch" (id, "activityId", "projectId", cells, "keyIds", "languageIds", "customerIds", keys, namespaces, "oldTexts", "newTexts", "oldStatuses", "newStatuses")
      SELECT nextval('"CellChangeBatch_seq"') * ${SPAN}, ${activity}, ${at.project}, count(*), ${agg('"keyId"')}, ${agg('"languageId"')},
             CASE WHEN bool_or("customerId" IS NOT NULL) THEN ${agg('"customerId"')} END, ${agg('key')}, ${agg('namespace')},
             ${agg('"oldText"')}, ${agg('"newText"')}, ${agg('"oldStatus"')}, ${agg('"newStatus"')}
        FROM (${at.cells}) cells
       ${perCell ? Prisma.sql`GROUP BY "activityId"` : at.split ? Prisma.sql`GROUP BY (ord - 1) / ${SPAN}` : Prisma.sql`HAVING count(*) > 0`}
      RETURNING id, cells AS n${perCell ? Prisma.sql`, "activityId"` : Prisma.empty}`;
}

/** Which events to read: batches `b` and, of each, which positions. */
export interface EventSelection {
  /** A condition on the batch `b` (and on the relations of `join`). */
  where: Expr;
  /** Relations joined to `b` before its cells are read. */
  join?: Expr;
  /** First and last position read in each batch (SQL, from 1, bounds past the end cut off); every position when omitted. */
  slice?: { from: Expr; to: Expr };
}

const ARRAYS = [
  '"keyIds"',
  '"languageIds"',
  '"customerIds"',
  'keys',
  'namespaces',
  '"oldTexts"',
  '"newTexts"',
  '"oldStatuses"',
  '"newStatuses"',
];

/**
 * One row per selected cell event: id, "activityId", "projectId", at, and the
 * cell's columns ("keyId", "languageId", "customerId", key, namespace,
 * "oldText", "newText", "oldStatus", "newStatus").
 */
export function cellEventsSql(s: EventSelection): Prisma.Sql {
  // Positions are integers within a batch; an id far past a batch's end must not overflow them.
  const position = (at: Prisma.Sql) =>
    Prisma.sql`greatest(0, least(${at}, ${Prisma.raw(String(BATCH_SPAN + 1))}))::int`;
  const from = s.slice ? position(Prisma.sql`greatest(1, ${s.slice.from})`) : Prisma.sql`1`;
  const to = s.slice ? position(s.slice.to) : undefined;
  const arrays = Prisma.join(
    ARRAYS.map((a) => (to ? Prisma.sql`b.${Prisma.raw(a)}[${from}:${to}]` : Prisma.raw(`b.${a}`))),
    ', ',
  );
  return Prisma.sql`(SELECT b.id + ${from} - 1 + e.ord - 1 AS id, b."activityId", b."projectId", b.at,
          e."keyId", e."languageId", e."customerId", e.key, e.namespace, e."oldText", e."newText", e."oldStatus", e."newStatus"
     FROM "CellChangeBatch" b ${s.join !== undefined ? s.join : Prisma.empty}
    CROSS JOIN LATERAL unnest(${arrays})
          WITH ORDINALITY AS e("keyId", "languageId", "customerId", key, namespace, "oldText", "newText", "oldStatus", "newStatus", ord)
    WHERE ${s.where})`;
}

/** Selections for cellEventsSql (arguments are SQL: a parameter is passed as Prisma.sql`${value}`). */
export const selectEvents = {
  /** Every event of a change. */
  ofActivity: (activity: Expr, project: Expr): EventSelection => ({
    where: Prisma.sql`b."activityId" = ${activity}::bigint AND b."projectId" = ${project}`,
  }),

  /**
   * The events of one cell (any customer): batches that hold both its key and
   * its language (GIN indexes), and in each, the positions of the key whose
   * language it is.
   */
  ofCell: (keyExpr: Expr, languageExpr: Expr, project: Expr): EventSelection => {
    const key = keyExpr;
    const language = languageExpr;
    return {
      join: Prisma.sql`CROSS JOIN LATERAL unnest(array_positions(b."keyIds", ${key}::int)) AS p(pos)`,
      where: Prisma.sql`b."keyIds" @> ARRAY[${key}::int] AND b."languageIds" @> ARRAY[${language}::int] AND b."projectId" = ${project} AND b."languageIds"[p.pos] = ${language}::int`,
      slice: { from: Prisma.sql`p.pos`, to: Prisma.sql`p.pos` },
    };
  },

  /** The event with id `event` (none when no batch holds it). */
  one: (eventExpr: Expr, project: Expr): EventSelection => {
    const event = eventExpr;
    return {
      where: Prisma.sql`b.id = (SELECT max(id) FROM "CellChangeBatch" WHERE id <= ${event}::bigint) AND b."projectId" = ${project}`,
      slice: { from: Prisma.sql`${event}::bigint - b.id + 1`, to: Prisma.sql`${event}::bigint - b.id + 1` },
    };
  },

  /**
   * A page of the events of the batches matching `where` (on `b`), in id
   * order: from position `from` of each batch (SQL on `b`; default 1), `skip`
   * of them skipped, then `take`. Only the batches the page falls in are
   * read, and only the page of each.
   */
  page: (where: Expr, page: { from?: Expr; skip?: Expr; take: Expr }): EventSelection => {
    const skip = Prisma.sql`(${page.skip ?? Prisma.sql`0`})::bigint`;
    const take = Prisma.sql`(${page.take})::bigint`;
    return {
      join: Prisma.sql`JOIN (
        SELECT id, lo, n, sum(n - lo + 1) OVER (ORDER BY id) - (n - lo + 1) AS before
          FROM (SELECT b.id, greatest(1, ${page.from ?? Prisma.sql`1`}::bigint) AS lo, b.cells::bigint AS n FROM "CellChangeBatch" b WHERE ${where}) x
         WHERE n >= lo
      ) r ON r.id = b.id`,
      where: Prisma.sql`r.before < ${skip} + ${take} AND r.before + r.n - r.lo + 1 > ${skip}`,
      slice: {
        from: Prisma.sql`r.lo + greatest(0, ${skip} - r.before)`,
        to: Prisma.sql`r.lo + ${skip} + ${take} - r.before - 1`,
      },
    };
  },
};

/** A condition on batches `b`: those that may hold events after event `event` of `project`. */
export const batchesAfter = (event: Expr, project: Expr): Prisma.Sql =>
  Prisma.sql`b.id >= (SELECT coalesce(max(id), 0) FROM "CellChangeBatch" WHERE id <= ${event}::bigint) AND b."projectId" = ${project}`;

/** The id of the newest event (0 when there is none). */
export const NEWEST_EVENT_ID = Prisma.sql`/* history:newest-event */ SELECT coalesce((SELECT id + cells - 1 FROM "CellChangeBatch" ORDER BY id DESC LIMIT 1), 0)::bigint AS max`;

// Reading the activity log: a project's entries newest first, paged and
// filtered in SQL, and the cells of one entry.
import { database, prisma, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { listCountSql, PAGE_IDS, pageCtes, walkCtes, type PageList, type PageOrder } from '../db/page-ids.js';
import { readRows } from '../db/read-rows.js';
import { badRequest } from '../errors.js';
import type { ChangeKind } from '../content/changes.js';
import { cellEventsSql, selectEvents, type EventSelection } from '../content/cell-events.js';
import type { ActorKind, ChangeSource } from '../content/origin.js';

export interface ActivityEntry {
  id: bigint;
  projectId: number;
  kind: ChangeKind;
  actorKind: ActorKind;
  actorId: string | null;
  /** The account's display name (its e-mail address when it has none) for ACCOUNT actors; null otherwise or when the account is gone. */
  actorName: string | null;
  /** The account's e-mail address for ACCOUNT actors. */
  actorEmail: string | null;
  source: ChangeSource;
  at: Date;
  cells: number;
  edits: number;
  details: Record<string, unknown>;
  revertOf: bigint | null;
}

export interface ActivityFilter {
  actorKind?: ActorKind | null;
  actorId?: string | null;
  kinds?: readonly ChangeKind[] | null;
  /** Entries at or after this time. */
  from?: Date | null;
  /** Entries before this time. */
  to?: Date | null;
}

export const ACTIVITY_PAGE = { defaultSize: 50, maxSize: 500 } as const;

function whereOf(projectId: number, filter: ActivityFilter): Prisma.Sql {
  const conditions = [Prisma.sql`a."projectId" = ${projectId}`];
  if (filter.actorKind) conditions.push(Prisma.sql`a."actorKind" = ${filter.actorKind}`);
  if (filter.actorId) conditions.push(Prisma.sql`a."actorId" = ${filter.actorId}`);
  if (filter.kinds?.length) conditions.push(Prisma.sql`a.kind = ANY(${filter.kinds}::text[])`);
  if (filter.from) conditions.push(Prisma.sql`a.at >= ${filter.from}::timestamp`);
  if (filter.to) conditions.push(Prisma.sql`a.at < ${filter.to}::timestamp`);
  return Prisma.join(conditions, ' AND ');
}

const ENTRY_COLUMNS = Prisma.sql`a.id, a."projectId", a.kind, a."actorKind", a."actorId", coalesce(nullif(acc.name, ''), acc.email, ar.name) AS "actorName", acc.email AS "actorEmail", a.source, a.at, a.cells, a.edits, a.details, a."revertOf"`;
// An automation's changes are named after its rule (while the rule exists).
const ACCOUNT_JOIN = Prisma.sql`LEFT JOIN "Account" acc ON a."actorKind" = 'ACCOUNT' AND acc.id::text = a."actorId"
  LEFT JOIN "AutomationRule" ar ON a."actorKind" = 'AUTOMATION' AND ar.id::text = a."actorId"`;

export function checkActivityPage(page: number, size: number): void {
  if (!Number.isInteger(page) || page < 0) throw badRequest('page must be an integer of at least 0');
  if (!Number.isInteger(size) || size < 1 || size > ACTIVITY_PAGE.maxSize)
    throw badRequest(`size must be between 1 and ${ACTIVITY_PAGE.maxSize}`);
}

/** Newest first, the newest id first among entries at the same time. */
const ACTIVITY_ORDER: PageOrder = { column: 'at', desc: true, idDesc: true };

const listOf = (projectId: number, filter: ActivityFilter): PageList => ({
  table: '"Activity"',
  alias: 'a',
  where: whereOf(projectId, filter),
  // PostgreSQL counts the log by reading the table, so its pages are counted first (or apart, listActivity). On
  // the embedded database a page far from the start is cheaper counted on from the page along the index: the
  // middle page of 200,000 entries took 21 ms against 28 counted first (the count and the page's own rows
  // read by hand: 15 ms), the first and the last the same either way (docs/benchmarks.md, "The activity log's
  // middle page on the embedded database").
  countsTable: database().kind === 'postgres',
});

/** The page's entries, newest first, from the CTE page_rows; `n`'s total as pageTotal (null when counted apart). */
const entriesSql = (
  total: Prisma.Sql,
) => Prisma.sql`SELECT ${total} AS "pageTotal", e.* FROM (SELECT 1) one LEFT JOIN LATERAL (
      SELECT ${ENTRY_COLUMNS} FROM "Activity" a ${ACCOUNT_JOIN} WHERE a.id = ANY(${PAGE_IDS})) e ON true
     ORDER BY e.at DESC, e.id DESC`;

/**
 * The statement of one page, with the number of entries the filter keeps: one statement, so both come from one
 * snapshot (PGlite, which runs one statement at a time). On PostgreSQL the entries are counted first (the planner
 * reads the table: an entry's row is narrow), then the page's ids are walked along the (projectId, at, id) index
 * alone from the nearer end (src/db/page-ids.ts; past the middle from the oldest entry forwards); on PGlite so
 * within the first 10,000 entries, and further on the page is walked from the start and the entries after it
 * counted on along the index (listOf). Only the page's own entries are read from the table, by primary key. A
 * page past the end is one row with the count and no entry (id null).
 */
export function activityPageSql(projectId: number, filter: ActivityFilter, page: number, size: number): Prisma.Sql {
  return Prisma.sql`/* history:activity */
    WITH ${pageCtes(listOf(projectId, filter), ACTIVITY_ORDER, page, size)} ${entriesSql(Prisma.sql`(SELECT total FROM n)`)}`;
}

/**
 * On PostgreSQL, a page in the first half of the log as two statements run side by side on two connections:
 * the count reads the table (16 ms at 200,000 entries) and the walk to a middle page reads half the index
 * (about as long), so one statement cost their sum (33 ms against 18 for the count and the page's own rows).
 * The two see two snapshots, a moment apart: an entry written in that moment may be counted and not paged, or
 * the reverse, as with any reader that counts and pages in two queries. The page is walked from the start.
 */
export function activityPageApartSql(projectId: number, filter: ActivityFilter, page: number, size: number) {
  const list = listOf(projectId, filter);
  return {
    page: Prisma.sql`/* history:activity-page */
      WITH ${walkCtes(list, ACTIVITY_ORDER, page, size)} ${entriesSql(Prisma.sql`NULL::int`)}`,
    count: Prisma.sql`/* history:activity-count */ ${listCountSql(list)}`,
  };
}

type EntryRow = Omit<ActivityEntry, 'id'> & { id: bigint | null; pageTotal: number | null };

/**
 * The count each list (project and filter) had when last read in this process: a page starting in its second half is
 * read in one statement, which walks it from the oldest entry (walked from the start beside the count, the
 * deepest page cost 27 ms against 22 ms). A list not read yet is read apart, then known.
 */
const knownTotals = new Map<string, number>();
const KNOWN_TOTALS = 1_000;

function rememberTotal(list: string, total: number): void {
  knownTotals.delete(list);
  knownTotals.set(list, total);
  if (knownTotals.size > KNOWN_TOTALS) knownTotals.delete(knownTotals.keys().next().value!);
}

export async function listActivity(
  projectId: number,
  filter: ActivityFilter,
  page: number,
  size: number,
): Promise<{ entries: ActivityEntry[]; total: number }> {
  checkActivityPage(page, size);
  let found: EntryRow[];
  let total: number;
  const list = JSON.stringify([projectId, filter]);
  const known = knownTotals.get(list);
  if (database().kind === 'postgres' && (known === undefined || 2 * page * size < known)) {
    const apart = activityPageApartSql(projectId, filter, page, size);
    const [rows, [count]] = await Promise.all([
      readRows<EntryRow>(apart.page),
      readRows<{ total: number }>(apart.count),
    ]);
    found = rows;
    total = count!.total;
  } else {
    found = await readRows<EntryRow>(activityPageSql(projectId, filter, page, size));
    total = found[0]!.pageTotal!;
  }
  rememberTotal(list, total);
  const entries = found.filter((row) => row.id !== null).map(({ pageTotal: _, ...entry }) => entry as ActivityEntry);
  return { entries, total };
}

export async function activityEntry(
  projectId: number,
  id: bigint,
  db: Db = prisma(),
): Promise<ActivityEntry | undefined> {
  const rows = await db.$queryRaw<ActivityEntry[]>(Prisma.sql`/* history:activity-entry */
    SELECT ${ENTRY_COLUMNS} FROM "Activity" a ${ACCOUNT_JOIN} WHERE a.id = ${id}::bigint AND a."projectId" = ${projectId}`);
  return rows[0];
}

/** One cell's change event, with where it came from. */
export interface CellEvent {
  id: bigint;
  activityId: bigint;
  keyId: number;
  languageId: number;
  customerId: number | null;
  key: string;
  namespace: string;
  /** The language key today (null when the language is gone). */
  language: string | null;
  /** The customer key today (null for base translations or a deleted customer). */
  customer: string | null;
  oldText: string | null;
  newText: string;
  oldStatus: 'REVIEWED' | 'NOT_REVIEWED' | null;
  newStatus: 'REVIEWED' | 'NOT_REVIEWED';
  at: Date;
  kind: ChangeKind;
  actorKind: ActorKind;
  actorId: string | null;
  actorName: string | null;
  actorEmail: string | null;
  source: ChangeSource;
}

export const CELL_EVENT_COLUMNS = Prisma.sql`c.id, c."activityId", c."keyId", c."languageId", c."customerId", c.key, c.namespace, l.key AS language, cu.key AS customer,
  c."oldText", c."newText", c."oldStatus"::text AS "oldStatus", c."newStatus"::text AS "newStatus", c.at,
  a.kind, a."actorKind", a."actorId", coalesce(nullif(acc.name, ''), acc.email, ar.name) AS "actorName", acc.email AS "actorEmail", a.source`;
/** The selected events (src/content/cell-events.ts) as `c`, with their activity, language, customer and account. */
export function cellEventsFromSql(selection: EventSelection): Prisma.Sql {
  return Prisma.sql`${cellEventsSql(selection)} c JOIN "Activity" a ON a.id = c."activityId"
  LEFT JOIN "Language" l ON l.id = c."languageId" LEFT JOIN "Customer" cu ON cu.id = c."customerId" ${ACCOUNT_JOIN}`;
}

/** The cells one entry wrote, in the order they were written. */
export async function cellsOfActivity(
  projectId: number,
  activityId: bigint,
  page: number,
  size: number,
  db: Db = prisma(),
): Promise<CellEvent[]> {
  checkActivityPage(page, size);
  return db.$queryRaw<CellEvent[]>(Prisma.sql`/* history:cells-of-activity */
    SELECT ${CELL_EVENT_COLUMNS} FROM ${cellEventsFromSql(selectEvents.page(Prisma.sql`b."activityId" = ${activityId}::bigint AND b."projectId" = ${projectId}`, { skip: Prisma.sql`${page * size}`, take: Prisma.sql`${size}` }))} ORDER BY c.id`);
}

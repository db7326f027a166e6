// The write gate: the one function through which every path writes
// translation text — v1 POST/PATCH, v2 PATCH and the GraphQL mutation, file
// import, auto-translation, and whatever comes later (revert, the editor).
// It applies, set-based (one statement per table per call, whatever the
// number of cells):
//   - replace or keep: new cells are inserted; existing ones replaced with
//     `replace: true`, only where empty with `replace: 'empty'`, never with
//     `replace: false`;
//   - the lock: a locked key keeps its translations (base and customer
//     overrides alike);
//   - the characters limit: a new text longer than its key's charactersLimit
//     (counted in code points) is not written;
//   - review status: given, it is set; omitted, new rows are NOT_REVIEWED and
//     existing ones keep theirs;
//   - change events: every written cell is an event of the caller's change
//     (old and new text and status), written by the same statement as one
//     batch (src/content/cell-events.ts);
//   - last-modified bookkeeping: only rows whose text or status actually
//     changes are written (lastModifiedAt, unpublished-change counts stay
//     truthful); an empty unreviewed cell is not inserted where there is no row.
// Refused cells are never written and never dropped silently: they come back
// with a reason, and each API reports them its own way. A cell the mode would
// keep anyway (an existing text without replace) is kept, not refused.
// Callers run the gate inside their transaction.
import type { Db } from '../../db.js';
import { arrayLiteral } from '../../db/array-literal.js';
import { Prisma } from '../../generated/prisma/client.js';
import {
  noteOpeningRow,
  openChangeCtesSql,
  openChangesCtesSql,
  OUTBOUND_QUEUED,
  type Change,
  type Opening,
} from '../changes.js';
import { BATCH_SPAN, insertCellEventsSql } from '../cell-events.js';
import { noteOpened } from '../origin.js';
import { touchKeysSql, type Cell } from './store.js';
import { noteWrittenKeys } from '../written-keys.js';
import { enqueueFindingsSql, noteQueued } from '../findings-queue.js';

export type RefusalReason = 'LOCKED' | 'CHARACTERS_LIMIT';

export interface Refusal {
  keyId: number;
  languageId: number;
  customerId: number | null;
  key: string;
  namespace: string;
  reason: RefusalReason;
  /** Characters of the refused text. */
  length: number;
  charactersLimit: number | null;
}

export interface GateResult {
  inserted: number;
  updated: number;
  /** Refused cells per reason (exact counts). */
  refused: Record<RefusalReason, number>;
  /** The refused cells, in input order, at most `listRefusals` of them. */
  refusals: Refusal[];
}

export interface GateOptions {
  replace: boolean | 'empty';
  /** The change (activity) the written cells are recorded in, opened by the caller in the same transaction. */
  change: Change;
  /** How many refused cells to list (the counts are always exact); default 100. */
  listRefusals?: number;
  /**
   * The change is opened by the gate's own statement, with these parameters
   * (openChangeParams): one statement for a whole write, no transaction needed.
   */
  opening?: Opening;
  /**
   * With `opening`: keys whose last-seen time the same statement sets (v1
   * POST's rule 2, touchKeysSql), so that a write of existing keys is one
   * statement.
   */
  touchKeyIds?: number[];
  /** Parts of the gate's work left out; the service leaves them all in (ALL_PARTS). */
  parts?: GateParts;
}

/**
 * What the gate does besides writing the cells. Only the benchmarks' baselines
 * leave a part out, to measure what it costs a write (bench/scenarios/history.ts,
 * findings.ts, translation-memory.ts).
 */
export interface GateParts {
  /**
   * The cells' change events, and the existing-row lookup they need (off: the
   * gate as it was before change events). A statement that opens its change
   * (a one-table v1 or one-cell write) keeps them.
   */
  cellEvents: boolean;
  /** Queuing the written cells for the quality checks (findings-queue.ts); needs the events. */
  findingsQueue: boolean;
  /** Noting the written keys for the translation memory's in-process index (written-keys.ts). */
  writtenKeyNotes: boolean;
}

/** The gate as the service runs it. */
export const ALL_PARTS: GateParts = Object.freeze({ cellEvents: true, findingsQueue: true, writtenKeyNotes: true });

/** Refused cells listed by default; counts are exact whatever this is. */
export const DEFAULT_LISTED_REFUSALS = 100;

/** An empty, unreviewed cell is the same as no row: writing one where there is no row changes nothing. */
const WORTH_A_ROW = Prisma.sql`(text <> '' OR coalesce(status, 'NOT_REVIEWED') <> 'NOT_REVIEWED')`;

/**
 * The rules as one SQL expression: the refusal of a cell (NULL, 'LOCKED' or
 * 'CHARACTERS_LIMIT'), given its key row, its new text, its existing row (a
 * left join: NULL columns when there is none) and the mode. The gate's
 * statement applies it; update-one.ts asks it ahead of its batch, so that a
 * refused one-cell write opens no change.
 */
export function refusalSql(at: { key: 'k'; text: Prisma.Sql; existing: 'x' | 'e'; mode: Prisma.Sql }): Prisma.Sql {
  const [k, x] = [Prisma.raw(at.key), Prisma.raw(at.existing)];
  const { text, mode } = at;
  return Prisma.sql`CASE
               WHEN ${freeOfRulesSql(at.key, text)} THEN NULL
               WHEN ${x}."keyId" IS NOT NULL AND NOT (${mode} = 'always' OR (${mode} = 'empty' AND ${x}.text = '')) THEN NULL
               WHEN ${k}.lock THEN 'LOCKED'
               WHEN ${text} IS DISTINCT FROM ${x}.text THEN 'CHARACTERS_LIMIT'
             END`;
}

/** The first case of refusalSql: a cell of an unlocked key within its limit is written whatever its existing row. */
function freeOfRulesSql(key: 'k', text: Prisma.Sql): Prisma.Sql {
  const k = Prisma.raw(key);
  return Prisma.sql`NOT ${k}.lock AND (${k}."charactersLimit" IS NULL OR char_length(${text}) <= ${k}."charactersLimit")`;
}

/**
 * Each input cell's key row, by its primary key. A subquery of its own
 * (OFFSET 0 keeps the planner from flattening it into a join): the input is
 * an array whose length the plan cannot know, and a table without statistics
 * (before its first ANALYZE) or a generic plan of the named statement
 * otherwise got a scan of every key of the project, hashed, for one cell
 * (0.3–0.45 ms at 2,000 keys, growing with the project).
 */
function keyOfCellSql(project: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`JOIN LATERAL (SELECT k.id, k.key, k.namespace, k."charactersLimit", k.lock FROM "TranslationKey" k
                     WHERE k.id = i.key_id AND k."projectId" = ${project} OFFSET 0) k ON true`;
}

interface Table {
  name: Prisma.Sql;
  /** Extra key column of the table (the customer), or none. */
  customer: boolean;
}

/** What one gate statement writes: the input arrays (array literals) and the settings. */
interface GateInput {
  projectId: number;
  /** The cells, deduplicated; customer ids only for CustomerTranslation. */
  cells: readonly Cell[];
  /** Whether any status is given (otherwise existing rows keep theirs). */
  anyStatus: boolean;
  mode: 'always' | 'empty' | 'never';
  /** How many refusals to list (null: all). */
  listed: number | null;
  change: bigint;
  /** The statement opens the change itself, with these values (openChangeParams). */
  opening?: Opening;
  /** With `opening` or `openings`: keys whose last-seen time the statement sets. */
  touchKeyIds?: readonly number[];
  /**
   * A group of one-cell writes, each its own change (cell-groups.ts): the
   * change each cell opens, in the order of `cells`. The statement answers a
   * row per cell, what the cell's write alone would have answered.
   */
  openings?: readonly Opening[];
  /**
   * With `openings`: the group's writes as the statement looks them up itself
   * (namedGroupGateSql); `cells` is then unused.
   */
  looked?: Prisma.Sql;
  /** With `looked`: the statement also sets the last-seen time of the keys it writes (v1 POST's rule 2). */
  touchLooked?: boolean;
  parts: GateParts;
}

/** Whether the statement writes the cells' change events (always when it opens the change). */
const writesEvents = (input: Pick<GateInput, 'opening' | 'openings' | 'parts'>) =>
  input.parts.cellEvents || input.opening !== undefined || input.openings !== undefined;

/**
 * The cells as rows (key_id, language_id[, customer_id], text, status, ord).
 * One cell is a row of scalar parameters, not an unnest of one-element
 * arrays: PostgreSQL estimates an unnest of a parameter at 100 rows, so the
 * generic plan of a prepared statement looked dearer than a plan made for a
 * one-element array, and the gate of a one-cell write was planned again at
 * every execution (about 1 ms of the database's CPU; docs/benchmarks.md, "The
 * write gate's plans"). With one row in every plan the generic one is kept.
 */
function inputSql(
  table: Table,
  cells: readonly Cell[],
  openings?: readonly Opening[],
  looked?: Prisma.Sql,
): Prisma.Sql {
  const customerColumn = table.customer ? Prisma.sql`, customer_id` : Prisma.empty;
  if (looked) {
    // The writes that go ahead, in key order (as cell-groups.ts sorts its groups): their rows are locked in one order.
    return Prisma.sql`SELECT key_id, language_id, text, status, change, ord FROM looked WHERE change IS NOT NULL ORDER BY key_id, language_id`;
  }
  if (openings) {
    // A group: each cell with the change it opens (its id, taken by the write's lookup).
    if (table.customer) throw new Error('a group of one-cell writes writes base cells');
    return Prisma.sql`SELECT * FROM unnest(${arrayLiteral(cells, (c) => c.keyId)}::int[], ${arrayLiteral(cells, (c) => c.languageId)}::int[], ${arrayLiteral(cells, (c) => c.text)}::text[], ${arrayLiteral(cells, (c) => c.reviewStatus ?? null)}::text[], ${arrayLiteral(openings, (o) => String(o[0] as bigint))}::bigint[]) WITH ORDINALITY
        AS t(key_id, language_id, text, status, change, ord)`;
  }
  if (cells.length === 1) {
    const [c] = cells as [Cell];
    const customer = table.customer ? Prisma.sql`, ${c.customerId}::int AS customer_id` : Prisma.empty;
    return Prisma.sql`SELECT ${c.keyId}::int AS key_id, ${c.languageId}::int AS language_id${customer}, ${c.text}::text AS text, ${c.reviewStatus ?? null}::text AS status, 1::bigint AS ord`;
  }
  const customers = table.customer ? Prisma.sql`, ${arrayLiteral(cells, (c) => c.customerId)}::int[]` : Prisma.empty;
  return Prisma.sql`SELECT * FROM unnest(${arrayLiteral(cells, (c) => c.keyId)}::int[], ${arrayLiteral(cells, (c) => c.languageId)}::int[]${customers}, ${arrayLiteral(cells, (c) => c.text)}::text[], ${arrayLiteral(cells, (c) => c.reviewStatus ?? null)}::text[]) WITH ORDINALITY
        AS t(key_id, language_id${customerColumn}, text, status, ord)`;
}

/**
 * One statement: the input rows, the rules (refusal per cell), the write of
 * the accepted cells, and the counts.
 */
function gateSql(table: Table, input: GateInput): Prisma.Sql {
  const events = writesEvents(input);
  // A customer's override is checked like a base cell: its key is queued the same way.
  const findings = events && input.parts.findingsQueue;
  const project = Prisma.sql`${input.projectId}::int`;
  const mode = Prisma.sql`${input.mode}::text`;
  const anyStatus = Prisma.sql`${input.anyStatus}::boolean`;
  const change = Prisma.sql`${input.change}::bigint`;
  const customerColumn = table.customer ? Prisma.sql`, customer_id` : Prisma.empty;
  const customerMatch = table.customer ? Prisma.sql` AND x."customerId" = i.customer_id` : Prisma.empty;
  const conflict = table.customer
    ? Prisma.sql`("keyId", "languageId", "customerId")`
    : Prisma.sql`("keyId", "languageId")`;
  const customerOut = table.customer ? Prisma.sql`, "customerId"` : Prisma.empty;
  const group = input.openings;
  const looked = input.looked;
  const name = looked
    ? input.touchLooked
      ? 'translations:gate-named-touch'
      : 'translations:gate-named'
    : group
      ? 'translations:gate-group'
      : 'translations:gate';
  return Prisma.sql`/* ${Prisma.raw(name)} */ WITH ${looked ? Prisma.sql`looked AS MATERIALIZED (${looked}), ` : Prisma.empty}input AS (
      ${inputSql(table, input.cells, group, looked)}
    ), checked AS (${
      events
        ? Prisma.sql`
      -- The existing row (one primary-key lookup per cell) decides refusals and is the old value of the change event.
      SELECT i.*, k.key AS key_name, k.namespace AS key_namespace, k."charactersLimit" AS chars_limit, char_length(i.text) AS length,
             x."keyId" IS NOT NULL AS had_row, x.text AS old_text, x."reviewStatus" AS old_status,
             ${refusalSql({ key: 'k', text: Prisma.sql`i.text`, existing: 'x', mode })} AS refusal
        FROM input i
        ${keyOfCellSql(project)}
        LEFT JOIN ${table.name} x ON x."keyId" = i.key_id AND x."languageId" = i.language_id${customerMatch}`
        : Prisma.sql`
      -- Without events, only a cell of a locked key or with a text over the limit looks at the existing row.
      SELECT i.*, k.key AS key_name, k.namespace AS key_namespace, k."charactersLimit" AS chars_limit, char_length(i.text) AS length,
             CASE
               WHEN ${freeOfRulesSql('k', Prisma.sql`i.text`)} THEN NULL
               ELSE (SELECT ${refusalSql({ key: 'k', text: Prisma.sql`i.text`, existing: 'x', mode })}
                       FROM (SELECT 1) AS one
                       LEFT JOIN ${table.name} x ON x."keyId" = i.key_id AND x."languageId" = i.language_id${customerMatch})
             END AS refusal
        FROM input i
        ${keyOfCellSql(project)}`
    }
    ), written AS (
      INSERT INTO ${table.name} AS tr ("keyId", "languageId"${customerOut}, "projectId", text, "reviewStatus", "lastModifiedAt")
      SELECT key_id, language_id${customerColumn}, ${project}, text, coalesce(status, 'NOT_REVIEWED')::"ReviewStatus", now() FROM checked
       WHERE refusal IS NULL
         AND (${WORTH_A_ROW} OR ${
           events
             ? Prisma.sql`had_row`
             : Prisma.sql`EXISTS (SELECT 1 FROM ${table.name} x WHERE x."keyId" = key_id AND x."languageId" = language_id${table.customer ? Prisma.sql` AND x."customerId" = customer_id` : Prisma.empty})`
         })
      ON CONFLICT ${conflict} DO UPDATE
        SET text = EXCLUDED.text,
            "reviewStatus" = CASE WHEN ${anyStatus} THEN EXCLUDED."reviewStatus" ELSE tr."reviewStatus" END,
            "lastModifiedAt" = now()
        WHERE (${mode} = 'always' OR (${mode} = 'empty' AND tr.text = ''))
          AND (tr.text IS DISTINCT FROM EXCLUDED.text OR (${anyStatus} AND tr."reviewStatus" IS DISTINCT FROM EXCLUDED."reviewStatus"))
      RETURNING "keyId", "languageId"${customerOut}, text, "reviewStatus", "lastModifiedAt", (xmax = 0) AS inserted
    )${
      events
        ? Prisma.sql`, events AS (
      -- The change events of the written cells (src/content/cell-events.ts), in this same statement.
      ${insertCellEventsSql({
        activity: group ? 'per-cell' : change,
        project,
        cells: Prisma.sql`
        SELECT c.ord,${group ? Prisma.sql` c.change AS "activityId",` : Prisma.empty} w."keyId", w."languageId", ${table.customer ? Prisma.sql`w."customerId"` : Prisma.sql`NULL::int`} AS "customerId", c.key_name AS key, c.key_namespace AS namespace,
               c.old_text AS "oldText", w.text AS "newText", c.old_status AS "oldStatus", w."reviewStatus" AS "newStatus"
          FROM written w JOIN checked c ON c.key_id = w."keyId" AND c.language_id = w."languageId"${table.customer ? Prisma.sql` AND c.customer_id = w."customerId"` : Prisma.empty}`,
      })}
    )`
        : Prisma.empty
    }${
      findings
        ? Prisma.sql`, findings_queued AS (
      ${enqueueFindingsSql(project, group !== undefined)}
    )`
        : Prisma.empty
    }, ${(input.opening || group) && input.touchKeyIds?.length ? Prisma.sql`touched AS (${touchKeysSql(input.projectId, input.touchKeyIds)}), ` : Prisma.empty}${
      looked && input.touchLooked
        ? Prisma.sql`touched AS (${touchKeysSql(input.projectId, Prisma.sql`(SELECT key_id FROM input)`)}), `
        : Prisma.empty
    }${
      group
        ? openChangesCtesSql(
            group,
            // Each change's cell count: its batch of events (none when its cell was not written).
            (id) => Prisma.sql`coalesce((SELECT e.n FROM events e WHERE e."activityId" = ${id}), 0)::int`,
            looked ? Prisma.sql`input` : undefined,
          )
        : input.opening
          ? openChangeCtesSql(input.opening, {
              // The change is opened here, with its cell count (its events are written by the CTEs above).
              cells: Prisma.sql`(SELECT count(*)::int FROM written)`,
            })
          : Prisma.sql`counted AS (
      -- The change's cell count.
      UPDATE "Activity" SET cells = cells + (SELECT count(*)::int FROM written) WHERE id = ${change}
    )`
    }
    ${
      group
        ? groupAnswerSql(looked !== undefined)
        : Prisma.sql`SELECT w_counts.inserted, w_counts.updated, c_counts.locked, c_counts.over_limit,
           (SELECT coalesce(json_agg(${refusalJsonSql(table, 'r')} ORDER BY r.ord), '[]')::text
              FROM (SELECT * FROM checked WHERE refusal IS NOT NULL ORDER BY ord LIMIT ${input.listed}::int) r) AS refusals,
           -- A one-cell write answers with the row it wrote (update-one.ts): no statement to read it back.
           w.text AS written_text, w."reviewStatus"::text AS written_status, w."lastModifiedAt" AS written_modified,
           ${input.opening ? OUTBOUND_QUEUED : Prisma.sql`false`} AS outbound
      FROM (SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated FROM written) w_counts
      CROSS JOIN (SELECT count(*) FILTER (WHERE refusal = 'LOCKED')::int AS locked, count(*) FILTER (WHERE refusal = 'CHARACTERS_LIMIT')::int AS over_limit FROM checked) c_counts
      LEFT JOIN (SELECT * FROM written LIMIT 1) w ON true`
    }`;
}

/** A refused cell as the JSON object of a Refusal (its columns in `checked`). */
function refusalJsonSql(table: Table, row: 'r' | 'c'): Prisma.Sql {
  const r = Prisma.raw(row);
  return Prisma.sql`json_build_object(
                     'keyId', ${r}.key_id, 'languageId', ${r}.language_id, 'customerId', ${table.customer ? Prisma.sql`${r}.customer_id` : Prisma.sql`NULL`},
                     'key', ${r}.key_name, 'namespace', ${r}.key_namespace, 'reason', ${r}.refusal, 'length', ${r}.length, 'charactersLimit', ${r}.chars_limit)`;
}

/**
 * The answer of a group's statement: a Row per cell, in input order, as the
 * cell's write alone would have answered (its counts, its refusal, the row
 * written).
 */
function groupAnswerSql(looked: boolean): Prisma.Sql {
  // Looked up by the statement: a row per write, with what the lookup found (NamedRow), whether it went ahead or not.
  const from = looked ? Prisma.sql`looked i` : Prisma.sql`input i`;
  const lookup = looked
    ? Prisma.sql`i.key_id, i.language_id, i.change, i.refusal AS refused, i.length AS refused_length, i.chars_limit AS refused_limit, i.filled, `
    : Prisma.empty;
  return Prisma.sql`SELECT ${lookup}coalesce(w.inserted, false)::int AS inserted, coalesce(NOT w.inserted, false)::int AS updated,
           (c.refusal IS NOT DISTINCT FROM 'LOCKED')::int AS locked, (c.refusal IS NOT DISTINCT FROM 'CHARACTERS_LIMIT')::int AS over_limit,
           CASE WHEN c.refusal IS NULL THEN '[]' ELSE json_build_array(${refusalJsonSql(BASE_TABLE, 'c')})::text END AS refusals,
           w.text AS written_text, w."reviewStatus"::text AS written_status, w."lastModifiedAt" AS written_modified,
           ${OUTBOUND_QUEUED} AS outbound
      FROM ${from}
      LEFT JOIN checked c ON c.ord = i.ord
      LEFT JOIN written w ON w."keyId" = i.key_id AND w."languageId" = i.language_id
     ORDER BY i.ord`;
}

const BASE_TABLE: Table = { name: Prisma.sql`"Translation"`, customer: false };
const CUSTOM_TABLE: Table = { name: Prisma.sql`"CustomerTranslation"`, customer: true };

export interface Row {
  inserted: number;
  updated: number;
  locked: number;
  over_limit: number;
  refusals: string | Refusal[];
  /** One of the written rows (null when none was written): what a one-cell write answers with. */
  written_text: string | null;
  written_status: 'REVIEWED' | 'NOT_REVIEWED' | null;
  written_modified: Date | null;
  /** The change this statement opened queued a webhook delivery or an automation run. */
  outbound: boolean;
}

/**
 * Writes translation cells through the rules above. Duplicate cells in the
 * input: the last one wins. Returns what was written and what was refused.
 */
export async function writeTranslations(
  db: Db,
  projectId: number,
  cells: readonly Cell[],
  options: GateOptions,
): Promise<GateResult> {
  const gate = planGate(projectId, cells, options);
  const rows: Row[][] = [];
  for (const statement of gate.statements(db)) rows.push(await statement);
  return gate.result(rows);
}

/**
 * The gate's statements (one per table with cells), built once, and how to
 * read their answers: `statements(db)` gives them not yet sent, as often as a
 * caller asks (a batched transaction that runs a write again alone sends them
 * anew: batched-writes.ts; update-one.ts sends them after the statement
 * opening the change), in this order; `result` reads what they answered.
 */
export function planGate(projectId: number, cells: readonly Cell[], options: GateOptions) {
  const mode = options.replace === 'empty' ? 'empty' : options.replace ? 'always' : 'never';
  const listed = options.listRefusals ?? DEFAULT_LISTED_REFUSALS;
  const deduped = new Map<string, Cell>();
  for (const c of cells) deduped.set(`${c.keyId}:${c.languageId}:${c.customerId ?? ''}`, c);
  const base = [...deduped.values()].filter((c) => c.customerId === null);
  const custom = [...deduped.values()].filter((c) => c.customerId !== null);
  const anyStatus = (list: Cell[]) => list.some((c) => c.reviewStatus !== undefined);
  const sql: Prisma.Sql[] = [];
  if (options.opening && base.length && custom.length) throw new Error('a change opened by the gate covers one table');
  // A statement's events are one batch (src/content/cell-events.ts); callers write in chunks far below this.
  if (base.length > BATCH_SPAN || custom.length > BATCH_SPAN)
    throw new Error(`more than ${BATCH_SPAN} cells in one gate call`);
  const common = {
    projectId,
    mode,
    listed: Number.isFinite(listed) ? listed : null,
    change: options.change.id,
    opening: options.opening,
    touchKeyIds: options.touchKeyIds,
    parts: options.parts ?? ALL_PARTS,
  } as const;
  if (base.length) {
    // The translation memory reads its texts from these rows; its in-process index (PGlite) reads these keys again.
    if (common.parts.writtenKeyNotes) noteWrittenKeys(base.map((c) => c.keyId));
    sql.push(
      gateSql(BASE_TABLE, {
        ...common,
        cells: base,
        anyStatus: anyStatus(base),
      }),
    );
  }
  if (custom.length) {
    sql.push(
      gateSql(CUSTOM_TABLE, {
        ...common,
        cells: custom,
        anyStatus: anyStatus(custom),
      }),
    );
  }
  return {
    /** The write's one statement, when it is one (run alone, it is read through the driver adapter: batched-writes.ts). */
    single: sql.length === 1 ? sql[0] : undefined,
    statements: (db: Db) => sql.map((statement) => db.$queryRaw<Row[]>(statement)),
    result(rows: Row[][]): GateResult {
      const result: GateResult = { inserted: 0, updated: 0, refused: { LOCKED: 0, CHARACTERS_LIMIT: 0 }, refusals: [] };
      for (const [row] of rows) {
        noteOpeningRow(row);
        result.inserted += row!.inserted;
        result.updated += row!.updated;
        result.refused.LOCKED += row!.locked;
        result.refused.CHARACTERS_LIMIT += row!.over_limit;
        result.refusals.push(...rowRefusals(row!).slice(0, Math.max(0, listed - result.refusals.length)));
      }
      // The updater is woken for what was queued: a write that wrote nothing (the same text again, cells kept
      // without REPLACE) queued nothing, and a lease would find nothing.
      if (result.inserted + result.updated > 0 && writesEvents(common) && common.parts.findingsQueue) noteQueued();
      return result;
    },
  };
}

/** A one-cell write of a group (cell-groups.ts): its base cell and the change it opens (with its id). */
export interface GroupedWrite {
  cell: Cell;
  opening: Opening;
  /** planGate's `replace`. */
  replace: boolean | 'empty';
  /** The statement also sets the last-seen time of the cell's key (v1 POST's rule 2: touchKeyIds). */
  touch: boolean;
}

/**
 * The one statement of a group of one-cell writes of a project, each its own
 * change: distinct base cells, all with a review status or all without, all
 * with the same `replace` and `touch`, each written as planGate writes it
 * alone with its `opening`. It answers a Row per write, in order: what the
 * write's own statement would have answered (its planGate's `result` reads it).
 */
export function groupGateSql(projectId: number, writes: readonly GroupedWrite[]): Prisma.Sql {
  const [first] = writes as [GroupedWrite];
  if (writes.some((w) => w.replace !== first.replace || w.touch !== first.touch))
    throw new Error('a group of one-cell writes has one replace mode and one touch rule');
  const cells = writes.map((w) => w.cell);
  if (cells.some((c) => c.customerId !== null)) throw new Error('a group of one-cell writes writes base cells');
  if (new Set(cells.map((c) => `${c.keyId}:${c.languageId}`)).size !== cells.length)
    throw new Error('a group of one-cell writes writes each cell once');
  const anyStatus = cells.some((c) => c.reviewStatus !== undefined);
  if (anyStatus && !cells.every((c) => c.reviewStatus !== undefined))
    throw new Error('a group of one-cell writes sets the review status of all its cells or of none');
  return gateSql(BASE_TABLE, {
    projectId,
    cells,
    anyStatus,
    mode: first.replace === 'empty' ? 'empty' : first.replace ? 'always' : 'never',
    listed: 1,
    change: first.opening[0] as bigint,
    openings: writes.map((w) => w.opening),
    touchKeyIds: first.touch ? [...new Set(cells.map((c) => c.keyId))].sort((a, b) => a - b) : undefined,
    parts: ALL_PARTS,
  });
}

/**
 * A write of a group whose statement looks its cell up itself: the answer's
 * row (a Row) with what the lookup found.
 */
export interface NamedRow extends Row {
  /** The key and language found (null: none of that name). */
  key_id: number | null;
  language_id: number | null;
  /** The change the write opened (null: it did not go ahead). */
  change: bigint | string | null;
  /** What the rules said before the write (refusalSql), with the new text's length and the key's limit. */
  refused: RefusalReason | null;
  refused_length: number;
  refused_limit: number | null;
  /** Whether the cell held a non-empty text before the statement (null: the lookup does not tell). */
  filled: boolean | null;
}

/**
 * The one statement of a group of one-cell writes of base cells that name
 * their cells (update-one.ts): `looked` is a SELECT of the group's writes, a
 * row per write in the order of `openings` with ord (from 1), key_id,
 * language_id (NULL: not found), the text and status to write, refusal,
 * length and chars_limit (refusalSql before the write), and change: the id
 * of the change the write opens, taken by that SELECT only for a write that
 * goes ahead (NULL otherwise). The writes with a change are written as
 * groupGateSql writes them (replacing an existing text unless `replace` is
 * false; with `touch`, setting their keys' last-seen); the statement answers
 * a NamedRow per write, in order. One statement for a write whose lookup and
 * write were two.
 */
export function namedGroupGateSql(
  projectId: number,
  looked: Prisma.Sql,
  openings: readonly Opening[],
  options: { anyStatus: boolean; replace?: boolean; touch?: boolean },
): Prisma.Sql {
  return gateSql(BASE_TABLE, {
    projectId,
    cells: [],
    anyStatus: options.anyStatus,
    mode: options.replace === false ? 'never' : 'always',
    touchLooked: options.touch,
    listed: 1,
    change: 0n,
    openings,
    looked,
    parts: ALL_PARTS,
  });
}

/**
 * What follows a named write that opened its change (`row.change` set): the
 * change noted as this process's own and its opening row's deliveries; when
 * it wrote its cell, the findings updater woken and the key noted for the
 * translation memory (whose in-process index, on PGlite, reads it again).
 * Returns the row's refusals: the gate's own rules refuse a key locked in
 * between, its change then recording no cell.
 */
export function noteNamedWrite(projectId: number, row: NamedRow): Refusal[] {
  noteOpened(projectId, BigInt(row.change!));
  noteOpeningRow(row);
  if (row.inserted + row.updated > 0) {
    noteQueued();
    noteWrittenKeys([row.key_id!]);
  }
  return rowRefusals(row);
}

/** A gate row's refusals, parsed when the driver answered them as JSON text. */
export function rowRefusals(row: Row): Refusal[] {
  return typeof row.refusals === 'string' ? (JSON.parse(row.refusals) as Refusal[]) : row.refusals;
}

/** Adds the refusals of one gate call to a running total (chunked writes). */
export function addRefusals(total: GateResult['refused'], more: GateResult['refused']): void {
  total.LOCKED += more.LOCKED;
  total.CHARACTERS_LIMIT += more.CHARACTERS_LIMIT;
}

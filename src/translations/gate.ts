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
//     batch (src/history/cell-events.ts);
//   - last-modified bookkeeping: only rows whose text or status actually
//     changes are written (lastModifiedAt, unpublished-change counts stay
//     truthful); an empty unreviewed cell is not inserted where there is no row.
// Refused cells are never written and never dropped silently: they come back
// with a reason, and each API reports them its own way. A cell the mode would
// keep anyway (an existing text without replace) is kept, not refused.
// Callers run the gate inside their transaction.
import type { Db } from '../db.js';
import { arrayLiteral } from '../db/array-literal.js';
import { openChangeCtes, type Change } from '../history/changes.js';
import { BATCH_SPAN, insertCellEvents } from '../history/cell-events.js';
import { touchKeysSql, type Cell } from './store.js';
import { noteWrittenKeys } from '../memory/ngram-index.js';
import { enqueueFindingsSql, noteQueued } from '../findings/queue.js';

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
  opening?: unknown[];
  /**
   * With `opening`: keys whose last-seen time the same statement sets (v1
   * POST's rule 2, touchKeysSql), so that a write of existing keys is one
   * statement.
   */
  touchKeyIds?: number[];
}

/** Refused cells listed by default; counts are exact whatever this is. */
export const DEFAULT_LISTED_REFUSALS = 100;

/** An empty, unreviewed cell is the same as no row: writing one where there is no row changes nothing. */
const WORTH_A_ROW = `(text <> '' OR coalesce(status, 'NOT_REVIEWED') <> 'NOT_REVIEWED')`;

/**
 * The rules as one SQL expression: the refusal of a cell (NULL, 'LOCKED' or
 * 'CHARACTERS_LIMIT'), given its key row, its new text, its existing row (a
 * left join: NULL columns when there is none) and the mode. The gate's
 * statement applies it; update-one.ts asks it ahead of its batch, so that a
 * refused one-cell write opens no change.
 */
export function refusalSql(at: { key: string; text: string; existing: string; mode: string }): string {
  const { key: k, text, existing: x, mode } = at;
  return `CASE
               WHEN NOT ${k}.lock AND (${k}."charactersLimit" IS NULL OR char_length(${text}) <= ${k}."charactersLimit") THEN NULL
               WHEN ${x}."keyId" IS NOT NULL AND NOT (${mode} = 'always' OR (${mode} = 'empty' AND ${x}.text = '')) THEN NULL
               WHEN ${k}.lock THEN 'LOCKED'
               WHEN ${text} IS DISTINCT FROM ${x}.text THEN 'CHARACTERS_LIMIT'
             END`;
}

interface Table {
  name: '"Translation"' | '"CustomerTranslation"';
  /** Extra key column of the table (the customer), or none. */
  customer: boolean;
}

/**
 * One statement: the input arrays, the rules (refusal per cell), the write of
 * the accepted cells, and the counts. Parameters: $1 project, $2 keys,
 * $3 languages, [$n customers], then texts, statuses, whether any status is
 * given, the mode, the number of refusals to list, the change (activity id).
 */
function gateSql(table: Table, events = true, opening = false, touch = false, findings = true): string {
  const p = table.customer ? (n: number) => `$${n + 1}` : (n: number) => `$${n}`;
  const customerInput = table.customer ? `, $4::int[]` : '';
  const customerColumn = table.customer ? ', customer_id' : '';
  const customerMatch = table.customer ? ` AND x."customerId" = i.customer_id` : '';
  const conflict = table.customer ? `("keyId", "languageId", "customerId")` : `("keyId", "languageId")`;
  const [text, status, anyStatus, mode, listed, change] = [p(4), p(5), p(6), p(7), p(8), p(9)];
  const customerOut = table.customer ? ', "customerId"' : '';
  return `WITH input AS (
      SELECT * FROM unnest($2::int[], $3::int[]${customerInput}, ${text}::text[], ${status}::text[]) WITH ORDINALITY
        AS t(key_id, language_id${customerColumn}, text, status, ord)
    ), checked AS (${
      events
        ? `
      -- The existing row (one primary-key lookup per cell) decides refusals and is the old value of the change event.
      SELECT i.*, k.key AS key_name, k.namespace AS key_namespace, k."charactersLimit" AS chars_limit, char_length(i.text) AS length,
             x."keyId" IS NOT NULL AS had_row, x.text AS old_text, x."reviewStatus" AS old_status,
             ${refusalSql({ key: 'k', text: 'i.text', existing: 'x', mode })} AS refusal
        FROM input i
        JOIN "TranslationKey" k ON k.id = i.key_id AND k."projectId" = $1
        LEFT JOIN ${table.name} x ON x."keyId" = i.key_id AND x."languageId" = i.language_id${customerMatch}`
        : `
      -- Without events, only a cell of a locked key or with a text over the limit looks at the existing row.
      SELECT i.*, k.key AS key_name, k.namespace AS key_namespace, k."charactersLimit" AS chars_limit, char_length(i.text) AS length,
             CASE
               WHEN NOT k.lock AND (k."charactersLimit" IS NULL OR char_length(i.text) <= k."charactersLimit") THEN NULL
               ELSE (SELECT CASE
                              WHEN x."keyId" IS NOT NULL AND NOT (${mode} = 'always' OR (${mode} = 'empty' AND x.text = '')) THEN NULL
                              WHEN k.lock THEN 'LOCKED'
                              WHEN i.text IS DISTINCT FROM x.text THEN 'CHARACTERS_LIMIT'
                            END
                       FROM (SELECT 1) AS one
                       LEFT JOIN ${table.name} x ON x."keyId" = i.key_id AND x."languageId" = i.language_id${customerMatch})
             END AS refusal
        FROM input i
        JOIN "TranslationKey" k ON k.id = i.key_id AND k."projectId" = $1`
    }
    ), written AS (
      INSERT INTO ${table.name} AS tr ("keyId", "languageId"${table.customer ? ', "customerId"' : ''}, "projectId", text, "reviewStatus", "lastModifiedAt")
      SELECT key_id, language_id${customerColumn}, $1, text, coalesce(status, 'NOT_REVIEWED')::"ReviewStatus", now() FROM checked
       WHERE refusal IS NULL
         AND (${WORTH_A_ROW} OR ${events ? 'had_row' : `EXISTS (SELECT 1 FROM ${table.name} x WHERE x."keyId" = key_id AND x."languageId" = language_id${table.customer ? ' AND x."customerId" = customer_id' : ''})`})
      ON CONFLICT ${conflict} DO UPDATE
        SET text = EXCLUDED.text,
            "reviewStatus" = CASE WHEN ${anyStatus} THEN EXCLUDED."reviewStatus" ELSE tr."reviewStatus" END,
            "lastModifiedAt" = now()
        WHERE (${mode} = 'always' OR (${mode} = 'empty' AND tr.text = ''))
          AND (tr.text IS DISTINCT FROM EXCLUDED.text OR (${anyStatus} AND tr."reviewStatus" IS DISTINCT FROM EXCLUDED."reviewStatus"))
      RETURNING "keyId", "languageId"${customerOut}, text, "reviewStatus", "lastModifiedAt", (xmax = 0) AS inserted
    )${
      events
        ? `, events AS (
      -- The change events of the written cells (src/history/cell-events.ts), in this same statement.
      ${insertCellEvents({
        activity: `${change}::bigint`,
        project: '$1',
        cells: `
        SELECT c.ord, w."keyId", w."languageId", ${table.customer ? 'w."customerId"' : 'NULL::int'} AS "customerId", c.key_name AS key, c.key_namespace AS namespace,
               c.old_text AS "oldText", w.text AS "newText", c.old_status AS "oldStatus", w."reviewStatus" AS "newStatus"
          FROM written w JOIN checked c ON c.key_id = w."keyId" AND c.language_id = w."languageId"${table.customer ? ' AND c.customer_id = w."customerId"' : ''}`,
      })}
    )`
        : ''
    }${
      events && findings && !table.customer
        ? `, findings_queued AS (
      ${enqueueFindingsSql('$1')}
    )`
        : ''
    }, ${touch ? `touched AS (${touchKeysSql(table.customer ? 23 : 22)}), ` : ''}${
      opening
        ? openChangeCtes(table.customer ? 11 : 10, {
            // The change is opened here, with its cell count (its events are written by the CTEs above).
            cells: '(SELECT count(*)::int FROM written)',
          })
        : `counted AS (
      -- The change's cell count.
      UPDATE "Activity" SET cells = cells + (SELECT count(*)::int FROM written) WHERE id = ${change}::bigint
    )`
    }
    SELECT w_counts.inserted, w_counts.updated, c_counts.locked, c_counts.over_limit,
           (SELECT coalesce(json_agg(json_build_object(
                     'keyId', key_id, 'languageId', language_id, 'customerId', ${table.customer ? 'customer_id' : 'NULL'},
                     'key', key_name, 'namespace', key_namespace, 'reason', refusal, 'length', length, 'charactersLimit', chars_limit)
                   ORDER BY ord), '[]')::text
              FROM (SELECT * FROM checked WHERE refusal IS NOT NULL ORDER BY ord LIMIT ${listed}::int) r) AS refusals,
           -- A one-cell write answers with the row it wrote (update-one.ts): no statement to read it back.
           w.text AS written_text, w."reviewStatus"::text AS written_status, w."lastModifiedAt" AS written_modified
      FROM (SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated FROM written) w_counts
      CROSS JOIN (SELECT count(*) FILTER (WHERE refusal = 'LOCKED')::int AS locked, count(*) FILTER (WHERE refusal = 'CHARACTERS_LIMIT')::int AS over_limit FROM checked) c_counts
      LEFT JOIN (SELECT * FROM written LIMIT 1) w ON true`;
}

const BASE_TABLE: Table = { name: '"Translation"', customer: false };
const CUSTOM_TABLE: Table = { name: '"CustomerTranslation"', customer: true };
const variants = (findings: boolean) => ({
  WITH_EVENTS: { base: gateSql(BASE_TABLE, true, false, false, findings), custom: gateSql(CUSTOM_TABLE) },
  OPENING: { base: gateSql(BASE_TABLE, true, true, false, findings), custom: gateSql(CUSTOM_TABLE, true, true) },
  OPENING_TOUCHING: {
    base: gateSql(BASE_TABLE, true, true, true, findings),
    custom: gateSql(CUSTOM_TABLE, true, true, true),
  },
});
const QUEUING = variants(true);
const NOT_QUEUING = variants(false);
let { WITH_EVENTS, OPENING, OPENING_TOUCHING } = QUEUING;
const WITHOUT_EVENTS = { base: gateSql(BASE_TABLE, false), custom: gateSql(CUSTOM_TABLE, false) };
let gateSqlInUse = WITH_EVENTS;

/**
 * Runs `fn` with a gate that queues no cell for the quality checks, to
 * measure what the findings queue costs a write (bench/scenarios/findings.ts).
 * The service never calls it.
 */
export async function withoutFindingsQueueForBenchmark<T>(fn: () => Promise<T>): Promise<T> {
  ({ WITH_EVENTS, OPENING, OPENING_TOUCHING } = NOT_QUEUING);
  gateSqlInUse = WITH_EVENTS;
  try {
    return await fn();
  } finally {
    ({ WITH_EVENTS, OPENING, OPENING_TOUCHING } = QUEUING);
    gateSqlInUse = WITH_EVENTS;
  }
}

/**
 * Runs `fn` with the gate as it was before change events (no per-cell events,
 * no existing-row lookup for them), to measure what the history costs
 * (bench/scenarios/history.ts). The service never calls it.
 */
export async function withoutCellEventsForBenchmark<T>(fn: () => Promise<T>): Promise<T> {
  gateSqlInUse = WITHOUT_EVENTS;
  try {
    return await fn();
  } finally {
    gateSqlInUse = WITH_EVENTS;
  }
}

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
  const gate = gateStatements(db, projectId, cells, options);
  const rows: Row[][] = [];
  for (const statement of gate.statements) rows.push(await statement);
  return gate.result(rows);
}

/**
 * The gate's statements (one per table with cells), not yet sent, and how to
 * read their answers: for a caller that sends them in a batched transaction
 * with the statement opening the change (update-one.ts), in this order.
 */
export function gateStatements(db: Db, projectId: number, cells: readonly Cell[], options: GateOptions) {
  const mode = options.replace === 'empty' ? 'empty' : options.replace ? 'always' : 'never';
  const listed = options.listRefusals ?? DEFAULT_LISTED_REFUSALS;
  const deduped = new Map<string, Cell>();
  for (const c of cells) deduped.set(`${c.keyId}:${c.languageId}:${c.customerId ?? ''}`, c);
  const base = [...deduped.values()].filter((c) => c.customerId === null);
  const custom = [...deduped.values()].filter((c) => c.customerId !== null);
  const anyStatus = (list: Cell[]) => list.some((c) => c.reviewStatus !== undefined);
  const statements = [];
  const touching = !!options.opening && !!options.touchKeyIds?.length;
  const sql = touching ? OPENING_TOUCHING : options.opening ? OPENING : gateSqlInUse;
  const opening = [...(options.opening ?? []), ...(touching ? [options.touchKeyIds] : [])];
  if (options.opening && base.length && custom.length) throw new Error('a change opened by the gate covers one table');
  // A statement's events are one batch (src/history/cell-events.ts); callers write in chunks far below this.
  if (base.length > BATCH_SPAN || custom.length > BATCH_SPAN)
    throw new Error(`more than ${BATCH_SPAN} cells in one gate call`);
  if (base.length) {
    // The translation memory reads its texts from these rows; its in-process index (PGlite) reads these keys again.
    noteWrittenKeys(base.map((c) => c.keyId));
    if (sql !== WITHOUT_EVENTS && sql.base.includes('"FindingQueue"')) noteQueued();
    statements.push(
      db.$queryRawUnsafe<Row[]>(
        sql.base,
        projectId,
        arrayLiteral(base, (c) => c.keyId),
        arrayLiteral(base, (c) => c.languageId),
        arrayLiteral(base, (c) => c.text),
        arrayLiteral(base, (c) => c.reviewStatus ?? null),
        anyStatus(base),
        mode,
        Number.isFinite(listed) ? listed : null,
        options.change.id,
        ...opening,
      ),
    );
  }
  if (custom.length) {
    statements.push(
      db.$queryRawUnsafe<Row[]>(
        sql.custom,
        projectId,
        arrayLiteral(custom, (c) => c.keyId),
        arrayLiteral(custom, (c) => c.languageId),
        arrayLiteral(custom, (c) => c.customerId),
        arrayLiteral(custom, (c) => c.text),
        arrayLiteral(custom, (c) => c.reviewStatus ?? null),
        anyStatus(custom),
        mode,
        Number.isFinite(listed) ? listed : null,
        options.change.id,
        ...opening,
      ),
    );
  }
  return {
    statements,
    result(rows: Row[][]): GateResult {
      const result: GateResult = { inserted: 0, updated: 0, refused: { LOCKED: 0, CHARACTERS_LIMIT: 0 }, refusals: [] };
      for (const [row] of rows) {
        result.inserted += row!.inserted;
        result.updated += row!.updated;
        result.refused.LOCKED += row!.locked;
        result.refused.CHARACTERS_LIMIT += row!.over_limit;
        const refusals = typeof row!.refusals === 'string' ? (JSON.parse(row!.refusals) as Refusal[]) : row!.refusals;
        result.refusals.push(...refusals.slice(0, Math.max(0, listed - result.refusals.length)));
      }
      return result;
    },
  };
}

/** Adds the refusals of one gate call to a running total (chunked writes). */
export function addRefusals(total: GateResult['refused'], more: GateResult['refused']): void {
  total.LOCKED += more.LOCKED;
  total.CHARACTERS_LIMIT += more.CHARACTERS_LIMIT;
}

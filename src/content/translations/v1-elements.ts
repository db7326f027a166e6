// The elements of the deprecated v1 translation endpoints (POST and PATCH
// /api/v1/translations), checked one by one: a bad element is reported with
// its position and never fails the others. What the elements name is looked
// up in one statement, whatever their number; their cells are written through
// the write gate in one batched transaction when nothing must be created first.
import { prisma, type Db } from '../../db.js';
import { Prisma } from '../../generated/prisma/client.js';
import {
  NEXT_CHANGE_ID,
  noteOpeningRow,
  openChangeParams,
  openChangeQuery,
  openingParams,
  type Change,
  type Opening,
} from '../changes.js';
import { runBatched } from './batched-writes.js';
import { MAX_GROUP, writeOneCell } from './cell-groups.js';
import { statementGroups } from '../../db/statement-groups.js';
import { readRows } from '../../db/read-rows.js';
import { arrayLiteral } from '../../db/array-literal.js';
import { namedGroupGateSql, noteNamedWrite, planGate, type NamedRow, type Refusal, type Row } from './gate.js';
import { keyProblem, namespaceProblem } from '../keys/input.js';
import { refusalMessage } from './rules.js';
import { identifierProblem, LIMITS, lengthProblem } from './fields.js';
import { BULK_TRANSACTION, keyRefId, touchKeysSql, type Cell } from './store.js';

export interface V1Element {
  key: string;
  language: string;
  text?: string | null;
  namespace?: string | null;
  description?: string | null;
  customerKey?: string | null;
}

export interface ValidElement {
  index: number;
  key: string;
  namespace: string;
  language: string;
  /** null: the element carries no text. */
  text: string | null;
  description: string | null;
  customerKey: string | null;
}

export interface Problem {
  index: number;
  message: string;
}

export const at = (index: number, message: string): Problem => ({ index, message });

/** content[i]: message, listing at most `max` problems. */
export function describeProblems(problems: Problem[], max = 20): string[] {
  const lines = problems.slice(0, max).map((p) => `content[${p.index}]: ${p.message}`);
  if (problems.length > max) lines.push(`and ${problems.length - max} more`);
  return lines;
}

/** Checks the shape of each element: key and language present, lengths within the contract. */
export function checkElements(
  content: V1Element[],
  options: { languageMustExist: boolean },
): { valid: ValidElement[]; problems: Problem[] } {
  const valid: ValidElement[] = [];
  const problems: Problem[] = [];
  content.forEach((element, index) => {
    const { key, language } = element;
    const namespace = element.namespace ?? '';
    if (key.trim() === '') return problems.push(at(index, 'key is empty'));
    if (language === '') return problems.push(at(index, 'language is empty'));
    const problem =
      keyProblem(key) ??
      namespaceProblem(namespace) ??
      // A language that must already exist is reported as missing from the project instead.
      (options.languageMustExist ? undefined : identifierProblem(language, 'language', LIMITS.languageKey)) ??
      (element.description ? lengthProblem(element.description, 'description', LIMITS.description) : undefined);
    if (problem) return problems.push(at(index, problem));
    valid.push({
      index,
      key,
      namespace,
      language,
      text: element.text ?? null,
      description: element.description || null,
      customerKey: element.customerKey || null,
    });
  });
  return { valid, problems };
}

interface LookupRow {
  keys: string;
  languages: string;
  customers: string;
  filled: string;
  change_id: bigint;
}

interface LookupRequest {
  projectId: number;
  elements: readonly ValidElement[];
  filled: boolean;
}

/** Requests of at most this many elements are looked up together with the others waiting meanwhile. */
const GROUPED_ELEMENTS = 16;

/** Through the driver adapter, not the client's query interpreter (as the one-cell PATCH's lookup). */
async function lookupAlone(r: LookupRequest): Promise<LookupRow> {
  return (await readRows<LookupRow>(lookupElementsSql(r.projectId, r.elements, { filled: r.filled })))[0]!;
}

/**
 * Lookups of small requests of a project (src/db/statement-groups.ts): a
 * group reads what all its requests name in one statement, and each request
 * gets that answer (a map holding more names than its own elements does not
 * change what it finds of them) with a change id of its own.
 */
const lookups = statementGroups<LookupRequest, LookupRow>({
  lane: (r) => `${r.projectId}:${r.filled}`,
  max: 32,
  alone: lookupAlone,
  async together(group) {
    const elements = group.flatMap((r) => r.elements);
    const [row] = await readRows<Omit<LookupRow, 'change_id'> & { change_ids: string }>(
      lookupElementsSql(group[0]!.projectId, elements, { filled: group[0]!.filled, changes: group.length }),
    );
    const ids = JSON.parse(row!.change_ids) as string[];
    return group.map((_, i) => ({ ...row!, change_id: BigInt(ids[i]!) }));
  },
});

/** Lookups sent and the requests they carried (tests, benchmarks). */
export const v1LookupGroupStats = lookups.stats;

/** What the elements name that exists now, by name, and the id of the change a write opens. */
export interface ElementLookup {
  /** keyRefId → id */
  keys: Map<string, number>;
  /** language key → id */
  languages: Map<string, number>;
  /** customer key → id */
  customers: Map<string, number>;
  /** Taken from the Activity sequence (NEXT_CHANGE_ID): the write opens its change with it. */
  changeId: bigint;
  /** With `filled`: the elements' cells that hold a non-empty text now (cellId). */
  filled: Set<string>;
}

/** Parallel arrays: the distinct keys, languages and customers the elements name, and (with `filled`) their cells. */
interface LookupInput {
  keyNamespaces: string[];
  keyNames: string[];
  languages: string[];
  customers: string[];
  cellNamespaces: string[];
  cellKeys: string[];
  cellLanguages: string[];
  cellCustomers: (string | null)[];
}

/**
 * Parallel columns as rows. One row is a row of scalar parameters, not an unnest of one-element arrays:
 * PostgreSQL estimates an unnest of a parameter at 100 rows, so the generic plan of the prepared statement looked
 * dearer than one made for the actual arrays, and the lookup of a one-cell write was planned again at every
 * execution (as the gate's was: gate.ts, inputSql).
 */
function rowsSql(columns: readonly [name: string, values: readonly (string | null)[]][]): Prisma.Sql {
  const names = Prisma.raw(columns.map(([name]) => name).join(', '));
  if (columns[0]![1].length === 1)
    return Prisma.sql`SELECT ${Prisma.join(columns.map(([name, [value]]) => Prisma.sql`${value}::text AS ${Prisma.raw(name)}`))}`;
  // Several rows: the arrays through a subquery the planner keeps (OFFSET 0), so that their unnest is estimated at
  // PostgreSQL's default of ten rows in the plans made for their values as in the generic one, which is then kept
  // after five executions. Read as constants, a group's few elements looked cheaper planned anew, and a group of
  // v1 writes' lookup was planned at every execution (0.32 ms, more than it ran).
  const arrays = Prisma.join(columns.map(([name, values]) => Prisma.sql`${values}::text[] AS ${Prisma.raw(name)}`));
  return Prisma.sql`SELECT u.* FROM (SELECT ${arrays} OFFSET 0) a CROSS JOIN LATERAL unnest(${Prisma.raw(columns.map(([name]) => `a.${name}`).join(', '))}) AS u(${names})`;
}

/** `column` is one of `values`: an equality for one value, nothing for none (the plan's estimates, as rowsSql). */
function oneOfSql(column: Prisma.Sql, values: readonly string[]): Prisma.Sql {
  if (values.length === 0) return Prisma.sql`false`;
  if (values.length === 1) return Prisma.sql`${column} = ${values[0]}::text`;
  // The array as a value the plans cannot read, for the reason rowsSql gives: a scalar subquery, cast (as
  // `ANY (subquery)` it would be compared with the subquery's rows).
  return Prisma.sql`${column} = ANY((SELECT ${values}::text[])::text[])`;
}

/**
 * The key a row of names (`row`: columns ns, name) names, by the unique index
 * of (project, namespace, key): one probe per row. A plain join let the
 * planner hash every key of the project for a few names when the table's
 * statistics were older than its rows (1.1 ms against 0.02 for 12 names at
 * 2,000 keys, after an import); OFFSET 0 keeps the subquery from being
 * flattened into such a join (as the gate's keyOfCellSql).
 */
function keyOfSql(projectId: number, row: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`JOIN LATERAL (SELECT k.id, k.namespace, k.key FROM "TranslationKey" k
                     WHERE k."projectId" = ${projectId} AND k.namespace = ${row}.ns AND k.key = ${row}.name OFFSET 0) k ON true`;
}

/** `changes`: how many change ids to take (a group of lookups, one per request: change_ids, a JSON array). */
function lookupSql(projectId: number, at: LookupInput, changes = 1): Prisma.Sql {
  const keys = rowsSql([
    ['ns', at.keyNamespaces],
    ['name', at.keyNames],
  ]);
  const filled = at.cellKeys.length
    ? Prisma.sql`(SELECT coalesce(json_agg(json_build_array(k.id, l.id, c.id)), '[]')
            FROM (${rowsSql([
              ['ns', at.cellNamespaces],
              ['name', at.cellKeys],
              ['language', at.cellLanguages],
              ['customer', at.cellCustomers],
            ])}) AS e
            ${keyOfSql(projectId, Prisma.sql`e`)}
            JOIN "Language" l ON l."projectId" = ${projectId} AND l.key = e.language
            LEFT JOIN "Customer" c ON c."projectId" = ${projectId} AND c.key = e.customer
           WHERE CASE WHEN e.customer IS NULL
                      THEN EXISTS (SELECT 1 FROM "Translation" t WHERE t."keyId" = k.id AND t."languageId" = l.id AND t.text <> '')
                      ELSE EXISTS (SELECT 1 FROM "CustomerTranslation" t WHERE t."keyId" = k.id AND t."languageId" = l.id AND t."customerId" = c.id AND t.text <> '')
                 END)`
    : Prisma.sql`'[]'`;
  return Prisma.sql`/* translations:v1-lookup */
  SELECT (SELECT coalesce(json_agg(json_build_array(k.id, k.namespace, k.key)), '[]')
            FROM (${keys}) AS t ${keyOfSql(projectId, Prisma.sql`t`)})::text AS keys,
         (SELECT coalesce(json_agg(json_build_array(l.id, l.key)), '[]') FROM "Language" l WHERE l."projectId" = ${projectId} AND ${oneOfSql(Prisma.sql`l.key`, at.languages)})::text AS languages,
         (SELECT coalesce(json_agg(json_build_array(c.id, c.key)), '[]') FROM "Customer" c WHERE c."projectId" = ${projectId} AND ${oneOfSql(Prisma.sql`c.key`, at.customers)})::text AS customers,
         ${filled}::text AS filled,
         ${
           changes === 1
             ? Prisma.sql`${Prisma.raw(NEXT_CHANGE_ID)} AS change_id`
             : Prisma.sql`(SELECT json_agg((${Prisma.raw(NEXT_CHANGE_ID)})::text) FROM generate_series(1, (SELECT ${changes}::int)))::text AS change_ids`
         }`;
}

/** The lookup's statement for these elements (lookupElements; a test checks its plans). */
export function lookupElementsSql(
  projectId: number,
  elements: readonly ValidElement[],
  options: { filled?: boolean; changes?: number } = {},
): Prisma.Sql {
  const keys = [...new Map(elements.map((e) => [keyRefId(e), e])).values()];
  const cells = options.filled ? elements : [];
  return lookupSql(
    projectId,
    {
      keyNamespaces: keys.map((k) => k.namespace),
      keyNames: keys.map((k) => k.key),
      languages: [...new Set(elements.map((e) => e.language))],
      customers: [...new Set(elements.map((e) => e.customerKey).filter((k): k is string => k !== null))],
      cellNamespaces: cells.map((e) => e.namespace),
      cellKeys: cells.map((e) => e.key),
      cellLanguages: cells.map((e) => e.language),
      cellCustomers: cells.map((e) => e.customerKey),
    },
    options.changes,
  );
}

/**
 * One statement, whatever the number of elements: the ids of the keys,
 * languages and customers the elements name that exist, the id of the change
 * the write will open (so that opening it can go in the write's batch), and
 * with `filled` which of their cells hold a text.
 */
export async function lookupElements(
  projectId: number,
  elements: readonly ValidElement[],
  options: { filled?: boolean } = {},
): Promise<ElementLookup> {
  const request = { projectId, elements, filled: options.filled ?? false };
  const row = elements.length <= GROUPED_ELEMENTS ? await lookups.run(request) : await lookupAlone(request);
  const pairs = (json: string) => (JSON.parse(json) as [number, string][]).map(([id, key]) => [key, id] as const);
  return {
    keys: new Map(
      (JSON.parse(row!.keys) as [number, string, string][]).map(([id, namespace, key]) => [
        keyRefId({ namespace, key }),
        id,
      ]),
    ),
    languages: new Map(pairs(row!.languages)),
    customers: new Map(pairs(row!.customers)),
    changeId: BigInt(row!.change_id),
    filled: new Set(
      (JSON.parse(row!.filled) as [number, number, number | null][]).map(([keyId, languageId, customerId]) =>
        cellId({ keyId, languageId, customerId }),
      ),
    ),
  };
}

export const cellId = (c: Pick<Cell, 'keyId' | 'languageId' | 'customerId'>) =>
  `${c.keyId}:${c.languageId}:${c.customerId ?? ''}`;

export type ElementCell = Cell & { index: number };

/**
 * The write of elements' cells, as statements not yet sent: `touchKeyIds`'
 * last-seen (POST's rule 2); the change; the cells through the write gate,
 * which records each written cell in the change. When the cells are of one
 * table (always, for one element) the gate's own statement also opens the
 * change and sets last-seen: one statement, no transaction; otherwise each
 * is a statement of its own, in one batched transaction. `statements` builds them
 * (again for a retry: a statement runs once); `result` reads their answers.
 */
export function planElementWrite(
  projectId: number,
  cells: ElementCell[],
  change: Change,
  options: {
    replace: boolean;
    details: Record<string, unknown>;
    edits?: number;
    touchKeyIds?: number[];
  },
) {
  const opening = openChangeParams(change, 'TRANSLATIONS', options.details, { edits: options.edits ?? 0 });
  const oneTable = cells.length > 0 && cells.every((c) => (c.customerId === null) === (cells[0]!.customerId === null));
  const touch = options.touchKeyIds ?? [];
  // One table: the gate's statement opens the change and sets last-seen too — the whole write is one statement.
  const gate = planGate(projectId, cells, {
    replace: options.replace,
    listRefusals: cells.length,
    change,
    ...(oneTable ? { opening, touchKeyIds: touch } : {}),
  });
  const before = oneTable ? 0 : (touch.length ? 1 : 0) + 1;
  // One base cell, and last-seen set for its key or for none: a write cell-groups.ts may group with others.
  const [cell] = cells;
  const one =
    cells.length === 1 && cell!.customerId === null && touch.every((k) => k === cell!.keyId) ? cell : undefined;
  return {
    /** The write as its one statement's SQL when it is one (the gate's, one table): run alone through readRows. */
    single: oneTable ? gate.single : undefined,
    /** A one-cell write of a base cell, for cell-groups.ts (its `single` is the statement it runs alone). */
    grouped: one && {
      projectId,
      cell: one,
      opening,
      replace: options.replace,
      touch: touch.length > 0,
      single: gate.single!,
    },
    statements: (db: Db) => [
      ...(!oneTable && touch.length
        ? [db.$executeRaw(Prisma.sql`/* keys:touch */ ${touchKeysSql(projectId, touch)}`)]
        : []),
      ...(oneTable ? [] : [openChangeQuery(db, opening)]),
      ...gate.statements(db),
    ],
    result: (rows: unknown[]) => {
      // The change opened by a statement of its own: its row says whether it queued outbound work.
      if (!oneTable) noteOpeningRow((rows[before - 1] as { outbound: boolean }[])[0]);
      return gate.result(rows.slice(before) as Row[][]);
    },
  };
}

type Plan = ReturnType<typeof planElementWrite>;

/**
 * Runs a write planned with the ids the lookup found: one base cell's in one
 * statement with the one-cell writes of its project that arrive meanwhile
 * (cell-groups.ts), any other in one batched transaction (grouped with other
 * small writes on PGlite: batched-writes.ts); or, when keys or
 * languages must be created first (`prepare` creates them and plans the
 * write with their ids), in one interactive transaction.
 */
export async function runElementWrite<P extends Plan>(
  plan: P | ((tx: Db) => Promise<P>),
): Promise<{ plan: P; rows: unknown[] }> {
  if (typeof plan !== 'function') {
    if (plan.grouped) return { plan, rows: [[await writeOneCell(plan.grouped)]] };
    return { plan, rows: await runBatched(() => plan.statements(prisma()), plan.single) };
  }
  return prisma().$transaction(async (tx) => {
    const planned = await plan(tx);
    const rows: unknown[] = [];
    for (const statement of planned.statements(tx)) rows.push(await statement);
    return { plan: planned, rows };
  }, BULK_TRANSACTION);
}

/**
 * The gate's refusals by element index: every element whose cell was refused
 * (an element given twice shares its cell's refusal).
 */
export function refusalsByElement(cells: readonly ElementCell[], refusals: readonly Refusal[]): Map<number, Refusal> {
  const byCell = new Map(refusals.map((r) => [`${r.keyId}:${r.languageId}:${r.customerId ?? ''}`, r]));
  const found = new Map<number, Refusal>();
  for (const c of cells) {
    const refusal = byCell.get(`${c.keyId}:${c.languageId}:${c.customerId ?? ''}`);
    if (refusal) found.set(c.index, refusal);
  }
  return found;
}

export const elementKeyId = (ids: Map<string, number>, e: ValidElement) => ids.get(keyRefId(e));

/** A v1 write of one base cell of an existing key and language, looked up by its own statement (writeNamedElement). */
interface NamedElement {
  projectId: number;
  element: ValidElement & { text: string };
  replace: boolean;
  /** Whether the write sets its key's last-seen (a POST's rule 2; a PATCH does not). */
  touch: boolean;
  /** The change the write opens, its id taken by the statement. */
  opening: Opening;
}

/**
 * One statement for a v1 write of one base cell, alone or with the others of
 * its project that arrive meanwhile (src/db/statement-groups.ts): the names
 * looked up, and the write gate's statement over the writes whose key and
 * language exist (namedGroupGateSql), each opening its change there (a
 * POST's also setting its key's last-seen) and answering whether its cell
 * held a text before — what the lookup and the gate's statement did in two
 * (docs/benchmarks.md, "One statement for a one-cell write"). A lane is a
 * project, the replace rule and last-seen; a cell once a statement.
 */
const namedElements = statementGroups<NamedElement, NamedRow>({
  lane: (w) => `${w.projectId}:${w.replace}:${w.touch}`,
  slot: (w) => JSON.stringify([w.element.namespace, w.element.key, w.element.language]),
  max: MAX_GROUP,
  alone: async (w) => (await readRows<NamedRow>(namedElementsSql(w.projectId, [w])))[0]!,
  together: (group) => readRows<NamedRow>(namedElementsSql(group[0]!.projectId, group)),
});

/**
 * The statement of a group of named v1 writes: the same text whatever the
 * group's length (its arrays are parameters), so one prepared statement. A
 * write takes its change id when its key and language exist, whether the
 * gate then writes its cell or refuses it (as the v1 write opens its change
 * either way).
 */
export function namedElementsSql(projectId: number, group: readonly NamedElement[]): Prisma.Sql {
  const looked = Prisma.sql`SELECT i.ord, k.id AS key_id, l.id AS language_id, i.text, NULL::text AS status,
             CASE WHEN k.id IS NOT NULL AND l.id IS NOT NULL THEN ${Prisma.raw(NEXT_CHANGE_ID)} END AS change,
             NULL::text AS refusal, 0 AS length, NULL::int AS chars_limit,
             EXISTS (SELECT 1 FROM "Translation" t WHERE t."keyId" = k.id AND t."languageId" = l.id AND t.text <> '') AS filled
        FROM (SELECT ${arrayLiteral(group, (w) => w.element.namespace)}::text[] AS namespaces, ${arrayLiteral(group, (w) => w.element.key)}::text[] AS keys,
                     ${arrayLiteral(group, (w) => w.element.language)}::text[] AS languages, ${arrayLiteral(group, (w) => w.element.text)}::text[] AS texts OFFSET 0) a
        CROSS JOIN LATERAL unnest(a.namespaces, a.keys, a.languages, a.texts) WITH ORDINALITY AS i(ns, name, language, text, ord)
        LEFT JOIN LATERAL (SELECT k.id FROM "TranslationKey" k
                            WHERE k."projectId" = ${projectId} AND k.namespace = i.ns AND k.key = i.name OFFSET 0) k ON true
        LEFT JOIN "Language" l ON l."projectId" = ${projectId} AND l.key = i.language`;
  return namedGroupGateSql(
    projectId,
    looked,
    group.map((w) => w.opening),
    { anyStatus: false, replace: group[0]!.replace, touch: group[0]!.touch },
  );
}

/** Named v1 writes' statements sent and the writes they carried (tests, benchmarks). */
export const namedElementStats = namedElements.stats;

/**
 * Writes one element's base cell in one statement with its lookup when its
 * key and language exist: the statement's row (the gate's Row, with the ids
 * found) and the element's refusals as problems, or undefined when either
 * must be created first — nothing was written or opened then, and the write
 * goes the long way.
 */
export async function writeNamedElement(
  projectId: number,
  element: ValidElement & { text: string },
  options: { replace: boolean; touch: boolean; details: Record<string, unknown> },
): Promise<{ row: NamedRow; problems: Problem[] } | undefined> {
  const opening = openingParams(projectId, 'TRANSLATIONS', options.details);
  const row = await namedElements.run({ projectId, element, replace: options.replace, touch: options.touch, opening });
  if (row.change === null) return undefined;
  return { row, problems: noteNamedWrite(projectId, row).map((refusal) => at(element.index, refusalMessage(refusal))) };
}

/**
 * The element a v1 request writes in one statement (writeNamedElement): its
 * only element, when that is valid and a base cell with a text.
 */
export function namedElementOf(
  content: readonly V1Element[],
  valid: readonly ValidElement[],
): (ValidElement & { text: string }) | undefined {
  const [only] = valid;
  return content.length === 1 && only && only.customerKey === null && only.text !== null
    ? (only as ValidElement & { text: string })
    : undefined;
}

// Change events: every write of content and every project-level action opens
// one Activity row in its own transaction (`openChange`), before it writes. The
// write gate then records the cells it writes as events of that activity (one
// batch row per statement: cell-events.ts), in the statement that writes them
// (translations/gate.ts), so a chunk of cells costs no statement more. Opening
// a change also queues the project's webhooks that want its trigger (the
// outbox, src/webhooks/), in the same statement: one statement per change,
// whatever its size. The same statement queues the runs of the project's
// automation rules that the change's kind can trigger (automationTriggersOf;
// src/automations/): one row per rule and change, unique, so a change runs each
// rule at most once.
import type { Db } from '../db.js';
import { arrayLiteral } from '../db/array-literal.js';
import { Prisma } from '../generated/prisma/client.js';
import { insertCellEventsSql } from './cell-events.js';
import { currentOrigin, noteOpened, type Origin } from './origin.js';
import { noteOutbound } from './outbound-queue.js';

/** What a change did. */
export type ChangeKind =
  | 'TRANSLATIONS' // v1 POST/PATCH, v2 PATCH, the GraphQL mutation
  | 'KEYS' // create, update, delete keys
  | 'LANGUAGES'
  | 'CUSTOMERS'
  | 'IMPORT'
  | 'EXPORT'
  | 'PUBLICATION'
  | 'JOB_STARTED'
  | 'AUTO_TRANSLATION' // the cells a job wrote
  | 'JOB_FINISHED'
  | 'SETTINGS'
  | 'PURGE'
  | 'REVERT'
  | 'AUTOMATION' // the cells an automation run wrote (review status, cleared texts)
  | 'QUALITY'; // a quality-check finding dismissed or restored, a publication gate overridden (src/findings/)

export const CHANGE_KINDS: readonly ChangeKind[] = [
  'TRANSLATIONS',
  'KEYS',
  'LANGUAGES',
  'CUSTOMERS',
  'IMPORT',
  'EXPORT',
  'PUBLICATION',
  'JOB_STARTED',
  'AUTO_TRANSLATION',
  'JOB_FINISHED',
  'SETTINGS',
  'PURGE',
  'REVERT',
  'AUTOMATION',
  'QUALITY',
];

/** Webhook triggers (the vendor's names). */
export type Trigger =
  'CHANGE' | 'IMPORT' | 'EXPORT' | 'PUBLICATION' | 'ENVIRONMENT_PUBLICATION' | 'AUTO_TRANSLATION_SUCCESS' | 'REVERT';

export const TRIGGERS: readonly Trigger[] = [
  'CHANGE',
  'IMPORT',
  'EXPORT',
  'PUBLICATION',
  'ENVIRONMENT_PUBLICATION',
  'AUTO_TRANSLATION_SUCCESS',
  'REVERT',
];

/** The webhook trigger a change fires, if any. */
export function triggerOf(kind: ChangeKind, details: Record<string, unknown>): Trigger | null {
  switch (kind) {
    case 'TRANSLATIONS':
    case 'KEYS':
    case 'LANGUAGES':
    case 'CUSTOMERS':
    case 'PURGE':
    case 'AUTO_TRANSLATION':
    case 'AUTOMATION':
      return 'CHANGE';
    case 'IMPORT':
      return 'IMPORT';
    case 'EXPORT':
      return 'EXPORT';
    case 'PUBLICATION':
      return details.environment === '_latest' ? 'PUBLICATION' : 'ENVIRONMENT_PUBLICATION';
    case 'JOB_FINISHED':
      return details.state === 'SUCCESS' ? 'AUTO_TRANSLATION_SUCCESS' : null;
    case 'REVERT':
      return 'REVERT';
    default:
      return null;
  }
}

/** What can trigger an automation rule (src/automations/, docs/automations.md). */
export type AutomationTrigger =
  | 'TEXTS_CHANGED'
  | 'KEY_CREATED'
  | 'IMPORT_FINISHED'
  | 'AUTO_TRANSLATION_FINISHED'
  | 'REVIEW_STATUS_CHANGED'
  | 'SCHEDULE';

export const AUTOMATION_TRIGGERS: readonly AutomationTrigger[] = [
  'TEXTS_CHANGED',
  'KEY_CREATED',
  'IMPORT_FINISHED',
  'AUTO_TRANSLATION_FINISHED',
  'REVIEW_STATUS_CHANGED',
  'SCHEDULE',
];

/**
 * The triggers a change of each kind may fire as it opens; whether it really
 * did (its cells, the keys it created) is decided when the run is taken
 * (src/automations/match.ts). A job's cells and its end are queued when the
 * job ends (src/jobs/finish.ts), as its webhooks are.
 */
const AUTOMATION_TRIGGERS_OF: Partial<Record<ChangeKind, AutomationTrigger[]>> = {
  TRANSLATIONS: ['TEXTS_CHANGED', 'REVIEW_STATUS_CHANGED', 'KEY_CREATED'],
  IMPORT: ['TEXTS_CHANGED', 'REVIEW_STATUS_CHANGED', 'KEY_CREATED', 'IMPORT_FINISHED'],
  KEYS: ['KEY_CREATED'],
  REVERT: ['TEXTS_CHANGED', 'REVIEW_STATUS_CHANGED'],
  AUTOMATION: ['TEXTS_CHANGED', 'REVIEW_STATUS_CHANGED'],
};

/** A chain of rules (a run's change triggering another rule's run …) stops at this depth. */
export const MAX_AUTOMATION_DEPTH = 3;

/** The triggers of a change kind, as an SQL text[] expression of the kind (SQL). */
function automationTriggersSql(kind: Prisma.Sql): Prisma.Sql {
  // The table is ours: kinds and triggers are identifiers, written into the statement as literals.
  const cases = Object.entries(AUTOMATION_TRIGGERS_OF).map(
    ([k, triggers]) => `WHEN '${k}' THEN ARRAY[${triggers.map((t) => `'${t}'`).join(', ')}]`,
  );
  return Prisma.sql`(CASE ${kind}::text ${Prisma.raw(cases.join(' '))} ELSE ARRAY[]::text[] END)`;
}

/**
 * What a rule's source filter compares with (CONSOLE, API, CLI, JOB,
 * AUTOMATION, SYSTEM), from the change's actor kind and source (SQL).
 */
export function sourceClassSql(actorKind: Prisma.Sql, source: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(CASE WHEN ${actorKind}::text = 'JOB' THEN 'JOB' WHEN ${actorKind}::text = 'AUTOMATION' THEN 'AUTOMATION'
                WHEN ${source}::text = 'WEB' THEN 'CONSOLE' WHEN ${source}::text = 'CLI' THEN 'CLI'
                WHEN ${source}::text IN ('API', 'GRAPHQL') THEN 'API' ELSE 'SYSTEM' END)`;
}

/**
 * The INSERT queueing the runs of a change: every enabled rule of the project
 * whose trigger is in `triggers` and whose source filter admits the change,
 * except the rule acting (`self`: a rule never fires on its own origin), while
 * the chain is not deeper than MAX_AUTOMATION_DEPTH. All arguments are SQL.
 */
function queueRunsSql(at: {
  activity: Prisma.Sql;
  project: Prisma.Sql;
  triggers: Prisma.Sql;
  sourceClass: Prisma.Sql;
  self: Prisma.Sql;
  depth: Prisma.Sql;
  from?: Prisma.Sql;
}): Prisma.Sql {
  return Prisma.sql`INSERT INTO "AutomationRun" ("ruleId", "projectId", "activityId", trigger, depth)
       SELECT r.id, r."projectId", ${at.activity}, r.trigger, ${at.depth}
         FROM ${at.from ? Prisma.sql`${at.from}, ` : Prisma.empty}"AutomationRule" r
        WHERE r."projectId" = ${at.project} AND r.enabled AND r.trigger = ANY(${at.triggers})
          AND (cardinality(r.sources) = 0 OR ${at.sourceClass} = ANY(r.sources))
          AND r.id IS DISTINCT FROM ${at.self} AND ${at.depth} <= ${Prisma.raw(String(MAX_AUTOMATION_DEPTH))}
        ORDER BY r.id
       ON CONFLICT DO NOTHING`;
}

/**
 * The INSERT queueing the deliveries of a change to the project's webhooks
 * that want `trigger` (the outbox, src/webhooks/). All arguments are SQL.
 */
function queueWebhooksSql(at: {
  activity: Prisma.Sql;
  project: Prisma.Sql;
  trigger: Prisma.Sql;
  from?: Prisma.Sql;
}): Prisma.Sql {
  return Prisma.sql`INSERT INTO "WebhookDelivery" ("webhookId", "activityId", trigger)
       SELECT w.id, ${at.activity}, ${at.trigger}::text FROM ${at.from ? Prisma.sql`${at.from}, ` : Prisma.empty}"Webhook" w
        WHERE w."projectId" = ${at.project} AND w.enabled AND ${at.trigger}::text = ANY(w.triggers)
        ORDER BY w.id`;
}

/** The depth of the runs a change made in `origin` triggers. */
function depthOf(origin: Origin): number {
  return (origin.automation?.depth ?? 0) + 1;
}

/** An open change: the activity its events belong to. */
export interface Change {
  id: bigint;
  projectId: number;
}

export interface OpenOptions {
  /** Defaults to the current origin (origin.ts). */
  origin?: Origin;
  /** Content edits that are not cells (keys, languages, customers): they count for lastEditedAt. */
  edits?: number;
  revertOf?: bigint;
}

/**
 * When the project's content last changed: its latest change that wrote cells or edited keys, languages or
 * customers (exports, publications, jobs and settings change no content), else the project's creation. A
 * file that carries a revision date (PO's header) takes this one, so that the same content exports to the
 * same bytes: a Git sync push of an unchanged PO file has nothing to commit.
 */
export async function contentChangedAt(db: Db, projectId: number): Promise<Date> {
  const [row] = await db.$queryRaw<{ at: Date }[]>(Prisma.sql`/* history:content-changed-at */
    SELECT coalesce(${lastContentChangeSql(Prisma.sql`${projectId}::int`)},
                    (SELECT p."createdAt" FROM "Project" p WHERE p.id = ${projectId})) AS at`);
  return row?.at ?? new Date(0);
}

/**
 * The time of a project's latest change of content (null: none kept), `project` its id: newest first along
 * the ("projectId", at) index, the first matching entry ends the scan.
 */
export function lastContentChangeSql(project: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT a.at FROM "Activity" a WHERE a."projectId" = ${project} AND (a.cells > 0 OR a.edits > 0)
                      ORDER BY a.at DESC, a.id DESC LIMIT 1)`;
}

/** Opens a change in the caller's transaction (one statement, webhooks queued with it). */
export async function openChange(
  db: Db,
  projectId: number,
  kind: ChangeKind,
  details: Record<string, unknown> = {},
  options: OpenOptions = {},
): Promise<Change> {
  const opening = openingValues(NEW_CHANGE_ID, projectId, kind, details, options);
  const [row] = await db.$queryRaw<{ id: bigint; outbound: boolean }[]>(Prisma.sql`/* history:open-change */
    WITH ${openingCtes(openingSql(opening), Prisma.sql`0`)} SELECT id, ${OUTBOUND_QUEUED} AS outbound FROM activity`);
  noteOpened(projectId, row!.id);
  noteOpeningRow(row);
  return { id: row!.id, projectId };
}

/**
 * A new change's id, taken before the change is opened, so that opening it
 * and writing its cells can go to the database as one batch (translations/update-one.ts).
 * Part of a statement the caller already sends: `SELECT ${NEXT_CHANGE_ID} AS change_id`.
 */
export const NEXT_CHANGE_ID = `nextval(pg_get_serial_sequence('"Activity"', 'id'))`;

/** NEXT_CHANGE_ID as the id of a change opened by itself. */
const NEW_CHANGE_ID = Prisma.raw(NEXT_CHANGE_ID);

/**
 * The values opening a change, in the order of the statement's columns:
 * id, project, kind, actor kind, actor id, source, details (JSON), edits,
 * change reverted, webhook trigger, automation depth, rule acting.
 */
export type Opening = [
  id: bigint | Prisma.Sql,
  projectId: number,
  kind: ChangeKind,
  actorKind: Origin['actorKind'],
  actorId: string | null,
  source: Origin['source'],
  details: string,
  edits: number,
  revertOf: bigint | null,
  trigger: Trigger | null,
  depth: number,
  self: number | null,
];

function openingValues(
  id: bigint | Prisma.Sql,
  projectId: number,
  kind: ChangeKind,
  details: Record<string, unknown>,
  options: OpenOptions,
): Opening {
  const origin = options.origin ?? currentOrigin();
  // A job's cells are told about once the job has ended (queueWebhooks from its end), not while it still writes.
  const trigger = kind === 'AUTO_TRANSLATION' ? null : triggerOf(kind, details);
  return [
    id,
    projectId,
    kind,
    origin.actorKind,
    origin.actorId,
    origin.source,
    JSON.stringify(details),
    options.edits ?? 0,
    options.revertOf ?? null,
    trigger,
    depthOf(origin),
    origin.automation?.ruleId ?? null,
  ];
}

/** The SQL of each of an Opening's values. */
type AsSql<T> = { [K in keyof T]: Prisma.Sql };
type OpeningSql = AsSql<Opening>;

/** The values as parameters (an id given as SQL as itself). */
const openingSql = (opening: Opening): OpeningSql =>
  opening.map((v) => (v instanceof Prisma.Sql ? v : Prisma.sql`${v}`)) as OpeningSql;

/**
 * CTEs `activity`, `queued` and `automated` opening a change: the one
 * statement text of every way a change is opened. `at` holds the SQL of each
 * of the Opening's values; `cells` is the change's cell count, an SQL
 * expression of the enclosing statement (its events are written by sibling
 * CTEs: the row cannot be updated in the same statement). The statement
 * selects OUTBOUND_QUEUED, for noteOpeningRow.
 */
function openingCtes(at: OpeningSql, cells: Prisma.Sql): Prisma.Sql {
  const [id, project, kind, actorKind, actorId, source, details, edits, revertOf, trigger, depth, self] = at;
  const projectInt = Prisma.sql`${project}::int`;
  return Prisma.sql`activity AS (
       INSERT INTO "Activity" (${ACTIVITY_COLUMNS})
       VALUES (${id}::bigint, ${projectInt}, ${kind}::text, ${actorKind}::text, ${actorId}::text, ${source}::text, ${details}::jsonb, ${edits}::int, ${revertOf}::bigint,
               ${cells}) RETURNING id
     ), ${outboundCtesSql({
       activity: Prisma.sql`activity.id`,
       project: projectInt,
       kind,
       actorKind,
       source,
       trigger,
       depth: Prisma.sql`${depth}::int`,
       self: Prisma.sql`${self}::int`,
       from: Prisma.sql`activity`,
     })}`;
}

/** The columns of an Activity row its opening writes. */
const ACTIVITY_COLUMNS = Prisma.raw(
  `id, "projectId", kind, "actorKind", "actorId", source, details, edits, "revertOf", cells`,
);

/**
 * The CTEs `queued` and `automated` of an opening: the webhook deliveries and
 * automation runs of the change(s) in `from` (all arguments are SQL of it).
 */
function outboundCtesSql(at: {
  activity: Prisma.Sql;
  project: Prisma.Sql;
  kind: Prisma.Sql;
  actorKind: Prisma.Sql;
  source: Prisma.Sql;
  trigger: Prisma.Sql;
  depth: Prisma.Sql;
  self: Prisma.Sql;
  from: Prisma.Sql;
}): Prisma.Sql {
  return Prisma.sql`queued AS (
       ${queueWebhooksSql({ activity: at.activity, project: at.project, trigger: at.trigger, from: at.from })}
       RETURNING 1
     ), automated AS (
       ${queueRunsSql({
         activity: at.activity,
         project: at.project,
         triggers: automationTriggersSql(at.kind),
         sourceClass: sourceClassSql(at.actorKind, at.source),
         self: at.self,
         depth: at.depth,
         from: at.from,
       })}
       RETURNING 1
     )`;
}

/** Whether the opening CTEs queued a webhook delivery or an automation run (a boolean SQL expression). */
export const OUTBOUND_QUEUED = Prisma.sql`(EXISTS (SELECT 1 FROM queued) OR EXISTS (SELECT 1 FROM automated))`;

/** Reads the `outbound` column of a statement that opened a change: its workers are woken once the work ends. */
export function noteOpeningRow(row: { outbound?: boolean | null } | undefined): void {
  if (row?.outbound) noteOutbound();
}

/**
 * Opening a change inside the statement that writes its cells (the write
 * gate's, for a one-cell write: translations/update-one.ts), with an id taken earlier
 * (NEXT_CHANGE_ID): the values, read now — the origin from the request's
 * scope, where the change is also noted for its announcement — for
 * openChangeCtesSql.
 */
export function openChangeParams(
  change: Change,
  kind: ChangeKind,
  details: Record<string, unknown> = {},
  options: OpenOptions = {},
): Opening {
  noteOpened(change.projectId, change.id);
  return openingValues(change.id, change.projectId, kind, details, options);
}

/**
 * The values opening a change whose id the statement that opens it takes
 * itself (openChangesCtesSql's `taken`: translations/update-one.ts): as
 * openChangeParams, read now; the caller notes the change for its
 * announcement (noteOpened) once the statement has answered with its id.
 */
export function openingParams(
  projectId: number,
  kind: ChangeKind,
  details: Record<string, unknown> = {},
  options: OpenOptions = {},
): Opening {
  return openingValues(NEW_CHANGE_ID, projectId, kind, details, options);
}

/** The CTEs opening a change (see openingCtes) with the values of openChangeParams. */
export function openChangeCtesSql(opening: Opening, counts: { cells: Prisma.Sql }): Prisma.Sql {
  return openingCtes(openingSql(opening), counts.cells);
}

/**
 * The CTEs `opening`, `activity`, `queued` and `automated` opening several
 * changes in one statement, one per Opening: the same INSERTs as
 * openingCtes, over a row per change. The ids were taken earlier (as
 * bigints), or, with `taken`, by the statement itself: `taken` is a relation
 * of the enclosing statement with a row (`ord`, `change`) for each change to
 * open, `ord` the position of its Opening (from 1), and an Opening without a
 * row there opens nothing. `cells(id)` is the cell count of the change whose
 * id is the SQL `id` (an expression of the enclosing statement). For the write
 * gate's statement of a group of one-cell writes (translations/cell-groups.ts,
 * translations/update-one.ts).
 */
export function openChangesCtesSql(
  openings: readonly Opening[],
  cells: (id: Prisma.Sql) => Prisma.Sql,
  taken?: Prisma.Sql,
): Prisma.Sql {
  const column = (i: number) => arrayLiteral(openings, (o) => o[i] as string | number | null);
  const revertOfs = arrayLiteral(openings, (o) => (o[8] === null ? null : String(o[8])));
  const values = Prisma.sql`${column(1)}::int[], ${column(2)}::text[], ${column(3)}::text[], ${column(4)}::text[], ${column(5)}::text[],
                            ${column(6)}::jsonb[], ${column(7)}::int[], ${revertOfs}::bigint[], ${column(9)}::text[], ${column(10)}::int[], ${column(11)}::int[]`;
  const names = Prisma.raw(
    'project_id, kind, actor_kind, actor_id, source, details, edits, revert_of, trigger, depth, self',
  );
  const rows = taken
    ? Prisma.sql`SELECT t.change AS id, o.* FROM unnest(${values}) WITH ORDINALITY AS o(${names}, ord) JOIN ${taken} t ON t.ord = o.ord`
    : Prisma.sql`SELECT * FROM unnest(${arrayLiteral(openings, (o) => {
        if (typeof o[0] !== 'bigint') throw new Error('a change opened in a group has its id');
        return String(o[0]);
      })}::bigint[], ${values}) AS o(id, ${names})`;
  return Prisma.sql`opening AS (
       ${rows}
     ), activity AS (
       INSERT INTO "Activity" (${ACTIVITY_COLUMNS})
       SELECT o.id, o.project_id, o.kind, o.actor_kind, o.actor_id, o.source, o.details, o.edits, o.revert_of, ${cells(Prisma.sql`o.id`)}
         FROM opening o RETURNING id
     ), ${outboundCtesSql({
       activity: Prisma.sql`o.id`,
       project: Prisma.sql`o.project_id`,
       kind: Prisma.sql`o.kind`,
       actorKind: Prisma.sql`o.actor_kind`,
       source: Prisma.sql`o.source`,
       trigger: Prisma.sql`o.trigger`,
       depth: Prisma.sql`o.depth`,
       self: Prisma.sql`o.self`,
       from: Prisma.sql`activity a JOIN opening o ON o.id = a.id`,
     })}`;
}

/**
 * The statement opening a change by itself, with the values of
 * openChangeParams, not yet sent: for a caller that sends it in one batched
 * transaction with the statements writing the change's content
 * (translations/v1-elements.ts), and hands its row to noteOpeningRow.
 */
export function openChangeQuery(db: Db, opening: Opening) {
  return db.$queryRaw<{ id: bigint; outbound: boolean }[]>(
    Prisma.sql`/* history:open-change */ WITH ${openChangeCtesSql(opening, { cells: Prisma.sql`0` })} SELECT id, ${OUTBOUND_QUEUED} AS outbound FROM activity`,
  );
}

/** Queues the project's webhooks that want `trigger` for a change opened earlier (a job's cells, when the job ends). */
export async function queueWebhooks(db: Db, change: Change, trigger: Trigger): Promise<void> {
  const queued = await db.$executeRaw(Prisma.sql`/* history:queue-webhooks */
    ${queueWebhooksSql({ activity: Prisma.sql`${change.id}::bigint`, project: Prisma.sql`${change.projectId}::int`, trigger: Prisma.sql`${trigger}` })}`);
  if (queued > 0) noteOutbound();
}

/**
 * Queues the runs of the project's rules that want one of `triggers` for a
 * change opened earlier (a job's cells and its end, when the job ends), in
 * the caller's transaction; `origin` is the origin the change was made in.
 */
export async function queueAutomations(
  db: Db,
  change: Change,
  triggers: AutomationTrigger[],
  origin: Origin,
): Promise<void> {
  if (triggers.length === 0) return;
  const queued = await db.$executeRaw(
    Prisma.sql`/* automations:queue */ ${queueRunsSql({
      activity: Prisma.sql`${change.id}::bigint`,
      project: Prisma.sql`${change.projectId}::int`,
      triggers: Prisma.sql`${triggers}::text[]`,
      sourceClass: sourceClassSql(Prisma.sql`${origin.actorKind}`, Prisma.sql`${origin.source}`),
      self: Prisma.sql`${origin.automation?.ruleId ?? null}::int`,
      depth: Prisma.sql`${depthOf(origin)}::int`,
    })}`,
  );
  if (queued > 0) noteOutbound();
}

/**
 * Records, before they are deleted with their key, language or customer, the texts of
 * the cells that go (new text empty): one statement, whatever their number.
 */
export async function recordDeletedCells(
  db: Db,
  change: Change,
  scope: { keyIds: number[] } | { languageId: number } | { customerIds: number[] },
): Promise<void> {
  const where =
    'keyIds' in scope
      ? Prisma.sql`t."keyId" = ANY(${arrayLiteral(scope.keyIds)}::int[])`
      : 'languageId' in scope
        ? Prisma.sql`t."languageId" = ${scope.languageId}`
        : Prisma.sql`t."customerId" = ANY(${arrayLiteral(scope.customerIds)}::int[])`;
  // A customer's cells are its overrides only.
  const base =
    'customerIds' in scope
      ? Prisma.empty
      : Prisma.sql`SELECT t."keyId", t."languageId", NULL::int AS "customerId", t.text, t."reviewStatus" FROM "Translation" t WHERE t."projectId" = ${change.projectId} AND ${where}
       UNION ALL
       `;
  await db.$executeRaw(Prisma.sql`/* history:record-deleted-cells */
     WITH gone AS (
       ${base}SELECT t."keyId", t."languageId", t."customerId", t.text, t."reviewStatus" FROM "CustomerTranslation" t WHERE t."projectId" = ${change.projectId} AND ${where}
     ), events AS (
       ${insertCellEventsSql({
         activity: Prisma.sql`${change.id}::bigint`,
         project: Prisma.sql`${change.projectId}`,
         split: true,
         cells: Prisma.sql`
         SELECT row_number() OVER (ORDER BY g."keyId", g."languageId", g."customerId" NULLS FIRST) AS ord, g."keyId", g."languageId", g."customerId",
                k.key, k.namespace, g.text AS "oldText", ''::text AS "newText", g."reviewStatus" AS "oldStatus", 'NOT_REVIEWED'::"ReviewStatus" AS "newStatus"
           FROM gone g JOIN "TranslationKey" k ON k.id = g."keyId"`,
       })}
     )
     UPDATE "Activity" SET cells = cells + (SELECT coalesce(sum(n), 0)::int FROM events) WHERE id = ${change.id}::bigint`);
}

/** Adds to a change's details (top-level merge) and its edit count, in the caller's transaction. */
export async function amendChange(db: Db, change: Change, details: Record<string, unknown>, edits = 0): Promise<void> {
  await db.$executeRaw(Prisma.sql`/* history:amend-change */
    UPDATE "Activity" SET details = details || ${JSON.stringify(details)}::jsonb, edits = edits + ${edits} WHERE id = ${change.id}::bigint`);
}

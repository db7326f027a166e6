// Updating one translation cell (PATCH /api/v2/translations): any existing key
// and language of the project has a cell, possibly empty. Text and/or review
// status are set; with a customer, its override is written and the base
// translation stays unchanged.
import { prisma } from '../../db.js';
import { readRows } from '../../db/read-rows.js';
import { arrayLiteral } from '../../db/array-literal.js';
import { statementGroups } from '../../db/statement-groups.js';
import { Prisma } from '../../generated/prisma/client.js';
import { AppError, badRequest, conflict, notFound, said } from '../../errors.js';
import { namespaceOrDefault, requireKeyName } from '../keys/input.js';
import { describeKey, keyRef } from '../keys/write.js';
import { cellsOfKeys, type TranslationCell } from './cells.js';
import { NEXT_CHANGE_ID, openChangeParams, openingParams, type Opening } from '../changes.js';
import { runBatched } from './batched-writes.js';
import { MAX_GROUP, writeOneCell } from './cell-groups.js';
import {
  namedGroupGateSql,
  noteNamedWrite,
  planGate,
  refusalSql,
  type NamedRow,
  type Refusal,
  type Row,
} from './gate.js';
import { refusalText } from './rules.js';
import type { ReviewStatus } from './store.js';

export interface UpdateTranslationInput {
  key: string;
  namespace?: string | null;
  language: string;
  customerKey?: string | null;
  text?: string | null;
  reviewStatus?: ReviewStatus | null;
  /** The cell's lastModifiedAt the writer last read (epoch 0: never written); absent: no check. */
  expectedLastModifiedAt?: Date | null;
}

function parse(input: UpdateTranslationInput) {
  const key = requireKeyName(input.key);
  const namespace = namespaceOrDefault(input.namespace);
  if (input.language === '') throw badRequest('language is required');
  const text = input.text ?? undefined;
  const reviewStatus = input.reviewStatus ?? undefined;
  if (text === undefined && reviewStatus === undefined) throw badRequest('text or reviewStatus is required');
  return { key, namespace, language: input.language, customerKey: input.customerKey || null, text, reviewStatus };
}

interface Lookup {
  key_id: number | null;
  language_id: number | null;
  customer_id: number | null;
  current_text: string | null;
  current_status: 'REVIEWED' | 'NOT_REVIEWED' | null;
  current_modified: Date | null;
  refusal: 'LOCKED' | 'CHARACTERS_LIMIT' | null;
  length: number;
  chars_limit: number | null;
  change_id: bigint | null;
}

/** What a lookup reads of a request, as SQL: parameters (one lookup) or the columns of a group's row. */
interface LookupFields {
  namespace: Prisma.Sql;
  key: Prisma.Sql;
  language: Prisma.Sql;
  /** The customer's key, or NULL for the base translation. */
  customer: Prisma.Sql;
  /** The new text, or NULL when only the status is written. */
  text: Prisma.Sql;
}

/**
 * One row: the key, the language, the customer, the cell as it is, what the
 * write gate's rules say about the new text (refusalSql), and the id of the
 * change to open — taken only when the write can go ahead.
 */
function lookupRowSql(projectId: number, f: LookupFields): Prisma.Sql {
  // Whether the write is a customer's override (its key, else NULL).
  const customer = Prisma.sql`${f.customer}::text`;
  const base = Prisma.sql`${customer} IS NULL`;
  return Prisma.sql`SELECT k.id AS key_id, l.id AS language_id, c.id AS customer_id, r.text AS new_text,
         CASE WHEN ${base} THEN t.text ELSE ct.text END AS current_text,
         CASE WHEN ${base} THEN t."reviewStatus" ELSE ct."reviewStatus" END::text AS current_status,
         CASE WHEN ${base} THEN t."lastModifiedAt" ELSE ct."lastModifiedAt" END AS current_modified,
         r.refusal, char_length(r.text)::int AS length, k."charactersLimit" AS chars_limit,
         CASE WHEN k.id IS NOT NULL AND l.id IS NOT NULL AND (${base} OR c.id IS NOT NULL) AND r.refusal IS NULL THEN ${Prisma.raw(NEXT_CHANGE_ID)} END AS change_id
    FROM (SELECT 1) one
    LEFT JOIN "TranslationKey" k ON k."projectId" = ${projectId} AND k.namespace = ${f.namespace} AND k.key = ${f.key}
    LEFT JOIN "Language" l ON l."projectId" = ${projectId} AND l.key = ${f.language}
    LEFT JOIN "Customer" c ON ${customer} IS NOT NULL AND c."projectId" = ${projectId} AND c.key = ${customer}
    LEFT JOIN "Translation" t ON ${base} AND t."keyId" = k.id AND t."languageId" = l.id
    LEFT JOIN "CustomerTranslation" ct ON ct."keyId" = k.id AND ct."languageId" = l.id AND ct."customerId" = c.id
    CROSS JOIN LATERAL (
      SELECT x.text, ${refusalSql({ key: 'k', text: Prisma.sql`x.text`, existing: 'e', mode: Prisma.sql`'always'` })} AS refusal
        FROM (SELECT coalesce(${f.text}::text, CASE WHEN ${base} THEN t.text ELSE ct.text END, '') AS text) x
        LEFT JOIN (SELECT coalesce(t."keyId", ct."keyId") AS "keyId", CASE WHEN ${base} THEN t.text ELSE ct.text END AS text) e ON true
    ) r`;
}

type Request = ReturnType<typeof parse> & { projectId: number };

/**
 * The lookups of one-cell writes, each alone or, when several requests of a
 * project wait together, in one statement (src/db/statement-groups.ts): its
 * rows, one per request in order, are what each lookup alone would read.
 */
const lookups = statementGroups<Request, Lookup>({
  lane: (r) => String(r.projectId),
  max: 32,
  async alone(r) {
    const row = lookupRowSql(r.projectId, {
      namespace: Prisma.sql`${r.namespace}`,
      key: Prisma.sql`${r.key}`,
      language: Prisma.sql`${r.language}`,
      customer: Prisma.sql`${r.customerKey}`,
      text: Prisma.sql`${r.text ?? null}`,
    });
    return (await readRows<Lookup>(Prisma.sql`/* translations:update-one-lookup */ ${row}`))[0]!;
  },
  together: (group) => readRows<Lookup>(lookupsSql(group[0]!.projectId, group)),
});

/** What a group's lookup reads of each request. */
type Looked = Pick<Request, 'namespace' | 'key' | 'language' | 'customerKey' | 'text'>;

/**
 * The lookups of a group of one-cell writes of a project, one row per request in order. The arrays come through a
 * subquery the planner keeps (OFFSET 0): PostgreSQL then estimates their unnest at its default of ten rows whatever
 * their length, in the plans made for the values as in the generic one, and keeps the generic plan after five
 * executions. Read as constants, a group of fewer than ten writes made a plan that looked cheaper than the generic
 * one, and the statement was planned again at nearly every execution (0.64 ms each, more than it ran, 15 % of a
 * core under one-cell writes at 16 clients).
 */
export function lookupsSql(projectId: number, group: readonly Looked[]): Prisma.Sql {
  return Prisma.sql`/* translations:update-one-lookups */
      SELECT r.* FROM (SELECT ${arrayLiteral(group, (r) => r.namespace)}::text[] AS namespaces, ${arrayLiteral(group, (r) => r.key)}::text[] AS keys,
                              ${arrayLiteral(group, (r) => r.language)}::text[] AS languages, ${arrayLiteral(group, (r) => r.customerKey)}::text[] AS customers,
                              ${arrayLiteral(group, (r) => r.text ?? null)}::text[] AS texts OFFSET 0) a
      CROSS JOIN LATERAL unnest(a.namespaces, a.keys, a.languages, a.customers, a.texts) WITH ORDINALITY AS i(namespace, key, language, customer, text, ord)
      CROSS JOIN LATERAL (${lookupRowSql(projectId, {
        namespace: Prisma.sql`i.namespace`,
        key: Prisma.sql`i.key`,
        language: Prisma.sql`i.language`,
        customer: Prisma.sql`i.customer`,
        text: Prisma.sql`i.text`,
      })}) r
      ORDER BY i.ord`;
}

/** A base cell's write that its statement looks up itself: the request and the change it opens. */
type NamedWrite = Request & { opening: Opening };

/**
 * One statement for a base cell's write, alone or with the writes of its
 * project that arrive meanwhile (src/db/statement-groups.ts): the lookup
 * above, for every write of the group, and the write gate's statement over
 * the writes it lets go ahead (namedGroupGateSql), which take their change
 * ids there. The lookup and the write were two statements, each a round
 * trip and a wait in its lane (docs/benchmarks.md, "One statement for a
 * one-cell write"). A lane is a project and whether the writes set a review
 * status (one rule for all of a statement's rows); a cell once a statement.
 */
const namedWrites = statementGroups<NamedWrite, NamedRow>({
  lane: (w) => `${w.projectId}:${w.reviewStatus !== undefined}`,
  slot: (w) => JSON.stringify([w.namespace, w.key, w.language]),
  max: MAX_GROUP,
  alone: async (w) => (await readRows<NamedRow>(namedWritesSql(w.projectId, [w])))[0]!,
  together: (group) => readRows<NamedRow>(namedWritesSql(group[0]!.projectId, group)),
});

/**
 * The statement of a group of named writes; the same text whatever the
 * group's length (its arrays are parameters), so one prepared statement.
 */
export function namedWritesSql(projectId: number, group: readonly NamedWrite[]): Prisma.Sql {
  const looked = Prisma.sql`SELECT i.ord, r.key_id, r.language_id, r.new_text AS text, i.status, r.change_id AS change,
             r.refusal, r.length, r.chars_limit, NULL::boolean AS filled
        FROM (SELECT ${arrayLiteral(group, (w) => w.namespace)}::text[] AS namespaces, ${arrayLiteral(group, (w) => w.key)}::text[] AS keys,
                     ${arrayLiteral(group, (w) => w.language)}::text[] AS languages, ${arrayLiteral(group, (w) => w.text ?? null)}::text[] AS texts,
                     ${arrayLiteral(group, (w) => w.reviewStatus ?? null)}::text[] AS statuses OFFSET 0) a
        CROSS JOIN LATERAL unnest(a.namespaces, a.keys, a.languages, a.texts, a.statuses) WITH ORDINALITY AS i(namespace, key, language, text, status, ord)
        CROSS JOIN LATERAL (${lookupRowSql(projectId, {
          namespace: Prisma.sql`i.namespace`,
          key: Prisma.sql`i.key`,
          language: Prisma.sql`i.language`,
          customer: Prisma.sql`NULL`,
          text: Prisma.sql`i.text`,
        })}) r`;
  return namedGroupGateSql(
    projectId,
    looked,
    group.map((w) => w.opening),
    { anyStatus: group[0]!.reviewStatus !== undefined },
  );
}

/** Named writes' statements sent and the writes they carried (tests, benchmarks). */
export const namedWriteStats = namedWrites.stats;

/** Lookups sent and the requests they carried (tests, benchmarks). */
export const lookupGroupStats = lookups.stats;

/**
 * No transaction: a base cell's write is one statement with its lookup
 * (namedWrites), which also opens the change (its Activity row, webhooks
 * queued, cell count and event range) and returns the written row as the
 * answer — one statement is atomic by itself. A customer's override, and a
 * write that checks the cell against what its writer read, are two: the
 * lookup above, whose answer is checked here first; then the write gate's
 * statement, a base cell's with the one-cell writes of the project that
 * arrive meanwhile (cell-groups.ts), a customer's override through
 * batched-writes.ts. The gate applies its rules again in its own statement:
 * a key locked in between is still refused (its change then records no
 * cell).
 */
export async function updateTranslation(projectId: number, input: UpdateTranslationInput): Promise<TranslationCell> {
  const request = parse(input);
  const address = { key: request.key, namespace: request.namespace };
  // A base cell without a read to check against: its lookup and write are one statement.
  if (!request.customerKey && !input.expectedLastModifiedAt) return writeNamed({ ...request, projectId });
  const db = prisma();
  // Through the driver adapter, not the client's query interpreter (as the gate's statement, batched-writes.ts).
  const found = await lookups.run({ ...request, projectId });
  if (found.key_id === null) throw notFound(said('key-not-found', { key: keyRef(address) }));
  if (found.language_id === null) throw notFound(said('language-not-found', { language: request.language }));
  if (request.customerKey && found.customer_id === null)
    throw notFound(said('customer-not-found', { customer: request.customerKey }));
  const customer = request.customerKey ? { id: found.customer_id!, key: request.customerKey } : null;
  // An empty override means "use the base translation": there is no customer text to review.
  if (customer && request.text === undefined && !found.current_text) {
    throw notFound(
      `customer '${customer.key}' has no translation of ${describeKey(address)} in '${request.language}'; send text to create one`,
    );
  }
  // Optimistic concurrency (the web console): refuse to overwrite a cell that changed since the writer read it.
  if (
    input.expectedLastModifiedAt &&
    (found.current_modified?.getTime() ?? 0) !== input.expectedLastModifiedAt.getTime()
  ) {
    throw new AppError('CONFLICT', said('changed-since-read', { key: keyRef(address), language: request.language }), {
      current: {
        text: found.current_text ?? '',
        reviewStatus: found.current_status ?? 'NOT_REVIEWED',
        lastModifiedAt: found.current_modified?.toISOString() ?? null,
      },
    });
  }
  const refuse = (refusal: Refusal) =>
    refusal.reason === 'LOCKED' ? conflict(refusalText(refusal)) : badRequest(refusalText(refusal));
  if (found.refusal) {
    throw refuse({
      keyId: found.key_id,
      languageId: found.language_id,
      customerId: customer?.id ?? null,
      ...address,
      reason: found.refusal,
      length: found.length,
      charactersLimit: found.chars_limit,
    });
  }
  const change = { id: BigInt(found.change_id!), projectId };
  const cell = {
    keyId: found.key_id,
    languageId: found.language_id,
    customerId: customer?.id ?? null,
    text: request.text ?? found.current_text ?? '',
    reviewStatus: request.reviewStatus,
  };
  const opening = openChangeParams(change, 'TRANSLATIONS', { operation: 'UPDATE_TRANSLATION' });
  const gate = planGate(projectId, [cell], { replace: true, change, opening });
  // A base cell is written alone or with the one-cell writes of its project that arrive meanwhile (cell-groups.ts).
  const rows = customer
    ? ((await runBatched(() => gate.statements(db), gate.single)) as Row[][])
    : [[await writeOneCell({ projectId, cell, opening, replace: true, touch: false, single: gate.single! })]];
  const [refusal] = gate.result(rows).refusals;
  if (refusal) throw refuse(refusal);
  const written = rows[0]![0]!;
  // The row the gate wrote is the answer. Read the cell back only when nothing
  // was written (the same text again, or a writer in between) or when an empty
  // customer text lets the base translation show through.
  if (written.written_text === null || (customer && written.written_text === '')) {
    const [answer] = await cellsOfKeys(projectId, [found.key_id], customer, { language: request.language });
    return answer!;
  }
  return {
    keyId: found.key_id,
    key: request.key,
    namespace: request.namespace,
    language: request.language,
    text: written.written_text,
    reviewStatus: written.written_status!,
    lastModifiedAt: written.written_modified,
    customerKey: customer?.key ?? null,
    isOverride: customer !== null,
  };
}

/** A base cell's write in one statement (namedWrites), answered and refused as updateTranslation does. */
async function writeNamed(request: Request): Promise<TranslationCell> {
  const { projectId } = request;
  const address = { key: request.key, namespace: request.namespace };
  const opening = openingParams(projectId, 'TRANSLATIONS', { operation: 'UPDATE_TRANSLATION' });
  const row = await namedWrites.run({ ...request, opening });
  if (row.key_id === null) throw notFound(said('key-not-found', { key: keyRef(address) }));
  if (row.language_id === null) throw notFound(said('language-not-found', { language: request.language }));
  const refuse = (refusal: Refusal) =>
    refusal.reason === 'LOCKED' ? conflict(refusalText(refusal)) : badRequest(refusalText(refusal));
  if (row.change === null) {
    // Refused by the rules before the write: no change was opened.
    throw refuse({
      keyId: row.key_id,
      languageId: row.language_id,
      customerId: null,
      ...address,
      reason: row.refused!,
      length: row.refused_length,
      charactersLimit: row.refused_limit,
    });
  }
  const [refusal] = noteNamedWrite(projectId, row);
  if (refusal) throw refuse(refusal);
  // The row the gate wrote is the answer; read the cell back only when nothing was written (the same text again).
  if (row.written_text === null) {
    const [answer] = await cellsOfKeys(projectId, [row.key_id], null, { language: request.language });
    return answer!;
  }
  return {
    keyId: row.key_id,
    key: request.key,
    namespace: request.namespace,
    language: request.language,
    text: row.written_text,
    reviewStatus: row.written_status!,
    lastModifiedAt: row.written_modified,
    customerKey: null,
    isOverride: false,
  };
}

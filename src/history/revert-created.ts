// What a reverted change created goes with its revert: the keys, languages and
// customers that record the change as their creator (createdByChange, set by
// createKeys, ensureLanguages, ensureCustomers and the one-at-a-time
// creations) are deleted through their domain functions, in the revert's
// transaction, their texts recorded as the revert's cell events. One is kept,
// and reported with the reason, when someone else made it theirs since:
//   - WRITTEN_SINCE: another change wrote one of its texts (a key's, a
//     language's or a customer's override);
//   - EDITED_SINCE: a key renamed or its settings changed, a language or
//     customer renamed or edited;
//   - LOCKED: a locked key is never deleted (src/content/keys/delete.ts);
//   - DEFAULT_LANGUAGE, LAST_LANGUAGE: a project keeps its default language
//     and at least one language.
// Each question is one set-based statement, whatever the number created.
import { Prisma } from '../generated/prisma/client.js';
import type { Db } from '../db.js';
import { arrayLiteral } from '../db/array-literal.js';
import { removeCustomers } from '../content/customers.js';
import { removeKeys } from '../content/keys/delete.js';
import { removeLanguages } from '../content/languages.js';
import type { Change } from '../content/changes.js';

export type CreatedKind = 'KEY' | 'LANGUAGE' | 'CUSTOMER';
export type KeptReason = 'WRITTEN_SINCE' | 'EDITED_SINCE' | 'LOCKED' | 'DEFAULT_LANGUAGE' | 'LAST_LANGUAGE';

export interface KeptEntity {
  kind: CreatedKind;
  key: string;
  /** A key's namespace ('' otherwise). */
  namespace: string;
  reason: KeptReason;
}

/** What the change created, as the revert decided about it. */
export interface CreatedDecision {
  delete: { keyIds: number[]; languageIds: number[]; customerIds: number[] };
  /** Language and customer keys deleted. */
  languages: string[];
  customers: string[];
  kept: KeptEntity[];
}

interface CreatedRow {
  kind: CreatedKind;
  id: number;
  key: string;
  namespace: string;
  /** A key's lock; a language's isDefault. */
  flag: boolean;
  /** A key changed (renamed, settings) after the change. */
  edited: boolean;
}

/** Kept entities listed in the revert's answer and activity entry (the counts are exact). */
export const KEPT_LISTED = 100;

const ids = (rows: CreatedRow[]) => arrayLiteral(rows, (r) => r.id);

/** The time of a change (read in SQL: the column's own type, no time-zone round trip). */
const atOf = (change: bigint) => Prisma.sql`(SELECT at FROM "Activity" WHERE id = ${change})`;

/** The keys, languages and customers `target` created that still exist. */
function createdBy(db: Db, projectId: number, target: bigint): Promise<CreatedRow[]> {
  return db.$queryRaw<CreatedRow[]>(Prisma.sql`/* revert:created */
    SELECT 'KEY' AS kind, k.id, k.key, k.namespace, k.lock AS flag, k."modifiedAt" > ${atOf(target)} AS edited
      FROM "TranslationKey" k WHERE k."projectId" = ${projectId} AND k."createdByChange" = ${target}
    UNION ALL
    SELECT 'LANGUAGE', l.id, l.key, '', l."isDefault", false FROM "Language" l WHERE l."projectId" = ${projectId} AND l."createdByChange" = ${target}
    UNION ALL
    SELECT 'CUSTOMER', c.id, c.key, '', false, false FROM "Customer" c WHERE c."projectId" = ${projectId} AND c."createdByChange" = ${target}`);
}

/**
 * Of the created keys, languages and customers, those whose cells another
 * change wrote (keys and languages through the GIN indexes of the batches;
 * customers among the batches of the changes since), and the languages and
 * customers a later change renamed or edited: one statement.
 */
async function touchedSince(
  db: Db,
  projectId: number,
  target: bigint,
  rows: CreatedRow[],
): Promise<{ written: Set<string>; edited: Set<string> }> {
  const keys = ids(rows.filter((r) => r.kind === 'KEY'));
  const languages = ids(rows.filter((r) => r.kind === 'LANGUAGE'));
  const customers = ids(rows.filter((r) => r.kind === 'CUSTOMER'));
  const named = arrayLiteral(
    rows.filter((r) => r.kind !== 'KEY'),
    (r) => `${r.kind}:${r.key}`,
  );
  const found = await db.$queryRaw<
    { kind: string; id: number | null; key: string | null }[]
  >(Prisma.sql`/* revert:created-touched-since */
    SELECT DISTINCT 'KEY' AS kind, e.id, NULL AS key
      FROM "CellChangeBatch" b CROSS JOIN LATERAL unnest(b."keyIds") AS e(id)
     WHERE b."keyIds" && ${keys}::int[] AND b."projectId" = ${projectId} AND b."activityId" <> ${target} AND e.id = ANY(${keys}::int[])
    UNION
    SELECT DISTINCT 'LANGUAGE', e.id, NULL
      FROM "CellChangeBatch" b CROSS JOIN LATERAL unnest(b."languageIds") AS e(id)
     WHERE b."languageIds" && ${languages}::int[] AND b."projectId" = ${projectId} AND b."activityId" <> ${target} AND e.id = ANY(${languages}::int[])
    UNION
    SELECT DISTINCT 'CUSTOMER', e.id, NULL
      FROM "Activity" a JOIN "CellChangeBatch" b ON b."activityId" = a.id CROSS JOIN LATERAL unnest(b."customerIds") AS e(id)
     WHERE cardinality(${customers}::int[]) > 0 AND a."projectId" = ${projectId} AND a.at >= ${atOf(target)} AND a.id <> ${target}
       AND b."customerIds" && ${customers}::int[] AND e.id = ANY(${customers}::int[])
    UNION
    -- Renamed or edited: a later entry naming it (its key now: the new key of a rename). The order of languages is no edit.
    SELECT 'EDITED', NULL, n.name
      FROM "Activity" a CROSS JOIN LATERAL (VALUES
             (CASE a.kind WHEN 'LANGUAGES' THEN 'LANGUAGE:' ELSE 'CUSTOMER:' END || coalesce(a.details->>'newKey', a.details->>'language', a.details->>'customer'))
           ) AS n(name)
     WHERE cardinality(${named}::text[]) > 0 AND a."projectId" = ${projectId} AND a.at >= ${atOf(target)} AND a.id <> ${target}
       AND a.kind IN ('LANGUAGES', 'CUSTOMERS') AND a.details->>'action' IS DISTINCT FROM 'REORDER_LANGUAGES' AND n.name = ANY(${named}::text[])`);
  const written = new Set<string>();
  const edited = new Set<string>();
  for (const f of found) {
    if (f.kind === 'EDITED') edited.add(f.key!);
    else written.add(`${f.kind}:${f.id}`);
  }
  return { written, edited };
}

/** Which of what `target` created the revert deletes, and which it keeps (and why). */
export async function decideCreated(db: Db, projectId: number, target: bigint): Promise<CreatedDecision> {
  const rows = await createdBy(db, projectId, target);
  const decision: CreatedDecision = {
    delete: { keyIds: [], languageIds: [], customerIds: [] },
    languages: [],
    customers: [],
    kept: [],
  };
  if (rows.length === 0) return decision;
  const { written, edited } = await touchedSince(db, projectId, target, rows);
  const keep = (r: CreatedRow, reason: KeptReason) =>
    decision.kept.push({ kind: r.kind, key: r.key, namespace: r.namespace, reason });
  for (const r of rows) {
    const reason: KeptReason | null = written.has(`${r.kind}:${r.id}`)
      ? 'WRITTEN_SINCE'
      : r.edited || edited.has(`${r.kind}:${r.key}`)
        ? 'EDITED_SINCE'
        : r.kind === 'KEY' && r.flag
          ? 'LOCKED'
          : r.kind === 'LANGUAGE' && r.flag
            ? 'DEFAULT_LANGUAGE'
            : null;
    if (reason) keep(r, reason);
    else if (r.kind === 'KEY') decision.delete.keyIds.push(r.id);
    else if (r.kind === 'LANGUAGE') decision.delete.languageIds.push(r.id);
    else decision.delete.customerIds.push(r.id);
  }
  // A project keeps a language: the first one the change created stays when it would lose them all.
  if (decision.delete.languageIds.length) {
    const [{ n }] = await db.$queryRaw<[{ n: number }]>(Prisma.sql`/* revert:languages-left */
      SELECT count(*)::int AS n FROM "Language" WHERE "projectId" = ${projectId} AND NOT (id = ANY(${arrayLiteral(decision.delete.languageIds)}::int[]))`);
    if (n === 0) {
      const first = decision.delete.languageIds.shift()!;
      keep(
        rows.find((r) => r.kind === 'LANGUAGE' && r.id === first)!,
        'LAST_LANGUAGE',
      );
    }
  }
  const nameOf = (kind: CreatedKind, id: number) => rows.find((r) => r.kind === kind && r.id === id)!.key;
  decision.languages = decision.delete.languageIds.map((id) => nameOf('LANGUAGE', id));
  decision.customers = decision.delete.customerIds.map((id) => nameOf('CUSTOMER', id));
  return decision;
}

/** Deletes what the decision says, recording the texts that go as cell events of `change`. Returns the keys deleted. */
export async function removeCreated(db: Db, change: Change, decision: CreatedDecision): Promise<number> {
  // Keys first (their texts in every language and customer), then what is left of the customers' and languages' texts.
  const keys = await removeKeys(db, change, decision.delete.keyIds);
  await removeCustomers(db, change, decision.delete.customerIds);
  await removeLanguages(db, change, decision.delete.languageIds);
  return keys.length;
}

/** Whether a cell (key, language, customer) goes with what the revert deletes. */
export function goesWithCreated(
  decision: CreatedDecision,
): (cell: { keyId: number; languageId: number; customerId: number | null }) => boolean {
  const keys = new Set(decision.delete.keyIds);
  const languages = new Set(decision.delete.languageIds);
  const customers = new Set(decision.delete.customerIds);
  return (c) =>
    keys.has(c.keyId) || languages.has(c.languageId) || (c.customerId !== null && customers.has(c.customerId));
}

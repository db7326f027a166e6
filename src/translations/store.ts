// Set-based writes shared by every bulk path (v1 translations, import,
// machine translation): one statement per step, whatever the number of rows.
// Callers run them inside one transaction and validate rows first.
import type { Db } from '../db.js';

export type ReviewStatus = 'REVIEWED' | 'NOT_REVIEWED';

/**
 * Options of the interactive transactions of bulk writes: a large request may
 * take longer than Prisma's 5 s default, and on PGlite (one connection) other
 * requests queue behind it rather than fail after 2 s.
 */
export const BULK_TRANSACTION = { maxWait: 60_000, timeout: 300_000 } as const;

export interface KeyRef { key: string; namespace: string }

const keyId = (k: KeyRef) => `${k.namespace}\u0000${k.key}`;

/**
 * Returns the ids of the given keys, creating the missing ones when `create`
 * is set (in the given order, so their import order follows the file). With
 * `touchLastSeen`, last-seen of every given key is set to now.
 */
export async function ensureKeys(
  db: Db,
  projectId: number,
  keys: KeyRef[],
  options: { create: boolean; touchLastSeen?: boolean; descriptions?: (string | null)[] },
): Promise<{ ids: Map<string, number>; created: number }> {
  const unique = new Map<string, { ref: KeyRef; description: string | null }>();
  keys.forEach((k, i) => {
    if (!unique.has(keyId(k))) unique.set(keyId(k), { ref: k, description: options.descriptions?.[i] ?? null });
  });
  const list = [...unique.values()];
  const names = list.map((k) => k.ref.key);
  const namespaces = list.map((k) => k.ref.namespace);
  let created = 0;
  if (options.create && list.length > 0) {
    created = await db.$executeRawUnsafe(
      `INSERT INTO "TranslationKey" ("projectId", key, namespace, description)
       SELECT $1, k, ns, coalesce(d, '') FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS t(k, ns, d, ord)
       ORDER BY ord
       ON CONFLICT ("projectId", namespace, key) DO NOTHING`,
      projectId, names, namespaces, list.map((k) => k.description),
    );
  }
  const rows = await db.$queryRawUnsafe<{ id: number; key: string; namespace: string }[]>(
    options.touchLastSeen
      ? `UPDATE "TranslationKey" tk SET "lastSeenAt" = now()
           FROM unnest($2::text[], $3::text[]) AS t(k, ns)
          WHERE tk."projectId" = $1 AND tk.key = t.k AND tk.namespace = t.ns
        RETURNING tk.id, tk.key, tk.namespace`
      : `SELECT tk.id, tk.key, tk.namespace FROM "TranslationKey" tk
           JOIN unnest($2::text[], $3::text[]) AS t(k, ns) ON tk.key = t.k AND tk.namespace = t.ns
          WHERE tk."projectId" = $1`,
    projectId, names, namespaces,
  );
  return { ids: new Map(rows.map((r) => [keyId(r), r.id])), created };
}

export function keyRefId(k: KeyRef): string {
  return keyId(k);
}

/** Returns language key → id, creating missing languages (after the existing ones) when `create` is set. */
export async function ensureLanguages(
  db: Db,
  projectId: number,
  languages: { key: string; name?: string }[],
  options: { create: boolean },
): Promise<{ ids: Map<string, number>; created: string[] }> {
  const unique = [...new Map(languages.map((l) => [l.key, l])).values()];
  let created: string[] = [];
  if (options.create && unique.length > 0) {
    const rows = await db.$queryRawUnsafe<{ key: string }[]>(
      `INSERT INTO "Language" ("projectId", key, name, "order")
       SELECT $1, k, coalesce(n, ''), (SELECT coalesce(max("order"), -1) FROM "Language" WHERE "projectId" = $1) + row_number() OVER (ORDER BY ord)
         FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(k, n, ord)
        WHERE NOT EXISTS (SELECT 1 FROM "Language" l WHERE l."projectId" = $1 AND l.key = t.k)
       ON CONFLICT ("projectId", key) DO NOTHING
       RETURNING key`,
      projectId, unique.map((l) => l.key), unique.map((l) => l.name ?? null),
    );
    created = rows.map((r) => r.key);
  }
  const rows = await db.$queryRawUnsafe<{ id: number; key: string }[]>(
    `SELECT id, key FROM "Language" WHERE "projectId" = $1 AND key = ANY($2::text[])`,
    projectId, unique.map((l) => l.key),
  );
  return { ids: new Map(rows.map((r) => [r.key, r.id])), created };
}

export interface Cell {
  keyId: number;
  languageId: number;
  /** null: the base translation; otherwise a customer override. */
  customerId: number | null;
  text: string;
  /** Omitted: NOT_REVIEWED for new rows, unchanged for existing ones. */
  reviewStatus?: ReviewStatus;
}

export interface UpsertResult { inserted: number; updated: number }

/** An empty, unreviewed cell is the same as no row: writing one where there is no row changes nothing. */
const WORTH_A_ROW = `(text <> '' OR coalesce(status, 'NOT_REVIEWED') <> 'NOT_REVIEWED')`;

/**
 * Writes translation cells. New cells are inserted; existing ones are replaced
 * with `replace: true`, or only where their text is empty with `replace:
 * 'empty'` (machine translation fills gaps without racing an editor); and only
 * when text or status actually changes, so lastModifiedAt and unpublished-change
 * counts stay truthful; an empty unreviewed cell is not inserted where there is
 * no row. Duplicate cells in the input: the last one wins.
 */
export async function upsertTranslations(db: Db, projectId: number, cells: Cell[], options: { replace: boolean | 'empty' }): Promise<UpsertResult> {
  const mode = options.replace === 'empty' ? 'empty' : options.replace ? 'always' : 'never';
  const deduped = new Map<string, Cell>();
  for (const c of cells) deduped.set(`${c.keyId}:${c.languageId}:${c.customerId ?? ''}`, c);
  const base = [...deduped.values()].filter((c) => c.customerId === null);
  const custom = [...deduped.values()].filter((c) => c.customerId !== null);
  const result: UpsertResult = { inserted: 0, updated: 0 };
  if (base.length) {
    const [row] = await db.$queryRawUnsafe<{ inserted: number; updated: number }[]>(
      `WITH input AS (
         SELECT * FROM unnest($2::int[], $3::int[], $4::text[], $5::text[]) AS t(key_id, language_id, text, status)
       ), written AS (
         INSERT INTO "Translation" AS tr ("keyId", "languageId", "projectId", text, "reviewStatus", "lastModifiedAt")
         SELECT key_id, language_id, $1, text, coalesce(status, 'NOT_REVIEWED')::"ReviewStatus", now() FROM input
          WHERE ${WORTH_A_ROW} OR EXISTS (SELECT 1 FROM "Translation" x WHERE x."keyId" = key_id AND x."languageId" = language_id)
         ON CONFLICT ("keyId", "languageId") DO UPDATE
           SET text = EXCLUDED.text,
               "reviewStatus" = CASE WHEN $6 THEN EXCLUDED."reviewStatus" ELSE tr."reviewStatus" END,
               "lastModifiedAt" = now()
           WHERE ($7 = 'always' OR ($7 = 'empty' AND tr.text = ''))
             AND (tr.text IS DISTINCT FROM EXCLUDED.text OR ($6 AND tr."reviewStatus" IS DISTINCT FROM EXCLUDED."reviewStatus"))
         RETURNING (xmax = 0) AS inserted
       )
       SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated FROM written`,
      projectId, base.map((c) => c.keyId), base.map((c) => c.languageId), base.map((c) => c.text), base.map((c) => c.reviewStatus ?? null),
      base.some((c) => c.reviewStatus !== undefined), mode,
    );
    result.inserted += row!.inserted;
    result.updated += row!.updated;
  }
  if (custom.length) {
    const [row] = await db.$queryRawUnsafe<{ inserted: number; updated: number }[]>(
      `WITH input AS (
         SELECT * FROM unnest($2::int[], $3::int[], $4::int[], $5::text[], $6::text[]) AS t(key_id, language_id, customer_id, text, status)
       ), written AS (
         INSERT INTO "CustomerTranslation" AS tr ("keyId", "languageId", "customerId", "projectId", text, "reviewStatus", "lastModifiedAt")
         SELECT key_id, language_id, customer_id, $1, text, coalesce(status, 'NOT_REVIEWED')::"ReviewStatus", now() FROM input
          WHERE ${WORTH_A_ROW} OR EXISTS (SELECT 1 FROM "CustomerTranslation" x WHERE x."keyId" = key_id AND x."languageId" = language_id AND x."customerId" = customer_id)
         ON CONFLICT ("keyId", "languageId", "customerId") DO UPDATE
           SET text = EXCLUDED.text,
               "reviewStatus" = CASE WHEN $7 THEN EXCLUDED."reviewStatus" ELSE tr."reviewStatus" END,
               "lastModifiedAt" = now()
           WHERE ($8 = 'always' OR ($8 = 'empty' AND tr.text = ''))
             AND (tr.text IS DISTINCT FROM EXCLUDED.text OR ($7 AND tr."reviewStatus" IS DISTINCT FROM EXCLUDED."reviewStatus"))
         RETURNING (xmax = 0) AS inserted
       )
       SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated FROM written`,
      projectId, custom.map((c) => c.keyId), custom.map((c) => c.languageId), custom.map((c) => c.customerId), custom.map((c) => c.text),
      custom.map((c) => c.reviewStatus ?? null), custom.some((c) => c.reviewStatus !== undefined), mode,
    );
    result.inserted += row!.inserted;
    result.updated += row!.updated;
  }
  return result;
}

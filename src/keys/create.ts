// Creating translation keys: the one function through which every path makes
// keys — REST v1 and GraphQL createTranslationKey, v1 POST/PATCH translations
// (missing keys, CREATE_KEY_IF_NOT_FOUND), file import. The key rules (name,
// namespace, limits, defaults) are parseNewKey's (input.ts): createKeys takes
// only keys that passed them. Set-based, as the write gate: one statement per
// chunk of keys, whatever their number. Callers run it inside their
// transaction and record the change themselves.
import type { Db } from '../db.js';
import type { NewKey } from './input.js';

/** Keys per statement: the arrays are parameters, so this only bounds memory. */
export const KEY_CHUNK = 50_000;

const keyId = (k: { key: string; namespace: string }) => `${k.namespace}\u0000${k.key}`;

/**
 * Inserts the keys that do not exist yet, in the given order (their import
 * order follows it); an existing key (or a repeat in `keys`) is left as it
 * is. Returns the created keys.
 */
export async function createKeys(db: Db, projectId: number, keys: readonly NewKey[]): Promise<{ id: number; key: string; namespace: string }[]> {
  // A repeated key is created once, as its first occurrence gives it.
  const seen = new Set<string>();
  const first = keys.filter((k) => !seen.has(keyId(k)) && !!seen.add(keyId(k)));
  const created: { id: number; key: string; namespace: string }[] = [];
  for (let start = 0; start < first.length; start += KEY_CHUNK) {
    const chunk = first.slice(start, start + KEY_CHUNK);
    created.push(...await db.$queryRawUnsafe<{ id: number; key: string; namespace: string }[]>(
      `INSERT INTO "TranslationKey" ("projectId", key, namespace, description, "codeDescription", tags, "charactersLimit", lock, deprecated, "deprecatedAt")
       SELECT $1, k, ns, d, cd, ARRAY(SELECT jsonb_array_elements_text(tg::jsonb)), cl, lk, dp, CASE WHEN dp THEN now() END
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::boolean[], $9::boolean[])
              WITH ORDINALITY AS t(k, ns, d, cd, tg, cl, lk, dp, ord)
        ORDER BY ord
       ON CONFLICT ("projectId", namespace, key) DO NOTHING
       RETURNING id, key, namespace`,
      projectId,
      chunk.map((k) => k.key), chunk.map((k) => k.namespace), chunk.map((k) => k.description), chunk.map((k) => k.codeDescription),
      chunk.map((k) => JSON.stringify(k.tags)), chunk.map((k) => k.charactersLimit), chunk.map((k) => k.lock), chunk.map((k) => k.deprecated),
    ));
  }
  return created;
}

// Creating translation keys: the one function through which every path makes
// keys — REST v1 and GraphQL createTranslationKey, v1 POST/PATCH translations
// (missing keys, CREATE_KEY_IF_NOT_FOUND), file import. The key rules (name,
// namespace, limits, defaults) are parseNewKey's (input.ts): createKeys takes
// only keys that passed them. Set-based, as the write gate: one statement per
// chunk of keys, whatever their number. Callers run it inside their
// transaction and record the change themselves; each key records the change
// that created it (createdByChange), which a revert of that change deletes.
import type { Db } from '../../db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { arrayLiteral } from '../../db/array-literal.js';
import { keyIdentity, type NewKey } from './input.js';

/** Keys per statement: the arrays are parameters, so this only bounds memory. */
export const KEY_CHUNK = 50_000;

export interface CreatedKey {
  id: number;
  key: string;
  namespace: string;
}

/**
 * Inserts the keys that do not exist yet, in the given order (their import
 * order follows it); an existing key (or a repeat in `keys`) is left as it
 * is. Returns the created keys (id, name and namespace).
 */
export async function createKeys(
  db: Db,
  projectId: number,
  keys: readonly NewKey[],
  change: { id: bigint } | null,
): Promise<CreatedKey[]> {
  // A repeated key is created once, as its first occurrence gives it.
  const seen = new Set<string>();
  const first = keys.filter((k) => !seen.has(keyIdentity(k)) && !!seen.add(keyIdentity(k)));
  const created: CreatedKey[] = [];
  for (let start = 0; start < first.length; start += KEY_CHUNK) {
    const chunk = first.slice(start, start + KEY_CHUNK);
    // Keys with only a name, namespace and description (bulk paths) leave the rest to the table's defaults: fewer arrays to send.
    const plain = chunk.every(
      (k) => k.codeDescription === '' && k.tags.length === 0 && k.charactersLimit === null && !k.lock && !k.deprecated,
    );
    const names = arrayLiteral(chunk, (k) => k.key);
    const namespaces = arrayLiteral(chunk, (k) => k.namespace);
    const descriptions = arrayLiteral(chunk, (k) => k.description);
    const changeId = change?.id ?? null;
    const rows = await db.$queryRaw<CreatedKey[]>(
      plain
        ? Prisma.sql`/* keys:create-plain */
        INSERT INTO "TranslationKey" ("projectId", key, namespace, description, "createdByChange")
           SELECT ${projectId}, k, ns, d, ${changeId}::bigint FROM unnest(${names}::text[], ${namespaces}::text[], ${descriptions}::text[]) WITH ORDINALITY AS t(k, ns, d, ord)
            ORDER BY ord
           ON CONFLICT ("projectId", namespace, key) DO NOTHING
           RETURNING id, key, namespace`
        : Prisma.sql`/* keys:create */
        INSERT INTO "TranslationKey" ("projectId", key, namespace, description, "codeDescription", tags, "charactersLimit", lock, deprecated, "deprecatedAt", "createdByChange")
           SELECT ${projectId}, k, ns, d, cd, ARRAY(SELECT jsonb_array_elements_text(tg::jsonb)), cl, lk, dp, CASE WHEN dp THEN now() END, ${changeId}::bigint
             FROM unnest(${names}::text[], ${namespaces}::text[], ${descriptions}::text[], ${arrayLiteral(chunk, (k) => k.codeDescription)}::text[],
                         ${arrayLiteral(chunk, (k) => JSON.stringify(k.tags))}::text[], ${arrayLiteral(chunk, (k) => k.charactersLimit)}::int[],
                         ${arrayLiteral(chunk, (k) => k.lock)}::boolean[], ${arrayLiteral(chunk, (k) => k.deprecated)}::boolean[])
                  WITH ORDINALITY AS t(k, ns, d, cd, tg, cl, lk, dp, ord)
            ORDER BY ord
           ON CONFLICT ("projectId", namespace, key) DO NOTHING
           RETURNING id, key, namespace`,
    );
    for (const row of rows) created.push(row);
  }
  return created;
}

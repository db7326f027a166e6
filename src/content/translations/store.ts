// Set-based key lookups shared by every bulk path (v1 translations, import,
// machine translation): one statement per step, whatever the number of rows.
// Languages are created by ensureLanguages (../languages.ts). Translation cells are written through the write gate
// (gate.ts) only. Callers run them inside one transaction.
import type { Db } from '../../db.js';
import { arrayLiteral } from '../../db/array-literal.js';
import { Prisma } from '../../generated/prisma/client.js';
import { createKeys } from '../keys/create.js';
import { keyIdentity, parseNewKey } from '../keys/input.js';

export type ReviewStatus = 'REVIEWED' | 'NOT_REVIEWED';

/**
 * Options of the interactive transactions of bulk writes: a large request may
 * take longer than Prisma's 5 s default, and on PGlite (one connection) other
 * requests queue behind it rather than fail after 2 s.
 */
export const BULK_TRANSACTION = { maxWait: 60_000, timeout: 300_000 } as const;

export interface KeyRef {
  key: string;
  namespace: string;
}

/**
 * The project's keys among `keys` and `namespaces` (parallel array literals).
 * One lookup in the unique index per name: the cost follows the names given, not the project's
 * size (joined as sets, the planner hashed every key of the project, once per chunk of an import).
 */
const findKeys = (projectId: number, keys: string, namespaces: string) =>
  Prisma.sql`SELECT tk.id, tk.key, tk.namespace FROM unnest(${keys}::text[], ${namespaces}::text[]) AS t(k, ns)
          CROSS JOIN LATERAL (SELECT id, key, namespace FROM "TranslationKey" WHERE "projectId" = ${projectId} AND namespace = t.ns AND key = t.k) tk`;

export interface EnsureKeysOptions {
  create: boolean;
  /** The change that creates the missing keys (recorded with them, for its revert). */
  change?: { id: bigint };
  /** Set every given key's last-seen time to now. */
  touchLastSeen?: boolean;
  descriptions?: (string | null)[];
}

/**
 * Returns the ids of the given keys, creating the missing ones when `create`
 * is set (through createKeys, in the given order, so their import order
 * follows the file). The key rules apply: callers that report problems per
 * element check them first (keyProblem); a key that breaks them here is a
 * request error, never created. With `touchLastSeen`, last-seen of every
 * given key is set to now (a key created here has it already: the column's
 * default is the transaction's now()).
 *
 * The existing keys are looked up (and touched) first, and only the missing
 * ones go to createKeys: a file of known keys (a re-import) sends no INSERT,
 * whose every row would take values of the id and import-order sequences and
 * probe the unique index for nothing. A fresh file costs the same two
 * statements as before.
 */
export async function ensureKeys(
  db: Db,
  projectId: number,
  keys: KeyRef[],
  options: EnsureKeysOptions,
): Promise<{ ids: Map<string, number>; created: number }> {
  const unique = new Map<string, { ref: KeyRef; description: string | null }>();
  keys.forEach((k, i) => {
    const id = keyIdentity(k);
    if (!unique.has(id)) unique.set(id, { ref: k, description: options.descriptions?.[i] ?? null });
  });
  const list = [...unique.values()];
  const ids = new Map<string, number>();
  if (list.length === 0) return { ids, created: 0 };
  // Every key is checked against the rules, found or not, before anything is written.
  const parsed = options.create
    ? list.map((k) => parseNewKey({ key: k.ref.key, namespace: k.ref.namespace, description: k.description }))
    : [];
  const find = async (refs: typeof list) => {
    const found = findKeys(
      projectId,
      arrayLiteral(refs, (k) => k.ref.key),
      arrayLiteral(refs, (k) => k.ref.namespace),
    );
    const rows = await db.$queryRaw<{ id: number; key: string; namespace: string }[]>(
      // Found keys are updated by id (the primary key) in the same statement.
      options.touchLastSeen
        ? Prisma.sql`/* keys:find-touch */ WITH found AS MATERIALIZED (${found}),
                touched AS (UPDATE "TranslationKey" SET "lastSeenAt" = now() WHERE id = ANY(ARRAY(SELECT id FROM found)))
           SELECT id, key, namespace FROM found`
        : Prisma.sql`/* keys:find */ ${found}`,
    );
    for (const r of rows) ids.set(keyIdentity(r), r.id);
  };
  await find(list);
  if (!options.create || ids.size === list.length) return { ids, created: 0 };
  const created = await createKeys(
    db,
    projectId,
    parsed.filter((_, i) => !ids.has(keyIdentity(list[i]!.ref))),
    options.change ?? null,
  );
  for (const r of created) ids.set(keyIdentity(r), r.id);
  // A key another transaction created since the lookup (PostgreSQL runs them side by side) was not created here: found now.
  if (ids.size < list.length) await find(list.filter((k) => !ids.has(keyIdentity(k.ref))));
  return { ids, created: created.length };
}

/** Sets the last-seen time of the project's keys `ids` (or those a subquery of the enclosing statement names). */
export function touchKeysSql(projectId: number, ids: readonly number[] | Prisma.Sql): Prisma.Sql {
  const which = Array.isArray(ids) ? Prisma.sql`= ANY(${ids}::int[])` : Prisma.sql`IN ${ids as Prisma.Sql}`;
  return Prisma.sql`UPDATE "TranslationKey" SET "lastSeenAt" = now() WHERE "projectId" = ${projectId} AND id ${which}`;
}

/** A key's identity (keyIdentity of keys/input.ts), for the bulk paths' maps of key → id. */
export function keyRefId(k: KeyRef): string {
  return keyIdentity(k);
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

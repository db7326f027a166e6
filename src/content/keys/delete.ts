// Deleting translation keys with their translations and customer overrides
// (foreign-key cascade). removeKeys is the one place keys go, for the key API
// (deleteKeys: all or nothing, a missing or locked key fails the whole request
// and deletes nothing) and import's DELETE_NOT_PRESENT_KEYS (locked keys are
// kept): a locked key is never deleted, and the texts of a deleted key are
// recorded in the change's history first.
import { lockProjectContent, prisma, type Db } from '../../db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { openChange, recordDeletedCells, type Change } from '../changes.js';
import { sweepScreenshotDeletions } from '../../screenshots/sweep.js';
import { noteQueued, queueConsistencyNeighbours } from '../findings-queue.js';
import { keyIdentity } from './input.js';
import { describeKey, parseKeyAddress, type KeyAddress } from './write.js';

const MAX_LISTED = 10;

function listed(addresses: KeyAddress[]): string {
  const shown = addresses.slice(0, MAX_LISTED).map(describeKey).join(', ');
  return addresses.length > MAX_LISTED ? `${shown} and ${addresses.length - MAX_LISTED} more` : shown;
}

/**
 * The keys of a bulk list, checked against the key rules; a broken one is
 * named by its position. The list's shape ({key, namespace} objects) is the
 * GraphQL input type's to check (TranslationKeyRefInput; REST words its
 * refusals in rest-compat/variables.ts).
 */
export function keyAddressesOf(
  refs: readonly { key: string; namespace?: string | null }[],
  field = 'translationKeys',
): KeyAddress[] {
  return refs.map(({ key, namespace }, i) => {
    try {
      return parseKeyAddress(key, namespace);
    } catch (error) {
      throw badRequest(`${field}[${i}].${(error as Error).message}`);
    }
  });
}

export async function deleteKeys(projectId: number, addresses: KeyAddress[]): Promise<number> {
  if (addresses.length === 0) return 0;
  const deleted = await prisma().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<
      { id: number; key: string; namespace: string; lock: boolean }[]
    >(Prisma.sql`/* keys:lock-for-delete */
      SELECT tk.id, tk.key, tk.namespace, tk.lock FROM "TranslationKey" tk
         JOIN unnest(${addresses.map((a) => a.key)}::text[], ${addresses.map((a) => a.namespace)}::text[]) AS t(k, ns) ON tk.key = t.k AND tk.namespace = t.ns
        WHERE tk."projectId" = ${projectId}
        FOR UPDATE OF tk`);
    const found = new Set(rows.map(keyIdentity));
    const missing = addresses.filter((a) => !found.has(keyIdentity(a)));
    if (missing.length) throw notFound(`${listed(missing)} not found; nothing was deleted`);
    const lockedRows = rows.filter((r) => r.lock);
    if (lockedRows.length)
      throw conflict(
        `${listed(lockedRows)} ${lockedRows.length === 1 ? 'is' : 'are'} locked; unlock before deleting; nothing was deleted`,
      );
    const change = await openChange(
      tx,
      projectId,
      'KEYS',
      {
        action: 'DELETE_KEY',
        count: rows.length,
        keys: rows.slice(0, 100).map((r) => ({ key: r.key, namespace: r.namespace })),
      },
      { edits: rows.length },
    );
    return (
      await removeKeys(
        tx,
        change,
        rows.map((r) => r.id),
      )
    ).length;
  });
  // The storage folders of screenshots that went with the keys.
  await sweepScreenshotDeletions();
  return deleted;
}

/**
 * Deletes the keys (by id) that are not locked, after recording their texts
 * in `change`; callers pick the keys (and lock them FOR UPDATE) in the same
 * transaction. Returns the deleted keys in import order.
 */
export async function removeKeys(
  db: Db,
  change: Change,
  keyIds: number[],
): Promise<{ key: string; namespace: string }[]> {
  if (keyIds.length === 0) return [];
  await lockProjectContent(db, change.projectId);
  await recordDeletedCells(db, change, { keyIds });
  // Other keys' consistency findings that name these keys are computed again without them.
  if (await queueConsistencyNeighbours(db, keyIds)) noteQueued();
  // The same statement deletes the screenshots whose every link is on these keys (the links
  // themselves go by cascade) and queues their storage folders, removed once the caller's
  // transaction has committed (src/screenshots/sweep.ts; docs/screenshots.md). Its parts all
  // see the links as they were before it.
  const rows = await db.$queryRaw<
    { key: string; namespace: string; importOrder: string }[]
  >(Prisma.sql`/* keys:remove */
    WITH doomed AS (DELETE FROM "TranslationKey" WHERE id = ANY(${keyIds}::int[]) AND NOT lock RETURNING id, key, namespace, "importOrder"),
      touched AS (SELECT DISTINCT ks."screenshotId" AS id FROM "KeyScreenshot" ks WHERE ks."keyId" IN (SELECT id FROM doomed)),
      unused AS (SELECT t.id FROM touched t WHERE NOT EXISTS (
        SELECT 1 FROM "KeyScreenshot" l WHERE l."screenshotId" = t.id AND l."keyId" NOT IN (SELECT id FROM doomed))),
      gone AS (DELETE FROM "Screenshot" s WHERE s.id IN (SELECT id FROM unused) RETURNING s."storageFolder"),
      queued AS (INSERT INTO "ScreenshotDeletion" (folder) SELECT "storageFolder" FROM gone ON CONFLICT (folder) DO NOTHING)
    SELECT key, namespace, "importOrder"::text AS "importOrder" FROM doomed`);
  return rows
    .sort((a, b) => (BigInt(a.importOrder) < BigInt(b.importOrder) ? -1 : 1))
    .map((r) => ({ key: r.key, namespace: r.namespace }));
}

// The change events stored for a project or an activity, one row per cell
// (src/content/cell-events.ts stores them as batches), for assertions.
import type { Db } from '../../src/db.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { cellEventsSql } from '../../src/content/cell-events.js';
import type { CellEvent } from '../../src/history/activity-log.js';

export type StoredCellEvent = Pick<
  CellEvent,
  | 'id'
  | 'activityId'
  | 'keyId'
  | 'languageId'
  | 'customerId'
  | 'key'
  | 'namespace'
  | 'oldText'
  | 'newText'
  | 'oldStatus'
  | 'newStatus'
>;

export function storedCellEvents(
  db: Db,
  of: { projectId: number } | { activityId: bigint },
): Promise<StoredCellEvent[]> {
  const where =
    'projectId' in of
      ? Prisma.sql`b."projectId" = ${of.projectId}::int`
      : Prisma.sql`b."activityId" = ${of.activityId}::bigint`;
  return db.$queryRaw<StoredCellEvent[]>(Prisma.sql`/* test:stored-cell-events */
    SELECT id, "activityId", "keyId", "languageId", "customerId", key, namespace, "oldText", "newText", "oldStatus"::text, "newStatus"::text
       FROM ${cellEventsSql({ where })} c ORDER BY id`);
}

// The change events stored for a project or an activity, one row per cell
// (src/history/cell-events.ts stores them as batches), for assertions.
import type { Db } from '../../src/db.js';
import { cellEvents } from '../../src/history/cell-events.js';
import type { CellEvent } from '../../src/history/activity-log.js';

export type StoredCellEvent = Pick<CellEvent, 'id' | 'activityId' | 'keyId' | 'languageId' | 'customerId' | 'key' | 'namespace' | 'oldText' | 'newText' | 'oldStatus' | 'newStatus'>;

export function storedCellEvents(db: Db, of: { projectId: number } | { activityId: bigint }): Promise<StoredCellEvent[]> {
  const where = 'projectId' in of ? `b."projectId" = $1::int` : `b."activityId" = $1::bigint`;
  return db.$queryRawUnsafe<StoredCellEvent[]>(
    `SELECT id, "activityId", "keyId", "languageId", "customerId", key, namespace, "oldText", "newText", "oldStatus"::text, "newStatus"::text
       FROM ${cellEvents({ where })} c ORDER BY id`,
    'projectId' in of ? of.projectId : of.activityId,
  );
}

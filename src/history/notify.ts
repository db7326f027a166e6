// Announcing committed changes: once the work that opened changes has ended
// (origin.ts), the ones that committed are published on the project's
// 'project-activity' topic (through Redis across instances). The message is
// small — which activity — and every subscriber reads the events themselves
// from the database, so a change of 100,000 cells never travels through the
// event bus and nobody diverges from what was stored.
import { prisma } from '../db.js';
import { events } from '../events/pubsub.js';

type Listener = () => void;
const listeners = new Set<Listener>();

/** Called after each announcement (the webhook worker wakes up instead of waiting for its poll). */
export function onCommittedChanges(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function announceChanges(opened: readonly { projectId: number; id: bigint }[]): Promise<void> {
  if (opened.length === 0) return;
  try {
    // A change that rolled back has no row: only committed ones are announced.
    const rows = await prisma().$queryRawUnsafe<{ id: bigint; projectId: number }[]>(
      `SELECT id, "projectId" FROM "Activity" WHERE id = ANY($1::bigint[]) ORDER BY id`,
      opened.map((o) => o.id),
    );
    for (const row of rows) events().publish('project-activity', row.projectId, { projectId: row.projectId, activityId: String(row.id) });
    if (rows.length) for (const listener of listeners) listener();
  } catch {
    // Announcing is best effort: subscribers catch up from the database on their next event or reconnect.
  }
}

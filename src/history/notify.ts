// Announcing changes: once the work that opened changes has ended
// (src/content/origin.ts), they are published on their project's
// 'project-activity' topic (through Redis across instances). The message is
// small — which activity — and every subscriber reads the events themselves
// from the database, so a change of 100,000 cells never travels through the
// event bus and nobody diverges from what was stored. A change that rolled back
// has no rows: its announcement finds nothing and yields nothing, so no query
// is needed to tell them apart.
import { events } from '../events/pubsub.js';

export async function announceChanges(opened: readonly { projectId: number; id: bigint }[]): Promise<void> {
  try {
    for (const change of opened)
      events().publish('project-activity', change.projectId, {
        projectId: change.projectId,
        activityId: String(change.id),
      });
  } catch {
    // Best effort: subscribers catch up from the database on their next event or reconnect.
  }
}

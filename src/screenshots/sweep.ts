// Removes the storage folders queued in ScreenshotDeletion once they are due:
// after every change that deletes screenshots (called once it has committed)
// and periodically (src/screenshots/runtime.ts), which also finishes what a
// crashed process left. Removing a folder twice is harmless, so instances may
// sweep at the same time.
import { Prisma } from '../generated/prisma/client.js';
import { prisma, type Db } from '../db.js';
import { deleteScreenshotFolder } from './storage.js';

const BATCH = 100;

export async function sweepScreenshotDeletions(): Promise<number> {
  let removed = 0;
  for (;;) {
    const due = await prisma().$queryRaw<{ folder: string }[]>(Prisma.sql`/* screenshots:due-deletions */
      SELECT folder FROM "ScreenshotDeletion" WHERE "notBefore" <= now() ORDER BY "createdAt" LIMIT ${BATCH}`);
    for (const { folder } of due) {
      await deleteScreenshotFolder(folder);
      await prisma().$executeRaw(
        Prisma.sql`/* screenshots:deleted */ DELETE FROM "ScreenshotDeletion" WHERE folder = ${folder} AND "notBefore" <= now()`,
      );
      removed++;
    }
    if (due.length < BATCH) return removed;
  }
}

/** Queues a folder for removal, in the caller's transaction. */
export async function queueFolderDeletion(db: Db, folder: string, notBefore?: Date): Promise<void> {
  await db.$executeRaw(Prisma.sql`/* screenshots:queue-deletion */
    INSERT INTO "ScreenshotDeletion" (folder, "notBefore") VALUES (${folder}, ${notBefore ?? new Date()})
    ON CONFLICT (folder) DO UPDATE SET "notBefore" = excluded."notBefore"`);
}

// Purge: the vendor's command-line client `purge` (DELETE
// /api/v1/translations/purge). The vendor documents it as removing all the
// translations and translation keys of the project; here every translation
// key is deleted with its translations and customer overrides, in one
// transaction (all or nothing). Locks do not protect a key from it: like
// deleting a language, purge is a reset of the project's content, asked for
// explicitly. Languages, customers, environments and published files stay (a
// project always keeps at least one language, and jobs and hosting refer to
// them).
import { lockProject, lockProjectContent, prisma } from '../../db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { openChange } from '../changes.js';
import { BULK_TRANSACTION } from './store.js';
import { sweepScreenshotDeletions } from '../../screenshots/sweep.js';

export interface PurgeResult {
  keysDeleted: number;
  translationsDeleted: number;
  customerTranslationsDeleted: number;
}

export async function purgeProjectContent(projectId: number): Promise<PurgeResult> {
  const result = await prisma().$transaction(async (tx) => {
    // Serializes with the other project-wide changes that lock the project row (languages, customers, publications).
    await lockProject(tx, projectId);
    await lockProjectContent(tx, projectId);
    const customerTranslationsDeleted = await tx.$executeRaw(
      Prisma.sql`/* purge:customer-translations */ DELETE FROM "CustomerTranslation" WHERE "projectId" = ${projectId}`,
    );
    const translationsDeleted = await tx.$executeRaw(
      Prisma.sql`/* purge:translations */ DELETE FROM "Translation" WHERE "projectId" = ${projectId}`,
    );
    // Screenshots linked to keys lose every link with them: deleted, their storage folders queued
    // (src/screenshots/sweep.ts, after the commit); screenshots never linked stay.
    await tx.$executeRaw(Prisma.sql`/* purge:screenshots */
      WITH gone AS (DELETE FROM "Screenshot" s WHERE s."projectId" = ${projectId} AND EXISTS (SELECT 1 FROM "KeyScreenshot" l WHERE l."screenshotId" = s.id) RETURNING s."storageFolder")
      INSERT INTO "ScreenshotDeletion" (folder) SELECT "storageFolder" FROM gone ON CONFLICT (folder) DO NOTHING`);
    const keysDeleted = await tx.$executeRaw(
      Prisma.sql`/* purge:keys */ DELETE FROM "TranslationKey" WHERE "projectId" = ${projectId}`,
    );
    const result = { keysDeleted, translationsDeleted, customerTranslationsDeleted };
    // Recorded as one change with its counts (the deleted texts are not kept: purge is an explicit reset).
    await openChange(tx, projectId, 'PURGE', result, {
      edits: keysDeleted + translationsDeleted + customerTranslationsDeleted,
    });
    return result;
  }, BULK_TRANSACTION);
  await sweepScreenshotDeletions();
  return result;
}

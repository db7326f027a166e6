// Dismissing a finding (docs/quality-checks.md): a person decides that a
// check's finding on a cell is not a problem, with a reason. The dismissal
// holds for the text the cell has now (its md5): the updater marks the
// check's findings dismissed while the text stays the same, and a new text
// brings them back. Each dismissal and restoration is a QUALITY change in the
// activity log, with the reason.
import { Prisma } from '../generated/prisma/client.js';
import { prisma, type Db } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { openChange } from '../content/changes.js';
import { CHECK_IDS } from '../checks/index.js';

export interface CellRef {
  key: string;
  namespace?: string | null;
  languageCode: string;
  check: string;
}

async function cellOf(db: Db, projectId: number, ref: CellRef): Promise<{ keyId: number; languageId: number }> {
  if (!CHECK_IDS.includes(ref.check)) throw badRequest(`Unknown check "${ref.check}"`);
  const [cell] = await db.$queryRaw<{ keyId: number; languageId: number }[]>(Prisma.sql`/* findings:cell */
    SELECT t."keyId", t."languageId" FROM "Translation" t
      JOIN "TranslationKey" k ON k.id = t."keyId" JOIN "Language" l ON l.id = t."languageId"
     WHERE k."projectId" = ${projectId} AND k.key = ${ref.key} AND k.namespace = ${ref.namespace ?? ''} AND l.key = ${ref.languageCode}`);
  if (!cell) throw notFound(`No translation of ${ref.key} in ${ref.languageCode}`);
  return cell;
}

/** Dismisses the check's findings on a cell for its current text. Returns how many findings it covers. */
export async function dismissFinding(projectId: number, ref: CellRef, reason: string): Promise<number> {
  const why = reason.trim();
  if (!why) throw badRequest('reason: say why the finding is not a problem');
  if (why.length > 500) throw badRequest('reason: at most 500 characters');
  return prisma().$transaction(async (tx) => {
    const cell = await cellOf(tx, projectId, ref);
    const dismissed = await tx.$executeRaw(Prisma.sql`/* findings:dismiss */
      UPDATE "Finding" SET dismissed = true WHERE "keyId" = ${cell.keyId} AND "languageId" = ${cell.languageId} AND "check" = ${ref.check}`);
    if (dismissed === 0) throw notFound(`No ${ref.check} finding on ${ref.key} in ${ref.languageCode}`);
    const change = await openChange(tx, projectId, 'QUALITY', {
      action: 'DISMISS_FINDING',
      key: ref.key,
      namespace: ref.namespace ?? '',
      language: ref.languageCode,
      check: ref.check,
      reason: why,
    });
    await tx.$executeRaw(Prisma.sql`/* findings:dismissal */
      INSERT INTO "FindingDismissal" ("keyId", "languageId", "check", "projectId", "textHash", reason, "activityId")
      SELECT "keyId", "languageId", ${ref.check}, "projectId", md5(text), ${why}, ${change.id} FROM "Translation" WHERE "keyId" = ${cell.keyId} AND "languageId" = ${cell.languageId}
      ON CONFLICT ("keyId", "languageId", "check") DO UPDATE SET "textHash" = EXCLUDED."textHash", reason = EXCLUDED.reason, "activityId" = EXCLUDED."activityId", "createdAt" = now()`);
    return dismissed;
  });
}

/** Takes a dismissal back: the check's findings on the cell count again. */
export async function restoreFinding(projectId: number, ref: CellRef): Promise<number> {
  return prisma().$transaction(async (tx) => {
    const cell = await cellOf(tx, projectId, ref);
    const removed = await tx.$executeRaw(Prisma.sql`/* findings:undismiss */
      DELETE FROM "FindingDismissal" WHERE "keyId" = ${cell.keyId} AND "languageId" = ${cell.languageId} AND "check" = ${ref.check}`);
    if (removed === 0) throw notFound(`No dismissed ${ref.check} finding on ${ref.key} in ${ref.languageCode}`);
    const restored = await tx.$executeRaw(Prisma.sql`/* findings:restore */
      UPDATE "Finding" SET dismissed = false WHERE "keyId" = ${cell.keyId} AND "languageId" = ${cell.languageId} AND "check" = ${ref.check}`);
    await openChange(tx, projectId, 'QUALITY', {
      action: 'RESTORE_FINDING',
      key: ref.key,
      namespace: ref.namespace ?? '',
      language: ref.languageCode,
      check: ref.check,
    });
    return restored;
  });
}

// Dismissing a finding (docs/quality-checks.md): a person decides that a
// check's finding on a cell is not a problem, with a reason. The dismissal
// holds for the text the cell has now (its md5): the updater marks the
// check's findings dismissed while the text stays the same, and a new text
// brings them back. A customer's override is a cell of its own: its findings
// are dismissed for the override's text, apart from the base translation's.
// Each dismissal and restoration is a QUALITY change in the activity log, with
// the reason.
import { Prisma } from '../generated/prisma/client.js';
import { prisma, type Db } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { openChange } from '../content/changes.js';
import { CHECK_IDS } from '../checks/index.js';
import { customerIdOf } from '../content/customers.js';

export interface CellRef {
  key: string;
  namespace?: string | null;
  languageCode: string;
  check: string;
  /** The customer whose override it is; none: the base translation. */
  customerKey?: string | null;
}

interface Cell {
  keyId: number;
  languageId: number;
  /** 0: the base translation (Finding's customerId). */
  customerId: number;
  text: string;
}

/** Where the cell is said, for messages: "greet in de" or "greet in de for acme". */
const said = (ref: CellRef) => `${ref.key} in ${ref.languageCode}${ref.customerKey ? ` for ${ref.customerKey}` : ''}`;

/**
 * The cell (base translation or override) and its text, held until the
 * transaction ends (FOR KEY SHARE): a deletion of it waits, and its trigger
 * then takes the dismissal too.
 */
async function cellOf(db: Db, projectId: number, ref: CellRef): Promise<Cell> {
  if (!CHECK_IDS.includes(ref.check)) throw badRequest(`Unknown check "${ref.check}"`);
  const named = Prisma.sql`JOIN "TranslationKey" k ON k.id = t."keyId" JOIN "Language" l ON l.id = t."languageId"
     WHERE k."projectId" = ${projectId} AND k.key = ${ref.key} AND k.namespace = ${ref.namespace ?? ''} AND l.key = ${ref.languageCode}`;
  const [cell] = ref.customerKey
    ? await db.$queryRaw<Cell[]>(Prisma.sql`/* findings:override-cell */
    SELECT t."keyId", t."languageId", t."customerId", t.text FROM "CustomerTranslation" t ${named}
       AND t."customerId" = ${await customerIdOf(projectId, ref.customerKey, db)}
       FOR KEY SHARE OF t`)
    : await db.$queryRaw<Cell[]>(Prisma.sql`/* findings:cell */
    SELECT t."keyId", t."languageId", 0 AS "customerId", t.text FROM "Translation" t ${named}
       FOR KEY SHARE OF t`);
  if (!cell) throw notFound(`No translation of ${said(ref)}`);
  return cell;
}

const ofCell = (cell: Cell) =>
  Prisma.sql`"keyId" = ${cell.keyId} AND "languageId" = ${cell.languageId} AND "customerId" = ${cell.customerId}`;

/** Dismisses the check's findings on a cell for its current text. Returns how many findings it covers. */
export async function dismissFinding(projectId: number, ref: CellRef, reason: string): Promise<number> {
  const why = reason.trim();
  if (!why) throw badRequest('reason: say why the finding is not a problem');
  if (why.length > 500) throw badRequest('reason: at most 500 characters');
  return prisma().$transaction(async (tx) => {
    const cell = await cellOf(tx, projectId, ref);
    const dismissed = await tx.$executeRaw(Prisma.sql`/* findings:dismiss */
      UPDATE "Finding" SET dismissed = true WHERE ${ofCell(cell)} AND "check" = ${ref.check}`);
    if (dismissed === 0) throw notFound(`No ${ref.check} finding on ${said(ref)}`);
    const change = await openChange(tx, projectId, 'QUALITY', {
      action: 'DISMISS_FINDING',
      key: ref.key,
      namespace: ref.namespace ?? '',
      language: ref.languageCode,
      ...(ref.customerKey ? { customer: ref.customerKey } : {}),
      check: ref.check,
      reason: why,
    });
    await tx.$executeRaw(Prisma.sql`/* findings:dismissal */
      INSERT INTO "FindingDismissal" ("keyId", "languageId", "customerId", "check", "projectId", "textHash", reason, "activityId")
      VALUES (${cell.keyId}, ${cell.languageId}, ${cell.customerId}, ${ref.check}, ${projectId}, md5(${cell.text}), ${why}, ${change.id})
      ON CONFLICT ("keyId", "languageId", "customerId", "check") DO UPDATE SET "textHash" = EXCLUDED."textHash", reason = EXCLUDED.reason, "activityId" = EXCLUDED."activityId", "createdAt" = now()`);
    return dismissed;
  });
}

/** Takes a dismissal back: the check's findings on the cell count again. */
export async function restoreFinding(projectId: number, ref: CellRef): Promise<number> {
  return prisma().$transaction(async (tx) => {
    const cell = await cellOf(tx, projectId, ref);
    const removed = await tx.$executeRaw(Prisma.sql`/* findings:undismiss */
      DELETE FROM "FindingDismissal" WHERE ${ofCell(cell)} AND "check" = ${ref.check}`);
    if (removed === 0) throw notFound(`No dismissed ${ref.check} finding on ${said(ref)}`);
    const restored = await tx.$executeRaw(Prisma.sql`/* findings:restore */
      UPDATE "Finding" SET dismissed = false WHERE ${ofCell(cell)} AND "check" = ${ref.check}`);
    await openChange(tx, projectId, 'QUALITY', {
      action: 'RESTORE_FINDING',
      key: ref.key,
      namespace: ref.namespace ?? '',
      language: ref.languageCode,
      ...(ref.customerKey ? { customer: ref.customerKey } : {}),
      check: ref.check,
    });
    return restored;
  });
}

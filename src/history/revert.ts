// Reverting: one cell to the value it had before one of its change events,
// or a whole change (an import, a job, a bulk v1 POST …) in one transaction.
// The old values are written back through the write gate, so locks and
// character limits still apply (refused cells are counted, never written),
// and the revert is itself a change (kind REVERT, trigger REVERT) whose cells
// are in the history like any other.
//
// A whole change is reverted only where its cells still hold what it wrote: a
// cell changed since keeps the newer text and is counted as changed since, so
// a revert never silently undoes later work. Keys, languages and customers the
// change created are deleted with it unless someone else made them theirs
// since (revert-created.ts: kept, with the reason); deleted ones are not
// recreated. Cells given back their published text count as published again
// (revert-published.ts).
import { Prisma } from '../generated/prisma/client.js';
import { prisma, type Db } from '../db.js';
import { arrayLiteral } from '../db/array-literal.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { writeTranslations, type GateResult } from '../content/translations/gate.js';
import { BULK_TRANSACTION, type Cell, type ReviewStatus } from '../content/translations/store.js';
import { amendChange, openChange } from '../content/changes.js';
import { cellEventsSql, selectEvents, type EventSelection } from '../content/cell-events.js';
import { decideCreated, goesWithCreated, KEPT_LISTED, removeCreated, type KeptEntity } from './revert-created.js';
import { markPublishedAgain } from './revert-published.js';
import { sweepScreenshotDeletions } from '../screenshots/sweep.js';

export interface RevertResult {
  /** The REVERT entry of the activity log. */
  activityId: bigint;
  /** Cells written back. */
  reverted: number;
  /** Cells changed since the reverted change: kept. */
  changedSince: number;
  /** Cells refused by the write gate (locked key, over the characters limit). */
  refused: GateResult['refused'];
  /** Cells whose key or language no longer exists. */
  gone: number;
  /** Keys, languages (their keys) and customers (their keys) the change created, deleted by the revert. */
  deletedKeys: number;
  deletedLanguages: string[];
  deletedCustomers: string[];
  /** Cells that went with them (their texts are in the revert's history). */
  removed: number;
  /** What the change created and the revert kept, with why: the first KEPT_LISTED; keptCount is exact. */
  kept: KeptEntity[];
  keptCount: number;
}

const NOTHING_CREATED = {
  deletedKeys: 0,
  deletedLanguages: [],
  deletedCustomers: [],
  removed: 0,
  kept: [],
  keptCount: 0,
};

interface EventCell {
  keyId: number;
  languageId: number;
  customerId: number | null;
  oldText: string | null;
  oldStatus: ReviewStatus | null;
  /** Whether the cell still holds what the change wrote. */
  unchanged: boolean;
  /** Whether the key and language still exist. */
  exists: boolean;
}

/** Cells per gate call: as the import (write-bundle.ts). */
const CHUNK = 50_000;

async function writeBack(
  tx: Db,
  projectId: number,
  cells: EventCell[],
  change: { id: bigint; projectId: number },
): Promise<{ written: number; refused: GateResult['refused'] }> {
  const refused = { LOCKED: 0, CHARACTERS_LIMIT: 0 };
  let written = 0;
  for (let i = 0; i < cells.length; i += CHUNK) {
    const chunk: Cell[] = cells.slice(i, i + CHUNK).map((c) => ({
      keyId: c.keyId,
      languageId: c.languageId,
      customerId: c.customerId,
      text: c.oldText ?? '',
      reviewStatus: c.oldStatus ?? 'NOT_REVIEWED',
    }));
    const result = await writeTranslations(tx, projectId, chunk, { replace: true, listRefusals: 0, change });
    written += result.inserted + result.updated;
    refused.LOCKED += result.refused.LOCKED;
    refused.CHARACTERS_LIMIT += result.refused.CHARACTERS_LIMIT;
  }
  return { written, refused };
}

/** The cells of a change: first old value, last new value, and whether the cell still holds the latter (one statement). */
function eventCells(tx: Db, projectId: number, selection: EventSelection): Promise<EventCell[]> {
  return tx.$queryRaw<EventCell[]>(Prisma.sql`/* revert:event-cells */
     WITH ev AS (
       SELECT "keyId", "languageId", "customerId",
              (array_agg("oldText" ORDER BY id))[1] AS "oldText", (array_agg("oldStatus"::text ORDER BY id))[1] AS "oldStatus",
              (array_agg("newText" ORDER BY id DESC))[1] AS new_text, (array_agg("newStatus"::text ORDER BY id DESC))[1] AS new_status,
              min(id) AS first
         FROM ${cellEventsSql(selection)} c
        GROUP BY "keyId", "languageId", "customerId"
     )
     SELECT ev."keyId", ev."languageId", ev."customerId", ev."oldText", ev."oldStatus",
            coalesce(CASE WHEN ev."customerId" IS NULL THEN t.text ELSE ct.text END, '') = ev.new_text
              AND coalesce(CASE WHEN ev."customerId" IS NULL THEN t."reviewStatus" ELSE ct."reviewStatus" END::text, 'NOT_REVIEWED') = ev.new_status AS unchanged,
            k.id IS NOT NULL AND l.id IS NOT NULL AND (ev."customerId" IS NULL OR cu.id IS NOT NULL) AS exists
       FROM ev
       LEFT JOIN "TranslationKey" k ON k.id = ev."keyId" AND k."projectId" = ${projectId}
       LEFT JOIN "Language" l ON l.id = ev."languageId"
       LEFT JOIN "Customer" cu ON cu.id = ev."customerId"
       LEFT JOIN "Translation" t ON ev."customerId" IS NULL AND t."keyId" = ev."keyId" AND t."languageId" = ev."languageId"
       LEFT JOIN "CustomerTranslation" ct ON ct."keyId" = ev."keyId" AND ct."languageId" = ev."languageId" AND ct."customerId" = ev."customerId"
      ORDER BY ev.first`);
}

/** The language (key) of a cell change of the project, for the access check of its revert; null when unknown. */
export async function cellChangeLanguage(projectId: number, cellChangeId: bigint): Promise<string | null> {
  const rows = await prisma().$queryRaw<{ key: string }[]>(Prisma.sql`/* revert:cell-change-language */
    SELECT l.key FROM ${cellEventsSql(selectEvents.one(Prisma.sql`${cellChangeId}`, Prisma.sql`${projectId}`))} c JOIN "Language" l ON l.id = c."languageId"`);
  return rows[0]?.key ?? null;
}

/** The cells recorded in a change so far. */
async function cellCount(tx: Db, change: bigint): Promise<number> {
  const [row] = await tx.$queryRaw<[{ cells: number }]>(
    Prisma.sql`/* revert:cell-count */ SELECT cells FROM "Activity" WHERE id = ${change}`,
  );
  return row.cells;
}

/** Reverts every cell a change wrote, where it still holds what the change wrote. */
export async function revertChange(projectId: number, activityId: bigint): Promise<RevertResult> {
  const reverted = await prisma().$transaction(async (tx) => {
    const [target] = await tx.$queryRaw<{ id: bigint; cells: number }[]>(Prisma.sql`/* revert:lock-change */
      SELECT id, cells FROM "Activity" WHERE id = ${activityId}::bigint AND "projectId" = ${projectId} FOR UPDATE`);
    if (!target) throw notFound(`change ${activityId} not found`);
    const created = await decideCreated(tx, projectId, activityId);
    const createdAny =
      created.kept.length +
        created.delete.keyIds.length +
        created.delete.languageIds.length +
        created.delete.customerIds.length >
      0;
    if (target.cells === 0 && !createdAny)
      throw badRequest(
        `change ${activityId} wrote no translation cells and created nothing that still exists; there is nothing to revert`,
      );
    const cells = await eventCells(
      tx,
      projectId,
      selectEvents.ofActivity(Prisma.sql`${activityId}`, Prisma.sql`${projectId}`),
    );
    const change = await openChange(
      tx,
      projectId,
      'REVERT',
      { activityId: String(activityId) },
      { revertOf: activityId },
    );
    // Cells of what goes are not written back: they go with it, their texts recorded as they go.
    const goes = goesWithCreated(created);
    const eligible = cells.filter((c) => c.exists && c.unchanged && !goes(c));
    const { written, refused } = await writeBack(tx, projectId, eligible, change);
    const before = await cellCount(tx, change.id);
    const deletedKeys = await removeCreated(tx, change, created);
    const after = await cellCount(tx, change.id);
    await markPublishedAgain(
      tx,
      projectId,
      activityId,
      eligible.map((c) => ({
        keyId: c.keyId,
        languageId: c.languageId,
        customerId: c.customerId,
        text: c.oldText ?? '',
        status: c.oldStatus ?? 'NOT_REVIEWED',
      })),
    );
    const result = {
      reverted: written,
      changedSince: cells.filter((c) => c.exists && !c.unchanged && !goes(c)).length,
      refused,
      gone: cells.filter((c) => !c.exists).length,
      deletedKeys,
      deletedLanguages: created.languages,
      deletedCustomers: created.customers,
      removed: after - before,
      kept: created.kept.slice(0, KEPT_LISTED),
      keptCount: created.kept.length,
    };
    await amendChange(tx, change, result, deletedKeys + created.languages.length + created.customers.length);
    return { activityId: change.id, ...result };
  }, BULK_TRANSACTION);
  // The storage folders of screenshots that went with the keys it deleted.
  if (reverted.deletedKeys > 0) await sweepScreenshotDeletions();
  return reverted;
}

/**
 * Reverts the cells of several changes as one REVERT change (an automation
 * run: its own change and its jobs' changes), where they still hold what the
 * last of them wrote. Only cells: changes that created keys, languages or
 * customers are reverted one by one (revertChange).
 */
export async function revertChanges(
  projectId: number,
  activityIds: bigint[],
  details: Record<string, unknown>,
): Promise<RevertResult> {
  if (activityIds.length === 0) throw badRequest('there is nothing to revert');
  return prisma().$transaction(async (tx) => {
    const ids = arrayLiteral(activityIds.map(String));
    const targets = await tx.$queryRaw<{ id: bigint }[]>(Prisma.sql`/* revert:lock-changes */
      SELECT id FROM "Activity" WHERE id = ANY(${ids}::bigint[]) AND "projectId" = ${projectId} ORDER BY id FOR UPDATE`);
    if (targets.length !== activityIds.length) throw notFound('a change to revert was not found');
    const cells = await eventCells(tx, projectId, {
      where: Prisma.sql`b."activityId" = ANY(${ids}::bigint[]) AND b."projectId" = ${projectId}`,
    });
    const first = activityIds.reduce((a, b) => (a < b ? a : b));
    const change = await openChange(
      tx,
      projectId,
      'REVERT',
      { ...details, activityIds: activityIds.map(String) },
      { revertOf: first },
    );
    const eligible = cells.filter((c) => c.exists && c.unchanged);
    const { written, refused } = await writeBack(tx, projectId, eligible, change);
    await markPublishedAgain(
      tx,
      projectId,
      first,
      eligible.map((c) => ({
        keyId: c.keyId,
        languageId: c.languageId,
        customerId: c.customerId,
        text: c.oldText ?? '',
        status: c.oldStatus ?? 'NOT_REVIEWED',
      })),
    );
    const result = {
      reverted: written,
      changedSince: cells.filter((c) => c.exists && !c.unchanged).length,
      refused,
      gone: cells.filter((c) => !c.exists).length,
      ...NOTHING_CREATED,
    };
    await amendChange(tx, change, result);
    return { activityId: change.id, ...result };
  }, BULK_TRANSACTION);
}

/** Sets one cell back to the value it had before one of its change events. */
export async function revertCellChange(projectId: number, cellChangeId: bigint): Promise<RevertResult> {
  return prisma().$transaction(async (tx) => {
    const cells = await eventCells(
      tx,
      projectId,
      selectEvents.one(Prisma.sql`${cellChangeId}`, Prisma.sql`${projectId}`),
    );
    const cell = cells[0];
    if (!cell) throw notFound(`cell change ${cellChangeId} not found`);
    if (!cell.exists) throw notFound(`the key, language or customer of cell change ${cellChangeId} no longer exists`);
    const change = await openChange(tx, projectId, 'REVERT', { cellChangeId: String(cellChangeId) });
    const { written, refused } = await writeBack(tx, projectId, [cell], change);
    // One cell asked for explicitly: a refusal is the answer (as PATCH /api/v2/translations), and nothing is recorded.
    if (refused.LOCKED)
      throw conflict(`the key of cell change ${cellChangeId} is locked; its translations cannot be changed`);
    if (refused.CHARACTERS_LIMIT)
      throw badRequest(`the earlier text of cell change ${cellChangeId} is longer than its key's charactersLimit`);
    const result = { reverted: written, changedSince: 0, refused, gone: 0, ...NOTHING_CREATED };
    await amendChange(tx, change, result);
    return { activityId: change.id, ...result };
  });
}

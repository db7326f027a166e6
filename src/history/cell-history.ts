// A translation cell's history: every change event of the cell (base
// translation or one customer's override), newest first, with who made it,
// when and through what.
import { prisma, type Db } from '../db.js';
import { notFound } from '../errors.js';
import { describeKey } from '../keys/write.js';
import { CELL_EVENT_COLUMNS, cellEventsFrom, checkActivityPage, type CellEvent } from './activity-log.js';
import { selectEvents } from './cell-events.js';

export interface CellAddress {
  key: string;
  namespace: string;
  language: string;
  /** Customer key: that customer's override; null for the base translation. */
  customer: string | null;
}

/** The ids of a cell's key, language and customer (404 when one is unknown). */
export async function cellIds(projectId: number, address: CellAddress, db: Db = prisma()): Promise<{ keyId: number; languageId: number; customerId: number | null }> {
  const [row] = await db.$queryRawUnsafe<{ keyId: number | null; languageId: number | null; customerId: number | null }[]>(
    `SELECT (SELECT id FROM "TranslationKey" WHERE "projectId" = $1 AND key = $2 AND namespace = $3) AS "keyId",
            (SELECT id FROM "Language" WHERE "projectId" = $1 AND key = $4) AS "languageId",
            (SELECT id FROM "Customer" WHERE "projectId" = $1 AND key = $5) AS "customerId"`,
    projectId, address.key, address.namespace, address.language, address.customer,
  );
  if (row!.keyId === null) throw notFound(`${describeKey(address)} not found`);
  if (row!.languageId === null) throw notFound(`language '${address.language}' not found`);
  if (address.customer && row!.customerId === null) throw notFound(`customer '${address.customer}' not found`);
  return { keyId: row!.keyId, languageId: row!.languageId, customerId: address.customer ? row!.customerId : null };
}

export async function cellHistory(projectId: number, address: CellAddress, page: number, size: number, db: Db = prisma()): Promise<CellEvent[]> {
  checkActivityPage(page, size);
  const ids = await cellIds(projectId, address, db);
  return db.$queryRawUnsafe<CellEvent[]>(
    `SELECT ${CELL_EVENT_COLUMNS} FROM ${cellEventsFrom(selectEvents.ofCell('$1', '$2', '$4'))}
      WHERE c."customerId" IS NOT DISTINCT FROM $3::int
      ORDER BY c.id DESC LIMIT $5 OFFSET $6`,
    ids.keyId, ids.languageId, ids.customerId, projectId, size, page * size,
  );
}

// A translation cell's history: every change event of the cell (base
// translation or one customer's override), newest first, with who made it,
// when and through what.
import { prisma, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { notFound } from '../errors.js';
import { describeKey } from '../content/keys/write.js';
import { CELL_EVENT_COLUMNS, cellEventsFromSql, checkActivityPage, type CellEvent } from './activity-log.js';
import { selectEvents } from '../content/cell-events.js';

export interface CellAddress {
  key: string;
  namespace: string;
  language: string;
  /** Customer key: that customer's override; null for the base translation. */
  customer: string | null;
}

/** The ids of a cell's key, language and customer (404 when one is unknown). */
export async function cellIds(
  projectId: number,
  address: CellAddress,
  db: Db = prisma(),
): Promise<{ keyId: number; languageId: number; customerId: number | null }> {
  const [row] = await db.$queryRaw<
    { keyId: number | null; languageId: number | null; customerId: number | null }[]
  >(Prisma.sql`/* history:cell-ids */
    SELECT (SELECT id FROM "TranslationKey" WHERE "projectId" = ${projectId} AND key = ${address.key} AND namespace = ${address.namespace}) AS "keyId",
            (SELECT id FROM "Language" WHERE "projectId" = ${projectId} AND key = ${address.language}) AS "languageId",
            (SELECT id FROM "Customer" WHERE "projectId" = ${projectId} AND key = ${address.customer}) AS "customerId"`);
  if (row!.keyId === null) throw notFound(`${describeKey(address)} not found`);
  if (row!.languageId === null) throw notFound(`language '${address.language}' not found`);
  if (address.customer && row!.customerId === null) throw notFound(`customer '${address.customer}' not found`);
  return { keyId: row!.keyId, languageId: row!.languageId, customerId: address.customer ? row!.customerId : null };
}

export async function cellHistory(
  projectId: number,
  address: CellAddress,
  page: number,
  size: number,
  db: Db = prisma(),
): Promise<CellEvent[]> {
  checkActivityPage(page, size);
  const ids = await cellIds(projectId, address, db);
  const cell = selectEvents.ofCell(Prisma.sql`${ids.keyId}`, Prisma.sql`${ids.languageId}`, Prisma.sql`${projectId}`);
  return db.$queryRaw<CellEvent[]>(Prisma.sql`/* history:cell-history */
    SELECT ${CELL_EVENT_COLUMNS} FROM ${cellEventsFromSql(cell)}
      WHERE c."customerId" IS NOT DISTINCT FROM ${ids.customerId}::int
      ORDER BY c.id DESC LIMIT ${size} OFFSET ${page * size}`);
}

// Path order for nested exports (JSON/YAML/PHP/JavaScript with WRITE_NESTED):
// a nested writer needs every subtree's keys together, in the order of
// pathSortKey (src/formats/nested-keys.ts), which SQL cannot compute. So the
// file's keys are read page by page (id and name only), their sort keys
// computed here and inserted into ExportKeyOrder under a run id, one
// statement per page; the export then pages through the run by sort key.
// Memory stays one page; the run's rows are deleted when the export ends,
// and runs left by a crashed process are swept after a day.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { pathSortKey } from '../formats/nested-keys.js';
import { EXPORT_PAGE_SIZE, keyFilterConditions, laterNamespaceOfName, type KeyFilter } from './export-read.js';

export interface PathOrderScope {
  projectId: number;
  namespace?: string;
  oneKeyPerName: boolean;
  filter?: KeyFilter;
  pageSize?: number;
}

const STALE_RUN_MS = 24 * 60 * 60 * 1000;

/** Fills a run with the sort keys of the scope's keys; returns its id. A failed fill removes what it wrote. */
export async function preparePathOrder(db: Db, scope: PathOrderScope): Promise<string> {
  const runId = randomUUID();
  try {
    await fillRun(db, runId, scope);
  } catch (error) {
    await dropPathOrder(db, runId).catch(() => undefined);
    throw error;
  }
  return runId;
}

async function fillRun(db: Db, runId: string, scope: PathOrderScope): Promise<void> {
  const pageSize = scope.pageSize ?? EXPORT_PAGE_SIZE;
  let after = 0;
  for (;;) {
    const where = [Prisma.sql`k."projectId" = ${scope.projectId}`, Prisma.sql`k.id > ${after}`];
    if (scope.namespace !== undefined) where.push(Prisma.sql`k.namespace = ${scope.namespace}`);
    where.push(...keyFilterConditions('k', scope.filter));
    if (scope.oneKeyPerName)
      where.push(
        Prisma.sql`NOT ${laterNamespaceOfName('k', keyFilterConditions('same', { tags: scope.filter?.tags }))}`,
      );
    const rows = await db.$queryRaw<{ id: number; key: string }[]>(
      Prisma.sql`/* export:path-order-keys */ SELECT k.id, k.key FROM "TranslationKey" k WHERE ${Prisma.join(where, ' AND ')} ORDER BY k.id LIMIT ${pageSize}`,
    );
    if (rows.length === 0) return;
    await db.$executeRaw(
      Prisma.sql`/* export:path-order-fill */ INSERT INTO "ExportKeyOrder" ("runId", "sortKey", "keyId")
       SELECT ${runId}, decode(s, 'hex'), id
         FROM unnest(${rows.map((r) => pathSortKey(r.key).toString('hex'))}::text[], ${rows.map((r) => r.id)}::int[]) AS r(s, id)`,
    );
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1]!.id;
  }
}

export async function dropPathOrder(db: Db, runId: string): Promise<void> {
  await db.$executeRaw(Prisma.sql`/* export:path-order-drop */ DELETE FROM "ExportKeyOrder" WHERE "runId" = ${runId}`);
}

/** Deletes runs older than a day (their export was cut off). */
export async function sweepPathOrders(db: Db): Promise<number> {
  return db.$executeRaw(
    Prisma.sql`/* export:path-order-sweep */ DELETE FROM "ExportKeyOrder" WHERE "createdAt" < ${new Date(Date.now() - STALE_RUN_MS)}`,
  );
}

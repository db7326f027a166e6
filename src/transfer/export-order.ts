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
    const params: unknown[] = [scope.projectId, after, pageSize];
    const where = [`k."projectId" = $1`, `k.id > $2`];
    const p = (value: unknown) => `$${params.push(value)}`;
    if (scope.namespace !== undefined) where.push(`k.namespace = ${p(scope.namespace)}`);
    where.push(...keyFilterConditions('k', scope.filter, p));
    if (scope.oneKeyPerName)
      where.push(`NOT ${laterNamespaceOfName('k', keyFilterConditions('same', { tags: scope.filter?.tags }, p))}`);
    const rows = await db.$queryRawUnsafe<{ id: number; key: string }[]>(
      `SELECT k.id, k.key FROM "TranslationKey" k WHERE ${where.join(' AND ')} ORDER BY k.id LIMIT $3`,
      ...params,
    );
    if (rows.length === 0) return;
    await db.$executeRawUnsafe(
      `INSERT INTO "ExportKeyOrder" ("runId", "sortKey", "keyId")
       SELECT $1, decode(s, 'hex'), id FROM unnest($2::text[], $3::int[]) AS r(s, id)`,
      runId,
      rows.map((r) => pathSortKey(r.key).toString('hex')),
      rows.map((r) => r.id),
    );
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1]!.id;
  }
}

export async function dropPathOrder(db: Db, runId: string): Promise<void> {
  await db.$executeRawUnsafe(`DELETE FROM "ExportKeyOrder" WHERE "runId" = $1`, runId);
}

/** Deletes runs older than a day (their export was cut off). */
export async function sweepPathOrders(db: Db): Promise<number> {
  return db.$executeRawUnsafe(
    `DELETE FROM "ExportKeyOrder" WHERE "createdAt" < $1`,
    new Date(Date.now() - STALE_RUN_MS),
  );
}

// The queue of cells whose quality-check findings are computed again
// (docs/quality-checks.md, "Stored findings"). The write gate adds the cells it
// writes in its own statement (a CTE over its `written` rows), so a write and
// its queue entry commit together and cost one statement; the findings updater
// (src/findings/updater.ts) drains it in the background. Deleting keys queues
// the cells whose consistency findings name them (queueConsistencyNeighbours).
//
// One row per cell (primary key): a cell written twice before the updater
// reaches it is checked once. A source text that changes queues the key's
// other languages, once per statement whatever the number of languages
// written with it (UNION, then ON CONFLICT). A cell queued again while the
// updater holds it gets a new generation and its lease is dropped: the updater
// removes only the generation it computed, so the newer text is checked too.
import { Prisma } from '../generated/prisma/client.js';
import type { Db } from '../db.js';
import { arrayLiteral } from '../db/array-literal.js';
import { CONSISTENCY_CHECK_IDS } from '../checks/consistency.js';

/**
 * The queue's INSERT as a CTE body of the write gate's statement: reads the
 * gate's `written` (the rows written) and `checked` (their old texts) CTEs;
 * `project` is the SQL of the project id.
 */
export function enqueueFindingsSql(project: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`INSERT INTO "FindingQueue" AS q ("keyId", "languageId", "projectId")
      SELECT cell."keyId", cell."languageId", ${project} FROM (
        SELECT w."keyId", w."languageId" FROM written w
        UNION
        -- A source text that changed: the key's other languages are checked against it again.
        SELECT o."keyId", o."languageId"
          FROM written w
          JOIN checked c ON c.key_id = w."keyId" AND c.language_id = w."languageId"
          JOIN "Language" l ON l.id = w."languageId" AND l."isDefault"
          JOIN "Translation" o ON o."keyId" = w."keyId" AND o."languageId" <> w."languageId" AND o.text <> ''
         WHERE c.old_text IS DISTINCT FROM w.text
      ) cell
      ON CONFLICT ("keyId", "languageId") DO UPDATE SET generation = q.generation + 1, "leasedUntil" = NULL, "leaseOwner" = NULL`;
}

/**
 * Queues every cell of a project (or of some of its keys): after its check
 * settings change, or a key's characters limit. One statement.
 */
export async function enqueueProject(db: Db, projectId: number, keyIds?: readonly number[]): Promise<number> {
  const keys = keyIds ? Prisma.sql`AND t."keyId" = ANY(${[...keyIds]}::int[])` : Prisma.empty;
  return db.$executeRaw(Prisma.sql`/* findings:enqueue-project */
    INSERT INTO "FindingQueue" AS q ("keyId", "languageId", "projectId")
    SELECT t."keyId", t."languageId", t."projectId" FROM "Translation" t WHERE t."projectId" = ${projectId} ${keys}
    ON CONFLICT ("keyId", "languageId") DO UPDATE SET generation = q.generation + 1, "leasedUntil" = NULL, "leaseOwner" = NULL`);
}

/**
 * Before keys are deleted (keys/delete.ts): the cells whose consistency
 * findings name them are checked again (their groups lose a member). Returns
 * how many cells it queued.
 */
export async function queueConsistencyNeighbours(db: Db, keyIds: readonly number[]): Promise<number> {
  if (!keyIds.length) return 0;
  const keys = arrayLiteral(keyIds);
  return db.$executeRaw(Prisma.sql`/* findings:consistency-neighbours */
    INSERT INTO "FindingQueue" AS q ("keyId", "languageId", "projectId")
    SELECT DISTINCT o."keyId", o."languageId", o."projectId" FROM (
      SELECT o.* FROM "ConsistencyMember" m JOIN "ConsistencyMember" o ON o."languageId" = m."languageId" AND o."sourceHash" = m."sourceHash"
       WHERE m."keyId" = ANY(${keys}::int[])
      UNION ALL
      SELECT o.* FROM "ConsistencyMember" m JOIN "ConsistencyMember" o ON o."languageId" = m."languageId" AND o."textHash" = m."textHash"
       WHERE m."keyId" = ANY(${keys}::int[])
    ) o
    WHERE o."keyId" <> ALL(${keys}::int[])
      AND EXISTS (SELECT 1 FROM "Finding" f WHERE f."keyId" = o."keyId" AND f."languageId" = o."languageId" AND f."check" = ANY(${arrayLiteral(CONSISTENCY_CHECK_IDS)}::text[]))
    ON CONFLICT ("keyId", "languageId") DO UPDATE SET generation = q.generation + 1, "leasedUntil" = NULL, "leaseOwner" = NULL`);
}

const wakers = new Set<() => void>();
let wakeTimer: NodeJS.Timeout | undefined;

/** An updater of this process, woken after writes (registerWaker returns its removal). */
export function registerWaker(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

/**
 * Called by the write gate after it queued cells: the updaters of this
 * process look at the queue shortly (after the writer's transaction has had
 * time to commit) instead of at their next poll.
 */
export function noteQueued(): void {
  if (wakeTimer || !wakers.size) return;
  wakeTimer = setTimeout(() => {
    wakeTimer = undefined;
    for (const wake of wakers) wake();
  }, 50);
  wakeTimer.unref();
}

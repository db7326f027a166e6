// The migration to batched change events (20261125120000_cell_change_batches)
// keeps every existing event with its id, text and order, and new batches
// take ids above all of them (src/content/cell-events.ts).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/client.js';
import { migrate, readMigrations } from '../../../src/db/migrate.js';
import { BATCH_SPAN, insertCellEventsSql } from '../../../src/content/cell-events.js';
import { Prisma } from '../../../src/generated/prisma/client.js';
import { storedCellEvents } from '../../support/cell-events.js';
import { tempDirs } from '../../support/temp-dirs.js';

const tempDir = tempDirs('lms-batches-');
const MIGRATION = '20261125120000_cell_change_batches';

describe('migration to batched change events', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ kind: 'pglite', dataDir: join(tempDir(), 'pglite') });
    await migrate(
      db,
      readMigrations().filter((m) => m.name < MIGRATION),
    );
  });
  afterAll(async () => {
    await db?.close();
  });

  it('keeps each event under its id, in order, and gives new batches larger ids', async () => {
    const sql = db.prisma;
    // No project rows: the foreign keys are not what this is about.
    await sql.$executeRawUnsafe(`SET session_replication_role = replica`);
    await sql.$executeRawUnsafe(
      `INSERT INTO "Activity" (id, "projectId", kind, "actorKind", source, cells) VALUES (10, 1, 'IMPORT', 'API_KEY', 'API', 3), (11, 1, 'TRANSLATIONS', 'API_KEY', 'API', 1)`,
    );
    // Two changes written at the same time interleave their ids; one event far above 2^24.
    await sql.$executeRawUnsafe(
      `INSERT INTO "CellChange" (id, "activityId", "projectId", "keyId", "languageId", "customerId", key, namespace, "oldText", "newText", "oldStatus", "newStatus", at) VALUES
         (1, 10, 1, 100, 7, NULL, 'a', '', NULL, 'A', NULL, 'NOT_REVIEWED', '2026-11-01'),
         (2, 10, 1, 101, 7, NULL, 'b', 'ns', 'old b', 'B', 'REVIEWED', 'NOT_REVIEWED', '2026-11-01'),
         (3, 11, 1, 100, 7, NULL, 'a', '', 'A', 'A2', 'NOT_REVIEWED', 'REVIEWED', '2026-11-02'),
         (4, 10, 1, 100, 8, 5, 'a', '', '', 'A for 5', 'NOT_REVIEWED', 'NOT_REVIEWED', '2026-11-01'),
         (50000000, 11, 1, 102, 7, NULL, 'c', '', NULL, 'C', NULL, 'NOT_REVIEWED', '2026-11-02')`,
    );
    await migrate(db);

    const events = await storedCellEvents(sql, { projectId: 1 });
    expect(
      events.map((e) => [
        e.id,
        e.activityId,
        e.keyId,
        e.languageId,
        e.customerId,
        e.key,
        e.namespace,
        e.oldText,
        e.newText,
        e.oldStatus,
        e.newStatus,
      ]),
    ).toEqual([
      [1n, 10n, 100, 7, null, 'a', '', null, 'A', null, 'NOT_REVIEWED'],
      [2n, 10n, 101, 7, null, 'b', 'ns', 'old b', 'B', 'REVIEWED', 'NOT_REVIEWED'],
      [3n, 11n, 100, 7, null, 'a', '', 'A', 'A2', 'NOT_REVIEWED', 'REVIEWED'],
      [4n, 10n, 100, 8, 5, 'a', '', '', 'A for 5', 'NOT_REVIEWED', 'NOT_REVIEWED'],
      [50000000n, 11n, 102, 7, null, 'c', '', null, 'C', null, 'NOT_REVIEWED'],
    ]);
    // Runs of consecutive ids of one change are one batch each.
    const ids = await sql.$queryRawUnsafe<{ id: bigint; at: Date }[]>(
      `SELECT id, at FROM "CellChangeBatch" ORDER BY id`,
    );
    expect(ids.map((b) => b.id)).toEqual([1n, 3n, 4n, 50000000n]);
    expect(ids[0]!.at.toISOString()).toBe('2026-11-01T00:00:00.000Z');

    const [batch] = await sql.$queryRaw<{ id: bigint; n: number }[]>(
      Prisma.sql`WITH b AS (${insertCellEventsSql({
        activity: Prisma.sql`11`,
        project: Prisma.sql`1`,
        cells: Prisma.sql`SELECT 1::bigint AS ord, 103 AS "keyId", 7 AS "languageId", NULL::int AS "customerId", 'd' AS key, '' AS namespace,
                     NULL::text AS "oldText", 'D' AS "newText", NULL::"ReviewStatus" AS "oldStatus", 'NOT_REVIEWED'::"ReviewStatus" AS "newStatus"`,
      })}) SELECT * FROM b`,
    );
    expect(batch!.n).toBe(1);
    expect(batch!.id).toBe(BigInt(Math.ceil(50_000_001 / BATCH_SPAN) * BATCH_SPAN));
    expect((await storedCellEvents(sql, { activityId: 11n })).map((e) => e.id)).toEqual([3n, 50000000n, batch!.id]);
  });
});

// The embedded database vacuums and analyzes itself by autovacuum's rule
// (src/db/pglite-vacuum.ts): a single-user backend has no autovacuum.
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/client.js';
import { startVacuum } from '../../../src/db/pglite-vacuum.js';
import { tempDirs } from '../../support/temp-dirs.js';

const tempDir = tempDirs('lms-vacuum-');

interface TableStats {
  n_dead_tup: number;
  last_vacuum: Date | null;
  last_analyze: Date | null;
}

async function statsOf(pglite: PGlite, table: string): Promise<TableStats> {
  // Counters reach the statistics when the backend reports them: asked for here, so a test need not wait a second.
  await pglite.query('SELECT pg_stat_force_next_flush()');
  await pglite.query('SELECT 1');
  const { rows } = await pglite.query<TableStats>(
    'SELECT n_dead_tup::int, last_vacuum, last_analyze FROM pg_stat_user_tables WHERE relname = $1',
    [table],
  );
  return rows[0]!;
}

describe('embedded database vacuum', () => {
  let db: Database;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = join(tempDir(), 'pglite');
    db = await openDatabase({ kind: 'pglite', dataDir });
  });
  let closed = false;
  afterAll(async () => {
    if (!closed) await db?.close();
  });

  it('vacuums and analyzes a table once its dead rows pass the threshold, not before, and not twice', async () => {
    if (db.driver.kind !== 'pglite') throw new Error('expected PGlite');
    const { pglite } = db.driver;
    const vacuum = startVacuum(pglite, { checkMs: 3_600_000 });
    try {
      // Whatever the migrations left due goes first.
      await vacuum.check();
      await pglite.exec(
        'CREATE TABLE churn (id int PRIMARY KEY, v text); INSERT INTO churn SELECT g, md5(g::text) FROM generate_series(1, 1000) g',
      );
      await statsOf(pglite, 'churn');
      const first = await vacuum.check();
      // 1,000 rows inserted into an empty table: past the analyze threshold (50 + 10 %), under the insert one (1,000 + 20 %).
      expect(first).toEqual({ vacuumed: [], analyzed: ['public.churn'] });
      // 40 dead rows of 1,000: under 50 + 20 %.
      await pglite.exec('UPDATE churn SET v = v || 1 WHERE id <= 40');
      await statsOf(pglite, 'churn');
      expect((await vacuum.check()).vacuumed).toEqual([]);
      await pglite.exec('UPDATE churn SET v = v || 2');
      expect((await statsOf(pglite, 'churn')).n_dead_tup).toBe(1040);
      const due = await vacuum.check();
      expect(due.vacuumed).toEqual(['public.churn']);
      expect(due.analyzed).toEqual(['public.churn']);
      const after = await statsOf(pglite, 'churn');
      expect(after.n_dead_tup).toBe(0);
      expect(after.last_vacuum).not.toBeNull();
      expect(await vacuum.check()).toEqual({ vacuumed: [], analyzed: [] });
      // The space of the dead rows is used again: another full update leaves the table its size.
      const size = async () =>
        (await pglite.query<{ s: number }>(`SELECT pg_relation_size('churn')::int AS s`)).rows[0]!.s;
      const before = await size();
      await pglite.exec('UPDATE churn SET v = v || 3');
      expect(await size()).toBe(before);
    } finally {
      await vacuum.stop();
    }
  });

  it("follows the server's autovacuum settings, and vacuums a table whose oldest transaction id is older than autovacuum_freeze_max_age", async () => {
    await db.close();
    closed = true;
    // The same data directory, opened with thresholds no change here reaches and the smallest freeze age PostgreSQL accepts.
    const settings = [
      'autovacuum_vacuum_threshold=1000000',
      'autovacuum_analyze_threshold=1000000',
      'autovacuum_vacuum_insert_threshold=1000000',
      'autovacuum_freeze_max_age=100000',
    ];
    const pglite = new PGlite(dataDir, {
      startParams: [...PGlite.defaultStartParams, ...settings.flatMap((s) => ['-c', s])],
    });
    const vacuum = startVacuum(pglite, { checkMs: 3_600_000 });
    try {
      await pglite.exec(
        'CREATE TABLE aging (id int PRIMARY KEY, v text); INSERT INTO aging SELECT g, md5(g::text) FROM generate_series(1, 1000) g; UPDATE aging SET v = v || 1',
      );
      await statsOf(pglite, 'aging');
      expect((await vacuum.check()).vacuumed).not.toContain('public.aging');
      // 100,000 transaction ids later (each subtransaction that writes takes one).
      await pglite.exec(
        `CREATE TEMP TABLE burn (i int); DO $$ BEGIN FOR i IN 1..100001 LOOP BEGIN INSERT INTO burn VALUES (i); EXCEPTION WHEN OTHERS THEN NULL; END; END LOOP; END $$`,
      );
      const age = async () =>
        (await pglite.query<{ a: number }>(`SELECT age(relfrozenxid) AS a FROM pg_class WHERE relname = 'aging'`))
          .rows[0]!.a;
      expect(await age()).toBeGreaterThan(100_000);
      expect((await vacuum.check()).vacuumed).toContain('public.aging');
      expect(await age()).toBeLessThan(100_000);
    } finally {
      await vacuum.stop();
      await pglite.close();
    }
  }, 60_000);
});

// The embedded database checkpoints itself: PostgreSQL's own checkpoint,
// asked for when the WAL reaches about max_wal_size / 1.9, hangs PGlite's
// single-user backend for good (see src/db/pglite-checkpoints.ts).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/client.js';
import { startCheckpoints } from '../../../src/db/pglite-checkpoints.js';
import { tempDirs } from '../../support/temp-dirs.js';

const tempDir = tempDirs('lms-checkpoints-');

describe('embedded database checkpoints', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ kind: 'pglite', dataDir: join(tempDir(), 'pglite') });
  });
  afterAll(() => db?.close());

  it('starts with a max_wal_size no workload reaches, so PostgreSQL never checkpoints by itself', async () => {
    const [{ max_wal_size }] = await db.prisma.$queryRawUnsafe<{ max_wal_size: string }[]>('SHOW max_wal_size');
    expect(max_wal_size).toBe('1TB');
  });

  it('checkpoints once the WAL since the last checkpoint reaches the threshold, not before', async () => {
    if (db.driver.kind !== 'pglite') throw new Error('expected PGlite');
    const { pglite } = db.driver;
    const behind = async () =>
      (
        await pglite.query<{ b: number }>(
          'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::float8 AS b FROM pg_control_checkpoint()',
        )
      ).rows[0]!.b;
    const checkpoints = startCheckpoints(pglite, { checkMs: 3_600_000, checkpointBytes: 4 * 2 ** 20 });
    try {
      await pglite.exec('CHECKPOINT');
      await pglite.exec(
        'CREATE TABLE small (x text); INSERT INTO small SELECT md5(g::text) FROM generate_series(1, 100) g',
      );
      expect(await checkpoints.check()).toBe(false);
      await pglite.exec('INSERT INTO small SELECT repeat(md5(g::text), 8) FROM generate_series(1, 40000) g');
      expect(await behind()).toBeGreaterThanOrEqual(4 * 2 ** 20);
      expect(await checkpoints.check()).toBe(true);
      expect(await behind()).toBeLessThan(2 ** 20);
    } finally {
      await checkpoints.stop();
    }
  });

  it('writes past the WAL at which PGlite used to hang (about 540 MiB since the last checkpoint)', async () => {
    // In a child process: a hung PGlite spins the thread it runs on, which no test timeout could interrupt.
    const script = `
      import { openDatabase } from ${JSON.stringify(new URL('../../../src/db/client.ts', import.meta.url).pathname)};
      const db = await openDatabase({ kind: 'pglite', dataDir: ${JSON.stringify(join(tempDir(), 'pglite'))} });
      const { pglite } = db.driver;
      // Stored as written (no compression), so each row is its size in WAL.
      await pglite.exec('CREATE TABLE w (id int, b bytea); ALTER TABLE w ALTER COLUMN b SET STORAGE EXTERNAL');
      for (let round = 0; round < 12; round++) {
        await pglite.exec(\`INSERT INTO w SELECT g, convert_to(repeat(md5(g::text), 32768), 'UTF8') FROM generate_series(\${round * 50}, \${round * 50 + 49}) g\`);
      }
      const { rows } = await pglite.query("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8 AS wal");
      console.log(JSON.stringify({ walMiB: rows[0].wal / 2 ** 20 }));
      await db.close();
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { timeout: 90_000, killSignal: 'SIGKILL' },
    );
    const { walMiB } = JSON.parse(stdout.trim().split('\n').pop()!) as { walMiB: number };
    expect(walMiB).toBeGreaterThan(600);
  }, 120_000);
});

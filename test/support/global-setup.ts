// Prepares migrated template databases once per run, so a test file gets a
// fresh database in milliseconds instead of paying initdb and migrations:
// a dumped PGlite data directory, and a PostgreSQL template database when
// TEST_DATABASE_URL is set.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { setDatabase } from '../../src/db.js';
import { withDatabase } from './pg-admin.js';

export const TEMPLATE_DIR = join(import.meta.dirname, '..', '..', '.test-data');
export const PGLITE_TEMPLATE = join(TEMPLATE_DIR, 'pglite-template.tar.gz');
export const PG_TEMPLATE_DB = `lms_template_${process.pid}`;

export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  mkdirSync(TEMPLATE_DIR, { recursive: true });
  // The bundle `npm start` runs, which the tests' service processes run too (test/support/process.ts), and
  // the in-context plugin the service serves and its browser tests load. Both are rebuilt only when their
  // sources changed; the three projects sharing this set-up build one after the other (a build lock).
  execFileSync(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'build.mjs')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const db = await openDatabase({ kind: 'pglite' });
  setDatabase(db);
  await migrate(db);
  const dump = await dumpPglite(db);
  writeFileSync(PGLITE_TEMPLATE, dump);
  await db.close();
  setDatabase(undefined);
  provide('pgliteTemplate', PGLITE_TEMPLATE);

  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${PG_TEMPLATE_DB}`);
  await admin.query(`CREATE DATABASE ${PG_TEMPLATE_DB}`);
  const templateUrl = withDatabase(url, PG_TEMPLATE_DB);
  const pgDb = await openDatabase({ kind: 'postgres', url: templateUrl, poolSize: 1 });
  setDatabase(pgDb);
  await migrate(pgDb);
  await pgDb.close();
  setDatabase(undefined);
  provide('pgTemplate', PG_TEMPLATE_DB);
  provide('pgRunPrefix', `lms_test_${process.pid}_`);
  return async () => {
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $2 OR datname = $1`,
      [PG_TEMPLATE_DB, `lms\\_test\\_${process.pid}\\_%`],
    );
    for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
    await admin.end();
  };
}

async function dumpPglite(db: Awaited<ReturnType<typeof openDatabase>>): Promise<Buffer> {
  const blob = await db.dumpDataDir!();
  return Buffer.from(await blob.arrayBuffer());
}

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

type Provided = Record<string, unknown>;
type Shared = { ready: Promise<{ provided: Provided; teardown?: () => Promise<void> }>; users: number };
// Vitest runs this set-up once per project that names it (pglite, postgres, browser), each with its own copy
// of this module, one after the other in its main process. The templates are the same for all three: the
// first call makes them and the others share them (about 9 s each on an idle 2-core machine); the last
// project's teardown drops them.
const SHARED = Symbol.for('lms.test.globalSetup');
const registry = globalThis as unknown as Record<symbol, Shared | undefined>;

export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  const shared = (registry[SHARED] ??= { ready: prepare(), users: 0 });
  shared.users++;
  const { provided, teardown } = await shared.ready;
  for (const [key, value] of Object.entries(provided)) provide(key, value);
  return async () => {
    if (--shared.users > 0) return;
    registry[SHARED] = undefined;
    await teardown?.();
  };
}

async function prepare(): Promise<{ provided: Provided; teardown?: () => Promise<void> }> {
  const provided: Provided = {};
  const provide = (key: string, value: unknown) => (provided[key] = value);
  mkdirSync(TEMPLATE_DIR, { recursive: true });
  // The bundle `npm start` runs, which the tests' service processes run too (test/support/process.ts), and
  // the in-context plugin the service serves and its browser tests load. Both are rebuilt only when their
  // sources changed (a build lock keeps concurrent runs from building at once).
  execFileSync(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'build.mjs')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const db = await openDatabase({ kind: 'pglite' });
  setDatabase(db);
  await migrate(db);
  // Besides ours, the data folder holds two empty databases (template0 and template1) that no test uses,
  // and every open of the template unpacks and starts them: dropped, an open of the template took about
  // 0.7 s of CPU instead of 1.1–1.5 s (2 cores), and the run opens it once per API and browser test file.
  // The checkpoint leaves the dump nothing to replay.
  for (const sql of [
    `UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`,
    'DROP DATABASE template0',
    'DROP DATABASE template1',
    'CHECKPOINT',
  ])
    await db.exec(sql);
  const dump = await dumpPglite(db);
  writeFileSync(PGLITE_TEMPLATE, dump);
  await db.close();
  setDatabase(undefined);
  provide('pgliteTemplate', PGLITE_TEMPLATE);

  const url = process.env.TEST_DATABASE_URL;
  if (!url) return { provided };
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
  const teardown = async () => {
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $2 OR datname = $1`,
      [PG_TEMPLATE_DB, `lms\\_test\\_${process.pid}\\_%`],
    );
    for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
    await admin.end();
  };
  return { provided, teardown };
}

async function dumpPglite(db: Awaited<ReturnType<typeof openDatabase>>): Promise<Buffer> {
  const blob = await db.dumpDataDir!();
  return Buffer.from(await blob.arrayBuffer());
}

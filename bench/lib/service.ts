// The service under measurement, started in this process on a fresh database
// (PGlite in a temporary directory, or a new PostgreSQL database).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase, withDatabase } from '../../scripts/lib/pg-admin.js';
import { buildService, type Service } from '../../src/app.js';
import { embeddedDataDir, loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { createAccount, createPersonalToken } from '../../src/accounts/accounts.js';

export interface BenchService {
  service: Service;
  url: string;
  token: string;
  /** The PostgreSQL database of this service (undefined on PGlite). */
  databaseUrl?: string;
  /** Creates a project and returns its REST data (apiKey, projectToken). */
  project(name: string): Promise<{ apiKey: string; projectToken: string }>;
  close(): Promise<void>;
}

export function postgresUrl(): string | undefined {
  return process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
}

/**
 * A new empty PostgreSQL database for one scenario; or, with BENCH_KEEP_DATABASE=<name>, that database, created
 * if missing and kept afterwards, so a scenario that grows a large project (`tm`) can find it seeded by a run
 * before (migrations still apply at start-up).
 */
export async function createBenchDatabase(): Promise<{ url: string; drop(): Promise<void>; secretKey?: string }> {
  const base = postgresUrl();
  if (!base) throw new Error('postgres benchmarks need BENCH_DATABASE_URL or TEST_DATABASE_URL');
  const keep = process.env.BENCH_KEEP_DATABASE;
  if (keep) {
    if (!/^[a-z_][a-z0-9_]*$/.test(keep)) throw new Error('BENCH_KEEP_DATABASE: a lower-case SQL name');
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [keep]);
      if (!rowCount) await client.query(`CREATE DATABASE ${keep}`);
    } finally {
      await client.end();
    }
    // The server key must be the same run after run (it sealed the database's check value): one of the bench's own.
    const secretKey = createHash('sha256').update(`lms-bench:${keep}`).digest('hex');
    return { url: withDatabase(base, keep), drop: async () => {}, secretKey };
  }
  return createDatabase(base, `lms_bench_${randomBytes(4).toString('hex')}`);
}

export async function startBenchService(
  kind: 'pglite' | 'postgres',
  env: Record<string, string> = {},
): Promise<BenchService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-bench-'));
  let dropDatabase = async () => {};
  let databaseUrl: string | undefined;
  let secretKey: string | undefined;
  if (kind === 'postgres') {
    const database = await createBenchDatabase();
    databaseUrl = database.url;
    dropDatabase = database.drop;
    secretKey = database.secretKey;
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '0',
    PUBLISH_RATE_LIMIT: '100000',
    MAX_UPLOAD_BYTES: String(1024 * 1024 * 1024),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(secretKey ? { SECRET_KEY: secretKey } : {}),
    ...env,
  });
  const db = await openDatabase(
    databaseUrl
      ? { kind: 'postgres', url: databaseUrl, poolSize: 10 }
      : { kind: 'pglite', dataDir: embeddedDataDir(dataDir) },
  );
  const service = await buildService(config, { db, logger: false });
  const url = await service.app.listen({ port: 0, host: '127.0.0.1' });
  // The port is known only now: download and CDN urls must point at this listener.
  config.publicUrl = url;
  config.cdnUrl = `${url}/cdn`;
  const account = await createAccount(
    { email: `bench-${randomBytes(3).toString('hex')}@example.com`, password: 'bench-password' },
    config.defaultPlan,
  );
  const token = await createPersonalToken(account.id, 'bench');
  return {
    service,
    url,
    token,
    databaseUrl,
    async project(name) {
      const res = await fetch(`${url}/api/v2/projects`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      return (await res.json()).data;
    },
    async close() {
      await service.close();
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

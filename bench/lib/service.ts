// The service under measurement, started in this process on a fresh database
// (PGlite in a temporary directory, or a new PostgreSQL database).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createDatabase } from '../../scripts/lib/pg-admin.js';
import { buildService, type Service } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
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

/** A new empty PostgreSQL database for one scenario. */
export async function createBenchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = postgresUrl();
  if (!base) throw new Error('postgres benchmarks need BENCH_DATABASE_URL or TEST_DATABASE_URL');
  return createDatabase(base, `lms_bench_${randomBytes(4).toString('hex')}`);
}

export async function startBenchService(
  kind: 'pglite' | 'postgres',
  env: Record<string, string> = {},
): Promise<BenchService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-bench-'));
  let dropDatabase = async () => {};
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    const database = await createBenchDatabase();
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '0',
    PUBLISH_RATE_LIMIT: '100000',
    MAX_UPLOAD_BYTES: String(1024 * 1024 * 1024),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const db = await openDatabase(
    databaseUrl
      ? { kind: 'postgres', url: databaseUrl, poolSize: 10 }
      : { kind: 'pglite', dataDir: join(dataDir, 'pglite') },
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

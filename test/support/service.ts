// Starts the service for one test file on a fresh database cloned from the
// template prepared by global-setup.ts: PGlite, or PostgreSQL when the test
// project is `postgres` (TEST_DB_KIND).
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { buildService, type Service } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { createAccount, createPersonalToken } from '../../src/accounts/accounts.js';
import { createPostgresDatabase } from './pg-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
    /** Databases of this run start with it; teardown drops only those. */
    pgRunPrefix: string;
  }
}

export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB_KIND === 'postgres') {
    const created = await createPostgresDatabase();
    const db = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 5 });
    const close = db.close;
    return {
      ...db,
      close: async () => {
        await close();
        await created.drop();
      },
    };
  }
  const template = readFileSync(inject('pgliteTemplate'));
  return openDatabase({ kind: 'pglite', loadDataDir: new Blob([template]) });
}

export interface TestService extends Service {
  /** Base URL when started with `listen: true`. */
  url: string;
  request(options: {
    method?: string;
    url: string;
    headers?: Record<string, string>;
    payload?: unknown;
    query?: Record<string, string>;
  }): Promise<LightMyRequestResponse>;
  /** Creates an account with a personal token. */
  account(options?: { email?: string; password?: string; plan?: string }): Promise<TestAccount>;
}

export interface TestAccount {
  id: number;
  email: string;
  password: string;
  token: string;
  basic: string;
  /** Creates a project through the REST API and returns its response data. */
  project(name?: string): Promise<{ projectToken: string; apiKey: string; name: string; [k: string]: unknown }>;
}

export async function startTestService(
  options: { env?: Record<string, string>; listen?: boolean; worker?: false } = {},
): Promise<TestService> {
  // A data folder of its own unless the test names one, removed on close (a test that
  // restarts on the same data passes its DATA_DIR and removes it itself).
  const ownDataDir = options.env?.DATA_DIR
    ? undefined
    : `.test-data/run-${process.pid}-${randomBytes(4).toString('hex')}`;
  const config: Config = loadConfig({
    DATA_DIR: ownDataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:8080',
    ...options.env,
  });
  const db = await openTestDatabase();
  const service = await buildService(config, { db, logger: false, worker: options.worker });
  let url = '';
  if (options.listen) url = await service.app.listen({ port: 0, host: '127.0.0.1' });
  let counter = 0;
  const request: TestService['request'] = ({ method = 'GET', url: path, headers = {}, payload, query }) =>
    service.app.inject({ method: method as 'GET', url: path, headers, payload: payload as string, query });
  return {
    ...service,
    async close() {
      await service.close();
      if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
    },
    url,
    request,
    async account({ email, password = 'correct horse battery', plan } = {}) {
      const address = email ?? `user${++counter}-${randomBytes(3).toString('hex')}@example.com`;
      const account = await createAccount({ email: address, password, planId: plan }, config.defaultPlan);
      const token = await createPersonalToken(account.id, 'test');
      return {
        id: account.id,
        email: address,
        password,
        token,
        basic: `Basic ${Buffer.from(`${address}:${password}`).toString('base64')}`,
        async project(name = 'Test project') {
          const res = await request({
            method: 'POST',
            url: '/api/v2/projects',
            headers: { authorization: token },
            payload: { name },
          });
          if (res.statusCode !== 200) throw new Error(`project creation failed: ${res.body}`);
          return res.json().data;
        },
      };
    },
  };
}

/** Parses a response and checks the envelope shape common to every JSON answer. */
export function envelope(res: LightMyRequestResponse): { msg: string; status: number; data?: any } {
  const body = res.json();
  if (body.status !== res.statusCode)
    throw new Error(`envelope status ${body.status} differs from HTTP ${res.statusCode}`);
  if (typeof body.msg !== 'string') throw new Error(`envelope without msg: ${res.body}`);
  return body;
}

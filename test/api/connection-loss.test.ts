// A PostgreSQL connection dropped under the service (backends terminated by an
// administrator, as a restart or failover does): a statement that did not run,
// a read, or a whole interactive transaction is sent again on a new connection;
// what cannot be retried safely is answered 503 with Retry-After, never 500,
// and logged with its cause. Runs in the postgres test project (PGlite has no
// connections to lose).
import pg from 'pg';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { createPostgresDatabase } from '../support/pg-database.js';
import { startServiceProcess, type ServiceProcess } from '../support/process.js';

const TOKEN = 'lms_pat_connection_loss_token_0123456789';

describe.runIf(process.env.TEST_DB_KIND === 'postgres')('a lost database connection', { timeout: 240_000 }, () => {
  let database: { url: string; drop(): Promise<void> };
  let name: string;
  let admin: pg.Client;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    name = new URL(database.url).pathname.slice(1);
    // The administrator's own connection, to the server's maintenance database.
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`).catch(() => {});
    await admin?.end();
    await database?.drop();
  });

  /** Terminates every backend of the test's database; returns how many. */
  async function terminateAll(): Promise<number> {
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()) t`,
      [name],
    );
    return rows[0].n;
  }

  describe('in the database client', () => {
    let db: Database;
    beforeAll(async () => {
      db = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 3 });
      await db.exec('CREATE TABLE connection_loss_probe (id serial PRIMARY KEY, label text NOT NULL)');
    });
    afterAll(async () => {
      await db?.exec('DROP TABLE IF EXISTS connection_loss_probe').catch(() => {});
      await db?.close();
    });
    const count = async (label: string) =>
      (
        await db.prisma.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM connection_loss_probe WHERE label = $1`,
          label,
        )
      )[0]!.n;

    it('sends a read and a write again when their pooled connections were terminated', async () => {
      // Warm the pool: three open connections, then all of them terminated while idle.
      await Promise.all([1, 2, 3].map(() => db.prisma.$queryRawUnsafe('SELECT pg_sleep(0.05)::text')));
      expect(await terminateAll()).toBeGreaterThan(0);
      expect(await db.prisma.$queryRawUnsafe<{ one: number }[]>('SELECT 1::int AS one')).toEqual([{ one: 1 }]);
      await Promise.all([1, 2, 3].map(() => db.prisma.$queryRawUnsafe('SELECT pg_sleep(0.05)::text')));
      expect(await terminateAll()).toBeGreaterThan(0);
      // The server refused the statement (57P01): it did not run, so it runs once now.
      expect(await db.prisma.$executeRawUnsafe(`INSERT INTO connection_loss_probe (label) VALUES ('write')`)).toBe(1);
      expect(await count('write')).toBe(1);
    });

    it('replays a whole interactive transaction whose connection was lost before COMMIT', async () => {
      let attempts = 0;
      const result = await db.prisma.$transaction(async (tx) => {
        attempts++;
        const [{ pid }] = await tx.$queryRawUnsafe<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
        await tx.$executeRawUnsafe(`INSERT INTO connection_loss_probe (label) VALUES ('transaction')`);
        if (attempts === 1) await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        await tx.$executeRawUnsafe(`INSERT INTO connection_loss_probe (label) VALUES ('transaction')`);
        return attempts;
      });
      expect(result).toBe(2);
      // The first attempt's insert was rolled back with its connection; the replay's two committed.
      expect(await count('transaction')).toBe(2);
    });
  });

  describe('in the service', () => {
    let service: ServiceProcess;
    let apiKey: string;

    beforeAll(async () => {
      service = await startServiceProcess({
        DATABASE_URL: database.url,
        ADMIN_EMAIL: 'loss@example.com',
        ADMIN_PASSWORD: 'loss-password',
        ADMIN_TOKEN: TOKEN,
        RATE_LIMIT_PER_MINUTE: '0',
        LOG_LEVEL: 'warn',
        JOB_WORKERS: '0',
      });
      const res = await fetch(`${service.url}/api/v2/projects`, {
        method: 'POST',
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'loss' }),
      });
      apiKey = (await res.json()).data.apiKey;
    });
    afterAll(async () => {
      await service?.kill();
    });

    const logLines = (message: string) =>
      service
        .output()
        .split('\n')
        .filter((line) => line.includes(message));

    /** One request of a mixed load: REST reads and writes, GraphQL reads and writes. */
    async function request(
      i: number,
    ): Promise<{ what: string; status: number; retryAfter: string | null; graphqlCodes: string[] }> {
      const headers = { 'x-service-token': apiKey, 'content-type': 'application/json' };
      const kinds = [
        () => ['GET /api/v2/translations', fetch(`${service.url}/api/v2/translations`, { headers })] as const,
        () =>
          [
            'POST /api/v1/translations',
            fetch(`${service.url}/api/v1/translations`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ content: [{ key: `load.${i}`, language: 'en', text: `Text ${i}` }] }),
            }),
          ] as const,
        () =>
          [
            'GraphQL query',
            fetch(`${service.url}/graphql`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ query: '{ translationKeyPage(size: 20) { page { totalElements } } }' }),
            }),
          ] as const,
        () =>
          [
            'GraphQL mutation',
            fetch(`${service.url}/graphql`, {
              method: 'POST',
              headers,
              body: JSON.stringify({
                query: 'mutation($key: String!) { createTranslationKey(input: { key: $key }) { key } }',
                variables: { key: `gql.${i}` },
              }),
            }),
          ] as const,
      ];
      const [what, pending] = kinds[i % kinds.length]!();
      const res = await pending;
      const body = await res.json().catch(() => ({}));
      const graphqlCodes = (body.errors ?? []).map(
        (e: { extensions?: { code?: string } }) => e.extensions?.code ?? 'none',
      );
      return { what, status: res.status, retryAfter: res.headers.get('retry-after'), graphqlCodes };
    }

    it('answers every request under terminated backends with success or 503 and Retry-After, never 500', async () => {
      let terminated = 0;
      let running = true;
      const killer = (async () => {
        while (running) {
          terminated += await terminateAll();
          await new Promise((r) => setTimeout(r, 300 + Math.random() * 300));
        }
      })();
      const results: Awaited<ReturnType<typeof request>>[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (next < 240) results.push(await request(next++));
        }),
      );
      running = false;
      await killer;

      expect(terminated, 'backends terminated during the load').toBeGreaterThan(5);
      const failures = results.filter(
        (r) =>
          !(r.status === 200 && r.graphqlCodes.length === 0) &&
          !(r.status === 503 && r.retryAfter === '2') &&
          !(r.graphqlCodes.length > 0 && r.graphqlCodes.every((c) => c === 'SERVICE_UNAVAILABLE')),
      );
      expect(failures, JSON.stringify(failures.slice(0, 5))).toEqual([]);
      // Dropped connections were retried, and every answer of unavailability was logged with its cause.
      expect(logLines('database connection lost: retried').length).toBeGreaterThan(0);
      const unavailable = results.filter(
        (r) => r.status === 503 || r.graphqlCodes.includes('SERVICE_UNAVAILABLE'),
      ).length;
      expect(logLines('database connection lost: answered 503').length).toBeGreaterThanOrEqual(unavailable);
      expect(logLines('INTERNAL_SERVER_ERROR')).toEqual([]);
    });

    it('answers 503 with Retry-After, and logs the cause, while the database refuses connections', async () => {
      // A key the service has not looked up yet (its credential cache keeps one for a minute): the lookup itself
      // meets the refusal. The suite's load once made the test's own key expire there, and REST answered 500.
      const created = await fetch(`${service.url}/api/v2/projects`, {
        method: 'POST',
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'loss, not looked up' }),
      });
      const freshKey: string = (await created.json()).data.apiKey;
      await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
      await terminateAll();
      const before = logLines('database connection lost: answered 503').length;
      try {
        for (const key of [apiKey, freshKey]) {
          const rest = await fetch(`${service.url}/api/v2/translations`, { headers: { 'x-service-token': key } });
          // Another answer names the service's last words (where a 500 came from).
          expect(rest.status, service.output().split('\n').slice(-15).join('\n')).toBe(503);
          expect(rest.headers.get('retry-after')).toBe('2');
          expect(await rest.json()).toEqual({
            status: 503,
            msg: 'The database is unavailable (its connection was lost); retry in 2 s',
          });
        }
        for (const key of [apiKey, `${freshKey.slice(0, -1)}x`]) {
          const graphql = await fetch(`${service.url}/graphql`, {
            method: 'POST',
            headers: { 'x-service-token': key, 'content-type': 'application/json' },
            body: JSON.stringify({ query: '{ translationKeyPage(size: 1) { page { totalElements } } }' }),
          });
          expect(graphql.status).toBe(503);
          const body = await graphql.json();
          expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfter: 2 });
        }
        // A GraphQL multipart request (an upload), with the key not looked up.
        const form = new FormData();
        form.set('operations', JSON.stringify({ query: '{ project { name } }', variables: {} }));
        form.set('map', '{}');
        const multipart = await fetch(`${service.url}/graphql`, {
          method: 'POST',
          headers: { 'x-service-token': `${freshKey.slice(0, -1)}y`, 'graphql-require-preflight': '1' },
          body: form,
        });
        expect(multipart.status).toBe(503);
        expect(multipart.headers.get('retry-after')).toBe('2');
        expect((await multipart.json()).errors?.[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
        // GraphQL over WebSocket: the operation's error, the socket kept.
        const client = createClient({
          url: `${service.url.replace('http', 'ws')}/graphql`,
          webSocketImpl: WebSocket,
          connectionParams: { 'x-service-token': `${freshKey.slice(0, -1)}z` },
          lazy: true,
          retryAttempts: 0,
        });
        try {
          const errors = await new Promise<unknown>((resolve) => {
            client.subscribe({ query: '{ project { name } }' }, { next: resolve, error: resolve, complete: () => {} });
          });
          expect((errors as { extensions?: unknown }[])[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
        } finally {
          await client.dispose();
        }
      } finally {
        await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
      }
      const lines = logLines('database connection lost: answered 503').slice(before);
      expect(lines.length).toBeGreaterThanOrEqual(6);
      expect(lines.join('\n')).toMatch(/not currently accepting connections/);
      // And it serves again once the database is back.
      expect(
        (await fetch(`${service.url}/api/v2/translations`, { headers: { 'x-service-token': apiKey } })).status,
      ).toBe(200);
    });
  });
});

// Live change subscriptions over graphql-ws: translationChanges and
// projectActivity from the committed change events; a reconnect with the last
// event id seen receives the gap (bounded); across instances through Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { importOk } from '../support/transfer.js';
import { startServiceProcess, type ServiceProcess } from '../support/process.js';
import { createPostgresDatabase } from '../support/pg-database.js';

const CHANGES = `subscription($after: ID) { translationChanges(after: $after) { id key language oldText newText newReviewStatus kind source actor { kind } } }`;

function client(url: string, apiKey: string): Client {
  return createClient({
    url: url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { 'X-Service-Token': apiKey },
    lazy: false,
    retryAttempts: 0,
  });
}

/** Subscribes and collects; `ready` resolves once the server has started the subscription. */
function collect(c: Client, query: string, variables: Record<string, unknown> = {}) {
  const events: any[] = [];
  const errors: any[] = [];
  const dispose = c.subscribe(
    { query, variables },
    {
      next: (v: any) => (v.errors ? errors.push(...v.errors) : events.push(Object.values(v.data)[0])),
      error: (e: any) => errors.push(...(Array.isArray(e) ? e : [e])),
      complete: () => {},
    },
  );
  return { events, errors, dispose };
}

async function until<T>(what: () => T, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = what();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Subscriptions start asynchronously: give the server a moment to listen. */
const settle = () => new Promise((r) => setTimeout(r, 300));

describe('change subscriptions on one instance', () => {
  let service: TestService;
  let account: TestAccount;
  let api: ProjectApi;
  beforeAll(async () => {
    service = await startTestService({ listen: true, worker: false });
    account = await service.account();
    api = await projectApi(service, account, 'Live');
    await api.post('/api/v1/translation-keys', { key: 'k' });
  });
  afterAll(() => service.close());

  it('sends each committed cell change and activity entry; a reconnect with the last id gets the gap', async () => {
    const ws = client(service.url, api.apiKey);
    try {
      const live = collect(ws, CHANGES);
      const activity = collect(ws, 'subscription { projectActivity { kind cellsChanged source } }');
      await settle();
      await api.patch('/api/v2/translations', { key: 'k', language: 'en', text: 'one' });
      await api.patch('/api/v2/translations', { key: 'k', language: 'en', text: 'two', reviewStatus: 'REVIEWED' });
      const seen = await until(
        () => live.events,
        (e) => e.length >= 2,
      );
      expect(seen).toMatchObject([
        {
          key: 'k',
          language: 'en',
          oldText: null,
          newText: 'one',
          kind: 'TRANSLATIONS',
          source: 'API',
          actor: { kind: 'API_KEY' },
        },
        { oldText: 'one', newText: 'two', newReviewStatus: 'REVIEWED' },
      ]);
      expect(
        await until(
          () => activity.events,
          (e) => e.length >= 2,
        ),
      ).toEqual([
        { kind: 'TRANSLATIONS', cellsChanged: 1, source: 'API' },
        { kind: 'TRANSLATIONS', cellsChanged: 1, source: 'API' },
      ]);
      live.dispose();
      const lastSeen = seen[1].id;

      // Missed while away: two patches and an import of two cells.
      await api.patch('/api/v2/translations', { key: 'k', language: 'en', text: 'three' });
      await importOk(service, api.apiKey, JSON.stringify({ en: { x: 'X', y: 'Y' } }), {
        uploadFormat: 'multi-language-json',
      });
      const back = collect(ws, CHANGES, { after: lastSeen });
      const caught = await until(
        () => back.events,
        (e) => e.length >= 3,
      );
      expect(caught.map((e) => e.newText).slice(0, 1)).toEqual(['three']);
      expect(
        caught
          .slice(1)
          .map((e) => e.newText)
          .sort(),
      ).toEqual(['X', 'Y']);
      expect(caught.map((e) => BigInt(e.id)).every((id, i, all) => i === 0 || id > all[i - 1]!)).toBe(true);
      // Then it goes on live, without repeating what it caught up on.
      await api.patch('/api/v2/translations', { key: 'k', language: 'en', text: 'four' });
      await until(
        () => back.events,
        (e) => e.length >= 4,
      );
      await settle();
      expect(back.events.map((e) => e.newText).filter((t) => t === 'three')).toHaveLength(1);
      expect(back.events.at(-1).newText).toBe('four');
      back.dispose();
      expect(back.errors).toEqual([]);
      // Another project's key sees nothing of this one.
      const stranger = await projectApi(service, await service.account(), 'Stranger');
      const ws2 = client(service.url, stranger.apiKey);
      const foreign = collect(ws2, CHANGES);
      await settle();
      await api.patch('/api/v2/translations', { key: 'k', language: 'en', text: 'five' });
      await new Promise((r) => setTimeout(r, 300));
      expect(foreign.events).toEqual([]);
      await ws2.dispose();
    } finally {
      await ws.dispose();
    }
  });

  it('tells a subscriber too far behind to reload instead of diverging', async () => {
    const big = await projectApi(service, account, 'Far behind');
    await big.post('/api/v1/translation-keys', { key: 'start' });
    await big.patch('/api/v2/translations', { key: 'start', language: 'en', text: 'start' });
    const [first] = (await big.get('/api/v2/translations/history?key=start&language=en')).data;
    await importOk(
      service,
      big.apiKey,
      JSON.stringify({ en: Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`k${i}`, `t${i}`])) }),
      { uploadFormat: 'multi-language-json' },
    );
    const ws = client(service.url, big.apiKey);
    try {
      const late = collect(ws, CHANGES, { after: first.id });
      const errors = await until(
        () => late.errors,
        (e) => e.length > 0,
      );
      expect(errors[0].message).toMatch(/more than 10000 changes.*reload/);
      expect(late.events).toEqual([]);
    } finally {
      await ws.dispose();
    }
  });
});

describe.runIf(process.env.TEST_DB_KIND === 'postgres')(
  'change subscriptions across instances (PostgreSQL and Redis)',
  { timeout: 120_000 },
  () => {
    const TOKEN = 'lms_pat_change_subscriptions_0123456789';
    let database: { url: string; drop(): Promise<void> };
    const running: ServiceProcess[] = [];
    beforeAll(async () => {
      database = await createPostgresDatabase();
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL: 'redis://127.0.0.1:6379',
        ADMIN_EMAIL: 'ops@example.com',
        ADMIN_PASSWORD: 'ops-password',
        ADMIN_TOKEN: TOKEN,
        JOB_WORKERS: '0',
      };
      // Sequentially: the first one migrates the database.
      for (let i = 0; i < 3; i++) running.push(await startServiceProcess(env));
    });
    afterAll(async () => {
      for (const p of running) await p.kill();
      await database?.drop();
    });

    it('two clients on two instances see a change made through REST on a third', async () => {
      const [a, b, c] = running as [ServiceProcess, ServiceProcess, ServiceProcess];
      const created = await (
        await fetch(`${c.url}/api/v2/projects`, {
          method: 'POST',
          headers: { authorization: TOKEN, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Shared' }),
        })
      ).json();
      const apiKey = created.data.apiKey as string;
      const rest = (method: string, path: string, body: unknown) =>
        fetch(`${c.url}${path}`, {
          method,
          headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await rest('POST', '/api/v1/translation-keys', { key: 'shared' })).status).toBe(200);
      const [wsA, wsB] = [client(a.url, apiKey), client(b.url, apiKey)];
      try {
        const onA = collect(wsA, CHANGES);
        const onB = collect(wsB, CHANGES);
        await new Promise((r) => setTimeout(r, 1000));
        expect(
          (await rest('PATCH', '/api/v2/translations', { key: 'shared', language: 'en', text: 'Across instances' }))
            .status,
        ).toBe(200);
        for (const side of [onA, onB]) {
          const [event] = await until(
            () => side.events,
            (e) => e.length >= 1,
          );
          expect(event).toMatchObject({ key: 'shared', newText: 'Across instances', source: 'API' });
        }
        // A reconnect on another instance with the last id seen gets the gap from the database.
        const lastSeen = onA.events[0].id;
        onA.dispose();
        expect(
          (await rest('PATCH', '/api/v2/translations', { key: 'shared', language: 'en', text: 'While away' })).status,
        ).toBe(200);
        const back = collect(wsB, CHANGES, { after: lastSeen });
        const [missed] = await until(
          () => back.events,
          (e) => e.length >= 1,
        );
        expect(missed.newText).toBe('While away');
      } finally {
        await wsA.dispose();
        await wsB.dispose();
      }
    });
  },
);

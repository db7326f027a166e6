// Several stateless instances behind one PostgreSQL and one Redis: events,
// rate limits, job take-over and graceful shutdown hold across processes.
// Runs in the postgres test project (a shared database server is the point).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startFakeDeepl, FAKE_DEEPL_KEY, type FakeDeepl } from '../support/fake-providers/index.js';
import { startServiceProcess, type ServiceProcess } from '../support/process.js';
import { createPostgresDatabase } from '../support/pg-database.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { setDatabase } from '../../src/db.js';
import { seedTranslations } from '../support/content.js';
import { createAccount } from '../../src/accounts/accounts.js';

const TOKEN = 'lms_pat_instances_test_token_0123456789';

describe.runIf(process.env.TEST_DB_KIND === 'postgres')(
  'several instances on PostgreSQL and Redis',
  { timeout: 180_000 },
  () => {
    let deepl: FakeDeepl;
    let database: { url: string; drop(): Promise<void> };
    let db: Database;
    let env: Record<string, string>;
    const running: ServiceProcess[] = [];

    beforeAll(async () => {
      deepl = await startFakeDeepl();
      database = await createPostgresDatabase();
      db = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 });
      setDatabase(db);
      env = {
        DATABASE_URL: database.url,
        REDIS_URL: 'redis://127.0.0.1:6379',
        ADMIN_EMAIL: 'ops@example.com',
        ADMIN_PASSWORD: 'ops-password',
        ADMIN_TOKEN: TOKEN,
        MT_PROVIDER_B_URL: deepl.url,
        MT_PROVIDER_B_API_KEY: FAKE_DEEPL_KEY,
        JOB_LEASE_MS: '20000',
        JOB_POLL_MS: '100',
      };
    });
    afterAll(async () => {
      for (const p of running) await p.kill();
      await db?.close();
      await database?.drop();
      await deepl?.close();
    });

    async function start(extra: Record<string, string> = {}) {
      const p = await startServiceProcess({ ...env, ...extra });
      running.push(p);
      return p;
    }
    async function project(instance: ServiceProcess, name: string, keys: number) {
      const res = await fetch(`${instance.url}/api/v2/projects`, {
        method: 'POST',
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      const data = (await res.json()).data;
      await seedTranslations(db, {
        projectToken: data.projectToken,
        translations: {
          en: Object.fromEntries(Array.from({ length: keys }, (_, i) => [`${name}.${i}`, `${name} ${i}`])),
          de: {},
        },
      });
      return data as { projectToken: string; apiKey: string };
    }
    async function startJob(instance: ServiceProcess, apiKey: string): Promise<string> {
      const res = await fetch(`${instance.url}/api/v1/jobs/auto-translate`, {
        method: 'POST',
        headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          translationProvider: 'MT_PROVIDER_B',
          targetProjectLanguage: 'de',
          targetLanguage: 'DE',
        }),
      });
      return (await res.json()).data.jobId;
    }
    function subscribe(client: Client, jobId: string) {
      const events: any[] = [];
      const done = new Promise<any[]>((resolve, reject) => {
        client.subscribe(
          {
            query: 'subscription($id: String!) { jobProgress(jobId: $id) { state progress sequence } }',
            variables: { id: jobId },
          },
          {
            next: (v: any) => events.push(v.data?.jobProgress ?? v.errors),
            error: reject,
            complete: () => resolve(events),
          },
        );
      });
      return { events, done };
    }
    // A close (the drain's 1001) is seen through onClose; graphql-ws would also print it (onNonLazyError).
    const wsClient = (instance: ServiceProcess, apiKey: string, onClose?: (code: number) => void) =>
      createClient({
        url: instance.url.replace('http', 'ws') + '/graphql',
        webSocketImpl: WebSocket,
        connectionParams: { 'X-Service-Token': apiKey },
        lazy: false,
        retryAttempts: 0,
        onNonLazyError: () => {},
        on: { closed: (e: any) => onClose?.(e.code) },
      });

    it('reports database and Redis readiness', async () => {
      const a = await start({ JOB_WORKERS: '0' });
      const ready = await (await fetch(`${a.url}/readyz`)).json();
      expect(ready).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
    });

    // The instance that runs the job of the events test, and drains later.
    let worker: ServiceProcess;
    /** The drain test's second instance (JOB_LEASE_MS 1500, idle): one of the last test's two. */
    let survivorPair: ServiceProcess | undefined;

    it('delivers to a subscriber on one instance the progress of a job run by another', async () => {
      const api = running[0]!; // JOB_WORKERS=0: it never runs jobs
      worker = await start();
      deepl.setDelay(30);
      const { apiKey } = await project(api, 'events', 250);
      const client = wsClient(api, apiKey);
      try {
        const jobId = await startJob(api, apiKey);
        const { done } = subscribe(client, jobId);
        const events = await done;
        expect(events.at(-1)).toMatchObject({ state: 'SUCCESS', progress: 1 });
        expect(events.length).toBeGreaterThanOrEqual(3);
        const sequences = events.map((e) => e.sequence);
        expect([...sequences].sort((x, y) => x - y)).toEqual(sequences);
        const job = await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
        expect(job.state).toBe('SUCCESS');
      } finally {
        await client.dispose();
      }
    });

    it('counts the rate limit across instances', async () => {
      const rated = { JOB_WORKERS: '0', RATE_LIMIT_PER_MINUTE: '8' };
      const [a, b] = await Promise.all([start(rated), start(rated)]);
      const credential = `lms_pat_rate_${Date.now()}`;
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await fetch(`${(i % 2 ? b : a).url}/api/v2/projects`, { headers: { authorization: credential } });
        statuses.push(res.status);
        if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // 8 requests answered (403: unknown token), then refused on both instances.
      expect(statuses.slice(0, 8).every((s) => s === 403)).toBe(true);
      expect(statuses.slice(8)).toEqual([429, 429]);
      await a.kill('SIGTERM');
      await b.kill('SIGTERM');
    });

    // Sign-in failures: counted in Redis (shared by the instances) or, without Redis, in the database (kept over a restart).
    const SIGN_IN = 'mutation ($e: String!, $p: String!) { signIn(email: $e, password: $p) { email } }';
    async function signIn(instance: ServiceProcess, email: string, password: string) {
      const res = await fetch(`${instance.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: SIGN_IN, variables: { e: email, p: password } }),
      });
      const body = await res.json();
      const cookies = res.headers.getSetCookie().join('\n');
      return {
        code: body.errors?.[0]?.extensions?.code ?? 'OK',
        cookie: `lms_session=${/lms_session=([^;]*)/.exec(cookies)?.[1]}; lms_csrf=${/lms_csrf=([^;]*)/.exec(cookies)?.[1]}`,
        csrf: /lms_csrf=([^;]*)/.exec(cookies)?.[1] ?? '',
      };
    }
    // Unique per run: the Redis counters outlive the test's database.
    const newAccount = async () => {
      const email = `limit-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      await createAccount({ email, password: 'right password' }, 'business');
      return email;
    };
    const limits = { JOB_WORKERS: '0', SIGN_IN_FAILURES_PER_ACCOUNT: '4', SIGN_IN_FAILURES_PER_ADDRESS: '1000' };
    // Two instances on Redis for the session tests and the publication race after them (started once: a
    // start is seconds of CPU; without workers, as the race needs, and the sign-in limits matter to no other).
    let sessionPair: Promise<ServiceProcess[]> | undefined;
    const redisPair = () => (sessionPair ??= Promise.all([start(limits), start(limits)]));

    it('shares the failed sign-in limit between instances (Redis)', async () => {
      const [a, b] = (await redisPair()) as [ServiceProcess, ServiceProcess];
      const email = await newAccount();
      // Two failures on each: four in all, the account's limit.
      for (const instance of [a, b, a, b]) expect((await signIn(instance, email, 'wrong')).code).toBe('FORBIDDEN');
      expect((await signIn(a, email, 'right password')).code).toBe('TOO_MANY_REQUESTS');
      expect((await signIn(b, email, 'right password')).code).toBe('TOO_MANY_REQUESTS');
      // Another account is not limited.
      expect((await signIn(b, await newAccount(), 'right password')).code).toBe('OK');
    });

    it('keeps the failed sign-in count over a restart without Redis (database)', async () => {
      const email = await newAccount();
      const a = await start({ ...limits, REDIS_URL: '' });
      for (let i = 0; i < 4; i++) expect((await signIn(a, email, 'wrong')).code).toBe('FORBIDDEN');
      await a.kill('SIGTERM');
      const b = await start({ ...limits, REDIS_URL: '' });
      expect((await signIn(b, email, 'right password')).code).toBe('TOO_MANY_REQUESTS');
      await b.kill('SIGTERM');
    });

    it("closes a session's subscriptions on every instance when it signs out", async () => {
      const [a, b] = (await redisPair()) as [ServiceProcess, ServiceProcess];
      const { apiKey, projectToken } = await project(a, 'signout', 1);
      const session = await signIn(a, 'ops@example.com', 'ops-password');
      expect(session.code).toBe('OK');
      class CookieSocket extends WebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols, { headers: { cookie: session.cookie } });
        }
      }
      const closed: number[] = [];
      const client = createClient({
        url: b.url.replace('http', 'ws') + '/graphql',
        webSocketImpl: CookieSocket,
        connectionParams: { 'x-csrf-token': session.csrf },
        retryAttempts: 0,
        on: { closed: (e: any) => closed.push(e.code) },
      });
      const received: string[] = [];
      const ended = new Promise<unknown>((resolve) => {
        client.subscribe(
          {
            query: 'subscription ($p: String) { translationChanges(projectToken: $p) { newText } }',
            variables: { p: projectToken },
          },
          {
            next: (v: any) => received.push(v.data?.translationChanges?.newText ?? JSON.stringify(v.errors)),
            error: resolve,
            complete: () => resolve('complete'),
          },
        );
      });
      const write = (text: string) =>
        fetch(`${a.url}/api/v2/translations`, {
          method: 'PATCH',
          headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ key: 'signout.0', language: 'de', text }),
        });
      // Subscribed once a write made on the other instance arrives.
      for (let i = 0; i < 50 && received.length === 0; i++) {
        expect((await write(`before ${i}`)).status).toBe(200);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(received[0]).toMatch(/^before/);
      const out = await fetch(`${a.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.csrf },
        body: JSON.stringify({ query: 'mutation { signOut }' }),
      });
      expect((await out.json()).data).toEqual({ signOut: true });
      const t0 = Date.now();
      expect(await ended).toMatchObject({ code: 4401 });
      expect(Date.now() - t0).toBeLessThan(1500);
      expect(closed).toEqual([4401]);
      const count = received.length;
      expect((await write('after')).status).toBe(200);
      await new Promise((r) => setTimeout(r, 500));
      expect(received).toHaveLength(count);
      await client.dispose();
    });

    it('lets only one of two instances publish a project at a time', async () => {
      const [a, b] = (await redisPair()) as [ServiceProcess, ServiceProcess];
      const { apiKey, projectToken } = await project(a, 'publish', 6000);
      await seedTranslations(db, {
        projectToken,
        translations: { fr: Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`publish.${i}`, `fr ${i}`])) },
      });
      const publish = (instance: ServiceProcess) =>
        fetch(`${instance.url}/api/v2/environments/_latest/publish`, {
          method: 'POST',
          headers: { 'x-service-token': apiKey },
        });
      const answers = await Promise.all([publish(a), publish(b)]);
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409]);
      const refused = answers.find((r) => r.status === 409)!;
      expect((await refused.json()).msg).toMatch(/publish/i);
      const publications = await db.prisma.publication.findMany({
        where: { project: { projectToken }, state: 'COMPLETE' },
      });
      expect(publications).toHaveLength(1);
      await a.kill('SIGTERM');
      await b.kill('SIGTERM');
    });

    it('drains on SIGTERM: hands its job back, closes subscriptions with 1001 and exits 0', async () => {
      deepl.setDelay(150);
      const a = worker; // started with the defaults, idle since the events test
      const { apiKey } = await project(a, 'drain', 400);
      let closeCode: number | undefined;
      const client = wsClient(a, apiKey, (code) => (closeCode = code));
      // Stop the other workers so that this instance takes the job.
      for (const p of running.filter((p) => p !== a)) await p.kill('SIGTERM');
      const jobId = await startJob(a, apiKey);
      subscribe(client, jobId).done.catch(() => {});
      for (let i = 0; i < 200; i++) {
        const job = await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
        if (job.leaseOwner && job.progress > 0.1) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const t0 = Date.now();
      expect(await a.kill('SIGTERM')).toBe(0);
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(closeCode).toBe(1001);
      const released = await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
      expect(released.state).toBe('STARTED');
      expect(released.leaseOwner).toBeNull();
      // Another instance takes it over at once (no lease to wait for) and finishes it. Its short lease
      // (nothing here waits on it) serves the next test, where it is one of the two instances.
      deepl.setDelay(0);
      const b = await start({ JOB_LEASE_MS: '1500' });
      survivorPair = b;
      for (let i = 0; i < 400; i++) {
        const job = await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
        if (job.state !== 'STARTED') {
          expect(job.state).toBe('SUCCESS');
          expect(job.attempts).toBe(2);
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } })).state).toBe('SUCCESS');
      await client.dispose();
    });

    it('finishes on the surviving instance a job whose instance was killed', async () => {
      for (const p of running.filter((p) => p !== survivorPair)) await p.kill('SIGTERM');
      deepl.setDelay(150);
      const a = survivorPair ?? (await start({ JOB_LEASE_MS: '1500' }));
      const b = await start({ JOB_LEASE_MS: '1500' });
      const { apiKey } = await project(a, 'survivor', 1500);
      const jobId = await startJob(a, apiKey);
      let owner: string | null = null;
      for (let i = 0; i < 400 && !owner; i++) {
        const job = await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
        if (job.leaseOwner && job.progress > 0.05) owner = job.leaseOwner;
        else await new Promise((r) => setTimeout(r, 25));
      }
      // The lease owner is `host-pid-random`: kill the instance that holds the job.
      const pid = Number(owner!.split('-').at(-2));
      const [victim, survivor] = a.child.pid === pid ? [a, b] : [b, a];
      expect(victim.child.pid).toBe(pid);
      await victim.kill('SIGKILL');
      deepl.setDelay(0);
      let finished;
      for (let i = 0; i < 600 && !finished; i++) {
        const job = await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
        if (job.state !== 'STARTED') finished = job;
        else await new Promise((r) => setTimeout(r, 50));
      }
      expect(finished?.state).toBe('SUCCESS');
      expect(finished?.attempts).toBe(2);
      expect(finished?.leaseOwner).toBeNull();
      await survivor.kill('SIGTERM');
    });
  },
);

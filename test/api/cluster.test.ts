// PROCESSES: several service processes on one machine sharing its port (src/cluster.ts).
// Runs in the postgres test project: more than one process needs PostgreSQL and Redis.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess, type ServiceProcess } from '../support/process.js';
import { liveProcesses } from '../../scripts/lib/proc-stat.js';
import { createPostgresDatabase } from '../support/pg-database.js';

const TOKEN = 'lms_pat_cluster_test_token_0123456789';

/** The pids of the processes whose parent is `parent` (from /proc, Linux). */
function children(parent: number): number[] {
  return [...liveProcesses()]
    .filter(([, stat]) => stat.parent === parent)
    .map(([pid]) => pid)
    .sort((a, b) => a - b);
}

/**
 * One request on a connection of its own (fetch keeps connections open and reuses them, so a request after a
 * process died would go to its closed socket), failing after `ms`.
 */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; ms?: number } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.setTimeout(options.ms ?? 20_000, () =>
      req.destroy(new Error(`no answer from ${url} in ${options.ms ?? 20_000} ms`)),
    );
    req.on('error', (error) => reject(new Error(`${options.method ?? 'GET'} ${url}: ${error.message}`)));
    req.end(options.body);
  });
}

async function until<T>(what: () => T | Promise<T>, ok: (value: T) => boolean, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await what();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.runIf(process.env.TEST_DB_KIND === 'postgres')('PROCESSES on one machine', { timeout: 300_000 }, () => {
  let database: { url: string; drop(): Promise<void> };
  let service: ServiceProcess;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    service = await startServiceProcess({
      PROCESSES: '2',
      DATABASE_URL: database.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      ADMIN_EMAIL: 'ops@example.com',
      ADMIN_PASSWORD: 'ops-password',
      ADMIN_TOKEN: TOKEN,
      RATE_LIMIT_PER_MINUTE: '0',
      // Each process says 'localization service ready' when it listens.
      LOG_LEVEL: 'info',
    });
  });
  /** Processes that have said they listen, restarted ones included. */
  const ready = () => service.output().split('localization service ready').length - 1;

  afterAll(async () => {
    if (service) for (const pid of children(service.child.pid!)) process.kill(pid, 'SIGKILL');
    await service?.kill();
    await database?.drop();
  });

  it('starts the processes, which serve the same data, and starts one again when it dies', async () => {
    // The port answers once the first process listens; the second starts after it.
    const primary = service.child.pid!;
    await until(ready, (n) => n >= 2);
    const [first, second] = children(primary);
    expect(second).toBeDefined();
    const created = await send(`${service.url}/api/v2/projects`, {
      method: 'POST',
      headers: { authorization: TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'shared' }),
    });
    expect(created.status).toBe(200);
    const { apiKey } = (JSON.parse(created.body) as { data: { apiKey: string } }).data;

    // Each new connection goes to whichever process accepts it first: both see the same project.
    for (let i = 0; i < 8; i++) {
      const res = await send(`${service.url}/api/v2/project`, { headers: { 'x-service-token': apiKey } });
      expect(res.status).toBe(200);
      expect((JSON.parse(res.body) as { data: { name: string } }).data.name).toBe('shared');
    }

    // One process killed: the other answers every new connection at once (none is handed to the dead one),
    // and the primary starts a new one.
    process.kill(first!, 'SIGKILL');
    for (let i = 0; i < 8; i++) expect((await send(`${service.url}/healthz`, { ms: 5_000 })).status).toBe(200);
    const after = await until(
      () => children(primary),
      (pids) => pids.length === 2 && !pids.includes(first!),
    );
    expect(after).toContain(second);
  });

  it('stops every process on SIGTERM and exits 0', async () => {
    const primary = service.child.pid!;
    // The restarted process must be listening (SIGTERM is handled once it is).
    await until(
      () => children(primary),
      (pids) => pids.length === 2,
    );
    await until(ready, (n) => n >= 3);
    const pids = children(primary);
    expect(await service.kill('SIGTERM')).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});

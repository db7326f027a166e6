// What the findings updater holds (docs/quality-checks.md, "Memory"): the
// lanes it runs (one on the embedded database), its worker threads ending when
// idle, and the memory given back once a large run has drained the queue. The
// findings stay complete with one lane and small batches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { FindingsUpdater } from '../../src/findings/updater.js';
import { checkThreadCount, closeCheckPool, runInPool, setCheckIdleMs } from '../../src/findings/pool.js';

let service: TestService;
let api: ProjectApi;

const KEYS = 30;

async function queued(): Promise<number> {
  return service.db.prisma.findingQueue.count();
}

async function drain(updater: FindingsUpdater): Promise<void> {
  updater.start();
  await expect.poll(queued, { timeout: 60_000, interval: 50 }).toBe(0);
}

/** Writes KEYS keys in en and de, every de text missing its placeholder: one error finding per de cell. */
async function write(round: number): Promise<void> {
  const content = Array.from({ length: KEYS }, (_, i) => [
    { key: `k${i}`, language: 'en', text: `Hello {name} ${round} ${i}` },
    { key: `k${i}`, language: 'de', text: `Hallo ${round} ${i}` },
  ]).flat();
  const res = await api.post('/api/v1/translations', { content });
  expect(res.msg + res.status).toBe('OK200');
}

async function placeholderErrors(): Promise<number> {
  return service.db.prisma.finding.count({ where: { check: 'placeholders-missing', severity: 'error' } });
}

beforeAll(async () => {
  // No updater of the service's own: the tests run theirs.
  service = await startTestService({ env: { FINDINGS_THREADS: '0', LOG_LEVEL: 'error' } });
  api = await projectApi(service, await service.account(), 'Memory');
  await api.post('/api/v1/languages', { key: 'de' });
});
afterAll(async () => {
  await closeCheckPool();
  await service.close();
});

describe('findings updater memory', () => {
  it('gives the memory back once a large run has drained the queue: the threads end at once', async () => {
    await write(3);
    const updater = new FindingsUpdater({ owner: 'release', batch: 10, lanes: 1, pollMs: 20, releaseAfterCells: 40 });
    await drain(updater);
    // 60 cells checked, more than releaseAfterCells: the round that found the queue empty closed the pool.
    await expect.poll(() => updater.releases, { timeout: 30_000 }).toBe(1);
    expect(checkThreadCount()).toBe(0);
    // A small write afterwards (under releaseAfterCells) is checked by a new pool and gives nothing back.
    const res = await api.post('/api/v1/translations', { content: [{ key: 'k0', language: 'de', text: 'Hallo' }] });
    expect(res.msg + res.status).toBe('OK200');
    updater.wake();
    await expect.poll(queued, { timeout: 30_000, interval: 50 }).toBe(0);
    await updater.stop();
    expect(updater.releases).toBe(1);
    expect(await placeholderErrors()).toBe(KEYS);
  });

  it('runs one round at a time with one lane, two with two, and stores every finding either way', async () => {
    await write(1);
    const one = new FindingsUpdater({ owner: 'one-lane', batch: 7, lanes: 1, pollMs: 20 });
    await drain(one);
    await one.stop();
    expect(one.mostInFlight).toBe(1);
    expect(await placeholderErrors()).toBe(KEYS);

    await write(2);
    const two = new FindingsUpdater({ owner: 'two-lanes', batch: 7, lanes: 2, pollMs: 20 });
    await drain(two);
    await two.stop();
    expect(two.mostInFlight).toBe(2);
    expect(await placeholderErrors()).toBe(KEYS);
  });

  it('ends an idle worker thread after its idle timeout, even the last one', async () => {
    await closeCheckPool();
    setCheckIdleMs(300);
    try {
      const findings = await runInPool({
        settings: [{}],
        cells: [[0, 'Hello {name}', 'Hallo', 'en', 'de', null, 'auto']],
      });
      expect(findings[0]!.map((f) => f[0])).toContain('placeholders-missing');
      expect(checkThreadCount()).toBe(1);
      await expect.poll(checkThreadCount, { timeout: 10_000, interval: 50 }).toBe(0);
    } finally {
      setCheckIdleMs(10_000);
      await closeCheckPool();
    }
  });
});

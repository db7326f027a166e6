// What the findings updater holds (docs/quality-checks.md, "Memory"): the
// lanes it runs (one on the embedded database), its worker threads ending when
// idle, and the memory given back once a large run has drained the queue. The
// findings stay complete with one lane and small batches. The garbage of its
// rounds is collected between them, in the service's thread and in the worker
// threads, once the heap has grown past a bound. And what it does not
// wait for: a write holding cells of its batch (a re-import while the last
// import's findings drain).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { FindingsUpdater, storeFindings, writeFindings } from '../../src/findings/updater.js';
import { observeSql } from '../../src/db/client.js';
import { INLINE_CELLS, checkThreadCount, closeCheckPool, runInPool, setCheckIdleMs } from '../../src/findings/pool.js';
import { CHECK_THREAD_NICE, checkBatch, workerHeap } from '../../src/findings/check-worker.js';
import { readFileSync, readdirSync } from 'node:fs';

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

/** The checks of a cell's findings. */
async function checksOf(key: string, language: string): Promise<string[]> {
  const found = await service.db.prisma.$queryRaw<{ check: string }[]>`
    SELECT f."check" FROM "Finding" f JOIN "TranslationKey" k ON k.id = f."keyId" JOIN "Language" l ON l.id = f."languageId"
     WHERE k.key = ${key} AND l.key = ${language}`;
  return found.map((f) => f.check);
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

  it('neither collects nor gives memory back for a trickle of small runs (the one-cell writes of a busy service)', async () => {
    // A floor of one byte and a release after 5 cells: a run of one cell counts for neither, however many.
    const updater = new FindingsUpdater({
      owner: 'trickle',
      batch: 100,
      lanes: 1,
      pollMs: 20,
      releaseAfterCells: 5,
      heapFloorBytes: 1,
    });
    updater.start();
    for (let i = 0; i < 8; i++) {
      const res = await api.post('/api/v1/translations', {
        content: [{ key: `trickle${i}`, language: 'de', text: `Hallo ${i}` }],
      });
      expect(res.msg + res.status).toBe('OK200');
      updater.wake();
      await expect.poll(queued, { timeout: 30_000, interval: 20 }).toBe(0);
    }
    // Rounds that find the queue empty (where a release would run).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await updater.stop();
    expect(updater.heap.collections).toBe(0);
    expect(updater.releases).toBe(0);
  });

  it('has its release due once a backlog is checked, until the round that finds the queue empty gives back', async () => {
    const content = Array.from({ length: 30 }, (_, i) => [
      { key: `due${i}`, language: 'en', text: `Hello {name} ${i}` },
      { key: `due${i}`, language: 'de', text: `Hallo {name} ${i}` },
    ]).flat();
    const res = await api.post('/api/v1/translations', { content });
    expect(res.msg + res.status).toBe('OK200');
    // New keys, 60 cells in rounds of 10: five rounds leave entries behind (50 cells, past releaseAfterCells), the sixth
    // takes the rest, the seventh finds the queue empty.
    const updater = new FindingsUpdater({ owner: 'due', batch: 10, lanes: 1, pollMs: 20, releaseAfterCells: 40 });
    const due: boolean[] = [];
    while ((await updater.round()) > 0) due.push(updater.releaseDue);
    expect(due.at(-1)).toBe(true);
    expect(updater.releases).toBe(1);
    expect(updater.releaseDue).toBe(false);
  });

  it('gives nothing back for a stream of small rounds that never finds the queue empty', async () => {
    // Rounds of 3 cells (more than half of a batch of 5), each leasing everything written since the last, 60 cells
    // in all and more than releaseAfterCells, before a round finds the queue empty: a steady stream of one-cell
    // writes on a busy service, not an import's backlog. A floor of one byte: a collection between rounds would run.
    const updater = new FindingsUpdater({
      owner: 'stream',
      batch: 5,
      lanes: 1,
      pollMs: 20,
      releaseAfterCells: 40,
      heapFloorBytes: 1,
    });
    for (let i = 0; i < 20; i++) {
      const content = [0, 1, 2].map((j) => ({ key: `stream${i}-${j}`, language: 'de', text: `Hallo ${i} ${j}` }));
      const res = await api.post('/api/v1/translations', { content });
      expect(res.msg + res.status).toBe('OK200');
      expect(await updater.round()).toBe(3);
    }
    expect(await updater.round()).toBe(0);
    expect(updater.releases).toBe(0);
    expect(updater.heap.collections).toBe(0);
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

  it('collects between rounds once the heap has grown past its bound, and stores every finding', async () => {
    // New keys: v1 POST keeps the texts of existing cells, so only new cells are queued.
    const content = Array.from({ length: KEYS }, (_, i) => [
      { key: `bound${i}`, language: 'en', text: `Hello {name} ${i}` },
      { key: `bound${i}`, language: 'de', text: `Hallo ${i}` },
    ]).flat();
    const res = await api.post('/api/v1/translations', { content });
    expect(res.msg + res.status).toBe('OK200');
    expect(await queued()).toBe(KEYS);
    // A floor of one byte: the heap is past the bound after the first round (then at a quarter above what it kept).
    const updater = new FindingsUpdater({ owner: 'bounded', batch: 10, lanes: 1, pollMs: 20, heapFloorBytes: 1 });
    await drain(updater);
    await updater.stop();
    expect(updater.heap.collections).toBeGreaterThanOrEqual(1);
    expect(await placeholderErrors()).toBe(2 * KEYS);
  });

  it('collects in a worker thread after a batch once its heap has grown past the bound', () => {
    // This process's heap (vitest's, the service's) is past the worker's floor, as a worker's is after batches.
    const before = workerHeap.collections;
    const findings = checkBatch({ settings: [{}], cells: [[0, 'Hello {name}', 'Hallo', 'en', 'de', null, 'auto']] });
    expect(findings[0]!.map((f) => f[0])).toContain('placeholders-missing');
    expect(workerHeap.collections).toBe(before + 1);
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

describe('the updater and a write queuing its cells again', () => {
  // Only PostgreSQL runs two transactions at once (PGlite queues the second behind the first).
  it.skipIf(process.env.TEST_DB_KIND !== 'postgres')(
    'removes what it computed without waiting for the write, which keeps its cell queued (no deadlock)',
    async () => {
      // New keys: v1 POST keeps the texts of existing cells, so only new cells are queued.
      const content = ['held', 'done'].map((key) => ({ key, language: 'de', text: `Hallo ${key}` }));
      const res = await api.post('/api/v1/translations', { content });
      expect(res.msg + res.status).toBe('OK200');
      const db = service.db.prisma;
      const [held, done] = await db.$queryRaw<{ keyId: number; languageId: number; generation: number }[]>`
        SELECT q."keyId", t."languageId", q.generation FROM "FindingQueue" q JOIN "TranslationKey" k ON k.id = q."keyId"
          JOIN "Translation" t ON t."keyId" = q."keyId"
         WHERE k.key IN ('held', 'done') ORDER BY k.key DESC`;
      // What writeFindings reads of a leased cell when it stores no finding.
      const cells = [held!, done!].map((c) => ({ ...c, hash: '' })) as unknown as Parameters<typeof writeFindings>[0];
      // The write gate's queue upsert, in a transaction left open while the updater writes its batch.
      const outcome = await db.$transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO "FindingQueue" AS q ("keyId", "projectId")
          SELECT ${held!.keyId}, "projectId" FROM "TranslationKey" WHERE id = ${held!.keyId}
          ON CONFLICT ("keyId") DO UPDATE SET generation = q.generation + 1`;
        return Promise.race([
          writeFindings(cells, [[], []]).then(() => 'written'),
          new Promise((resolve) => setTimeout(() => resolve('waited for the write'), 5_000)),
        ]);
      });
      expect(outcome).toBe('written');
      const left = await db.findingQueue.findMany({
        where: { keyId: { in: [held!.keyId, done!.keyId] } },
        select: { keyId: true, generation: true },
      });
      // The held key is queued again for its new text; the other one is done.
      expect(left).toEqual([{ keyId: held!.keyId, generation: held!.generation + 1 }]);
    },
  );
});

describe("a round's transaction and the writes of its keys", () => {
  // Only PostgreSQL runs two transactions at once (PGlite queues the second behind the first).
  it.skipIf(process.env.TEST_DB_KIND !== 'postgres')(
    'holds no queue entry: a write queuing one of its keys again is answered while the round is still open',
    async () => {
      const res = await api.post('/api/v1/translations', {
        content: [{ key: 'unheld', language: 'de', text: 'Hallo unheld' }],
      });
      expect(res.msg + res.status).toBe('OK200');
      const db = service.db.prisma;
      await leaseOf('unheld');
      const [entry] = await db.$queryRaw<{ keyId: number; languageId: number; generation: number }[]>`
        SELECT q."keyId", t."languageId", q.generation FROM "FindingQueue" q JOIN "TranslationKey" k ON k.id = q."keyId"
          JOIN "Translation" t ON t."keyId" = q."keyId" WHERE k.key = 'unheld'`;
      const cells = [{ ...entry!, customerId: 0, hash: '' }] as unknown as Parameters<typeof storeFindings>[0];
      let stored!: () => void;
      const written = new Promise<void>((resolve) => (stored = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      // The round's findings written, its transaction left open as while the rest of a round runs.
      const round = db.$transaction(
        async (tx) => {
          await storeFindings(cells, [[]], tx);
          stored();
          await released;
        },
        { timeout: 30_000 },
      );
      await written;
      try {
        const outcome = await Promise.race([
          api
            .patch('/api/v2/translations', { key: 'unheld', language: 'de', text: 'Hallo wieder' })
            .then((r) => r.status),
          new Promise((resolve) => setTimeout(() => resolve('waited for the round'), 5_000)),
        ]);
        expect(outcome).toBe(200);
      } finally {
        release();
        await round;
      }
      // The write queued the key again: the next round checks the new text.
      expect((await entryOf('unheld'))!.generation).toBe(entry!.generation + 1);
    },
  );
});

/**
 * The key's queue entry leased as the updater leases it: its lease time set in the statement that reads its
 * generation (a write queuing the key again then gives it a new one).
 */
async function leaseOf(key: string) {
  const [row] = await service.db.prisma.$queryRaw<{ keyId: number; generation: number }[]>`
    UPDATE "FindingQueue" q SET "leasedUntil" = now() + interval '1 minute', "leaseOwner" = ${key}
      FROM "TranslationKey" k WHERE k.id = q."keyId" AND k.key = ${key} RETURNING q."keyId", q.generation`;
  return row!;
}

/** The key's queue entry (null when it is not queued). */
async function entryOf(key: string) {
  const [row] = await service.db.prisma.$queryRaw<{ keyId: number; generation: number }[]>`
    SELECT q."keyId", q.generation FROM "FindingQueue" q JOIN "TranslationKey" k ON k.id = q."keyId" WHERE k.key = ${key}`;
  return row ?? null;
}

describe('the queue of keys', () => {
  it('checks a cell written while its key is leased again, also one the lease did not read', async () => {
    const db = service.db.prisma;
    let res = await api.post('/api/v1/translations', {
      content: [{ key: 'leased', language: 'en', text: 'Hi {name}' }],
    });
    expect(res.msg + res.status).toBe('OK200');
    const leased = await leaseOf('leased');
    const [en] = await db.$queryRaw<{ languageId: number }[]>`
      SELECT "languageId" FROM "Translation" WHERE "keyId" = ${leased.keyId}`;
    // While the updater holds the key as it read it (en alone), a German text missing the placeholder is written.
    res = await api.post('/api/v1/translations', { content: [{ key: 'leased', language: 'de', text: 'Hallo' }] });
    expect(res.msg + res.status).toBe('OK200');
    expect((await entryOf('leased'))!.generation).toBe(leased.generation + 1);
    // The updater writes what it computed for the key as leased: no finding for en.
    const cells = [{ ...leased, languageId: en!.languageId, hash: '' }] as unknown as Parameters<
      typeof writeFindings
    >[0];
    await writeFindings(cells, [[]]);
    // The key stays queued for the German text, which the next round checks.
    expect(await entryOf('leased')).toEqual({ keyId: leased.keyId, generation: leased.generation + 1 });
    const updater = new FindingsUpdater({ owner: 'leased', batch: 50, lanes: 1, pollMs: 20 });
    await drain(updater);
    await updater.stop();
    const found = await db.finding.findMany({ where: { keyId: leased.keyId }, select: { check: true } });
    expect(found.map((f) => f.check)).toEqual(['placeholders-missing']);
  });

  it('leases keys up to the batch, every cell of a key in the same batch', async () => {
    const keys = Array.from({ length: 10 }, (_, i) => `batched${i}`);
    const content = keys.flatMap((key, i) => [
      { key, language: 'en', text: `Hello {name} ${i}` },
      { key, language: 'de', text: `Hallo ${i}` },
    ]);
    const res = await api.post('/api/v1/translations', { content });
    expect(res.msg + res.status).toBe('OK200');
    const rounds: number[] = [];
    const updater = new FindingsUpdater({ owner: 'batched', batch: 5, lanes: 1, pollMs: 20 });
    const round = updater.round.bind(updater);
    updater.round = async () => {
      const n = await round();
      if (n) rounds.push(n);
      return n;
    };
    await drain(updater);
    await updater.stop();
    // Two cells per key, keys taken while the cells before them are under 5: three keys (6 cells) a round, never half a key.
    expect(rounds.every((n) => n % 2 === 0 && n <= 6)).toBe(true);
    expect(rounds.reduce((a, b) => a + b, 0)).toBe(20);
    const errors = await service.db.prisma.finding.count({
      where: {
        check: 'placeholders-missing',
        keyId: {
          in: (await service.db.prisma.translationKey.findMany({ where: { key: { in: keys } } })).map((k) => k.id),
        },
      },
    });
    expect(errors).toBe(10);
  });

  it('leaves nothing pending for the cells of a key deleted before the updater reached it', async () => {
    const res = await api.post('/api/v1/translations', {
      content: [
        { key: 'doomed', language: 'en', text: 'Bye {name}' },
        { key: 'doomed', language: 'de', text: 'Tschüss' },
      ],
    });
    expect(res.msg + res.status).toBe('OK200');
    expect(await entryOf('doomed')).not.toBeNull();
    const DELETE = 'mutation($keys: [TranslationKeyRefInput!]!) { deleteTranslationKeys(translationKeys: $keys) }';
    expect((await api.gql(DELETE, { keys: [{ key: 'doomed' }] })).errors).toBeUndefined();
    expect(await queued()).toBe(0);
    expect((await api.get('/api/v2/quality-checks')).data.pending).toBe(0);
  });
});

describe('where the checks run', () => {
  const found = async (prefix: string) =>
    (
      await service.db.prisma.$queryRaw<{ key: string; check: string }[]>`
        SELECT k.key, f."check" FROM "Finding" f JOIN "TranslationKey" k ON k.id = f."keyId"
         WHERE k.key LIKE ${`${prefix}%`} ORDER BY k.key, f."check"`
    ).map((f) => `${f.key} ${f.check}`);

  it("checks a handful of cells in the service's thread, more in the worker threads", async () => {
    await closeCheckPool();
    let res = await api.post('/api/v1/translations', {
      content: [
        { key: 'inline', language: 'en', text: 'Hello.' },
        { key: 'inline', language: 'de', text: 'Hallo' },
      ],
    });
    expect(res.msg + res.status).toBe('OK200');
    let updater = new FindingsUpdater({ owner: 'inline', lanes: 1, pollMs: 20 });
    await drain(updater);
    await updater.stop();
    expect(await found('inline')).toEqual(['inline end-punctuation']);
    expect(checkThreadCount()).toBe(0);
    // More cells than INLINE_CELLS in one round: the pool.
    const keys = Array.from({ length: INLINE_CELLS }, (_, i) => `pooled${String(i).padStart(2, '0')}`);
    res = await api.post('/api/v1/translations', {
      content: keys.flatMap((key) => [
        { key, language: 'en', text: 'Hello.' },
        { key, language: 'de', text: 'Hallo' },
      ]),
    });
    expect(res.msg + res.status).toBe('OK200');
    updater = new FindingsUpdater({ owner: 'pooled', lanes: 1, pollMs: 20 });
    await drain(updater);
    await updater.stop();
    expect(await found('pooled')).toEqual(keys.map((k) => `${k} end-punctuation`));
    expect(checkThreadCount()).toBe(1);
    await closeCheckPool();
  });

  it("runs the worker threads at a lower priority than the service's thread (Linux)", async (ctx) => {
    if (process.platform !== 'linux') ctx.skip();
    // The nice value of a thread: field 19 of its stat line, counted after the command's closing parenthesis.
    const nice = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    const threads = () =>
      readdirSync('/proc/self/task').map((tid) => nice(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')));
    await closeCheckPool();
    expect(threads().filter((n) => n === CHECK_THREAD_NICE)).toEqual([]);
    await runInPool({ settings: [{}], cells: [[0, 'Hello.', 'Hallo', 'en', 'de', null, 'auto']] });
    expect(checkThreadCount()).toBe(1);
    expect(threads().filter((n) => n === CHECK_THREAD_NICE)).toHaveLength(1);
    expect(nice(readFileSync('/proc/thread-self/stat', 'utf8'))).toBe(0);
    await closeCheckPool();
  });
});

describe('the rounds of an edit', () => {
  it('leases once for an edit: a round that drained the queue is the last until the next write', async () => {
    const created = await api.post('/api/v1/translations', {
      content: [{ key: 'edited', language: 'en', text: 'Hello {name}' }],
    });
    expect(created.msg + created.status).toBe('OK200');
    // No poll in between: only wakes start rounds.
    const updater = new FindingsUpdater({ owner: 'drained', lanes: 1, pollMs: 60_000 });
    updater.start();
    try {
      await expect.poll(() => updater.stats.leases, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(1);
      await expect.poll(queued, { timeout: 10_000, interval: 20 }).toBe(0);
      for (let i = 0; i < 3; i++) {
        const leases = updater.stats.leases;
        const res = await api.patch('/api/v2/translations', {
          key: 'edited',
          language: 'de',
          text: `Hallo {name} ${i}`,
        });
        expect(res.status).toBe(200);
        await expect.poll(queued, { timeout: 10_000, interval: 20 }).toBe(0);
        // Time for the rounds that would follow a drained one (a lease from the cursor, then from the start).
        await new Promise((r) => setTimeout(r, 300));
        expect(updater.stats.leases - leases).toBe(1);
      }
    } finally {
      await updater.stop();
    }
  });

  it('starts no round for a write that wrote nothing: the same text again, or a cell kept without REPLACE', async () => {
    const created = await api.post('/api/v1/translations', {
      content: [{ key: 'unchanged', language: 'en', text: 'Kept {name}' }],
    });
    expect(created.msg + created.status).toBe('OK200');
    const updater = new FindingsUpdater({ owner: 'unchanged', lanes: 1, pollMs: 60_000 });
    updater.start();
    try {
      await expect.poll(queued, { timeout: 10_000, interval: 20 }).toBe(0);
      // Time for the rounds that follow a drained one.
      await new Promise((r) => setTimeout(r, 300));
      const leases = updater.stats.leases;
      for (let i = 0; i < 3; i++) {
        const kept = await api.post('/api/v1/translations', {
          content: [{ key: 'unchanged', language: 'en', text: `Other {name} ${i}` }],
        });
        expect(kept.msg + kept.status).toBe('OK200');
        const same = await api.patch('/api/v2/translations', { key: 'unchanged', language: 'en', text: 'Kept {name}' });
        expect(same.status).toBe(200);
      }
      expect(await queued()).toBe(0);
      await new Promise((r) => setTimeout(r, 300));
      expect(updater.stats.leases - leases).toBe(0);
    } finally {
      await updater.stop();
    }
  });
});

describe('the lanes of one-cell writes', () => {
  it('runs no second lane beside a round that drained the queue, and checks every write', async () => {
    const created = await api.post('/api/v1/translations', {
      content: [{ key: 'lanes', language: 'en', text: 'Lanes of {name}' }],
    });
    expect(created.msg + created.status).toBe('OK200');
    // Two lanes, only wakes start rounds: each write wakes the updater, mostly while a round is under way. A second
    // lane there leased the entries queued since and waited for the first round's consistency lock.
    const updater = new FindingsUpdater({ owner: 'lanes', lanes: 2, pollMs: 60_000 });
    updater.start();
    try {
      await expect.poll(queued, { timeout: 10_000, interval: 20 }).toBe(0);
      // Both lanes start together: at the start the queue may hold a backlog.
      updater.mostInFlight = 0;
      const rounds = updater.stats.rounds;
      for (let i = 0; i < 20; i++) {
        const res = await api.patch('/api/v2/translations', { key: 'lanes', language: 'de', text: `Hallo ${i}` });
        expect(res.status).toBe(200);
      }
      await expect.poll(queued, { timeout: 10_000, interval: 20 }).toBe(0);
      expect(updater.stats.rounds).toBeGreaterThan(rounds);
      expect(updater.mostInFlight).toBe(1);
    } finally {
      await updater.stop();
    }
    // The last text's finding: the placeholder its source has.
    expect(await checksOf('lanes', 'de')).toEqual(['placeholders-missing']);
  });
});

describe('the pace of one-cell writes', () => {
  it('starts a round no sooner than the gap after the last one while there is no backlog: the writes between share one', async () => {
    const created = await api.post('/api/v1/translations', {
      content: [{ key: 'paced', language: 'en', text: 'Paced {name}' }],
    });
    expect(created.msg + created.status).toBe('OK200');
    const updater = new FindingsUpdater({ owner: 'paced', lanes: 1, pollMs: 60_000, gapMs: 2_000 });
    updater.start();
    try {
      await expect.poll(queued, { timeout: 10_000, interval: 20 }).toBe(0);
      const rounds = updater.stats.rounds;
      // Ten writes over about a second: without the gap each started a round of its own (rounds take less).
      for (let i = 0; i < 10; i++) {
        const res = await api.patch('/api/v2/translations', { key: 'paced', language: 'de', text: `Hallo ${i}` });
        expect(res.status).toBe(200);
        await new Promise((r) => setTimeout(r, 100));
      }
      await expect.poll(queued, { timeout: 10_000, interval: 20 }).toBe(0);
      expect(updater.stats.rounds - rounds).toBeGreaterThanOrEqual(1);
      expect(updater.stats.rounds - rounds).toBeLessThanOrEqual(3);
    } finally {
      await updater.stop();
    }
    expect(await checksOf('paced', 'de')).toEqual(['placeholders-missing']);
  });

  it('stops at once while it waits out the gap', async () => {
    const updater = new FindingsUpdater({ owner: 'paused', lanes: 1, pollMs: 60_000, gapMs: 60_000 });
    updater.start();
    await expect.poll(queued, { timeout: 10_000, interval: 20 }).toBe(0);
    await expect.poll(() => updater.stats.leases, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(1);
    const res = await api.patch('/api/v2/translations', { key: 'paced', language: 'de', text: 'Hallo {name}' });
    expect(res.status).toBe(200);
    // The write's round waits for the gap: the cell stays queued.
    await new Promise((r) => setTimeout(r, 200));
    expect(await queued()).toBe(1);
    const started = performance.now();
    await updater.stop();
    expect(performance.now() - started).toBeLessThan(1_000);
    const after = new FindingsUpdater({ owner: 'after-pause', lanes: 1, pollMs: 20 });
    await drain(after);
    await after.stop();
  });
});

describe('the lanes of a backlog', () => {
  it('starts the second lane as soon as a round finds a backlog, not at its next poll', async () => {
    const updater = new FindingsUpdater({ owner: 'backlog', lanes: 2, batch: 7, pollMs: 60_000 });
    updater.start();
    try {
      // An empty queue first: the lanes know of no backlog, and sleep until woken (no poll in this test's time).
      await expect.poll(() => updater.stats.leases, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(1);
      await expect.poll(queued, { timeout: 10_000, interval: 20 }).toBe(0);
      updater.mostInFlight = 0;
      const content = Array.from({ length: KEYS }, (_, i) => [
        { key: `backlog${i}`, language: 'en', text: `Backlog {name} ${i}` },
        { key: `backlog${i}`, language: 'de', text: `Rückstand ${i}` },
      ]).flat();
      const res = await api.post('/api/v1/translations', { content });
      // The write wakes the updater once, after its commit (no other wake here).
      expect(res.msg + res.status).toBe('OK200');
      await expect.poll(queued, { timeout: 30_000, interval: 20 }).toBe(0);
      expect(updater.mostInFlight).toBe(2);
    } finally {
      await updater.stop();
    }
  });
});

describe("a round's statements", () => {
  it('checks an edited cell in one lease, one transaction of six statements and the dequeue after it', async () => {
    const res = await api.post('/api/v1/translations?importOptions=REPLACE_TRANSLATION_IF_FOUND', {
      content: [
        { key: 'counted', language: 'en', text: 'Counted {name}' },
        { key: 'counted', language: 'de', text: 'Gezählt' },
      ],
    });
    expect(res.msg + res.status).toBe('OK200');
    const updater = new FindingsUpdater({ owner: 'counted', lanes: 1 });
    const sql: string[] = [];
    expect(
      await observeSql(
        (s) => sql.push(s),
        () => updater.round(),
      ),
    ).toBe(2);
    expect(await queued()).toBe(0);
    const found = await service.db.prisma.$queryRaw<{ check: string }[]>`
      SELECT f."check" FROM "Finding" f JOIN "TranslationKey" k ON k.id = f."keyId" WHERE k.key = 'counted'`;
    expect(found.map((f) => f.check)).toEqual(['placeholders-missing']);
    const names = sql.map((s) => /^\/\* ([\w:-]+) \*\//.exec(s)?.[1] ?? s.trim().split(/\s/)[0]);
    // The lease (the entries, then their cells: a write queuing one of the keys again waits only for the first);
    // then, under the projects' content lock (shared: deletions wait), the consistency pass and the
    // findings (old ones and new ones) in one transaction — no consistency insert: the cell's groups are its own,
    // no other key shares its source text or its translation; then the queue entries, after the commit, so that a
    // write queuing one of the keys again never waits for the transaction.
    expect(names).toEqual([
      'findings:lease',
      'findings:lease-cells',
      'BEGIN',
      'projects:share-content',
      'findings:consistency-lock',
      'findings:consistency-members',
      'findings:consistency-clear',
      'findings:clear',
      'findings:insert',
      'COMMIT',
      'findings:dequeue',
    ]);
  });

  it('keeps a finding found again as it is, updates one whose message changed and removes one no longer found', async () => {
    const stored = async () =>
      service.db.prisma.$queryRaw<{ check: string; message: string; version: string }[]>`
        SELECT f."check", f.message, f.ctid::text AS version FROM "Finding" f
          JOIN "TranslationKey" k ON k.id = f."keyId" JOIN "Language" l ON l.id = f."languageId"
         WHERE k.key = 'kept' AND l.key = 'de' ORDER BY f."check"`;
    const round = async () => {
      const updater = new FindingsUpdater({ owner: 'kept', lanes: 1 });
      expect(await updater.round()).toBeGreaterThan(0);
      expect(await queued()).toBe(0);
    };
    const res = await api.post('/api/v1/translations?importOptions=REPLACE_TRANSLATION_IF_FOUND', {
      content: [
        { key: 'kept', language: 'en', text: 'Kept {name}' },
        { key: 'kept', language: 'de', text: 'Behalten' },
      ],
    });
    expect(res.msg + res.status).toBe('OK200');
    await round();
    const [first] = await stored();
    expect(first).toMatchObject({
      check: 'placeholders-missing',
      message: expect.stringContaining('{name}') as string,
    });
    // The key queued again, nothing changed: the round writes no new version of the row.
    const key = await service.db.prisma.translationKey.findFirstOrThrow({ where: { key: 'kept' } });
    await service.db.prisma.$executeRaw`
      INSERT INTO "FindingQueue" ("keyId", "projectId", generation) VALUES (${key.id}, ${key.projectId}, 1)
      ON CONFLICT ("keyId") DO UPDATE SET generation = "FindingQueue".generation + 1, "leasedUntil" = NULL`;
    await round();
    expect(await stored()).toEqual([first]);
    // Another placeholder missing: the same check and number, its message updated in place.
    expect(
      (
        await api.post('/api/v1/translations?importOptions=REPLACE_TRANSLATION_IF_FOUND', {
          content: [{ key: 'kept', language: 'en', text: 'Kept {count}' }],
        })
      ).status,
    ).toBe(200);
    await round();
    const [updated, ...more] = await stored();
    expect(more).toEqual([]);
    expect(updated).toMatchObject({
      check: 'placeholders-missing',
      message: expect.stringContaining('{count}') as string,
    });
    expect(updated!.message).not.toContain('{name}');
    // Fixed: the finding goes.
    expect(
      (
        await api.post('/api/v1/translations?importOptions=REPLACE_TRANSLATION_IF_FOUND', {
          content: [{ key: 'kept', language: 'de', text: 'Behalten {count}' }],
        })
      ).status,
    ).toBe(200);
    await round();
    expect(await stored()).toEqual([]);
  });
});

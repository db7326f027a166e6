// Durability of jobs across real processes on a shared PostgreSQL database:
// a worker killed with SIGKILL mid-job is taken over after its lease and the
// job continues from its checkpoint; two workers never run the same job.
// Several processes need a database server (PGlite belongs to one process),
// so this file runs in the postgres test project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDeepl, FAKE_DEEPL_KEY, type FakeDeepl } from '../support/fake-providers/index.js';
import { startServiceProcess, type ServiceProcess } from '../support/process.js';
import { createPostgresDatabase } from '../support/pg-database.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { setDatabase } from '../../src/db.js';
import { readTranslations, seedTranslations } from '../support/content.js';

const TOKEN = 'lms_pat_recovery_test_token_0123456789';
const KEYS = 400;

describe.runIf(process.env.TEST_DB_KIND === 'postgres')('jobs across processes', { timeout: 180_000 }, () => {
  let deepl: FakeDeepl;
  let database: { url: string; drop(): Promise<void> };
  let db: Database;
  const processes: ServiceProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    deepl = await startFakeDeepl();
    deepl.setDelay(120);
    database = await createPostgresDatabase();
    db = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 });
    setDatabase(db);
    env = {
      DATABASE_URL: database.url,
      ADMIN_EMAIL: 'ops@example.com',
      ADMIN_PASSWORD: 'ops-password',
      ADMIN_TOKEN: TOKEN,
      MT_PROVIDER_B_URL: deepl.url,
      MT_PROVIDER_B_API_KEY: FAKE_DEEPL_KEY,
      JOB_LEASE_MS: '1500',
      JOB_POLL_MS: '100',
    };
  });
  afterAll(async () => {
    for (const p of processes) await p.kill();
    await db?.close();
    await database?.drop();
    await deepl?.close();
  });

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
        en: Object.fromEntries(Array.from({ length: keys }, (_, i) => [`${name}.${i}`, `${name} text ${i}`])),
        de: {},
      },
    });
    return data as { projectToken: string; apiKey: string };
  }

  async function startJob(instance: ServiceProcess, apiKey: string): Promise<string> {
    const res = await fetch(`${instance.url}/api/v1/jobs/auto-translate`, {
      method: 'POST',
      headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ translationProvider: 'MT_PROVIDER_B', targetProjectLanguage: 'de', targetLanguage: 'DE' }),
    });
    expect(res.status).toBe(200);
    return (await res.json()).data.jobId;
  }

  async function jobRow(jobId: string) {
    return db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
  }

  async function until<T>(fn: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const value = await fn();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  it('continues a job after its process is killed, without re-sending finished batches', async () => {
    const a = await startServiceProcess(env);
    processes.push(a);
    const { apiKey, projectToken } = await project(a, 'crash', KEYS);
    const jobId = await startJob(a, apiKey);
    const firstCheckpoint = await until(async () => {
      const job = await jobRow(jobId);
      const cursor = (job.checkpoint as { cursor?: number }).cursor;
      return cursor && job.progress > 0.2 && job.progress < 0.8 ? job : undefined;
    }, 'a committed batch');
    expect(await a.kill('SIGKILL')).toBeNull();
    const sentBeforeKill = deepl.translateCalls().flatMap((c) => c.text);
    expect((await jobRow(jobId)).state).toBe('STARTED');

    const b = await startServiceProcess(env);
    processes.push(b);
    const done = await until(async () => {
      const job = await jobRow(jobId);
      return job.state !== 'STARTED' ? job : undefined;
    }, 'the job to finish on the second process');
    expect(done.state).toBe('SUCCESS');
    expect(done.progress).toBe(1);
    expect(done.attempts).toBe(2);
    expect(done.message).toMatch(new RegExp(`^Translated ${KEYS} texts`));

    const de = (await readTranslations(db, projectToken)).de!;
    expect(Object.keys(de)).toHaveLength(KEYS);
    expect(de['crash.0']).toBe('[DE] crash text 0');
    // Texts of batches committed before the kill were not sent again; at most
    // the batch in flight when the process died was.
    const sent = deepl.translateCalls().flatMap((c) => c.text);
    const counts = new Map<string, number>();
    for (const t of sent) counts.set(t, (counts.get(t) ?? 0) + 1);
    expect(counts.get('crash text 0')).toBe(1);
    const resent = [...counts.values()].filter((n) => n > 1).length;
    expect(resent).toBeLessThanOrEqual(100);
    expect(sent.length).toBeLessThan(KEYS + 100 + 1);
    // The first batch was paid for by the killed process, and only then.
    expect(sentBeforeKill).toContain('crash text 0');
    expect(firstCheckpoint.attempts).toBe(1);
    await b.kill('SIGTERM');
  });

  it('never runs the same job twice with two workers', async () => {
    deepl.reset();
    deepl.setDelay(20);
    const a = await startServiceProcess(env);
    const b = await startServiceProcess(env);
    processes.push(a, b);
    const jobs: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { apiKey } = await project(i % 2 ? a : b, `twin${i}`, 60);
      jobs.push(await startJob(i % 2 ? b : a, apiKey));
    }
    await until(async () => {
      const rows = await db.prisma.job.findMany({ where: { id: { in: jobs } } });
      return rows.every((j) => j.state === 'SUCCESS') ? rows : undefined;
    }, 'all jobs');
    const sent = deepl.translateCalls().flatMap((c) => c.text);
    expect(sent).toHaveLength(6 * 60);
    expect(new Set(sent).size).toBe(6 * 60);
    const rows = await db.prisma.job.findMany({ where: { id: { in: jobs } } });
    expect(rows.every((j) => j.attempts === 1)).toBe(true);
  });
});

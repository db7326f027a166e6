// A publication whose instance dies (SIGKILL mid-publication) is taken over by
// another instance once its lease (PUBLICATION_LEASE_SECONDS, default 6 s) has
// run out, and completed: not left blocking the project with 409 and then
// marked failed. Two service processes on one PostgreSQL and one S3 store (an
// s3rver behind a proxy on loopback that slows each upload, so that the kill
// lands mid-publication). Runs in the postgres test project.
import { createServer, request as httpRequest, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { createPostgresDatabase } from '../support/pg-database.js';
import { startServiceProcess, type ServiceProcess } from '../support/process.js';
import { startFakeS3, type FakeS3 } from '../support/fake-s3.js';
import { seedTranslations } from '../support/content.js';

const TOKEN = 'lms_pat_publication_takeover_token_0123';
const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt', 'sv', 'da', 'fi', 'cs'];

/** Forwards to the S3 server, each upload after `delayMs`. */
async function slowProxy(
  target: string,
  delayMs: number,
): Promise<{ url: string; uploads: () => number; close(): Promise<void> }> {
  let uploads = 0;
  const server: Server = createServer((req, res) => {
    const forward = () => {
      const upstream = httpRequest(
        new URL(req.url!, target),
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (req.method === 'PUT') {
      uploads++;
      setTimeout(forward, delayMs);
    } else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    uploads: () => uploads,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.runIf(process.env.TEST_DB_KIND === 'postgres')(
  'a publication whose instance died',
  { timeout: 240_000 },
  () => {
    let database: { url: string; drop(): Promise<void> };
    let db: Database;
    let s3: FakeS3;
    let proxy: Awaited<ReturnType<typeof slowProxy>>;
    const running: ServiceProcess[] = [];

    beforeAll(async () => {
      database = await createPostgresDatabase();
      db = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 });
      s3 = await startFakeS3();
      proxy = await slowProxy(s3.endpoint, 250);
    });
    afterAll(async () => {
      // Each step bounded: a clean-up that hangs (seen once in CI, cause not yet
      // found) must not fail a test whose assertions passed.
      const bounded = (step: () => Promise<unknown> | undefined) =>
        Promise.race([Promise.resolve(step()).catch(() => {}), new Promise((r) => setTimeout(r, 20_000))]);
      for (const p of running) await bounded(() => p.kill());
      await bounded(() => proxy?.close());
      await bounded(() => s3?.close());
      await bounded(() => db?.close());
      await bounded(() => database?.drop());
    });

    const start = async () => {
      const p = await startServiceProcess({
        DATABASE_URL: database.url,
        ADMIN_EMAIL: 'takeover@example.com',
        ADMIN_PASSWORD: 'takeover-password',
        ADMIN_TOKEN: TOKEN,
        RATE_LIMIT_PER_MINUTE: '0',
        LOG_LEVEL: 'warn',
        JOB_WORKERS: '0',
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: proxy.url,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      });
      running.push(p);
      return p;
    };
    const publication = async (projectToken: string) =>
      (
        await db.prisma.$queryRawUnsafe<
          { id: number; state: string; version: string; message: string; served: boolean }[]
        >(
          `SELECT p.id, p.state::text AS state, p.version, p.message, e."currentPublicationId" = p.id AS served
         FROM "Publication" p JOIN "Project" pr ON pr.id = p."projectId" JOIN "Environment" e ON e.id = p."environmentId"
        WHERE pr."projectToken" = $1 ORDER BY p.id DESC LIMIT 1`,
          projectToken,
        )
      )[0];

    it('is taken over by another instance and completed after its lease', async () => {
      const a = await start();
      const b = await start();
      const created = await fetch(`${a.url}/api/v2/projects`, {
        method: 'POST',
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'takeover' }),
      });
      const { projectToken, apiKey } = (await created.json()).data;
      await seedTranslations(db, {
        projectToken,
        translations: Object.fromEntries(
          LANGUAGES.map((l) => [
            l,
            Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key.${i}`, `${l} ${i}`])),
          ]),
        ),
      });

      // A publishes; it is killed once some of its files are stored.
      const pending = fetch(`${a.url}/api/v2/environments/_latest/publish`, {
        method: 'POST',
        headers: { 'x-service-token': apiKey },
      }).then(
        (r) => r.status,
        () => 0,
      );
      const before = proxy.uploads();
      while (proxy.uploads() < before + 4) await new Promise((r) => setTimeout(r, 20));
      const dead = await publication(projectToken);
      expect(dead).toMatchObject({ state: 'RUNNING' });
      await a.kill('SIGKILL');
      const killedAt = performance.now();
      expect(await pending).toBe(0);

      // Meanwhile B refuses another publication of the project (the slot is held)...
      const refused = await fetch(`${b.url}/api/v2/environments/_latest/publish`, {
        method: 'POST',
        headers: { 'x-service-token': apiKey },
      });
      expect(refused.status).toBe(409);
      // ...until it has taken the dead one over and completed it.
      let takenOverAt = 0;
      for (;;) {
        const now = await publication(projectToken);
        if (!takenOverAt && now!.version !== dead!.version) takenOverAt = performance.now();
        if (now!.state !== 'RUNNING') break;
        expect(performance.now() - killedAt, 'a dead publication still running').toBeLessThan(60_000);
        await new Promise((r) => setTimeout(r, 100));
      }
      const completedAt = performance.now();
      const done = await publication(projectToken);
      expect(done).toMatchObject({ id: dead!.id, state: 'COMPLETE', served: true });
      expect(b.output()).toMatch(/taken over and published again/);
      // Within 10 s (issue #33); docs/hosting.md: a lease (6 s here) and a third of one, plus this poll.
      expect(takenOverAt - killedAt, 'taken over after').toBeLessThan(10_000);
      expect(completedAt).toBeGreaterThanOrEqual(takenOverAt);

      // B serves the files and publishes again.
      const served = await fetch(`${b.url}/cdn/${projectToken}/_latest/de`);
      expect(served.status).toBe(200);
      expect(await served.json()).toMatchObject({ 'key.0': 'de 0', 'key.49': 'de 49' });
      expect(
        (
          await fetch(`${b.url}/api/v2/environments/_latest/publish`, {
            method: 'POST',
            headers: { 'x-service-token': apiKey },
          })
        ).status,
      ).toBe(200);
    });
  },
);

// Publication guarantees: atomic switch-over (a failed or killed publish
// leaves the previous files serving), one publish per project at a time
// (409), the rate (429 with Retry-After), the lease after which a dead
// publisher's publication is taken over, old versions collected, progress over graphql-ws,
// set-based reading of large projects, and PUBLISH_AFTER_IMPORT and
// AUTO_PUBLISH through the same code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { projectIdOf, seedTranslations } from '../support/content.js';
import { publishEnvironment, resumePublication } from '../../src/hosting/publish.js';
import { takeOverExpired } from '../../src/hosting/lifecycle.js';
import { editorSnapshot } from '../../src/hosting/editor-files.js';
import { events } from '../../src/events/pubsub.js';
import { gate } from '../support/gate.js';

let service: TestService;
let accountToken: string;
let newProject: (name: string) => Promise<{ apiKey: string; projectToken: string; projectId: number }>;

const publish = (environmentKey: string, apiKey: string, payload?: unknown) =>
  service.request({
    method: 'POST',
    url: `/api/v2/environments/${environmentKey}/publish`,
    headers: { 'x-service-token': apiKey },
    payload,
  });
const cdnJson = async (path: string) => {
  const res = await service.request({ url: `/cdn/${path}` });
  expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
  return res.json();
};
const versionsOn = (projectToken: string, environmentKey: string) => {
  const dir = join(service.config.dataDir, 'cdn', projectToken, environmentKey, '.versions');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};
const servedVersion = async (projectId: number, environmentKey = '_latest') =>
  (
    await service.db.prisma.environment.findUniqueOrThrow({
      where: { projectId_key: { projectId, key: environmentKey } },
      select: { currentPublication: { select: { version: true } } },
    })
  ).currentPublication?.version;

async function until(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  service = await startTestService({ listen: true });
  const account = await service.account();
  accountToken = account.token;
  newProject = async (name) => {
    const p = await account.project(name);
    return { apiKey: p.apiKey, projectToken: p.projectToken, projectId: await projectIdOf(service.db, p.projectToken) };
  };
});
afterAll(async () => {
  await service.close();
  await rm(service.config.dataDir, { recursive: true, force: true });
});

describe('atomic switch-over', () => {
  it('a publish that fails midway leaves the previous publication serving, untouched', async () => {
    const p = await newProject('failing');
    await seedTranslations(service.db, {
      projectToken: p.projectToken,
      translations: { en: { a: 'one', b: 'two' }, de: { a: 'eins' } },
    });
    expect((await publish('_latest', p.apiKey)).statusCode).toBe(200);
    const before = await servedVersion(p.projectId);
    await seedTranslations(service.db, { projectToken: p.projectToken, translations: { en: { a: 'ONE' } } });

    await expect(
      publishEnvironment({
        projectId: p.projectId,
        environmentKey: '_latest',
        hooks: {
          afterResource: (done) => {
            if (done === 3) throw new Error('disk full (simulated)');
          },
        },
      }),
    ).rejects.toThrow('disk full (simulated)');

    expect(await servedVersion(p.projectId)).toBe(before);
    expect(await cdnJson(`${p.projectToken}/_latest/en`)).toEqual({ a: 'one', b: 'two' });
    const failed = await service.db.prisma.publication.findFirstOrThrow({
      where: { projectId: p.projectId, state: 'FAILED' },
    });
    expect(failed).toMatchObject({ message: 'disk full (simulated)', leaseExpiresAt: null });
    // The partial version is gone; the served one is intact.
    expect(versionsOn(p.projectToken, '_latest')).toEqual([before]);
    // Nothing blocks the next publish.
    expect((await publish('_latest', p.apiKey)).statusCode).toBe(200);
    expect(await cdnJson(`${p.projectToken}/_latest/en`)).toEqual({ a: 'ONE', b: 'two' });
  });

  it('a publish killed midway keeps the old files serving; when its lease runs out it is taken over and completed', async () => {
    const p = await newProject('killed');
    await seedTranslations(service.db, {
      projectToken: p.projectToken,
      translations: { en: { a: 'old' }, de: { a: 'alt' }, fr: { a: 'vieux' } },
    });
    expect((await publish('_latest', p.apiKey)).statusCode).toBe(200);
    await seedTranslations(service.db, { projectToken: p.projectToken, translations: { en: { a: 'new' } } });

    // The publisher stops after two files and never comes back (as if its process were killed).
    const stop = gate();
    const zombie = publishEnvironment({
      projectId: p.projectId,
      environmentKey: '_latest',
      hooks: { afterResource: (done) => (done >= 2 ? stop.wait() : undefined) },
    }).then(
      () => 'completed',
      (error: Error) => error,
    );
    await stop.reached;

    expect(await cdnJson(`${p.projectToken}/_latest/en`)).toEqual({ a: 'old' });
    const refused = envelope(await publish('_latest', p.apiKey));
    expect(refused).toMatchObject({ status: 409, msg: expect.stringMatching(/publication to _latest is running/) });
    const list = envelope(
      await service.request({ url: '/api/v2/environments', headers: { 'x-service-token': p.apiKey } }),
    ).data;
    expect(list[0]).toMatchObject({ key: '_latest', publishing: true });

    // Time passes: the lease runs out without renewal, and an instance (this
    // one, as its takeover pass would) takes the publication over and publishes it again.
    const [{ id: publicationId, version: abandoned }] = await service.db.prisma.$queryRawUnsafe<
      { id: number; version: string }[]
    >(
      `UPDATE "Publication" SET "leaseExpiresAt" = now() - interval '1 second' WHERE "projectId" = $1 AND state = 'RUNNING' RETURNING id, version`,
      p.projectId,
    );
    const expired = await takeOverExpired();
    if (expired) await resumePublication(expired);
    await until(
      async () =>
        (await service.db.prisma.publication.findUniqueOrThrow({ where: { id: publicationId } })).state === 'COMPLETE',
    );
    const resumed = await service.db.prisma.publication.findUniqueOrThrow({ where: { id: publicationId } });
    expect(resumed.version).not.toBe(abandoned);
    const after = await servedVersion(p.projectId);
    expect(after).toBe(resumed.version);
    expect(await cdnJson(`${p.projectToken}/_latest/en`)).toEqual({ a: 'new' });
    expect(await service.db.prisma.publication.count({ where: { projectId: p.projectId, state: 'FAILED' } })).toBe(0);
    // The slot is free again.
    expect((await publish('_latest', p.apiKey)).statusCode).toBe(200);
    const latest = await servedVersion(p.projectId);

    // Should the stopped publisher wake up, it cannot switch anything.
    stop.open();
    const outcome = await zombie;
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toMatch(/replaced by a newer one/);
    expect(await servedVersion(p.projectId)).toBe(latest);
    expect(await cdnJson(`${p.projectToken}/_latest/en`)).toEqual({ a: 'new' });
    expect(versionsOn(p.projectToken, '_latest')).not.toContain(abandoned);
    expect(await service.db.prisma.publication.findUniqueOrThrow({ where: { id: publicationId } })).toMatchObject({
      state: 'COMPLETE',
      version: resumed.version,
    });
  });
});

describe('one publish per project at a time', () => {
  it('refuses a publish while another runs (409), for any environment, and accepts it afterwards', async () => {
    const p = await newProject('busy');
    await seedTranslations(service.db, {
      projectToken: p.projectToken,
      translations: { en: { a: 'A' }, de: { a: 'Ä' } },
    });
    expect((await publish('_latest', p.apiKey)).statusCode).toBe(200);
    const hold = gate();
    const running = publishEnvironment({
      projectId: p.projectId,
      environmentKey: '_latest',
      hooks: { afterResource: (done) => (done === 1 ? hold.wait() : undefined) },
    });
    await hold.reached;
    expect(envelope(await publish('_latest', p.apiKey)).status).toBe(409);
    expect(envelope(await publish('_production', p.apiKey)).status).toBe(409);
    const viaGraphql = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': p.apiKey, 'content-type': 'application/json' },
      payload: { query: 'mutation { publishEnvironment(key: "_latest") { version } }' },
    });
    expect(viaGraphql.json().errors[0].extensions.code).toBe('CONFLICT');
    // Another project is not affected.
    const q = await newProject('independent');
    expect((await publish('_latest', q.apiKey)).statusCode).toBe(200);
    hold.open();
    await running;
    expect((await publish('_production', p.apiKey)).statusCode).toBe(200);
  });

  it('answers 429 with Retry-After beyond PUBLISH_RATE_LIMIT publications per minute', async () => {
    const p = await newProject('eager');
    for (let i = 0; i < 10; i++) expect((await publish('_latest', p.apiKey)).statusCode).toBe(200);
    const res = await publish('_latest', p.apiKey);
    expect(res.statusCode).toBe(429);
    expect(envelope(res).msg).toMatch(/at most 10 per minute/);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const viaGraphql = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': p.apiKey, 'content-type': 'application/json' },
      payload: { query: 'mutation { publishEnvironment(key: "_production") { version } }' },
    });
    expect(viaGraphql.json().errors[0].extensions).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      retryAfter: expect.any(Number),
    });
    // The window slides: once the oldest publication is a minute old, publishing works again.
    await service.db.prisma.$executeRawUnsafe(
      `UPDATE "Publication" SET "createdAt" = "createdAt" - interval '61 seconds' WHERE id = (SELECT min(id) FROM "Publication" WHERE "projectId" = $1)`,
      p.projectId,
    );
    expect((await publish('_latest', p.apiKey)).statusCode).toBe(200);
  });
});

describe('storage of versions', () => {
  it('keeps the served version and the one before it', async () => {
    const p = await newProject('versions');
    await seedTranslations(service.db, { projectToken: p.projectToken, translations: { en: { a: 'A' } } });
    const versions: string[] = [];
    for (let i = 0; i < 4; i++) {
      expect((await publish('_latest', p.apiKey)).statusCode).toBe(200);
      versions.push((await servedVersion(p.projectId))!);
    }
    expect(versionsOn(p.projectToken, '_latest')).toEqual(versions.slice(2).sort());
  });
});

describe('progress over graphql-ws', () => {
  it('streams the stages and file counts of a publication to subscribers of the project', async () => {
    const p = await newProject('progress');
    await seedTranslations(service.db, {
      projectToken: p.projectToken,
      translations: { en: { a: 'A', b: 'B' }, de: { a: 'Ä' } },
    });
    const client = createClient({
      url: service.url.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { 'X-Service-Token': p.apiKey },
    });
    const received: any[] = [];
    try {
      const finished = new Promise<void>((resolve, reject) => {
        client.subscribe(
          {
            query:
              'subscription { publicationProgress { publicationId environmentKey stage filesDone filesTotal state message at } }',
          },
          {
            next: (value: any) => {
              received.push(value.data.publicationProgress);
              if (value.data.publicationProgress.state !== 'RUNNING') resolve();
            },
            error: reject,
            complete: resolve,
          },
        );
      });
      // Wait until the subscription is live: a marker event on the project's topic comes through.
      const marker = {
        publicationId: 0,
        projectId: p.projectId,
        environmentKey: 'marker',
        stage: 'STARTED',
        filesDone: 0,
        filesTotal: 0,
        state: 'RUNNING',
        message: '',
        at: new Date().toISOString(),
      };
      while (!received.some((e) => e.environmentKey === 'marker')) {
        events().publish('project-publications', p.projectId, marker);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect((await publish('_latest', p.apiKey)).statusCode).toBe(200);
      await finished;
    } finally {
      await client.dispose();
    }
    const real = received.filter((e) => e.environmentKey === '_latest');
    const stages = real.map((e) => e.stage).filter((s, i, all) => s !== all[i - 1]);
    expect(stages).toEqual(['STARTED', 'READING', 'WRITING', 'SWITCHING', 'COMPLETE']);
    const writing = real.filter((e) => e.stage === 'WRITING');
    // 3 fixed files + 2 languages, no namespaces, no customers.
    expect(writing.every((e) => e.filesTotal === 5)).toBe(true);
    expect(writing.map((e) => e.filesDone)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(real.at(-1)).toMatchObject({ state: 'COMPLETE', filesDone: 5, filesTotal: 5 });
    expect(new Set(real.map((e) => e.publicationId)).size).toBe(1);
  });

  it('refuses to stream another project', async () => {
    const p = await newProject('mine');
    const stranger = await service.account();
    const client = createClient({
      url: service.url.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: stranger.token },
    });
    try {
      const error = await new Promise<any>((resolve) => {
        client.subscribe(
          { query: `subscription { publicationProgress(projectToken: "${p.projectToken}") { stage } }` },
          {
            next: (value: any) => resolve(value.errors?.[0]),
            error: resolve,
            complete: () => resolve(undefined),
          },
        );
      });
      expect(error?.extensions?.code ?? error?.[0]?.extensions?.code).toBe('NOT_FOUND');
    } finally {
      await client.dispose();
    }
    expect(accountToken).toBeTruthy();
  });
});

describe('large projects', () => {
  it('reads translations set-based: the number of queries does not grow with the keys', async () => {
    const build = async (name: string, keys: number) => {
      const p = await newProject(name);
      for (const namespace of ['', 'common', 'shop']) {
        const texts = (lang: string) =>
          Object.fromEntries(Array.from({ length: keys }, (_, i) => [`key.${i}`, `${lang} ${namespace} text ${i}`]));
        await seedTranslations(service.db, {
          projectToken: p.projectToken,
          namespace,
          translations: { en: texts('en'), de: texts('de'), fr: texts('fr') },
        });
      }
      for (const key of ['acme', 'globex'])
        await service.db.prisma.customer.create({ data: { projectId: p.projectId, key } });
      return p;
    };
    const small = await build('small', 5);
    const large = await build('large', 2000);
    // Every read of the editor goes through the Db given to the snapshot: count them.
    const reads = async (projectId: number) => {
      let calls = 0;
      const db = {
        $queryRaw: ((...args: Parameters<typeof service.db.prisma.$queryRaw>) => {
          calls++;
          return service.db.prisma.$queryRaw(...args);
        }) as typeof service.db.prisma.$queryRaw,
      };
      const snapshot = await editorSnapshot(projectId, db);
      let files = 0;
      for await (const _file of snapshot.files) files++;
      expect(files).toBe(snapshot.total);
      return calls;
    };
    expect(await reads(large.projectId)).toBe(await reads(small.projectId));
    const result = envelope(await publish('_latest', large.apiKey)).data;
    // 3 fixed + 3 languages + 3×2 namespaces + 2 customer indexes + 3×2 customer languages
    expect(result).toMatchObject({
      numberOfKeys: 6000,
      numberOfLanguages: 3,
      numberOfNonEmptyTranslations: 18000,
      numberOfResources: 20,
    });
    const de = await cdnJson(`${large.projectToken}/_latest/de`);
    expect(Object.keys(de)).toHaveLength(2002);
    expect(de['key.1999']).toBe('de  text 1999');
    expect(de.shop['key.0']).toBe('de shop text 0');
    expect(Object.keys(await cdnJson(`${large.projectToken}/_latest/fr/common`))).toHaveLength(2000);
    expect(await cdnJson(`${large.projectToken}/_latest/fr_globex`)).toEqual(
      await cdnJson(`${large.projectToken}/_latest/fr`),
    );
    // Seeds 18,000 cells and publishes them: on PGlite in a loaded suite, longer than the default.
  }, 120_000);
});

describe('file bytes', () => {
  const raw = async (path: string, encoding?: string) => {
    const res = await service.request({
      url: `/cdn/${path}`,
      headers: encoding ? { 'accept-encoding': encoding } : {},
    });
    expect(res.statusCode, path).toBe(200);
    return res.rawPayload;
  };
  // The members JSON.stringify gives an object built key by key: array-index names first by value, then code-point order.
  const texts = (lang: string, names: string[]) =>
    Object.fromEntries(names.map((n) => [n, `${lang} ${n} "q" \\ \u0001 😀`]));
  const names = ['b', '10', 'a', '9', '0', '01', '4294967295', 'Z', 'é', '\u{1F600}', 'x'.repeat(400)];
  const member = (lang: string, n: string) => `${JSON.stringify(n)}:${JSON.stringify(`${lang} ${n} "q" \\ \u0001 😀`)}`;
  const ordered = ['0', '9', '10', '01', '4294967295', 'Z', 'a', 'b', 'x'.repeat(400), 'é', '\u{1F600}'];

  it('writes each file as JSON.stringify of its object, its gzip and brotli variants decoding to the same bytes', async () => {
    const p = await newProject('bytes');
    await seedTranslations(service.db, {
      projectToken: p.projectToken,
      translations: { en: texts('en', names), de: texts('de', names) },
    });
    await seedTranslations(service.db, {
      projectToken: p.projectToken,
      namespace: 'shop',
      translations: { en: texts('en', ['1', 'z']), de: {} },
    });
    expect(envelope(await publish('_latest', p.apiKey)).data.numberOfNonEmptyTranslations).toBe(24);
    const en = `{${ordered.map((n) => member('en', n)).join(',')},"shop":{${member('en', '1')},${member('en', 'z')}}}`;
    const de = `{${ordered.map((n) => member('de', n)).join(',')},"shop":{}}`;
    const files: [string, string][] = [
      ['en', en],
      ['de', de],
      [`en/shop`, `{${member('en', '1')},${member('en', 'z')}}`],
      ['_index', `{"en":${en},"de":${de}}`],
    ];
    for (const [path, json] of files) {
      const bytes = await raw(`${p.projectToken}/_latest/${path}`);
      expect(bytes.toString('utf8'), path).toBe(json);
      // Files under 1 KiB have no compressed variants.
      if (bytes.length < 1024) continue;
      expect(gunzipSync(await raw(`${p.projectToken}/_latest/${path}`, 'gzip')).equals(bytes), path).toBe(true);
      expect(brotliDecompressSync(await raw(`${p.projectToken}/_latest/${path}`, 'br')).equals(bytes), path).toBe(true);
    }
  });

  it('publishes a text that starts with U+FEFF with that character', async () => {
    // PGlite's driver dropped a leading U+FEFF from text it read back (taken for a byte-order mark).
    const p = await newProject('bom');
    await seedTranslations(service.db, {
      projectToken: p.projectToken,
      translations: { en: { bom: '\uFEFFstarts with a BOM', mid: 'a\uFEFFb' } },
    });
    expect((await publish('_latest', p.apiKey)).statusCode).toBe(200);
    expect((await raw(`${p.projectToken}/_latest/en`)).toString('utf8')).toBe(
      JSON.stringify({ bom: '\uFEFFstarts with a BOM', mid: 'a\uFEFFb' }),
    );
  });

  it('lets a namespace replace a default-namespace key of its name where that key stood', async () => {
    const p = await newProject('shadowed');
    await seedTranslations(service.db, {
      projectToken: p.projectToken,
      translations: { en: { b: 'B', shop: 'a key', a: 'A', '2': 'two' } },
    });
    await seedTranslations(service.db, {
      projectToken: p.projectToken,
      namespace: 'shop',
      translations: { en: { cart: 'Cart' } },
    });
    await seedTranslations(service.db, {
      projectToken: p.projectToken,
      namespace: '7',
      translations: { en: { k: 'K' } },
    });
    expect((await publish('_latest', p.apiKey)).statusCode).toBe(200);
    const en = '{"2":"two","7":{"k":"K"},"a":"A","b":"B","shop":{"cart":"Cart"}}';
    expect((await raw(`${p.projectToken}/_latest/en`)).toString('utf8')).toBe(en);
    expect((await raw(`${p.projectToken}/_latest/_index`)).toString('utf8')).toBe(`{"en":${en}}`);
  });
});

describe('publishing from other domains', () => {
  it('PUBLISH_AFTER_IMPORT publishes _latest after a v1 translations POST', async () => {
    const p = await newProject('import');
    const content = Array.from({ length: 60 }, (_, i) => ({ key: `k${i}`, language: 'en', text: `Text ${i}` }));
    const res = await service.request({
      method: 'POST',
      url: '/api/v1/translations?importOptions=PUBLISH_AFTER_IMPORT',
      headers: { 'x-service-token': p.apiKey },
      payload: { content },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await cdnJson(`${p.projectToken}/_latest/en`)).k59).toBe('Text 59');
    const project = envelope(
      await service.request({ url: '/api/v2/projects', headers: { authorization: accountToken } }),
    ).data.find((x: any) => x.projectToken === p.projectToken);
    expect(project.unpublishedChanges).toBe(0);
  });

  it('AUTO_PUBLISH publishes _latest after an auto-translation job', async () => {
    const p = await newProject('auto');
    await seedTranslations(service.db, {
      projectToken: p.projectToken,
      translations: { en: { hello: 'Hello' }, de: { hello: '' } },
    });
    const job = envelope(
      await service.request({
        method: 'POST',
        url: '/api/v1/jobs/auto-translate',
        headers: { 'x-service-token': p.apiKey },
        payload: {
          translationProvider: 'PSEUDO',
          targetProjectLanguage: 'de',
          targetLanguage: 'de',
          options: ['AUTO_PUBLISH'],
        },
      }),
    ).data;
    let published: any;
    for (let i = 0; i < 400 && !published?.createdAt; i++) {
      await new Promise((r) => setTimeout(r, 25));
      published = envelope(
        await service.request({ url: '/api/v2/environments/_latest', headers: { 'x-service-token': p.apiKey } }),
      ).data;
    }
    expect(published.createdAt, `job ${job.jobId} did not publish`).toBeTruthy();
    const de = await cdnJson(`${p.projectToken}/_latest/de`);
    expect(de.hello).toBeTruthy();
    expect(de.hello).not.toBe('Hello');
  });
});

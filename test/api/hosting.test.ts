// Hosting: environments and the publication flow of each kind, the served
// files and their JSON shapes, labels, the environment order, plan gating,
// unpublished changes, CDN headers (ETag/304, Cache-Control, CORS,
// compression) and a real i18next client loading from the CDN URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import i18next from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { projectIdOf, seedTranslations } from '../support/content.js';
import { ensureKeys, keyRefId } from '../../src/content/translations/store.js';
import { ensureLanguages } from '../../src/content/languages.js';
import { writeTranslations } from '../../src/content/translations/gate.js';
import { openChange } from '../../src/content/changes.js';

let service: TestService;
let apiKey: string;
let projectToken: string;
let accountToken: string;

const api = (method: string, url: string, payload?: unknown, key = apiKey) =>
  service.request({ method, url, headers: { 'x-service-token': key }, payload });
const cdn = (path: string, headers: Record<string, string> = {}) => service.request({ url: `/cdn/${path}`, headers });
const cdnJson = async (path: string) => {
  const res = await cdn(path);
  expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
  return res.json();
};
const publish = async (environmentKey: string, payload?: unknown, key = apiKey) =>
  api('POST', `/api/v2/environments/${environmentKey}/publish`, payload, key);
const status = async (environmentKey: string, key = apiKey) =>
  envelope(await api('GET', `/api/v2/environments/${environmentKey}`, undefined, key));
const environments = async (key = apiKey) =>
  envelope(await api('GET', '/api/v2/environments', undefined, key)).data as any[];

async function gql(query: string, variables: Record<string, unknown> = {}, authorization = accountToken) {
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { authorization, 'content-type': 'application/json' },
    payload: { query, variables },
  });
  return res.json() as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
}

/** Writes customer overrides (customer key → language → key → text) through the store. */
async function seedOverrides(
  token: string,
  overrides: Record<string, Record<string, Record<string, string>>>,
  namespace = '',
) {
  const projectId = await projectIdOf(service.db, token);
  for (const [customerKey, languages] of Object.entries(overrides)) {
    const customer = await service.db.prisma.customer.upsert({
      where: { projectId_key: { projectId, key: customerKey } },
      create: { projectId, key: customerKey },
      update: {},
    });
    const keys = [...new Set(Object.values(languages).flatMap((t) => Object.keys(t)))];
    const { ids } = await ensureKeys(
      service.db.prisma,
      projectId,
      keys.map((key) => ({ key, namespace })),
      { create: true },
    );
    const langs = await ensureLanguages(
      service.db.prisma,
      projectId,
      Object.keys(languages).map((key) => ({ key })),
      { create: true },
    );
    const cells = Object.entries(languages).flatMap(([language, texts]) =>
      Object.entries(texts).map(([key, text]) => ({
        keyId: ids.get(keyRefId({ key, namespace }))!,
        languageId: langs.ids.get(language)!,
        customerId: customer.id,
        text,
      })),
    );
    await writeTranslations(service.db.prisma, projectId, cells, {
      replace: true,
      change: await openChange(service.db.prisma, projectId, 'TRANSLATIONS'),
    });
  }
}

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: false });
  const account = await service.account();
  accountToken = account.token;
  ({ apiKey, projectToken } = await account.project('hosting'));
  await seedTranslations(service.db, {
    projectToken,
    translations: { en: { hello: 'Hello', bye: 'Bye', 'menu.title': 'Menu' }, de: { hello: 'Hallo', bye: '' } },
  });
  await seedTranslations(service.db, {
    projectToken,
    namespace: 'common',
    translations: { en: { ok: 'OK', cancel: 'Cancel' }, de: { ok: 'OK' } },
  });
  await seedOverrides(projectToken, { acme: { en: { hello: 'Howdy' } } });
  await service.db.prisma.customer.create({
    data: { projectId: await projectIdOf(service.db, projectToken), key: 'plain', description: 'No overrides' },
  });
});
afterAll(async () => {
  await service.close();
  await rm(service.config.dataDir, { recursive: true, force: true });
});

describe('environments before any publication', () => {
  it('lists the built-in environments in publication order with their sources', async () => {
    const list = await environments();
    expect(list.map((e) => [e.key, e.source, e.position, e.builtIn])).toEqual([
      ['_latest', 'editor', 1, true],
      ['_production', '_latest', 2, true],
    ]);
    expect(list[0]).toMatchObject({
      name: 'Latest',
      color: expect.stringMatching(/^#/),
      publishing: false,
      lastPublication: null,
      url: `http://localhost:8080/cdn/${projectToken}/_latest`,
    });
  });

  it('shows an empty status', async () => {
    expect((await status('_latest')).data).toEqual({
      numberOfKeys: 0,
      numberOfLanguages: 0,
      numberOfNonEmptyTranslations: 0,
      createdAt: null,
      resources: [],
    });
  });

  it('answers 404 for an unknown environment and serves nothing yet', async () => {
    expect((await status('nope')).status).toBe(404);
    expect((await publish('nope')).statusCode).toBe(404);
    expect((await cdn(`${projectToken}/_latest/en`)).statusCode).toBe(404);
  });

  it('refuses _production before _latest has a publication', async () => {
    const res = envelope(await publish('_production'));
    expect(res).toMatchObject({ status: 400, msg: expect.stringMatching(/_latest.*no publication yet/) });
  });
});

describe('publishing _latest from the editor', () => {
  let first: any;
  beforeAll(async () => {
    const projects = envelope(
      await service.request({ url: '/api/v2/projects', headers: { authorization: accountToken } }),
    ).data;
    expect(projects[0].unpublishedChanges).toBeGreaterThan(0);
    const res = await publish('_latest', { label: 'first release' });
    expect(res.statusCode, res.body).toBe(200);
    first = envelope(res).data;
  });

  it('answers with the publication', () => {
    expect(first).toMatchObject({
      environmentKey: '_latest',
      source: 'editor',
      label: 'first release',
      numberOfKeys: 5,
      numberOfLanguages: 2,
      numberOfNonEmptyTranslations: 7,
      // 3 + 2 languages + 2×1 namespace + 2 customers + 2×2 customer languages
      numberOfResources: 13,
    });
    expect(new Date(first.createdAt).toISOString()).toBe(first.createdAt);
  });

  it('reports the contract status with every resource link', async () => {
    const { data } = await status('_latest');
    expect(data).toMatchObject({
      numberOfKeys: 5,
      numberOfLanguages: 2,
      numberOfNonEmptyTranslations: 7,
      createdAt: first.createdAt,
    });
    const links = data.resources.map((r: any) => r.link).sort();
    const p = `${projectToken}/_latest`;
    expect(links).toEqual([
      `${p}/_customers`,
      `${p}/_index`,
      `${p}/_index_acme`,
      `${p}/_index_plain`,
      `${p}/_languages`,
      `${p}/de`,
      `${p}/de/common`,
      `${p}/de_acme`,
      `${p}/de_plain`,
      `${p}/en`,
      `${p}/en/common`,
      `${p}/en_acme`,
      `${p}/en_plain`,
    ]);
    expect(data.resources.find((r: any) => r.link === `${p}/en/common`)).toEqual({
      link: `${p}/en/common`,
      size: expect.any(Number),
      language: 'en',
      namespace: 'common',
    });
    expect(data.resources.find((r: any) => r.link === `${p}/en_acme`)).toEqual({
      link: `${p}/en_acme`,
      size: expect.any(Number),
      language: 'en',
      customer: 'acme',
    });
    expect(data.resources.find((r: any) => r.link === `${p}/_index`)).toEqual({
      link: `${p}/_index`,
      size: expect.any(Number),
    });
    for (const resource of data.resources) {
      const res = await cdn(resource.link);
      expect(res.statusCode).toBe(200);
      expect(Number(res.headers['content-length'])).toBe(resource.size);
      expect(res.rawPayload.length).toBe(resource.size);
    }
  });

  it('serves each file in its documented shape', async () => {
    const p = `${projectToken}/_latest`;
    expect(await cdnJson(`${p}/en`)).toEqual({
      bye: 'Bye',
      hello: 'Hello',
      'menu.title': 'Menu',
      common: { cancel: 'Cancel', ok: 'OK' },
    });
    // Empty translations are left out.
    expect(await cdnJson(`${p}/de`)).toEqual({ hello: 'Hallo', common: { ok: 'OK' } });
    expect(await cdnJson(`${p}/en/common`)).toEqual({ cancel: 'Cancel', ok: 'OK' });
    expect(await cdnJson(`${p}/de/common`)).toEqual({ ok: 'OK' });
    expect(await cdnJson(`${p}/_index`)).toEqual({ en: await cdnJson(`${p}/en`), de: await cdnJson(`${p}/de`) });
    expect(await cdnJson(`${p}/_languages`)).toEqual([
      { key: 'en', name: 'English', isDefault: true },
      { key: 'de', name: 'German', isDefault: false },
    ]);
    expect(await cdnJson(`${p}/_customers`)).toEqual([
      { key: 'acme', description: '' },
      { key: 'plain', description: 'No overrides' },
    ]);
    // Overrides merged over the base; a customer without one falls back to the base.
    expect(await cdnJson(`${p}/en_acme`)).toEqual({
      bye: 'Bye',
      hello: 'Howdy',
      'menu.title': 'Menu',
      common: { cancel: 'Cancel', ok: 'OK' },
    });
    expect(await cdnJson(`${p}/de_acme`)).toEqual(await cdnJson(`${p}/de`));
    expect(await cdnJson(`${p}/en_plain`)).toEqual(await cdnJson(`${p}/en`));
    expect(await cdnJson(`${p}/_index_acme`)).toEqual({
      en: await cdnJson(`${p}/en_acme`),
      de: await cdnJson(`${p}/de`),
    });
  });

  it('answers 404 for unknown paths, environments and projects', async () => {
    for (const path of [
      `${projectToken}/_latest/fr`,
      `${projectToken}/_latest/en/nope`,
      `${projectToken}/_latest/`,
      `${projectToken}/_latest/.versions`,
      `${projectToken}/_production/en`,
      `${projectToken}/staging/en`,
      `0000/_latest/en`,
    ]) {
      const res = await cdn(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toMatchObject({ status: 404 });
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    expect((await cdn(`${projectToken}/_latest/%E0%A4%A`)).statusCode).toBe(400);
  });

  it('lists the served publication and resets unpublished changes', async () => {
    const latest = (await environments())[0];
    expect(latest.lastPublication).toEqual({
      version: expect.any(String),
      label: 'first release',
      createdAt: first.createdAt,
      completedAt: first.completedAt,
      numberOfKeys: 5,
      numberOfLanguages: 2,
      numberOfNonEmptyTranslations: 7,
      numberOfResources: 13,
    });
    const projects = () =>
      service
        .request({ url: '/api/v2/projects', headers: { authorization: accountToken } })
        .then((r) => envelope(r).data[0]);
    expect((await projects()).unpublishedChanges).toBe(0);
    await seedTranslations(service.db, { projectToken, translations: { en: { hello: 'Hello!' } } });
    await seedOverrides(projectToken, { acme: { de: { bye: 'Tschüss, acme' } } });
    expect((await projects()).unpublishedChanges).toBe(2);
  });
});

describe('publishing _production and custom environments', () => {
  it('_production takes the files _latest published, not the editor', async () => {
    // The editor now has 'Hello!' (unpublished): _production still gets 'Hello'.
    const res = await publish('_production');
    expect(res.statusCode, res.body).toBe(200);
    expect(envelope(res).data).toMatchObject({
      environmentKey: '_production',
      source: '_latest',
      label: null,
      numberOfKeys: 5,
      numberOfResources: 13,
    });
    expect(await cdnJson(`${projectToken}/_production/en`)).toMatchObject({ hello: 'Hello' });
    const { data } = await status('_production');
    expect(data.resources.map((r: any) => r.link)).toContain(`${projectToken}/_production/en_acme`);
    expect(data.resources.every((r: any) => r.link.startsWith(`${projectToken}/_production/`))).toBe(true);

    expect((await publish('_latest')).statusCode).toBe(200);
    expect(await cdnJson(`${projectToken}/_latest/en`)).toMatchObject({ hello: 'Hello!' });
    expect(await cdnJson(`${projectToken}/_latest/de_acme`)).toMatchObject({ bye: 'Tschüss, acme' });
    expect(await cdnJson(`${projectToken}/_production/en`)).toMatchObject({ hello: 'Hello' });
  });

  it('validates new environments', async () => {
    const create = (payload: unknown) => api('POST', '/api/v2/environments', payload);
    const cases: [unknown, number, RegExp][] = [
      [{ name: 'No key' }, 400, /key is required/],
      [{ key: '_latest', name: 'x' }, 400, /reserved/],
      [{ key: '_production', name: 'x' }, 400, /reserved/],
      [{ key: '_custom', name: 'x' }, 400, /starting with a letter or digit/],
      [{ key: 'Staging', name: 'x' }, 400, /lowercase/],
      [{ key: 'a/b', name: 'x' }, 400, /lowercase/],
      [{ key: 'x'.repeat(41), name: 'x' }, 400, /1-40/],
      [{ key: 'qa' }, 400, /name is required/],
      [{ key: 'qa', name: 'x'.repeat(101) }, 400, /at most 100/],
      [{ key: 'qa', name: 'QA', color: 'red' }, 400, /color must be a hex color/],
      [{ key: 7, name: 'QA' }, 400, /key must be a string/],
      [{ key: 'qa', name: 'QA', position: 3 }, 400, /Unknown field 'position'/],
    ];
    for (const [payload, code, msg] of cases) {
      const res = envelope(await create(payload));
      expect([res.status, res.msg], JSON.stringify(payload)).toEqual([code, expect.stringMatching(msg)]);
    }
    expect((await environments()).map((e) => e.key)).toEqual(['_latest', '_production']);
  });

  it('creates a custom environment at the end of the order; it publishes from the one before it', async () => {
    const res = envelope(
      await api('POST', '/api/v2/environments', { key: 'staging', name: 'Staging', color: '#FFAA00' }),
    );
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      key: 'staging',
      name: 'Staging',
      color: '#ffaa00',
      builtIn: false,
      position: 3,
      source: '_production',
      lastPublication: null,
    });
    expect(envelope(await api('POST', '/api/v2/environments', { key: 'staging', name: 'Again' }))).toMatchObject({
      status: 409,
      msg: 'Environment staging already exists',
    });

    const published = envelope(await publish('staging'));
    expect(published.data).toMatchObject({ environmentKey: 'staging', source: '_production' });
    expect(await cdnJson(`${projectToken}/staging/en`)).toMatchObject({ hello: 'Hello' });
    expect(envelope(await publish('staging', { label: 'x' }))).toMatchObject({
      status: 400,
      msg: 'label can only be given when publishing to _latest',
    });
  });

  it('follows the environment order set through GraphQL', async () => {
    const order = `mutation($keys: [String!]!) { setEnvironmentOrder(projectToken: "${projectToken}", keys: $keys) { key source position } }`;
    const bad: [string[], RegExp][] = [
      [['_production', '_latest', 'staging'], /must start with _latest/],
      [['_latest', 'staging'], /_production is missing/],
      [['_latest', '_production', 'staging', 'qa'], /unknown environment qa/],
      [['_latest', '_production', 'staging', 'staging'], /more than once/],
    ];
    for (const [keys, msg] of bad) {
      const result = await gql(order, { keys });
      expect(result.errors?.[0]).toMatchObject({
        message: expect.stringMatching(msg),
        extensions: { code: 'BAD_REQUEST' },
      });
    }
    const result = await gql(order, { keys: ['_latest', 'staging', '_production'] });
    expect(result.data.setEnvironmentOrder).toEqual([
      { key: '_latest', source: 'editor', position: 1 },
      { key: 'staging', source: '_latest', position: 2 },
      { key: '_production', source: '_latest', position: 3 },
    ]);
    expect(envelope(await publish('staging')).data.source).toBe('_latest');
    expect(await cdnJson(`${projectToken}/staging/en`)).toMatchObject({ hello: 'Hello!' });
    expect(await cdnJson(`${projectToken}/_production/en`)).toMatchObject({ hello: 'Hello' });
  });

  it('renames and recolors an environment through GraphQL; its key stays', async () => {
    const result = await gql(
      `mutation { updateEnvironment(projectToken: "${projectToken}", key: "staging", name: "Pre-production", color: "#123") { key name color } }`,
    );
    expect(result.data.updateEnvironment).toEqual({ key: 'staging', name: 'Pre-production', color: '#123' });
  });
});

describe('publish request validation', () => {
  it('accepts no body, an empty object or a label for _latest only', async () => {
    expect(envelope(await publish('_latest', { label: 42 }))).toMatchObject({
      status: 400,
      msg: 'label must be a string',
    });
    expect(envelope(await publish('_latest', { label: 'x'.repeat(201) }))).toMatchObject({
      status: 400,
      msg: 'label must have at most 200 characters',
    });
    expect(envelope(await publish('_latest', { labels: 'x' }))).toMatchObject({
      status: 400,
      msg: expect.stringMatching(/Unknown field 'labels'/),
    });
    expect(envelope(await publish('_production', { label: 'x' }))).toMatchObject({
      status: 400,
      msg: 'label can only be given when publishing to _latest',
    });
    expect((await publish('_latest', {})).statusCode).toBe(200);
    expect((await publish('_latest')).statusCode).toBe(200);
  });

  it('needs the project API key and never reaches another project', async () => {
    const other = await (await service.account()).project('other');
    expect((await service.request({ url: '/api/v2/environments' })).statusCode).toBe(403);
    expect(
      (await service.request({ url: '/api/v2/environments', headers: { authorization: accountToken } })).statusCode,
    ).toBe(403);
    // The other key sees its own (unpublished) environments only.
    expect((await status('_latest', other.apiKey)).data.numberOfKeys).toBe(0);
    expect((await status('staging', other.apiKey)).status).toBe(404);
    const stranger = await service.account();
    const result = await gql(`{ environments(projectToken: "${projectToken}") { key } }`, {}, stranger.token);
    expect(result.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const publishing = await gql(
      `mutation { publishEnvironment(projectToken: "${projectToken}", key: "_latest") { version } }`,
      {},
      stranger.token,
    );
    expect(publishing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('is 402 on a plan without publishing; listing still works', async () => {
    const free = await (await service.account({ plan: 'free' })).project('free');
    expect(envelope(await publish('_latest', undefined, free.apiKey))).toMatchObject({
      status: 402,
      msg: expect.stringMatching(/Publishing is not included in the Free plan/i),
    });
    expect((await environments(free.apiKey)).length).toBe(2);
    expect((await status('_latest', free.apiKey)).data.resources).toEqual([]);
  });
});

describe('GraphQL', () => {
  it('queries environments, one environment and a status with full URLs', async () => {
    const result = await gql(`{
      environments(projectToken: "${projectToken}") { key source lastPublication { label numberOfResources } }
      environment(projectToken: "${projectToken}", key: "_production") { key url publishing }
      environmentStatus(projectToken: "${projectToken}", key: "_latest") { numberOfKeys version resources { link url } }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.environments.map((e: any) => e.key)).toEqual(['_latest', 'staging', '_production']);
    expect(result.data.environment).toEqual({
      key: '_production',
      url: `http://localhost:8080/cdn/${projectToken}/_production`,
      publishing: false,
    });
    const en = result.data.environmentStatus.resources.find((r: any) => r.link.endsWith('/en'));
    expect(en.url).toBe(`http://localhost:8080/cdn/${en.link}`);
  });

  it('creates an environment and publishes with a label', async () => {
    const created = await gql(
      `mutation { createEnvironment(projectToken: "${projectToken}", key: "qa-2", name: "QA 2") { key color source position } }`,
    );
    expect(created.data.createEnvironment).toEqual({
      key: 'qa-2',
      color: '#808080',
      source: '_production',
      position: 4,
    });
    const published = await gql(
      `mutation { publishEnvironment(projectToken: "${projectToken}", key: "_latest", label: "from graphql") { environmentKey label source numberOfResources } }`,
    );
    expect(published.data.publishEnvironment).toEqual({
      environmentKey: '_latest',
      label: 'from graphql',
      source: 'editor',
      numberOfResources: 13,
    });
  });
});

describe('CDN serving', () => {
  let big: { projectToken: string; apiKey: string };
  beforeAll(async () => {
    big = await (await service.account()).project('big');
    const en: Record<string, string> = {};
    for (let i = 0; i < 200; i++) en[`key.${i}`] = `The text number ${i} of a file large enough to compress`;
    await seedTranslations(service.db, { projectToken: big.projectToken, translations: { en } });
    expect((await publish('_latest', undefined, big.apiKey)).statusCode).toBe(200);
    expect((await publish('_production', undefined, big.apiKey)).statusCode).toBe(200);
  });

  it('sends ETag and answers 304 to If-None-Match', async () => {
    const res = await cdn(`${projectToken}/_latest/en`);
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const again = await cdn(`${projectToken}/_latest/en`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await cdn(`${projectToken}/_latest/en`, { 'if-none-match': '"other", W/' + etag })).statusCode).toBe(304);
    expect((await cdn(`${projectToken}/_latest/en`, { 'if-none-match': '"stale"' })).statusCode).toBe(200);
  });

  it('keeps the ETag when a new publication has the same content', async () => {
    const before = (await cdn(`${projectToken}/_latest/en`)).headers;
    expect((await publish('_latest')).statusCode).toBe(200);
    const after = (await cdn(`${projectToken}/_latest/en`)).headers;
    expect(after['x-publication-version']).not.toBe(before['x-publication-version']);
    expect(after.etag).toBe(before.etag);
  });

  it('sets Cache-Control per environment', async () => {
    expect((await cdn(`${projectToken}/_latest/en`)).headers['cache-control']).toBe('public, no-cache');
    expect((await cdn(`${projectToken}/_production/en`)).headers['cache-control']).toBe(
      'public, max-age=300, must-revalidate',
    );
    expect((await cdn(`${projectToken}/staging/en`)).headers['cache-control']).toBe(
      'public, max-age=300, must-revalidate',
    );
  });

  it('allows browser apps on other origins (CORS and preflight)', async () => {
    const res = await cdn(`${projectToken}/_latest/en`, { origin: 'https://app.example.com' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toMatch(/ETag/);
    const preflight = await service.request({
      method: 'OPTIONS',
      url: `/cdn/${projectToken}/_latest/en`,
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': 'if-none-match',
    });
  });

  it('compresses with brotli or gzip as the client accepts', async () => {
    const path = `${big.projectToken}/_latest/en`;
    const plain = await cdn(path);
    const size = plain.rawPayload.length;
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const gz = await cdn(path, { 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.length).toBeLessThan(size / 3);
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(gz.headers.etag).toBe(plain.headers.etag!.replace(/"$/, '-gz"'));
    const br = await cdn(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect((await cdn(path, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    // The ETag of one representation validates the others.
    expect((await cdn(path, { 'accept-encoding': 'br', 'if-none-match': gz.headers.etag as string })).statusCode).toBe(
      304,
    );
    // Compressed copies of _production are served the same way.
    expect(
      (await cdn(`${big.projectToken}/_production/en`, { 'accept-encoding': 'gzip' })).headers['content-encoding'],
    ).toBe('gzip');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const res = await service.request({
      method: 'HEAD',
      url: `/cdn/${big.projectToken}/_latest/en`,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(Number(res.headers['content-length'])).toBe(
      (await cdn(`${big.projectToken}/_latest/en`, { 'accept-encoding': 'gzip' })).rawPayload.length,
    );
  });

  it('works over real HTTP with fetch (decompressing transparently)', async () => {
    const res = await fetch(`${service.url}/cdn/${big.projectToken}/_latest/en`);
    expect(res.status).toBe(200);
    expect((await res.json())['key.199']).toBe('The text number 199 of a file large enough to compress');
  });
});

describe('a real client: i18next with i18next-http-backend', () => {
  it('loads a published language and namespace from the CDN URL', async () => {
    const client = i18next.createInstance();
    await client.use(HttpBackend).init({
      lng: 'de',
      fallbackLng: 'en',
      ns: ['common'],
      defaultNS: 'common',
      backend: { reloadInterval: false, loadPath: `${service.url}/cdn/${projectToken}/_latest/{{lng}}/{{ns}}` },
    });
    expect(client.t('ok')).toBe('OK');
    // Missing in German: falls back to the English file.
    expect(client.t('cancel')).toBe('Cancel');
    await client.changeLanguage('en');
    expect(client.t('cancel')).toBe('Cancel');
  });

  it('loads a whole language file with keys containing dots', async () => {
    const client = i18next.createInstance();
    await client.use(HttpBackend).init({
      lng: 'en',
      fallbackLng: false,
      ns: ['translation'],
      backend: { reloadInterval: false, loadPath: `${service.url}/cdn/${projectToken}/_production/{{lng}}` },
    });
    expect(client.t('hello')).toBe('Hello');
    expect(client.t('menu.title')).toBe('Menu');
    expect(client.t('common.cancel')).toBe('Cancel');
  });
});

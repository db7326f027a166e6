import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeSql } from '../../src/db/client.js';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let api: ProjectApi;

beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account(), 'Translations v2');
  await api.post('/api/v1/languages', { key: 'de' });
  for (const key of ['b.title', 'a.title']) await api.post('/api/v1/translation-keys', { key });
  await api.post('/api/v1/translation-keys', { key: 'a.title', namespace: 'web', charactersLimit: 5 });
  await api.post('/api/v1/customers', { key: 'acme' });
});
afterAll(() => service.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const get = async (query = '') => (await api.get(`/api/v2/translations${query}`)).data;
const cells = async (query = '') =>
  (await get(query)).map((c: any) => `${c.namespace}/${c.key}/${c.language}=${c.text}`);

describe('GET /api/v2/translations', () => {
  it('lists every cell of keys × languages, empty ones included, ordered by namespace, key, language', async () => {
    const all = await get();
    expect(all).toHaveLength(6);
    expect(all[0]).toEqual({
      key: 'a.title',
      namespace: '',
      language: 'en',
      text: '',
      customerId: null,
      reviewStatus: 'NOT_REVIEWED',
      lastModifiedAt: null,
    });
    expect(await cells()).toEqual([
      '/a.title/en=',
      '/a.title/de=',
      '/b.title/en=',
      '/b.title/de=',
      'web/a.title/en=',
      'web/a.title/de=',
    ]);
  });
});

describe('PATCH /api/v2/translations', () => {
  it('sets the text of a cell and answers the translation', async () => {
    const res = await api.patch('/api/v2/translations', { key: 'a.title', language: 'en', text: 'Title' });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      key: 'a.title',
      namespace: '',
      language: 'en',
      text: 'Title',
      customerId: null,
      reviewStatus: 'NOT_REVIEWED',
    });
    expect(res.data.lastModifiedAt).toMatch(ISO);
    expect(await api.counters()).toEqual({
      keys: 3,
      translatedPercentage: 0.1667,
      translatedKeysByLanguage: { en: 1 },
      unpublishedChanges: 1,
    });
  });

  it('sets the review status alone, keeping the text, and both together', async () => {
    const res = await api.patch('/api/v2/translations', {
      key: 'a.title',
      namespace: '',
      language: 'en',
      reviewStatus: 'REVIEWED',
    });
    expect(res.data).toMatchObject({ text: 'Title', reviewStatus: 'REVIEWED' });
    const both = await api.patch('/api/v2/translations', {
      key: 'b.title',
      language: 'de',
      text: 'Titel B',
      reviewStatus: 'reviewed',
    });
    expect(both.data).toMatchObject({ text: 'Titel B', reviewStatus: 'REVIEWED' });
    const back = await api.patch('/api/v2/translations', {
      key: 'b.title',
      language: 'de',
      reviewStatus: 'NOT_REVIEWED',
    });
    expect(back.data).toMatchObject({ text: 'Titel B', reviewStatus: 'NOT_REVIEWED' });
  });

  it('writes into a namespace', async () => {
    const res = await api.patch('/api/v2/translations', {
      key: 'a.title',
      namespace: 'web',
      language: 'de',
      text: 'Titel',
    });
    expect(res.data).toMatchObject({ namespace: 'web', text: 'Titel' });
  });

  it('does not count a write that changes nothing as an unpublished change', async () => {
    const before = (await api.counters()).unpublishedChanges;
    await api.patch('/api/v2/translations', { key: 'a.title', language: 'en', text: 'Title' });
    expect((await api.counters()).unpublishedChanges).toBe(before);
  });

  it("accepts a text of exactly the key's charactersLimit, counted in characters", async () => {
    const res = await api.patch('/api/v2/translations', {
      key: 'a.title',
      namespace: 'web',
      language: 'en',
      text: 'Hi 👋🏽',
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ['a missing key', { key: 'nope', language: 'en', text: 'x' }, 404, /key 'nope' not found/],
    [
      'a key missing from the namespace',
      { key: 'b.title', namespace: 'web', language: 'en', text: 'x' },
      404,
      /key 'b.title' in namespace 'web' not found/,
    ],
    ['a missing language', { key: 'a.title', language: 'fr', text: 'x' }, 404, /language 'fr' not found/],
    [
      'a missing customer',
      { key: 'a.title', language: 'en', customerId: 'nobody', text: 'x' },
      404,
      /customer 'nobody' not found/,
    ],
    ['no key', { language: 'en', text: 'x' }, 400, /key is required/],
    ['no language', { key: 'a.title', text: 'x' }, 400, /language is required/],
    ['neither text nor reviewStatus', { key: 'a.title', language: 'en' }, 400, /text or reviewStatus is required/],
    [
      'an unknown reviewStatus',
      { key: 'a.title', language: 'en', reviewStatus: 'DONE' },
      400,
      /reviewStatus must be one of reviewed, not_reviewed/,
    ],
    ['a non-string text', { key: 'a.title', language: 'en', text: 12 }, 400, /text/],
    [
      'a text over the charactersLimit',
      { key: 'a.title', namespace: 'web', language: 'en', text: 'Hello!' },
      400,
      /text has 6 characters, more than the charactersLimit of 5 of key 'a.title' in namespace 'web'/,
    ],
  ])('refuses %s and changes nothing', async (_case, payload, status, msg) => {
    const before = await get();
    const res = await api.patch('/api/v2/translations', payload);
    expect(res.status).toBe(status);
    expect(res.msg).toMatch(msg);
    expect(await get()).toEqual(before);
  });
});

describe('customer-specific translations', () => {
  it('override the base for that customer only; the base stays unchanged', async () => {
    const before = await api.counters();
    const res = await api.patch('/api/v2/translations', {
      key: 'a.title',
      language: 'en',
      customerId: 'acme',
      text: 'Acme Title',
    });
    expect(res.data).toMatchObject({
      key: 'a.title',
      language: 'en',
      text: 'Acme Title',
      customerId: 'acme',
      reviewStatus: 'NOT_REVIEWED',
    });
    expect((await get('?key=a.title&namespace=&language=en'))[0]).toMatchObject({
      text: 'Title',
      customerId: null,
      reviewStatus: 'REVIEWED',
    });
    const after = await api.counters();
    expect(after.unpublishedChanges).toBe(before.unpublishedChanges + 1);
    expect({ ...after, unpublishedChanges: 0 }).toEqual({ ...before, unpublishedChanges: 0 });
  });

  it("queries with customerId return the customer's text where it has one, else the base", async () => {
    const view = await get('?customerId=acme&namespace=');
    expect(view.map((c: any) => [c.key, c.language, c.text, c.customerId])).toEqual([
      ['a.title', 'en', 'Acme Title', 'acme'],
      ['a.title', 'de', '', 'acme'],
      ['b.title', 'en', '', 'acme'],
      ['b.title', 'de', 'Titel B', 'acme'],
    ]);
    expect(await cells('?customerId=acme&text=acme')).toEqual(['/a.title/en=Acme Title']);
  });

  it('a review status alone needs an existing customer text', async () => {
    const res = await api.patch('/api/v2/translations', {
      key: 'b.title',
      language: 'de',
      customerId: 'acme',
      reviewStatus: 'REVIEWED',
    });
    expect(res.status).toBe(404);
    expect(res.msg).toMatch(/customer 'acme' has no translation of key 'b.title' in 'de'/);
    const reviewed = await api.patch('/api/v2/translations', {
      key: 'a.title',
      language: 'en',
      customerId: 'acme',
      reviewStatus: 'REVIEWED',
    });
    expect(reviewed.data).toMatchObject({ text: 'Acme Title', reviewStatus: 'REVIEWED', customerId: 'acme' });
  });

  it('an empty customer text falls back to the base translation', async () => {
    const res = await api.patch('/api/v2/translations', {
      key: 'a.title',
      language: 'en',
      customerId: 'acme',
      text: '',
    });
    expect(res.data).toMatchObject({ text: 'Title', customerId: 'acme' });
  });

  it('refuses an unknown customerId filter with 404', async () => {
    const res = await api.get('/api/v2/translations?customerId=nobody');
    expect(res.status).toBe(404);
    expect(res.msg).toMatch(/customer 'nobody' not found/);
  });
});

describe('GET /api/v2/translations filters', () => {
  it('text: contains, ignoring case', async () => {
    expect(await cells('?text=TITEL')).toEqual(['/b.title/de=Titel B', 'web/a.title/de=Titel']);
    expect(await cells('?text=%25')).toEqual([]);
  });

  it('textStatus: EMPTY finds cells without a row; NOT_EMPTY the others', async () => {
    expect(await cells('?textStatus=EMPTY')).toEqual(['/a.title/de=', '/b.title/en=']);
    expect(await cells('?textStatus=not_empty')).toEqual([
      '/a.title/en=Title',
      '/b.title/de=Titel B',
      'web/a.title/en=Hi 👋🏽',
      'web/a.title/de=Titel',
    ]);
  });

  it('reviewsStatus, key, namespace and language: equality', async () => {
    expect(await cells('?reviewsStatus=REVIEWED')).toEqual(['/a.title/en=Title']);
    expect((await get('?reviewsStatus=NOT_REVIEWED')).length).toBe(5);
    expect(await cells('?key=a.title&language=de')).toEqual(['/a.title/de=', 'web/a.title/de=Titel']);
    expect(await cells('?namespace=web')).toEqual(['web/a.title/en=Hi 👋🏽', 'web/a.title/de=Titel']);
    expect(await cells('?key=a.titl')).toEqual([]);
  });

  it.each([
    ['textStatus', '?textStatus=FULL', /textStatus must be one of empty, not_empty; got 'FULL'/],
    ['reviewsStatus', '?reviewsStatus=DONE', /reviewsStatus must be one of reviewed, not_reviewed; got 'DONE'/],
    ['size over 500', '?size=501', /size must be at most 500/],
    ['negative page', '?page=-1', /page must be at least 0/],
  ])('refuses a bad %s with 400', async (_case, query, msg) => {
    const res = await api.get(`/api/v2/translations${query}`);
    expect(res.status).toBe(400);
    expect(res.msg).toMatch(msg);
  });
});

describe('GET /api/v2/translations pages', () => {
  it('pages in SQL: default size 100, at most 500, page from 0', async () => {
    const content = Array.from({ length: 300 }, (_, i) => ({
      key: `page.${String(i).padStart(3, '0')}`,
      language: 'en',
      text: `t${i}`,
    }));
    expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
    // 303 keys × 2 languages.
    expect(await get()).toHaveLength(100);
    expect(await get('?size=500')).toHaveLength(500);
    expect(await get('?size=500&page=1')).toHaveLength(106);
    const page = await get('?namespace=&key=page.150&size=1');
    expect(page).toMatchObject([{ key: 'page.150', language: 'en', text: 't150' }]);
    const second = await get('?text=t1&size=2&page=1');
    expect(second.map((c: any) => c.text)).toEqual(['t11', 't12']);
  });
});

describe('the one-cell write', () => {
  it('a one-cell write costs one statement (its lookup and the gate), and its answer is what a read then shows', async () => {
    await api.patch('/api/v2/translations', { key: 'b.title', language: 'en', text: 'warm-up' });
    const statements: string[] = [];
    const res = await observeSql(
      (sql) => statements.push(sql),
      () =>
        api.patch('/api/v2/translations', {
          key: 'b.title',
          language: 'en',
          text: 'B title',
          reviewStatus: 'REVIEWED',
        }),
    );
    expect(res.status).toBe(200);
    // No statement for the credential (cached), no BEGIN/COMMIT, no separate lookup, no read-back.
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^\/\* translations:gate-named \*\//);
    expect((await get('?key=b.title&namespace=&language=en'))[0]).toEqual(res.data);
    expect(res.data).toMatchObject({ text: 'B title', reviewStatus: 'REVIEWED', customerId: null });
  });
});

describe('GET /api/v2/project', () => {
  it('costs one statement per part it reports; its figures (counts, per language, unpublished changes, times) are one', async () => {
    await api.patch('/api/v2/translations', { key: 'a.title', language: 'de', text: 'Titel' });
    await api.get('/api/v2/project');
    const sql: string[] = [];
    const res = await observeSql(
      (s) => sql.push(s),
      () => api.get('/api/v2/project'),
    );
    expect(res.status).toBe(200);
    // The project, its languages, customers, environments, namespaces, hosting resources; its figures. No credential lookup (cached).
    expect(sql).toHaveLength(7);
    expect(sql.filter((s) => /"Translation"/.test(s))).toHaveLength(1);
    // The figures are what the cells say: non-empty base cells per language, in the project's language order.
    const filled = async (language: string) =>
      (await get(`?language=${language}&textStatus=NOT_EMPTY&size=500`)).length;
    const [en, de, keys] = [await filled('en'), await filled('de'), (await get('?language=en&size=500')).length];
    expect(de).toBeGreaterThan(0);
    expect(Object.entries(res.data.translatedKeysByLanguage)).toEqual([
      ['en', en],
      ['de', de],
    ]);
    expect(res.data.keys).toBe(keys);
    expect(res.data.translatedPercentage).toBeCloseTo((en + de) / (2 * keys), 4);
    expect(res.data.unpublishedChanges).toBeGreaterThan(0);
  });
});

describe('the answer of a page, byte for byte', () => {
  it('REST and GraphQL give each cell its fields in order, the review status by name and the time as ISO 8601 UTC', async () => {
    await api.post('/api/v1/translation-keys', { key: 'c.title' });
    const written = await api.patch('/api/v2/translations', {
      key: 'c.title',
      language: 'de',
      text: 'Zeile "C" \\ ü\n👋🏽',
      reviewStatus: 'REVIEWED',
    });
    const at = written.data.lastModifiedAt;
    expect(at).toMatch(ISO);
    const raw = async (url: string, payload?: unknown) => {
      const res = await service.request({
        method: payload ? 'POST' : 'GET',
        url,
        headers: { 'x-service-token': api.apiKey, ...(payload ? { 'content-type': 'application/json' } : {}) },
        payload,
      });
      expect(res.statusCode).toBe(200);
      return res.body;
    };
    // The cell in en was never written: empty, NOT_REVIEWED, no time.
    const never = `"key":"c.title","namespace":"","language":"en","text":""`;
    const cell = `"key":"c.title","namespace":"","language":"de","text":"Zeile \\"C\\" \\\\ ü\\n👋🏽"`;
    expect(await raw('/api/v2/translations?key=c.title')).toBe(
      `{"msg":"OK","status":200,"data":[{${never},"customerId":null,"reviewStatus":"NOT_REVIEWED","lastModifiedAt":null},` +
        `{${cell},"customerId":null,"reviewStatus":"REVIEWED","lastModifiedAt":"${at}"}]}`,
    );
    const query = `{ translations(filter: {key: "c.title"}) { key namespace language text customerKey isOverride reviewStatus lastModifiedAt } }`;
    expect(await raw('/graphql', { query })).toBe(
      `{"data":{"translations":[{${never},"customerKey":null,"isOverride":false,"reviewStatus":"NOT_REVIEWED","lastModifiedAt":null},` +
        `{${cell},"customerKey":null,"isOverride":false,"reviewStatus":"REVIEWED","lastModifiedAt":"${at}"}]}}`,
    );
  });
});

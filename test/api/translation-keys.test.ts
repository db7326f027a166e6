import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let api: ProjectApi;

beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account(), 'Keys');
});
afterAll(() => service.close());

const KEY_FIELDS = [
  'key',
  'namespace',
  'description',
  'codeDescription',
  'tags',
  'charactersLimit',
  'lock',
  'deprecated',
  'lastSeenAt',
  'modifiedAt',
  'createdAt',
  'deprecatedAt',
];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const list = async (query = '') => (await api.get(`/api/v1/translation-keys${query}`)).data;
const one = async (key: string, namespace = '') =>
  (await list(`?key=${encodeURIComponent(key)}&namespace=${encodeURIComponent(namespace)}`)).content[0];
const keyCount = async () => (await list()).page.totalElements;

describe('POST /api/v1/translation-keys', () => {
  it('creates a key with every field and answers it', async () => {
    const res = await api.post('/api/v1/translation-keys', {
      key: 'welcome',
      namespace: 'home',
      description: 'Greeting',
      codeDescription: 'src/home.ts',
      tags: ['ui', 'ui', ' home '],
      charactersLimit: 20,
      lock: false,
      deprecated: false,
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.data).sort()).toEqual([...KEY_FIELDS].sort());
    expect(res.data).toMatchObject({
      key: 'welcome',
      namespace: 'home',
      description: 'Greeting',
      codeDescription: 'src/home.ts',
      tags: ['ui', 'home'],
      charactersLimit: 20,
      lock: false,
      deprecated: false,
      deprecatedAt: null,
    });
    for (const f of ['lastSeenAt', 'modifiedAt', 'createdAt']) expect(res.data[f]).toMatch(ISO);
  });

  it('rule 3: ignores null or empty namespace, description and codeDescription', async () => {
    const a = await api.post('/api/v1/translation-keys', {
      key: 'plain',
      namespace: null,
      description: null,
      codeDescription: null,
    });
    expect(a.data).toMatchObject({
      key: 'plain',
      namespace: '',
      description: '',
      codeDescription: '',
      tags: [],
      charactersLimit: null,
      lock: false,
      deprecated: false,
    });
    const b = await api.post('/api/v1/translation-keys', {
      key: 'plain2',
      namespace: '',
      description: '',
      codeDescription: '',
    });
    expect(b.data).toMatchObject({ namespace: '', description: '', codeDescription: '' });
  });

  it('the same key may exist in another namespace; -1 means no limit; deprecated sets deprecatedAt', async () => {
    const res = await api.post('/api/v1/translation-keys', {
      key: 'plain',
      namespace: 'other',
      charactersLimit: -1,
      deprecated: true,
    });
    expect(res.data).toMatchObject({ key: 'plain', namespace: 'other', charactersLimit: null, deprecated: true });
    expect(res.data.deprecatedAt).toMatch(ISO);
  });

  it.each([
    [
      'rule 1: an existing key and namespace',
      { key: 'welcome', namespace: 'home' },
      409,
      /key 'welcome' in namespace 'home' already exists/,
    ],
    ['rule 2: a null key', { key: null }, 400, /key is required/],
    ['rule 2: a missing key', { namespace: 'x' }, 400, /key is required/],
    ['rule 2: an empty key', { key: '' }, 400, /key is required/],
    [
      'rule 4: a description over 500 characters',
      { key: 'd', description: 'x'.repeat(501) },
      400,
      /description must have at most 500 characters/,
    ],
    [
      'rule 4: a codeDescription over 500 characters',
      { key: 'd', codeDescription: 'x'.repeat(501) },
      400,
      /codeDescription must have at most 500 characters/,
    ],
    ['a key over 500 characters', { key: 'k'.repeat(501) }, 400, /key must have at most 500 characters/],
    [
      'a namespace over 128 characters',
      { key: 'd', namespace: 'n'.repeat(129) },
      400,
      /namespace must have at most 128 characters/,
    ],
    [
      'a charactersLimit of 0',
      { key: 'd', charactersLimit: 0 },
      400,
      /charactersLimit must be a positive integer, or -1/,
    ],
    ['a string charactersLimit', { key: 'd', charactersLimit: '5' }, 400, /charactersLimit/],
    ['tags that are not strings', { key: 'd', tags: [1] }, 400, /tags/],
    ['a non-boolean lock', { key: 'd', lock: 'yes' }, 400, /lock/],
  ])('refuses %s and creates nothing', async (_case, payload, status, msg) => {
    const before = await keyCount();
    const res = await api.post('/api/v1/translation-keys', payload);
    expect(res.status).toBe(status);
    expect(res.msg).toMatch(msg);
    expect(await keyCount()).toBe(before);
  });

  it('accepts the longest allowed values', async () => {
    const res = await api.post('/api/v1/translation-keys', {
      key: 'k'.repeat(500),
      namespace: 'n'.repeat(128),
      description: 'd'.repeat(500),
      codeDescription: 'c'.repeat(500),
    });
    expect(res.status).toBe(200);
    expect(
      (await api.delete(`/api/v1/translation-keys?key=${'k'.repeat(500)}&namespace=${'n'.repeat(128)}`)).status,
    ).toBe(200);
  });
});

describe('GET /api/v1/translation-keys', () => {
  it('answers a page of keys with metadata, in creation order by default', async () => {
    const page = await list();
    expect(page.page).toEqual({ number: 0, size: 100, totalElements: 4, totalPages: 1 });
    expect(page.content.map((k: any) => [k.namespace, k.key])).toEqual([
      ['home', 'welcome'],
      ['', 'plain'],
      ['', 'plain2'],
      ['other', 'plain'],
    ]);
    expect(Object.keys(page.content[0]).sort()).toEqual([...KEY_FIELDS].sort());
  });

  it('filters by exact, case-sensitive key and namespace', async () => {
    expect((await list('?key=plain')).content.map((k: any) => k.namespace)).toEqual(['', 'other']);
    expect((await list('?key=plain&namespace=other')).content).toHaveLength(1);
    expect((await list('?namespace=')).content.map((k: any) => k.key)).toEqual(['plain', 'plain2']);
    expect((await list('?key=Plain')).content).toEqual([]);
    expect((await list('?key=plai')).page.totalElements).toBe(0);
  });

  it('pages from 0 with size', async () => {
    const first = await list('?size=3');
    expect(first.page).toEqual({ number: 0, size: 3, totalElements: 4, totalPages: 2 });
    const second = await list('?size=3&page=1');
    expect(second.content.map((k: any) => k.key)).toEqual(['plain']);
    expect((await list('?size=3&page=5')).content).toEqual([]);
    expect((await list('?size=0')).page).toEqual({ number: 0, size: 0, totalElements: 4, totalPages: 0 });
  });

  it('sorts by last_seen_at, modified_at, created_at and deprecated_at, most recent first', async () => {
    await api.patch('/api/v1/translation-keys?key=plain', {});
    await api.patch('/api/v1/translation-keys?key=plain2', { description: 'changed' });
    const keys = async (sort: string) =>
      (await list(`?sort=${sort}`)).content.map((k: any) => `${k.namespace}/${k.key}`);
    expect((await keys('last_seen_at')).slice(0, 2)).toEqual(['/plain2', '/plain']);
    expect((await keys('modified_at'))[0]).toBe('/plain2');
    expect(await keys('created_at')).toEqual(['other/plain', '/plain2', '/plain', 'home/welcome']);
    expect((await keys('deprecated_at'))[0]).toBe('other/plain');
    expect(await keys('CREATED_AT')).toEqual(await keys('created_at'));
  });

  it.each([
    [
      'an unknown sort',
      '?sort=name',
      /sort must be one of last_seen_at, modified_at, created_at, deprecated_at; got 'name'/,
    ],
    ['a size over 2500', '?size=2501', /size must be at most 2500/],
    ['a negative page', '?page=-1', /page must be at least 0/],
    ['a non-integer size', '?size=ten', /size must be an integer/],
  ])('refuses %s with 400', async (_case, query, msg) => {
    const res = await api.get(`/api/v1/translation-keys${query}`);
    expect(res.status).toBe(400);
    expect(res.msg).toMatch(msg);
  });

  it('accepts a size of 2500', async () => {
    expect((await list('?size=2500')).page.size).toBe(2500);
  });
});

describe('PATCH /api/v1/translation-keys', () => {
  it('renames key and namespace; translations follow', async () => {
    await api.patch('/api/v2/translations', { key: 'welcome', namespace: 'home', language: 'en', text: 'Welcome' });
    const res = await api.patch('/api/v1/translation-keys?key=welcome&namespace=home', {
      key: 'hello',
      namespace: 'start',
      tags: ['start'],
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      key: 'hello',
      namespace: 'start',
      description: 'Greeting',
      tags: ['start'],
      charactersLimit: 20,
    });
    expect((await api.get('/api/v2/translations?key=hello&namespace=start&language=en')).data).toMatchObject([
      { text: 'Welcome' },
    ]);
    expect(await one('welcome', 'home')).toBeUndefined();
  });

  it('rule 6: updates last seen even when nothing else changes, without touching modifiedAt', async () => {
    const before = await one('hello', 'start');
    const res = await api.patch('/api/v1/translation-keys?key=hello&namespace=start', { description: 'Greeting' });
    expect(res.status).toBe(200);
    expect(Date.parse(res.data.lastSeenAt)).toBeGreaterThan(Date.parse(before.lastSeenAt));
    expect(res.data.modifiedAt).toBe(before.modifiedAt);
  });

  it('changes metadata; -1 clears the charactersLimit; deprecated false clears deprecatedAt', async () => {
    const res = await api.patch('/api/v1/translation-keys?key=hello&namespace=start', {
      description: '',
      codeDescription: 'x.ts',
      charactersLimit: -1,
    });
    expect(res.data).toMatchObject({ description: '', codeDescription: 'x.ts', charactersLimit: null });
    const undeprecated = await api.patch('/api/v1/translation-keys?key=plain&namespace=other', { deprecated: false });
    expect(undeprecated.data).toMatchObject({ deprecated: false, deprecatedAt: null });
  });

  it.each([
    ['rule 5: a missing key', '?key=nothing', {}, 404, /key 'nothing' not found/],
    [
      'rule 5: a missing key in another namespace',
      '?key=plain2&namespace=other',
      {},
      404,
      /key 'plain2' in namespace 'other' not found/,
    ],
    ['rule 5: a rename into an existing key', '?key=plain2', { key: 'plain' }, 409, /key 'plain' already exists/],
    [
      'rule 5: a move into an existing key/namespace',
      '?key=plain2',
      { key: 'plain', namespace: 'other' },
      409,
      /key 'plain' in namespace 'other' already exists/,
    ],
    [
      'rule 4: a description over 500 characters',
      '?key=plain2',
      { description: 'x'.repeat(501) },
      400,
      /description must have at most 500/,
    ],
    [
      'rule 4: a codeDescription over 500 characters',
      '?key=plain2',
      { codeDescription: 'x'.repeat(501) },
      400,
      /codeDescription must have at most 500/,
    ],
    ['an empty new key', '?key=plain2', { key: '' }, 400, /key is required/],
    ['no key in the query', '', { description: 'x' }, 400, /key is required/],
  ])('refuses %s and changes nothing', async (_case, query, payload, status, msg) => {
    const before = await list();
    const res = await api.patch(`/api/v1/translation-keys${query}`, payload);
    expect(res.status).toBe(status);
    expect(res.msg).toMatch(msg);
    expect(await list()).toEqual(before);
  });
});

describe('locked keys', () => {
  it('refuse changes to metadata, translations and deletion until unlocked', async () => {
    await api.patch('/api/v2/translations', { key: 'plain', language: 'en', text: 'Plain' });
    expect((await api.patch('/api/v1/translation-keys?key=plain', { lock: true })).data.lock).toBe(true);
    const before = await one('plain');
    const refused = await api.patch('/api/v1/translation-keys?key=plain', { description: 'x' });
    expect(refused.status).toBe(409);
    expect(refused.msg).toMatch(/key 'plain' is locked/);
    expect((await api.patch('/api/v1/translation-keys?key=plain', { key: 'renamed' })).status).toBe(409);
    const translation = await api.patch('/api/v2/translations', { key: 'plain', language: 'en', text: 'Changed' });
    expect(translation.status).toBe(409);
    expect(translation.msg).toMatch(/locked/);
    expect((await api.delete('/api/v1/translation-keys?key=plain')).status).toBe(409);
    expect(
      (await api.delete('/api/v1/translation-keys/bulk', { translationKeys: [{ key: 'plain2' }, { key: 'plain' }] }))
        .status,
    ).toBe(409);
    expect((await api.get('/api/v2/translations?key=plain&namespace=&language=en')).data[0].text).toBe('Plain');
    expect(await keyCount()).toBe(4);
    // Seeing a locked key (nothing changed) is allowed and records it.
    const seen = await api.patch('/api/v1/translation-keys?key=plain', { lock: true, description: before.description });
    expect(seen.status).toBe(200);
    expect(seen.data.modifiedAt).toBe(before.modifiedAt);
  });

  it('can be unlocked, with other changes in the same request', async () => {
    const res = await api.patch('/api/v1/translation-keys?key=plain', { lock: false, description: 'unlocked' });
    expect(res.data).toMatchObject({ lock: false, description: 'unlocked' });
    expect((await api.patch('/api/v2/translations', { key: 'plain', language: 'en', text: 'Changed' })).status).toBe(
      200,
    );
  });
});

describe('DELETE /api/v1/translation-keys', () => {
  it('deletes a key with its translations; counters follow', async () => {
    await api.post('/api/v1/languages', { key: 'de' });
    await api.patch('/api/v2/translations', { key: 'plain', language: 'de', text: 'Schlicht' });
    expect(await api.counters()).toMatchObject({
      keys: 4,
      translatedKeysByLanguage: { en: 2, de: 1 },
      translatedPercentage: 0.375,
    });
    expect(await api.delete('/api/v1/translation-keys?key=plain')).toEqual({ status: 200, msg: 'OK' });
    expect(await one('plain')).toBeUndefined();
    expect(await service.db.prisma.translation.count({ where: { text: 'Schlicht' } })).toBe(0);
    expect(await api.counters()).toMatchObject({
      keys: 3,
      translatedKeysByLanguage: { en: 1 },
      translatedPercentage: 0.1667,
    });
  });

  it.each([
    ['a missing key', '?key=plain', 404, /key 'plain' not found/],
    ['no key', '', 400, /key is required/],
    ['a key over 500 characters', `?key=${'k'.repeat(501)}`, 400, /key must have at most 500/],
    [
      'a namespace over 128 characters',
      `?key=plain2&namespace=${'n'.repeat(129)}`,
      400,
      /namespace must have at most 128/,
    ],
  ])('refuses %s', async (_case, query, status, msg) => {
    const res = await api.delete(`/api/v1/translation-keys${query}`);
    expect(res.status).toBe(status);
    expect(res.msg).toMatch(msg);
  });
});

describe('DELETE /api/v1/translation-keys/bulk', () => {
  it('refuses a list with a missing key and deletes nothing', async () => {
    const res = await api.delete('/api/v1/translation-keys/bulk', {
      translationKeys: [{ key: 'plain2' }, { key: 'ghost', namespace: 'x' }],
    });
    expect(res.status).toBe(404);
    expect(res.msg).toMatch(/key 'ghost' in namespace 'x' not found; nothing was deleted/);
    expect(await keyCount()).toBe(3);
  });

  it.each([
    ['no list', {}, /translationKeys must be an array/],
    ['an item that is not an object', { translationKeys: ['plain2'] }, /translationKeys\[0\] must be an object/],
    ['an item without key', { translationKeys: [{ namespace: 'x' }] }, /translationKeys\[0\]\.key is required/],
  ])('refuses %s with 400', async (_case, payload, msg) => {
    const res = await api.delete('/api/v1/translation-keys/bulk', payload);
    expect(res.status).toBe(400);
    expect(res.msg).toMatch(msg);
  });

  it('deletes every listed key with its translations', async () => {
    const res = await api.delete('/api/v1/translation-keys/bulk', {
      translationKeys: [
        { key: 'plain2', namespace: '' },
        { key: 'plain', namespace: 'other' },
        { key: 'hello', namespace: 'start' },
      ],
    });
    expect(res).toEqual({ status: 200, msg: 'OK' });
    expect(await keyCount()).toBe(0);
    expect(await service.db.prisma.translation.count()).toBe(0);
    expect(await api.counters()).toMatchObject({ keys: 0, translatedPercentage: 0, translatedKeysByLanguage: {} });
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { importOk } from '../support/transfer.js';
import { nameUnnamedLanguages } from '../../src/content/language-name.js';
import { projectLanguages as languageRows } from '../../src/content/languages.js';
import { prisma } from '../../src/db.js';
import { observeSql } from '../../src/db/client.js';

let service: TestService;
let account: TestAccount;
let api: ProjectApi;

beforeAll(async () => {
  service = await startTestService();
  account = await service.account();
  api = await projectApi(service, account, 'Languages');
});
afterAll(() => service.close());

const projectLanguages = async () => {
  const { data } = await api.gql('{ project { languages { key name isDefault order } } }');
  return data.project.languages;
};

describe('POST /api/v1/languages', () => {
  it('creates a language after the existing ones and answers {key, name}', async () => {
    const res = await api.post('/api/v1/languages', { key: 'de', name: 'German' });
    expect(res).toEqual({ status: 200, msg: 'OK', data: { key: 'de', name: 'German' } });
    const noName = await api.post('/api/v1/languages', { key: 'fr' });
    expect(noName.data).toEqual({ key: 'fr', name: 'French' });
    expect(await projectLanguages()).toEqual([
      { key: 'en', name: 'English', isDefault: true, order: 0 },
      { key: 'de', name: 'German', isDefault: false, order: 1 },
      { key: 'fr', name: 'French', isDefault: false, order: 2 },
    ]);
  });

  it.each([
    ['a missing key', { name: 'x' }, 400, /key is required/],
    ['an empty key', { key: '' }, 400, /key is required/],
    ['a key over 20 characters', { key: 'x'.repeat(21) }, 400, /key must have at most 20 characters/],
    ['a key with whitespace', { key: 'en US' }, 400, /key must not contain whitespace/],
    ['a key with a slash', { key: 'en/US' }, 400, /key must not contain/],
    ['a name over 200 characters', { key: 'it', name: 'x'.repeat(201) }, 400, /name must have at most 200 characters/],
    ['a non-string key', { key: 42 }, 400, /key/],
    ['an existing key', { key: 'de' }, 409, /language 'de' already exists/],
  ])('refuses %s', async (_case, payload, status, msg) => {
    const before = await projectLanguages();
    const res = await api.post('/api/v1/languages', payload);
    expect(res.status).toBe(status);
    expect(res.msg).toMatch(msg);
    expect(await projectLanguages()).toEqual(before);
  });

  it('accepts exactly 20 and 200 characters', async () => {
    const res = await api.post('/api/v1/languages', { key: 'k'.repeat(20), name: 'n'.repeat(200) });
    expect(res.status).toBe(200);
    expect((await api.delete(`/api/v1/languages/${'k'.repeat(20)}`)).status).toBe(200);
  });
});

describe('a language created without a name gets its English (CLDR) name', () => {
  let named: ProjectApi;
  beforeAll(async () => {
    named = await projectApi(service, account, 'Names');
  });
  const names = async () =>
    Object.fromEntries(
      (await named.gql('{ project { languages { key name } } }')).data.project.languages.map(
        (l: { key: string; name: string }) => [l.key, l.name],
      ),
    );

  it('through REST, from its key; a blank name counts as none, a given name is kept', async () => {
    expect((await named.post('/api/v1/languages', { key: 'pt-BR' })).data).toEqual({
      key: 'pt-BR',
      name: 'Brazilian Portuguese',
    });
    expect((await named.post('/api/v1/languages', { key: 'zh-Hant', name: '  ' })).data).toEqual({
      key: 'zh-Hant',
      name: 'Traditional Chinese',
    });
    expect((await named.post('/api/v1/languages', { key: 'en_US' })).data).toEqual({
      key: 'en_US',
      name: 'American English',
    });
    expect((await named.post('/api/v1/languages', { key: 'de-CH', name: 'Schwiizerdütsch' })).data).toEqual({
      key: 'de-CH',
      name: 'Schwiizerdütsch',
    });
  });

  it('a key CLDR does not know is named by itself', async () => {
    expect((await named.post('/api/v1/languages', { key: 'my-lang' })).data).toEqual({
      key: 'my-lang',
      name: 'my-lang',
    });
    expect((await named.post('/api/v1/languages', { key: 'fr-XX' })).data).toEqual({ key: 'fr-XX', name: 'fr-XX' });
  });

  it('through GraphQL', async () => {
    const { data } = await named.gql('mutation { createLanguage(input: { key: "sr-Latn" }) { key name } }');
    expect(data.createLanguage).toEqual({ key: 'sr-Latn', name: 'Serbian (Latin)' });
  });

  it('created by a file import or by POST /api/v1/translations', async () => {
    await importOk(service, named.apiKey, JSON.stringify({ es: { hello: 'Hola' }, 'es-419': { hello: 'Hola' } }), {
      uploadFormat: 'multi-language-json',
    });
    expect(
      (await named.post('/api/v1/translations', { content: [{ key: 'hello', language: 'ja', text: 'こんにちは' }] }))
        .status,
    ).toBe(200);
    expect(await names()).toMatchObject({ es: 'Spanish', 'es-419': 'Latin American Spanish', ja: 'Japanese' });
  });

  it('languages left without a name before are named on start', async () => {
    expect((await named.patch('/api/v1/languages/ja', { name: '' })).status).toBe(200);
    expect((await named.patch('/api/v1/languages/my-lang', { name: '' })).status).toBe(200);
    expect(await names()).toMatchObject({ ja: '', 'my-lang': '' });
    expect(await nameUnnamedLanguages()).toBe(2);
    expect(await names()).toMatchObject({ ja: 'Japanese', 'my-lang': 'my-lang' });
    expect(await nameUnnamedLanguages()).toBe(0);
  });
});

describe('GET /api/v1/languages', () => {
  it('lists the languages in order with key and description', async () => {
    const res = await api.get('/api/v1/languages');
    expect(res.status).toBe(200);
    expect(res.data).toEqual([
      { key: 'en', description: 'English' },
      { key: 'de', description: 'German' },
      { key: 'fr', description: 'French' },
    ]);
  });

  it('reads the rows the ORM reads, in the same order and with the same types', async () => {
    const rows = await projectApi(service, account, 'Rows');
    expect((await rows.post('/api/v1/languages', { key: 'de' })).status).toBe(200);
    const { id: projectId } = await prisma().project.findUniqueOrThrow({ where: { projectToken: rows.projectToken } });
    const orm = await prisma().language.findMany({ where: { projectId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
    // Both kinds of createdByChange (a bigint, and null for the project's first language) are compared.
    expect(orm.map((l) => typeof l.createdByChange)).toEqual(expect.arrayContaining(['bigint', 'object']));
    expect(await languageRows(projectId)).toEqual(orm);
  });

  it("costs one statement, read through the driver adapter, not the ORM client's $queryRaw", async () => {
    // The credential is cached after the first request (src/auth/credential-cache.ts).
    expect((await api.get('/api/v1/languages')).status).toBe(200);
    const client = vi.spyOn(prisma(), '$queryRaw');
    const statements: string[] = [];
    try {
      const res = await observeSql(
        (sql) => statements.push(sql),
        () => api.get('/api/v1/languages'),
      );
      expect(res.status).toBe(200);
      // The service's background work (findings rounds, job polls) shares the client, and a findings lease
      // joins "Language" too (CI, 2026-12-02): only a statement named for the languages would be this request's.
      const reads = client.mock.calls.map(([query]) => (query as { text?: string }).text ?? '');
      expect(reads.filter((sql) => /^\s*\/\* languages:/.test(sql))).toEqual([]);
    } finally {
      client.mockRestore();
    }
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^\/\* languages:of-project \*\//);
  });

  it("a project's languages (GET /api/v2/project, the project list) in one named statement for every project", async () => {
    const mine = await projectApi(service, account, 'Languages one');
    expect((await mine.post('/api/v1/languages', { key: 'de' })).status).toBe(200);
    const other = await projectApi(service, account, 'Languages too');
    expect((await other.post('/api/v1/languages', { key: 'it' })).status).toBe(200);
    const languageReads = async (request: () => Promise<unknown>) => {
      const statements: string[] = [];
      await observeSql((sql) => statements.push(sql), request);
      // The ORM's read of the relation, or a named statement of the languages (the figures' statement joins them too).
      return statements.filter((sql) => sql.startsWith('/* languages:') || sql.includes('FROM "public"."Language"'));
    };
    let own: any;
    const single = await languageReads(async () => {
      own = await mine.get('/api/v2/project');
    });
    expect(own.data.languages.map((l: { key: string }) => l.key)).toEqual(['en', 'de']);
    expect(single).toHaveLength(1);
    expect(single[0]).toMatch(/^\/\* languages:of-projects \*\//);
    let listed: any;
    const list = await languageReads(async () => {
      listed = (await service.request({ url: '/api/v2/projects', headers: { authorization: account.token } })).json();
    });
    const byToken = new Map(listed.data.map((p: any) => [p.projectToken, p.languages.map((l: any) => l.key)]));
    expect(byToken.get(mine.projectToken)).toEqual(['en', 'de']);
    expect(byToken.get(other.projectToken)).toEqual(['en', 'it']);
    expect(list).toHaveLength(1);
  });

  it('needs the project API key', async () => {
    const res = await service.request({ url: '/api/v1/languages' });
    expect(res.statusCode).toBe(403);
    const wrong = await service.request({ url: '/api/v1/languages', headers: { 'x-service-token': 'lms_key_wrong' } });
    expect(wrong.statusCode).toBe(403);
    const personal = await service.request({ url: '/api/v1/languages', headers: { authorization: account.token } });
    expect(personal.statusCode).toBe(403);
  });

  it("never shows or changes another project's languages", async () => {
    const other = await projectApi(service, await service.account(), 'Other');
    expect((await other.get('/api/v1/languages')).data).toEqual([{ key: 'en', description: 'English' }]);
    expect((await other.patch('/api/v1/languages/de', { name: 'x' })).status).toBe(404);
    expect((await other.delete('/api/v1/languages/fr')).status).toBe(404);
    expect((await api.get('/api/v1/languages')).data).toHaveLength(3);
  });
});

describe('PATCH /api/v1/languages/{languageKey}', () => {
  it('renames a language; its translations follow it', async () => {
    await api.post('/api/v1/translation-keys', { key: 'hello' });
    expect((await api.patch('/api/v2/translations', { key: 'hello', language: 'fr', text: 'Bonjour' })).status).toBe(
      200,
    );
    const res = await api.patch('/api/v1/languages/fr', { key: 'fr-FR', name: 'French' });
    expect(res).toEqual({ status: 200, msg: 'OK', data: { key: 'fr-FR', name: 'French' } });
    const cells = await api.get('/api/v2/translations?key=hello&language=fr-FR');
    expect(cells.data).toMatchObject([{ key: 'hello', language: 'fr-FR', text: 'Bonjour' }]);
    expect((await api.get('/api/v2/translations?language=fr')).data).toEqual([]);
    expect((await api.counters()).translatedKeysByLanguage).toEqual({ 'fr-FR': 1 });
  });

  it('changes only the name when only the name is given', async () => {
    const res = await api.patch('/api/v1/languages/de', { name: 'Deutsch' });
    expect(res.data).toEqual({ key: 'de', name: 'Deutsch' });
  });

  it('makes a language the default one', async () => {
    expect((await api.patch('/api/v1/languages/de', { isDefault: true })).status).toBe(200);
    expect((await projectLanguages()).filter((l: any) => l.isDefault).map((l: any) => l.key)).toEqual(['de']);
    const refused = await api.patch('/api/v1/languages/de', { isDefault: false });
    expect(refused.status).toBe(400);
    expect(refused.msg).toMatch(/isDefault/);
    await api.patch('/api/v1/languages/en', { isDefault: true });
  });

  it.each([
    ['a rename to an existing key', 'de', { key: 'en' }, 409, /language 'en' already exists/],
    ['a missing language', 'xx', { name: 'x' }, 404, /language 'xx' not found/],
    ['a too long key', 'de', { key: 'x'.repeat(21) }, 400, /key must have at most 20/],
    ['an empty key', 'de', { key: '' }, 400, /key is required/],
    ['a too long name', 'de', { name: 'x'.repeat(201) }, 400, /name must have at most 200/],
  ])('refuses %s', async (_case, language, payload, status, msg) => {
    const before = await projectLanguages();
    const res = await api.patch(`/api/v1/languages/${language}`, payload);
    expect(res.status).toBe(status);
    expect(res.msg).toMatch(msg);
    expect(await projectLanguages()).toEqual(before);
  });
});

describe('DELETE /api/v1/languages/{languageKey}', () => {
  it('deletes the language and every translation in it; counters follow', async () => {
    await api.patch('/api/v2/translations', { key: 'hello', language: 'en', text: 'Hello' });
    expect(await api.counters()).toMatchObject({
      keys: 1,
      translatedKeysByLanguage: { en: 1, 'fr-FR': 1 },
      translatedPercentage: 0.6667,
    });
    const res = await api.delete('/api/v1/languages/fr-FR');
    expect(res).toEqual({ status: 200, msg: 'OK' });
    expect((await api.get('/api/v1/languages')).data.map((l: any) => l.key)).toEqual(['en', 'de']);
    const rows = await service.db.prisma.translation.count({ where: { language: { key: 'fr-FR' } } });
    expect(rows).toBe(0);
    expect(await api.counters()).toMatchObject({
      keys: 1,
      translatedKeysByLanguage: { en: 1 },
      translatedPercentage: 0.5,
    });
  });

  it('answers 404 for a missing language', async () => {
    const res = await api.delete('/api/v1/languages/zz');
    expect(res.status).toBe(404);
    expect(res.msg).toMatch(/language 'zz' not found/);
  });

  it('makes the first remaining language the default when the default is deleted', async () => {
    expect((await api.delete('/api/v1/languages/en')).status).toBe(200);
    expect(await projectLanguages()).toEqual([{ key: 'de', name: 'Deutsch', isDefault: true, order: 1 }]);
  });

  it("refuses to delete the project's last language", async () => {
    const res = await api.delete('/api/v1/languages/de');
    expect(res.status).toBe(409);
    expect(res.msg).toMatch(/at least one language/);
    expect((await api.get('/api/v1/languages')).data).toEqual([{ key: 'de', description: 'Deutsch' }]);
  });
});

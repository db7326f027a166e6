import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, startTestService, type TestAccount, type TestService } from '../support/service.js';

let service: TestService;
let owner: TestAccount;

beforeAll(async () => {
  service = await startTestService();
  owner = await service.account();
});
afterAll(() => service.close());

const PROJECT_FIELDS = [
  'name',
  'languages',
  'customers',
  'projectToken',
  'apiKey',
  'keys',
  'unpublishedChanges',
  'translatedPercentage',
  'translatedKeysByLanguage',
];

describe('POST /api/v2/projects', () => {
  it('creates a project with the fields and values of the contract', async () => {
    const res = await service.request({
      method: 'POST',
      url: '/api/v2/projects',
      headers: { authorization: owner.token },
      payload: { name: 'Mobile app' },
    });
    expect(res.statusCode).toBe(200);
    const body = envelope(res);
    expect(body.msg).toBe('OK');
    expect(body.status).toBe(200);
    const p = body.data;
    expect(Object.keys(p).sort()).toEqual([...PROJECT_FIELDS].sort());
    expect(p.name).toBe('Mobile app');
    expect(p.languages).toEqual([{ key: 'en', name: 'English', isDefault: true, order: 0 }]);
    expect(p.customers).toEqual([]);
    expect(p.keys).toBe(0);
    expect(p.unpublishedChanges).toBe(0);
    expect(p.translatedPercentage).toBe(0);
    expect(p.translatedKeysByLanguage).toEqual({});
    expect(p.projectToken).toMatch(/^[0-9a-f]{32}$/);
    expect(p.apiKey).toMatch(/^lms_key_/);
  });

  it.each([
    ['missing name', {}],
    ['empty name', { name: '' }],
    ['blank name', { name: '   ' }],
    ['non-string name', { name: 42 }],
    ['too long name', { name: 'x'.repeat(201) }],
  ])('refuses a %s with 400', async (_case, payload) => {
    const res = await service.request({
      method: 'POST',
      url: '/api/v2/projects',
      headers: { authorization: owner.token },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(envelope(res).msg).toMatch(/name/);
  });

  it('refuses a body that is not a JSON object', async () => {
    const res = await service.request({
      method: 'POST',
      url: '/api/v2/projects',
      headers: { authorization: owner.token, 'content-type': 'application/json' },
      payload: '["a"]',
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /api/v2/projects sorting', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await service.account();
    for (const name of ['beta', 'Alpha', 'gamma']) await account.project(name);
    // "gamma" gets a second language and a key with one translation, "beta" two members.
    const [gamma, beta] = await service.db.prisma.project.findMany({
      where: { name: { in: ['gamma', 'beta'] } },
      orderBy: { name: 'desc' },
    });
    await service.db.prisma.language.create({ data: { projectId: gamma!.id, key: 'de', name: 'German', order: 1 } });
    const key = await service.db.prisma.translationKey.create({ data: { projectId: gamma!.id, key: 'hello' } });
    const en = await service.db.prisma.language.findFirstOrThrow({ where: { projectId: gamma!.id, key: 'en' } });
    await service.db.prisma.translation.create({
      data: { keyId: key.id, languageId: en.id, projectId: gamma!.id, text: 'Hello' },
    });
    const other = await service.account();
    await service.db.prisma.projectMember.create({
      data: { projectId: beta!.id, accountId: other.id, role: 'TRANSLATOR' },
    });
  });

  const names = async (sort?: string) => {
    const res = await service.request({
      url: `/api/v2/projects${sort ? `?sort=${sort}` : ''}`,
      headers: { authorization: account.token },
    });
    expect(res.statusCode).toBe(200);
    return envelope(res).data.map((p: any) => p.name);
  };

  it('defaults to alphabetical, ignoring case', async () => {
    expect(await names()).toEqual(['Alpha', 'beta', 'gamma']);
    expect(await names('alphabetical')).toEqual(['Alpha', 'beta', 'gamma']);
  });
  it('sorts by each criterion', async () => {
    expect((await names('translation_progress'))[0]).toBe('gamma');
    expect((await names('number_of_keys'))[0]).toBe('gamma');
    expect((await names('number_of_languages'))[0]).toBe('gamma');
    expect((await names('number_of_members'))[0]).toBe('beta');
    expect((await names('last_edited'))[0]).toBe('gamma');
    expect((await names('last_activity'))[0]).toBe('gamma');
    expect(await names('created')).toEqual(['gamma', 'Alpha', 'beta']);
  });
  it('refuses an unknown sort with 400 naming the values', async () => {
    const res = await service.request({ url: '/api/v2/projects?sort=size', headers: { authorization: account.token } });
    expect(res.statusCode).toBe(400);
    expect(envelope(res).msg).toMatch(/sort must be one of alphabetical, translation_progress/);
  });
  it('computes the counters', async () => {
    const list = envelope(
      await service.request({ url: '/api/v2/projects', headers: { authorization: account.token } }),
    ).data;
    const gamma = list.find((p: any) => p.name === 'gamma');
    expect(gamma.keys).toBe(1);
    expect(gamma.translatedPercentage).toBe(0.5);
    expect(gamma.translatedKeysByLanguage).toEqual({ en: 1 });
    expect(gamma.unpublishedChanges).toBe(1);
    expect(gamma.languages.map((l: any) => l.key)).toEqual(['en', 'de']);
  });
});

describe('GraphQL projects', () => {
  it('creates and reads projects with languages, customers and counts', async () => {
    const gql = (query: string, variables?: object) =>
      service
        .request({
          method: 'POST',
          url: '/graphql',
          headers: { authorization: owner.token, 'content-type': 'application/json' },
          payload: { query, variables },
        })
        .then((r) => r.json());
    const created = await gql('mutation($n: String!) { createProject(name: $n) { projectToken name keys } }', {
      n: 'From GraphQL',
    });
    expect(created.data.createProject).toMatchObject({ name: 'From GraphQL', keys: 0 });
    const one = await gql(
      'query($t: String) { project(projectToken: $t) { name languages { key isDefault } customers { key } unpublishedChanges translatedPercentage translatedKeysByLanguage } }',
      { t: created.data.createProject.projectToken },
    );
    expect(one.data.project).toEqual({
      name: 'From GraphQL',
      languages: [{ key: 'en', isDefault: true }],
      customers: [],
      unpublishedChanges: 0,
      translatedPercentage: 0,
      translatedKeysByLanguage: {},
    });
    const sorted = await gql('{ projects(sort: CREATED) { name } }');
    expect(sorted.data.projects[0].name).toBe('From GraphQL');
    const empty = await gql('mutation { createProject(name: "") { name } }');
    expect(empty.errors[0].extensions.code).toBe('BAD_REQUEST');
  });
});

describe('v1 and v2 answer the same project data', () => {
  it('lists identical projects through both versions', async () => {
    const v1 = envelope(
      await service.request({ url: '/api/v1/projects', headers: { authorization: owner.basic } }),
    ).data;
    const v2 = envelope(
      await service.request({ url: '/api/v2/projects', headers: { authorization: owner.token } }),
    ).data;
    expect(v1).toEqual(v2);
  });
});

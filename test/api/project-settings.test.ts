// Project settings over GraphQL and REST: renaming, replacing the API key (the
// old one refused at once, the new one working, the change in the activity
// log), ordering languages and the count a language's deletion takes, deleting
// the project; each refused to the roles and credentials that may not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/db.js';
import { startTestService, envelope, type TestAccount, type TestService } from '../support/service.js';

let service: TestService;
let owner: TestAccount;
let stranger: TestAccount;
const members: Record<'ADMIN' | 'TRANSLATOR' | 'VIEWER', TestAccount> = {} as never;
let project: { projectToken: string; apiKey: string };

const gql = async (headers: Record<string, string>, query: string, variables: object = {}) =>
  (
    await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ query, variables }),
    })
  ).json();
const code = (body: { errors?: { extensions?: { code?: string } }[] }) => body.errors?.[0]?.extensions?.code;
const asKey = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  service.request({
    method,
    url,
    headers: { 'x-service-token': key, ...(payload && { 'content-type': 'application/json' }) },
    payload: payload && JSON.stringify(payload),
  });

beforeAll(async () => {
  service = await startTestService();
  owner = await service.account();
  stranger = await service.account();
  project = await owner.project('Settings app');
  const { id: projectId } = await prisma().project.findUniqueOrThrow({ where: { projectToken: project.projectToken } });
  for (const role of ['ADMIN', 'TRANSLATOR', 'VIEWER'] as const) {
    members[role] = await service.account();
    await prisma().projectMember.create({ data: { projectId, accountId: members[role].id, role } });
  }
  for (const [key, name] of [
    ['de', 'German'],
    ['fr', 'French'],
  ]) {
    expect((await asKey(project.apiKey, 'POST', '/api/v1/languages', { key, name })).statusCode).toBe(200);
  }
  const content = [
    ['a', 'A'],
    ['b', 'B'],
    ['c', ''],
  ].flatMap(([key, text]) => [
    { key: key!, language: 'de', text: text! },
    { key: key!, language: 'en', text: 'x' },
  ]);
  expect((await asKey(project.apiKey, 'POST', '/api/v1/translations', { content })).statusCode).toBe(200);
});
afterAll(() => service.close());

describe('renaming a project', () => {
  it('renames over GraphQL and REST (PATCH /api/v2/projects/{projectToken}), recorded in the activity log', async () => {
    const renamed = await gql(
      { authorization: owner.token },
      'mutation($p: String!) { renameProject(projectToken: $p, name: " Renamed ") { name } }',
      { p: project.projectToken },
    );
    expect(renamed.data.renameProject.name).toBe('Renamed');
    const res = await service.request({
      method: 'PATCH',
      url: `/api/v2/projects/${project.projectToken}`,
      headers: { authorization: members.ADMIN.token, 'content-type': 'application/json' },
      payload: { name: 'By REST' },
    });
    expect(envelope(res).data).toMatchObject({ name: 'By REST', projectToken: project.projectToken });
    const log = await gql(
      { authorization: owner.token },
      'query($p: String!) { activity(projectToken: $p, filter: { kinds: [SETTINGS] }) { entries { details } } }',
      { p: project.projectToken },
    );
    expect(log.data.activity.entries.map((e: { details: object }) => e.details)).toEqual([
      { action: 'RENAME_PROJECT', from: 'Renamed', to: 'By REST' },
      { action: 'RENAME_PROJECT', from: 'Settings app', to: 'Renamed' },
    ]);
  });

  it('refuses an empty name, translators, viewers and other accounts, changing nothing', async () => {
    const empty = await service.request({
      method: 'PATCH',
      url: `/api/v2/projects/${project.projectToken}`,
      headers: { authorization: owner.token, 'content-type': 'application/json' },
      payload: { name: ' ' },
    });
    expect(empty.statusCode).toBe(400);
    for (const [who, status] of [
      [members.TRANSLATOR, 403],
      [members.VIEWER, 403],
      [stranger, 404],
    ] as const) {
      const res = await service.request({
        method: 'PATCH',
        url: `/api/v2/projects/${project.projectToken}`,
        headers: { authorization: who.token, 'content-type': 'application/json' },
        payload: { name: 'Hijacked' },
      });
      expect(res.statusCode).toBe(status);
    }
    // The contract's scheme: a project API key is not a personal token on this route.
    expect(
      (
        await service.request({
          method: 'PATCH',
          url: `/api/v2/projects/${project.projectToken}`,
          headers: { 'x-service-token': project.apiKey, 'content-type': 'application/json' },
          payload: { name: 'Hijacked' },
        })
      ).statusCode,
    ).toBe(403);
    expect((await prisma().project.findUniqueOrThrow({ where: { projectToken: project.projectToken } })).name).toBe(
      'By REST',
    );
  });
});

describe('replacing the API key', () => {
  it('answers the new key once; the old key is refused at once, the new one works; the log says so without the keys', async () => {
    const old = project.apiKey;
    expect((await asKey(old, 'GET', '/api/v2/project')).statusCode).toBe(200); // cached now
    const rotated = await gql(
      { authorization: owner.token },
      'mutation($p: String!) { rotateProjectApiKey(projectToken: $p) { apiKey } }',
      { p: project.projectToken },
    );
    const fresh = rotated.data.rotateProjectApiKey.apiKey as string;
    expect(fresh).toMatch(/^lms_key_/);
    expect(fresh).not.toBe(old);
    expect((await asKey(old, 'GET', '/api/v2/project')).statusCode).toBe(403);
    expect((await asKey(fresh, 'GET', '/api/v2/project')).statusCode).toBe(200);
    // Over REST, by an administrator.
    const res = await service.request({
      method: 'POST',
      url: `/api/v2/projects/${project.projectToken}/api-key/rotate`,
      headers: { authorization: members.ADMIN.token },
    });
    const third = envelope(res).data.apiKey as string;
    expect((await asKey(fresh, 'GET', '/api/v1/languages')).statusCode).toBe(403);
    expect((await asKey(third, 'GET', '/api/v1/languages')).statusCode).toBe(200);
    project.apiKey = third;
    const log = await gql(
      { authorization: owner.token },
      'query($p: String!) { activity(projectToken: $p, filter: { kinds: [SETTINGS] }, size: 2) { entries { details accountName } } }',
      { p: project.projectToken },
    );
    expect(log.data.activity.entries).toEqual([
      { details: { action: 'ROTATE_API_KEY' }, accountName: members.ADMIN.email },
      { details: { action: 'ROTATE_API_KEY' }, accountName: owner.email },
    ]);
    expect(JSON.stringify(log)).not.toContain(old);
  });

  it('is refused to translators, viewers, other accounts and the API key itself, and the key stays', async () => {
    const mutation = 'mutation($p: String!) { rotateProjectApiKey(projectToken: $p) { apiKey } }';
    expect(code(await gql({ authorization: members.TRANSLATOR.token }, mutation, { p: project.projectToken }))).toBe(
      'FORBIDDEN',
    );
    expect(code(await gql({ authorization: members.VIEWER.token }, mutation, { p: project.projectToken }))).toBe(
      'FORBIDDEN',
    );
    expect(code(await gql({ authorization: stranger.token }, mutation, { p: project.projectToken }))).toBe('NOT_FOUND');
    expect(code(await gql({ 'x-service-token': project.apiKey }, mutation, { p: project.projectToken }))).toBe(
      'FORBIDDEN',
    );
    expect(
      (
        await service.request({
          method: 'POST',
          url: `/api/v2/projects/${project.projectToken}/api-key/rotate`,
          headers: { authorization: members.VIEWER.token },
        })
      ).statusCode,
    ).toBe(403);
    expect((await asKey(project.apiKey, 'GET', '/api/v2/project')).statusCode).toBe(200);
  });
});

describe('languages', () => {
  const LANGS =
    'query($p: String!) { project(projectToken: $p) { languages { key order translationCount isDefault } } }';

  it('counts the non-empty texts a deletion takes', async () => {
    const { data } = await gql({ authorization: owner.token }, LANGS, { p: project.projectToken });
    expect(data.project.languages).toEqual([
      { key: 'en', order: 0, translationCount: 3, isDefault: true },
      { key: 'de', order: 1, translationCount: 2, isDefault: false },
      { key: 'fr', order: 2, translationCount: 0, isDefault: false },
    ]);
  });

  it('reorders (the keys listed first), and REST lists follow the order; bad lists and viewers are refused', async () => {
    const reorder = 'mutation($p: String!, $k: [String!]!) { setLanguageOrder(projectToken: $p, keys: $k) { key } }';
    const done = await gql({ authorization: owner.token }, reorder, { p: project.projectToken, k: ['fr', 'en', 'de'] });
    expect(done.data.setLanguageOrder.map((l: { key: string }) => l.key)).toEqual(['fr', 'en', 'de']);
    expect(
      envelope(await asKey(project.apiKey, 'GET', '/api/v1/languages')).data.map((l: { key: string }) => l.key),
    ).toEqual(['fr', 'en', 'de']);
    // The languages not listed follow in their order.
    expect(
      (
        await gql({ authorization: owner.token }, reorder, { p: project.projectToken, k: ['de'] })
      ).data.setLanguageOrder.map((l: { key: string }) => l.key),
    ).toEqual(['de', 'fr', 'en']);
    expect(
      (
        await gql({ authorization: owner.token }, reorder, { p: project.projectToken, k: ['fr', 'en'] })
      ).data.setLanguageOrder.map((l: { key: string }) => l.key),
    ).toEqual(['fr', 'en', 'de']);
    expect(
      code(
        await gql({ authorization: owner.token }, reorder, { p: project.projectToken, k: ['fr', 'en', 'de', 'de'] }),
      ),
    ).toBe('BAD_REQUEST');
    expect(code(await gql({ authorization: owner.token }, reorder, { p: project.projectToken, k: ['xx'] }))).toBe(
      'NOT_FOUND',
    );
    expect(
      code(
        await gql({ authorization: members.VIEWER.token }, reorder, { p: project.projectToken, k: ['en', 'de', 'fr'] }),
      ),
    ).toBe('FORBIDDEN');
    expect(
      code(
        await gql({ authorization: members.TRANSLATOR.token }, reorder, {
          p: project.projectToken,
          k: ['en', 'de', 'fr'],
        }),
      ),
    ).toBe('FORBIDDEN');
    // A new language goes after the others.
    await asKey(project.apiKey, 'POST', '/api/v1/languages', { key: 'it', name: 'Italian' });
    expect(
      envelope(await asKey(project.apiKey, 'GET', '/api/v1/languages')).data.map((l: { key: string }) => l.key),
    ).toEqual(['fr', 'en', 'de', 'it']);
  });
});

describe('deleting a project', () => {
  it('DELETE /api/v2/projects/{projectToken}: refused to an administrator, done by the owner; the key ends with it', async () => {
    const doomed = await owner.project('Doomed');
    const { id } = await prisma().project.findUniqueOrThrow({ where: { projectToken: doomed.projectToken } });
    await prisma().projectMember.create({ data: { projectId: id, accountId: members.ADMIN.id, role: 'ADMIN' } });
    expect(
      (
        await service.request({
          method: 'DELETE',
          url: `/api/v2/projects/${doomed.projectToken}`,
          headers: { authorization: members.ADMIN.token },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await service.request({
          method: 'DELETE',
          url: `/api/v2/projects/${doomed.projectToken}`,
          headers: { authorization: stranger.token },
        })
      ).statusCode,
    ).toBe(404);
    expect((await asKey(doomed.apiKey, 'GET', '/api/v2/project')).statusCode).toBe(200);
    const res = await service.request({
      method: 'DELETE',
      url: `/api/v2/projects/${doomed.projectToken}`,
      headers: { authorization: owner.token },
    });
    expect(envelope(res)).toEqual({ msg: 'OK', status: 200 });
    expect((await asKey(doomed.apiKey, 'GET', '/api/v2/project')).statusCode).toBe(403);
    expect(await prisma().project.count({ where: { id } })).toBe(0);
  });
});

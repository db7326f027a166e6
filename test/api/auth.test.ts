// The three auth schemes of the contract: right, wrong, missing and someone
// else's credential, on every route that exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROUTES } from '../../rest-compat/index.js';
import { envelope, startTestService, type TestAccount, type TestService } from '../support/service.js';

let service: TestService;
let alice: TestAccount;
let bob: TestAccount;
let aliceProject: { projectToken: string; apiKey: string };
let bobProject: { projectToken: string; apiKey: string };

beforeAll(async () => {
  service = await startTestService();
  alice = await service.account();
  bob = await service.account();
  aliceProject = await alice.project('Alice app');
  bobProject = await bob.project('Bob app');
});
afterAll(() => service.close());

const gql = (headers: Record<string, string>, query: string, variables?: object) =>
  service.request({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', ...headers },
    payload: { query, variables },
  });

describe('personal token (Authorization: <token>) on /api/v2/projects', () => {
  it('lists only the own projects', async () => {
    const res = await service.request({ url: '/api/v2/projects', headers: { authorization: alice.token } });
    expect(res.statusCode).toBe(200);
    expect(envelope(res).data.map((p: any) => p.name)).toEqual(['Alice app']);
  });
  it.each([
    ['missing', {}],
    ['wrong', { authorization: 'lms_pat_not-a-real-token' }],
    ['basic instead of token', { authorization: 'Basic ' + Buffer.from('x:y').toString('base64') }],
    ['an API key', { 'x-service-token': 'whatever' }],
  ])('refuses a %s credential with 403', async (_name, headers) => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await service.request({
        method,
        url: '/api/v2/projects',
        headers: headers as Record<string, string>,
        payload: { name: 'x' },
      });
      expect(res.statusCode).toBe(403);
      expect(envelope(res).msg).toMatch(/credential|needs/i);
    }
  });
  it('does not accept the right account with a Basic header on v2', async () => {
    const res = await service.request({ url: '/api/v2/projects', headers: { authorization: alice.basic } });
    expect(res.statusCode).toBe(403);
  });
});

describe('basic credentials on /api/v1/projects', () => {
  it('lists the own projects', async () => {
    const res = await service.request({ url: '/api/v1/projects', headers: { authorization: bob.basic } });
    expect(res.statusCode).toBe(200);
    expect(envelope(res).data.map((p: any) => p.name)).toEqual(['Bob app']);
  });
  it('refuses a wrong password, an unknown login, a token and nothing', async () => {
    const wrongPassword = 'Basic ' + Buffer.from(`${bob.email}:nope-nope`).toString('base64');
    const unknown = 'Basic ' + Buffer.from(`nobody@example.com:${bob.password}`).toString('base64');
    const noColon = 'Basic ' + Buffer.from('garbage').toString('base64');
    for (const authorization of [wrongPassword, unknown, noColon, bob.token, undefined]) {
      const res = await service.request({ url: '/api/v1/projects', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(403);
      expect(envelope(res).status).toBe(403);
    }
  });
  it('creates a project owned by the account', async () => {
    const res = await service.request({
      method: 'POST',
      url: '/api/v1/projects',
      headers: { authorization: bob.basic },
      payload: { name: 'Bob second' },
    });
    expect(res.statusCode).toBe(200);
    const list = envelope(
      await service.request({ url: '/api/v2/projects', headers: { authorization: bob.token } }),
    ).data;
    expect(list.map((p: any) => p.name)).toContain('Bob second');
    const aliceList = envelope(
      await service.request({ url: '/api/v2/projects', headers: { authorization: alice.token } }),
    ).data;
    expect(aliceList.map((p: any) => p.name)).not.toContain('Bob second');
  });
});

describe('GraphQL accepts the same credentials', () => {
  const query = '{ projects { name projectToken } }';
  it('a personal token acts as the account', async () => {
    const res = await gql({ authorization: alice.token }, query);
    expect(res.json().data.projects.map((p: any) => p.name)).toEqual(['Alice app']);
    const bearer = await gql({ authorization: `Bearer ${alice.token}` }, query);
    expect(bearer.json().data.projects).toHaveLength(1);
  });
  it('basic credentials act as the account', async () => {
    const res = await gql({ authorization: alice.basic }, query);
    expect(res.json().data.projects.map((p: any) => p.name)).toEqual(['Alice app']);
  });
  it('an API key acts within its one project (any letter case of the header)', async () => {
    const res = await gql({ 'X-SERVICE-TOKEN': aliceProject.apiKey }, query);
    expect(res.json().data.projects.map((p: any) => p.name)).toEqual(['Alice app']);
    const own = await gql({ 'x-service-token': aliceProject.apiKey }, '{ project { name } }');
    expect(own.json().data.project.name).toBe('Alice app');
  });
  it("never reaches another account's or project's data", async () => {
    const byToken = await gql(
      { authorization: alice.token },
      'query($t: String) { project(projectToken: $t) { name apiKey } }',
      { t: bobProject.projectToken },
    );
    expect(byToken.json().data).toBeNull();
    expect(byToken.json().errors[0].extensions.code).toBe('NOT_FOUND');
    expect(byToken.body).not.toContain(bobProject.apiKey);
    const byKey = await gql(
      { 'x-service-token': aliceProject.apiKey },
      'query($t: String) { project(projectToken: $t) { name } }',
      { t: bobProject.projectToken },
    );
    expect(byKey.json().errors[0].extensions.code).toBe('NOT_FOUND');
    const create = await gql(
      { 'x-service-token': aliceProject.apiKey },
      'mutation { createProject(name: "x") { name } }',
    );
    expect(create.json().errors[0].extensions.code).toBe('FORBIDDEN');
  });
  it('answers FORBIDDEN for a wrong or missing credential', async () => {
    for (const headers of [{}, { authorization: 'bad' }, { 'x-service-token': 'bad' }] as Record<string, string>[]) {
      const res = await gql(headers, query);
      expect(res.json().errors[0].extensions.code).toBe('FORBIDDEN');
    }
  });
});

describe('every REST route', () => {
  it('answers 403 with the envelope for missing and wrong credentials', async () => {
    for (const route of ALL_ROUTES) {
      const url = route.path.replace(/:(\w+)/g, 'x');
      for (const headers of [
        {},
        { authorization: 'wrong' },
        { 'x-service-token': 'wrong' },
        { authorization: 'Basic d3Jvbmc6d3Jvbmc=' },
      ] as Record<string, string>[]) {
        const res = await service.request({ method: route.method, url, headers, payload: {} });
        expect(res.statusCode, `${route.method} ${route.path} with ${JSON.stringify(headers)}`).toBe(403);
        expect(envelope(res).msg.length).toBeGreaterThan(0);
      }
    }
  });
});

describe('secrets at rest', () => {
  it('stores personal tokens and passwords only as hashes', async () => {
    const tokens = await service.db.prisma.personalToken.findMany();
    expect(tokens.length).toBeGreaterThan(0);
    for (const t of tokens) expect(t.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens.map((t) => t.tokenHash)).not.toContain(alice.token);
    const account = await service.db.prisma.account.findUniqueOrThrow({ where: { id: alice.id } });
    expect(account.passwordHash).toMatch(/^scrypt\$/);
    expect(account.passwordHash).not.toContain(alice.password);
  });
});

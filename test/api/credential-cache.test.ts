// Credentials are cached (src/auth/credential-cache.ts): a known API key or
// personal token costs no statement, and a credential that ends is refused on
// the very next request — on this instance, and on another instance through
// Redis pub/sub (PostgreSQL + Redis).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeSql } from '../../src/db/client.js';
import { envelope, startTestService, type TestAccount, type TestService } from '../support/service.js';
import { startServiceProcess, type ServiceProcess } from '../support/process.js';
import { createPostgresDatabase } from '../support/pg-database.js';

const deleteProject = (projectToken: string) => ({
  query: 'mutation($p: String!) { deleteProject(projectToken: $p) }',
  variables: { p: projectToken },
});

describe('credential cache', () => {
  let service: TestService;
  let account: TestAccount;
  beforeAll(async () => {
    service = await startTestService();
    account = await service.account();
  });
  afterAll(async () => service?.close());

  it('looks a known API key up once, and refuses it at once when its project is deleted', async () => {
    const project = await account.project('Cached');
    const languages = () =>
      service.request({ url: '/api/v1/languages', headers: { 'x-service-token': project.apiKey } });
    expect((await languages()).statusCode).toBe(200);
    const statements: string[] = [];
    await observeSql(
      (sql) => statements.push(sql),
      async () => {
        expect((await languages()).statusCode).toBe(200);
      },
    );
    expect(statements.filter((s) => s.includes('apiKeyHash'))).toEqual([]);
    const deleted = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: account.token, 'content-type': 'application/json' },
      payload: deleteProject(project.projectToken),
    });
    expect(deleted.json().data).toEqual({ deleteProject: true });
    const refused = await languages();
    expect(refused.statusCode).toBe(403);
    expect(envelope(refused).msg).toBe('Invalid credentials');
  });

  it('caches personal tokens too, and a wrong key is still looked up (and refused) each time', async () => {
    const projects = () => service.request({ url: '/api/v2/projects', headers: { authorization: account.token } });
    expect((await projects()).statusCode).toBe(200);
    const statements: string[] = [];
    await observeSql(
      (sql) => statements.push(sql),
      async () => {
        expect((await projects()).statusCode).toBe(200);
      },
    );
    expect(statements.filter((s) => s.includes('tokenHash'))).toEqual([]);
    for (let i = 0; i < 2; i++) {
      const wrong = await service.request({
        url: '/api/v1/languages',
        headers: { 'x-service-token': 'lms_key_wrong' },
      });
      expect(wrong.statusCode).toBe(403);
    }
  });
});

describe.runIf(process.env.TEST_DB_KIND === 'postgres')(
  'credential cache across instances (PostgreSQL + Redis)',
  { timeout: 120_000 },
  () => {
    const TOKEN = 'lms_pat_credential_cache_test_0123456789';
    let database: { url: string; drop(): Promise<void> };
    const running: ServiceProcess[] = [];
    beforeAll(async () => {
      database = await createPostgresDatabase();
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL: 'redis://127.0.0.1:6379',
        ADMIN_EMAIL: 'ops@example.com',
        ADMIN_PASSWORD: 'ops-password',
        ADMIN_TOKEN: TOKEN,
      };
      running.push(await startServiceProcess(env));
      running.push(await startServiceProcess(env));
    });
    afterAll(async () => {
      for (const p of running) await p.kill();
      await database?.drop();
    });

    it('an API key ended on one instance is refused by the other on the next request', async () => {
      const [a, b] = running as [ServiceProcess, ServiceProcess];
      const created = await fetch(`${a.url}/api/v2/projects`, {
        method: 'POST',
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Shared' }),
      });
      const project = (await created.json()).data as { apiKey: string; projectToken: string };
      const languagesOnB = () => fetch(`${b.url}/api/v1/languages`, { headers: { 'x-service-token': project.apiKey } });
      // B caches the key.
      expect((await languagesOnB()).status).toBe(200);
      expect((await languagesOnB()).status).toBe(200);
      const deleted = await fetch(`${a.url}/graphql`, {
        method: 'POST',
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify(deleteProject(project.projectToken)),
      });
      expect((await deleted.json()).data).toEqual({ deleteProject: true });
      const refused = await languagesOnB();
      expect(refused.status).toBe(403);
      expect((await refused.json()).msg).toBe('Invalid credentials');
    });

    it('a rotated API key and a revoked personal token are refused by the other instance on the next request', async () => {
      const [a, b] = running as [ServiceProcess, ServiceProcess];
      const post = (url: string, headers: Record<string, string>, body: unknown) =>
        fetch(url, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((r) => r.json());
      const project = (await post(`${a.url}/api/v2/projects`, { authorization: TOKEN }, { name: 'Rotated' })).data as {
        apiKey: string;
        projectToken: string;
      };
      const languagesOnB = (key: string) =>
        fetch(`${b.url}/api/v1/languages`, { headers: { 'x-service-token': key } }).then((r) => r.status);
      expect(await languagesOnB(project.apiKey)).toBe(200);
      const rotated = await fetch(`${a.url}/api/v2/projects/${project.projectToken}/api-key/rotate`, {
        method: 'POST',
        headers: { authorization: TOKEN },
      }).then((r) => r.json());
      expect(await languagesOnB(project.apiKey)).toBe(403);
      expect(await languagesOnB(rotated.data.apiKey)).toBe(200);

      const basic = `Basic ${Buffer.from('ops@example.com:ops-password').toString('base64')}`;
      const issued = (
        await post(
          `${a.url}/graphql`,
          { authorization: basic },
          { query: 'mutation { createPersonalToken(name: "shared") { token personalToken { id } } }' },
        )
      ).data.createPersonalToken;
      const projectsOnB = () =>
        fetch(`${b.url}/api/v2/projects`, { headers: { authorization: issued.token } }).then((r) => r.status);
      expect(await projectsOnB()).toBe(200);
      expect(await projectsOnB()).toBe(200);
      const revoked = await post(
        `${a.url}/graphql`,
        { authorization: TOKEN },
        { query: 'mutation($id: Int!) { revokePersonalToken(id: $id) }', variables: { id: issued.personalToken.id } },
      );
      expect(revoked.data).toEqual({ revokePersonalToken: true });
      expect(await projectsOnB()).toBe(403);
    });
  },
);

// The vendor's command-line client (spec/real-clients.md): its token header
// X-SimpleLocalize-Token, `GET /api/v2/project` (status, publish, pull, purge
// read it) and `DELETE /api/v1/translations/purge?source=CLI`, replayed as the
// client sends them, asserting what it reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { projectIdOf, readTranslations, seedTranslations } from '../support/content.js';

let service: TestService;
let apiKey: string;
let projectToken: string;
let other: { apiKey: string; projectToken: string };

/** The client's headers: the vendor token header (here in odd letter case) and its version header. */
const cli = (key = apiKey) => ({ 'x-SimpleLocalize-token': key, 'X-SimpleLocalize-Cli-Version': '2.11.0' });
const getProject = (key = apiKey) => service.request({ url: '/api/v2/project', headers: cli(key) });

beforeAll(async () => {
  service = await startTestService({ listen: true });
  const account = await service.account();
  ({ apiKey, projectToken } = await account.project('CLI project'));
  other = await (await service.account()).project('Other project');
});
afterAll(() => service.close());

describe('the X-SimpleLocalize-Token header', () => {
  it('is accepted like X-Service-Token, in any letter case', async () => {
    for (const name of [
      'X-SimpleLocalize-Token',
      'x-simplelocalize-token',
      'X-SIMPLELOCALIZE-TOKEN',
      'x-SimpleLocalize-token',
    ]) {
      const res = await service.request({ url: '/api/v1/languages', headers: { [name]: apiKey } });
      expect(res.statusCode).toBe(200);
      expect(envelope(res).data.map((l: any) => l.key)).toEqual(['en']);
    }
  });

  it('a wrong key is a 403 like with X-Service-Token', async () => {
    const vendor = await service.request({ url: '/api/v2/project', headers: cli('lms_key_wrong') });
    const neutral = await service.request({
      url: '/api/v1/languages',
      headers: { 'x-service-token': 'lms_key_wrong' },
    });
    expect(vendor.statusCode).toBe(403);
    expect(neutral.statusCode).toBe(403);
    expect(envelope(vendor).msg).toBe(envelope(neutral).msg);
  });

  it('both headers with the same key are fine; with different keys they are refused (403), not guessed', async () => {
    const same = await service.request({
      url: '/api/v2/project',
      headers: { 'x-service-token': apiKey, 'X-SimpleLocalize-Token': apiKey },
    });
    expect(same.statusCode).toBe(200);
    for (const headers of [
      { 'x-service-token': apiKey, 'X-SimpleLocalize-Token': other.apiKey },
      { 'x-service-token': apiKey, 'X-SimpleLocalize-Token': 'lms_key_wrong' },
      { 'x-service-token': 'lms_key_wrong', 'X-SimpleLocalize-Token': apiKey },
    ]) {
      const res = await service.request({ url: '/api/v2/project', headers });
      expect(res.statusCode).toBe(403);
      expect(envelope(res).msg).toMatch(/X-Service-Token and X-SimpleLocalize-Token carry different API keys/);
      expect(envelope(res).data).toBeUndefined();
    }
  });

  it('works on GraphQL over HTTP too, and refuses conflicting headers there', async () => {
    const ok = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { ...cli(), 'content-type': 'application/json' },
      payload: { query: '{ project { name } }' },
    });
    expect(ok.json()).toEqual({ data: { project: { name: 'CLI project' } } });
    const conflict = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: {
        'X-SimpleLocalize-Token': apiKey,
        'x-service-token': other.apiKey,
        'content-type': 'application/json',
      },
      payload: { query: '{ project { name } }' },
    });
    expect(conflict.json().errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect(conflict.json().errors[0].message).toMatch(/different API keys/);
  });

  it('works in graphql-ws connection params', async () => {
    const ask = async (connectionParams: Record<string, string>) => {
      const client = createClient({
        url: service.url.replace('http', 'ws') + '/graphql',
        webSocketImpl: WebSocket,
        connectionParams,
        lazy: true,
      });
      try {
        return await new Promise<any>((resolve, reject) => {
          let result: any;
          client.subscribe(
            { query: '{ project { name } }' },
            {
              next: (value) => {
                result = value;
              },
              error: reject,
              complete: () => resolve(result),
            },
          );
        });
      } finally {
        await client.dispose();
      }
    };
    expect(await ask({ 'X-SimpleLocalize-Token': apiKey })).toEqual({ data: { project: { name: 'CLI project' } } });
    expect(await ask({ 'x-simplelocalize-token': other.apiKey })).toEqual({
      data: { project: { name: 'Other project' } },
    });
    const refused = await ask({ 'X-SimpleLocalize-Token': apiKey, 'X-Service-Token': other.apiKey });
    expect(refused.errors[0].message).toMatch(/different API keys/);
  });

  it('is refused where an account credential is needed', async () => {
    const res = await service.request({ url: '/api/v2/projects', headers: cli() });
    expect(res.statusCode).toBe(403);
  });
});

describe('GET /api/v2/project', () => {
  it('a new project: every field the client reads is present, activity null', async () => {
    const res = await getProject();
    expect(res.statusCode).toBe(200);
    const { data } = envelope(res);
    expect(data).toMatchObject({ name: 'CLI project', projectToken, keys: 0, translatedPercentage: 0 });
    expect(data.languages.map((l: any) => l.key)).toEqual(['en']);
    expect(data.environments.map((e: any) => e.key)).toEqual(['_latest', '_production']);
    expect(data.namespaces).toEqual([]);
    expect(data.customers).toEqual([]);
    expect(data.hostingResources).toEqual([]);
    // Present (the client reads them), null: nothing happened in this project yet.
    expect(data).toHaveProperty('lastActivityAt', null);
    expect(data).toHaveProperty('lastEditedAt', null);
  });

  it("another project's key reads only its own project", async () => {
    const { data } = envelope(await getProject(other.apiKey));
    expect(data.projectToken).toBe(other.projectToken);
    expect(data.name).toBe('Other project');
  });

  it('after edits, a customer, a namespace and publications: counters, lists, times and hosting resources', async () => {
    const before = Date.now();
    await seedTranslations(service.db, {
      projectToken,
      translations: { en: { hello: 'Hello', bye: 'Bye' }, de: { hello: 'Hallo', bye: '' } },
    });
    await seedTranslations(service.db, { projectToken, namespace: 'common', translations: { en: { ok: 'OK' } } });
    expect(
      (
        await service.request({
          method: 'POST',
          url: '/api/v1/customers',
          headers: cli(),
          payload: { key: 'acme', description: 'Acme' },
        })
      ).statusCode,
    ).toBe(200);

    let { data } = envelope(await getProject());
    expect(data.keys).toBe(3);
    // 4 non-empty translations of 3 keys × 2 languages.
    expect(data.translatedPercentage).toBeCloseTo(4 / 6, 3);
    expect(data.languages.map((l: any) => l.key)).toEqual(['en', 'de']);
    expect(data.namespaces).toEqual([{ name: 'common' }]);
    expect(data.customers.map((c: any) => c.key)).toEqual(['acme']);
    expect(typeof data.lastEditedAt).toBe('string');
    expect(typeof data.lastActivityAt).toBe('string');
    expect(new Date(data.lastEditedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(data.lastActivityAt).getTime()).toBeGreaterThanOrEqual(new Date(data.lastEditedAt).getTime());
    expect(data.hostingResources).toEqual([]);

    // The client's publish: no body, source=CLI.
    for (const env of ['_latest', '_production']) {
      const published = await service.request({
        method: 'POST',
        url: `/api/v2/environments/${env}/publish?source=CLI`,
        headers: cli(),
      });
      expect(published.statusCode).toBe(200);
    }
    ({ data } = envelope(await getProject()));
    const resources: any[] = data.hostingResources;
    expect(resources.length).toBeGreaterThan(0);
    for (const r of resources) {
      expect(Object.keys(r).sort()).toEqual(['customerId', 'key', 'language', 'namespace', 'path']);
      expect(['_latest', '_production']).toContain(r.key);
      expect(r.path.startsWith(`${projectToken}/${r.key}/`)).toBe(true);
    }
    // Both environments serve the same files; pull keeps those of its environment.
    const ofEnv = (key: string) =>
      resources
        .filter((r) => r.key === key)
        .map((r) => r.path.slice(`${projectToken}/${key}/`.length))
        .sort();
    expect(ofEnv('_latest')).toEqual(ofEnv('_production'));
    const latest = resources.filter((r) => r.key === '_latest');
    expect(latest).toContainEqual({
      path: `${projectToken}/_latest/de`,
      key: '_latest',
      language: 'de',
      namespace: null,
      customerId: null,
    });
    expect(latest).toContainEqual({
      path: `${projectToken}/_latest/en/common`,
      key: '_latest',
      language: 'en',
      namespace: 'common',
      customerId: null,
    });
    // Each path, below {cdn_url}, is the file the environment serves now.
    const { environmentStatus } = (
      await service.request({
        method: 'POST',
        url: '/graphql',
        headers: { ...cli(), 'content-type': 'application/json' },
        payload: { query: '{ environmentStatus(key: "_latest") { resources { link } } }' },
      })
    ).json().data;
    expect(latest.map((r) => r.path).sort()).toEqual(
      environmentStatus.resources.map((r: any) => decodeURIComponent(r.link)).sort(),
    );
    // A publication is activity.
    expect(new Date(data.lastActivityAt).getTime()).toBeGreaterThan(new Date(data.lastEditedAt).getTime());
  });

  it('is the same data as GraphQL project, with environments and namespaces', async () => {
    const rest = envelope(await getProject()).data;
    const { project } = (
      await service.request({
        method: 'POST',
        url: '/graphql',
        headers: { ...cli(), 'content-type': 'application/json' },
        payload: {
          query:
            '{ project { lastActivityAt lastEditedAt namespaces { name keys } environments { key lastPublication { numberOfKeys } } hostingResources { path } } }',
        },
      })
    ).json().data;
    expect(project.lastActivityAt).toBe(rest.lastActivityAt);
    expect(project.lastEditedAt).toBe(rest.lastEditedAt);
    expect(project.namespaces).toEqual([{ name: 'common', keys: 1 }]);
    expect(project.environments.map((e: any) => [e.key, e.lastPublication.numberOfKeys])).toEqual([
      ['_latest', 3],
      ['_production', 3],
    ]);
    expect(project.hostingResources.map((r: any) => r.path)).toEqual(rest.hostingResources.map((r: any) => r.path));
  });
});

describe('DELETE /api/v1/translations/purge?source=CLI', () => {
  const count = async (table: string, projectId: number) =>
    (
      await service.db.prisma.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM "${table}" WHERE "projectId" = $1`,
        projectId,
      )
    )[0]!.n;

  it('is all or nothing: a failure midway deletes nothing', async () => {
    const projectId = await projectIdOf(service.db, projectToken);
    const keys = await count('TranslationKey', projectId);
    const translations = await count('Translation', projectId);
    expect(keys).toBe(3);
    expect(translations).toBeGreaterThan(0);
    // Make the purge's last step (its entry in the activity log) fail.
    await service.db.prisma.$executeRawUnsafe(
      `CREATE FUNCTION purge_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'purge test failure'; END $$`,
    );
    await service.db.prisma.$executeRawUnsafe(
      `CREATE TRIGGER purge_test_fail BEFORE INSERT ON "Activity" FOR EACH ROW WHEN (NEW.kind = 'PURGE') EXECUTE FUNCTION purge_test_fail()`,
    );
    try {
      const res = await service.request({
        method: 'DELETE',
        url: '/api/v1/translations/purge?source=CLI',
        headers: cli(),
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await service.db.prisma.$executeRawUnsafe(`DROP TRIGGER purge_test_fail ON "Activity"`);
      await service.db.prisma.$executeRawUnsafe(`DROP FUNCTION purge_test_fail()`);
    }
    expect(await count('TranslationKey', projectId)).toBe(keys);
    expect(await count('Translation', projectId)).toBe(translations);
  });

  it('removes every key and translation of the project (customer overrides and locked keys included), nothing of another project', async () => {
    const projectId = await projectIdOf(service.db, projectToken);
    await seedTranslations(service.db, { projectToken: other.projectToken, translations: { en: { kept: 'Kept' } } });
    // A customer override and a locked key.
    const patch = await service.request({
      method: 'PATCH',
      url: '/api/v2/translations',
      headers: cli(),
      payload: { key: 'hello', language: 'en', customerId: 'acme', text: 'Hello Acme' },
    });
    expect(patch.statusCode).toBe(200);
    expect(await count('CustomerTranslation', projectId)).toBe(1);
    await service.db.prisma.translationKey.updateMany({ where: { projectId, key: 'bye' }, data: { lock: true } });
    const before = envelope(await getProject()).data.lastActivityAt;

    const res = await service.request({
      method: 'DELETE',
      url: '/api/v1/translations/purge?source=CLI',
      headers: cli(),
    });
    expect(res.statusCode).toBe(200);
    expect(envelope(res)).toMatchObject({
      msg: 'OK',
      status: 200,
      data: { keysDeleted: 3, translationsDeleted: 4, customerTranslationsDeleted: 1 },
    });

    expect(await count('TranslationKey', projectId)).toBe(0);
    expect(await count('Translation', projectId)).toBe(0);
    expect(await count('CustomerTranslation', projectId)).toBe(0);
    expect(await readTranslations(service.db, projectToken)).toEqual({});
    expect(await readTranslations(service.db, other.projectToken)).toEqual({ en: { kept: 'Kept' } });

    const { data } = envelope(await getProject());
    expect(data.keys).toBe(0);
    expect(data.namespaces).toEqual([]);
    // Languages, customers and environments stay.
    expect(data.languages.map((l: any) => l.key)).toEqual(['en', 'de']);
    expect(data.customers.map((c: any) => c.key)).toEqual(['acme']);
    expect(data.environments.map((e: any) => e.key)).toEqual(['_latest', '_production']);
    // The purge is activity and an edit (it deleted content): both times are the purge's entry in the log.
    expect(new Date(data.lastActivityAt).getTime()).toBeGreaterThan(new Date(before).getTime());
    expect(data.lastEditedAt).toBe(data.lastActivityAt);
  });

  it('a purge of an empty project answers 200 too; a wrong key is a 403 and deletes nothing', async () => {
    const res = await service.request({
      method: 'DELETE',
      url: '/api/v1/translations/purge?source=CLI',
      headers: cli(),
    });
    expect(res.statusCode).toBe(200);
    expect(envelope(res).data).toEqual({ keysDeleted: 0, translationsDeleted: 0, customerTranslationsDeleted: 0 });
    const wrong = await service.request({
      method: 'DELETE',
      url: '/api/v1/translations/purge?source=CLI',
      headers: cli('lms_key_wrong'),
    });
    expect(wrong.statusCode).toBe(403);
    expect(await readTranslations(service.db, other.projectToken)).toEqual({ en: { kept: 'Kept' } });
  });
});

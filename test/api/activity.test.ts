// The activity log: every write path records its change in its own
// transaction with actor and source; GET /api/v2/activity and GraphQL read it
// newest first, paged and filtered; lastActivityAt / lastEditedAt and the
// projects sorts come from it; a 100,000-cell import writes its events with a
// statement per chunk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeSql } from '../../src/db/client.js';
import { envelope, startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { importOk, importRequest, multipart } from '../support/transfer.js';
import { projectIdOf } from '../support/content.js';
import { storedCellEvents } from '../support/cell-events.js';
import { cellsOfActivity } from '../../src/history/activity-log.js';
import { translationChangeStream } from '../../src/history/live.js';

let service: TestService;
let account: TestAccount;
beforeAll(async () => {
  service = await startTestService();
  account = await service.account();
});
afterAll(() => service.close());

const json = (value: unknown) => JSON.stringify(value);

async function activity(api: ProjectApi, query = '') {
  const res = await service.request({ url: `/api/v2/activity${query}`, headers: { 'x-service-token': api.apiKey } });
  return { status: res.statusCode, body: envelope(res), total: Number(res.headers['x-total-count']) };
}

describe('change events of every write path', () => {
  let api: ProjectApi;
  beforeAll(async () => {
    api = await projectApi(service, account, 'Activity');
  });

  it('records content writes and project-level actions with actor, source and counts, newest first', async () => {
    expect((await api.post('/api/v1/languages', { key: 'de', name: 'German' })).status).toBe(200);
    expect((await api.post('/api/v1/customers', { key: 'acme' })).status).toBe(200);
    expect((await api.post('/api/v1/translation-keys', { key: 'hello' })).status).toBe(200);
    expect((await api.patch('/api/v2/translations', { key: 'hello', language: 'en', text: 'Hello' })).status).toBe(200);
    expect(
      (
        await api.patch('/api/v2/translations', {
          key: 'hello',
          language: 'en',
          text: 'Hello!',
          reviewStatus: 'REVIEWED',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api.post('/api/v1/translations', {
          content: [
            { key: 'bye', language: 'de', text: 'Tschüss' },
            { key: 'bye', language: 'de', customerId: 'acme', text: 'Servus' },
          ],
        })
      ).status,
    ).toBe(200);
    await importOk(service, api.apiKey, json({ en: { a: 'A', b: 'B' }, de: { a: 'Ä' } }), {
      uploadFormat: 'multi-language-json',
    });
    expect(
      (
        await service.request({
          url: '/api/v4/export?downloadFormat=multi-language-json&source=CLI',
          headers: { 'x-service-token': api.apiKey },
        })
      ).statusCode,
    ).toBe(200);
    // The official client's calls of the contract's routes are the CLI too (its version header, or source=CLI).
    const published = await service.request({
      method: 'POST',
      url: '/api/v2/environments/_latest/publish',
      headers: { 'x-simplelocalize-token': api.apiKey, 'x-simplelocalize-cli-version': '2.11.0' },
    });
    expect(published.statusCode).toBe(200);
    expect((await api.delete('/api/v1/translation-keys?key=b')).status).toBe(200);
    // GraphQL with the owner's personal token; the console marks its requests as WEB.
    const gql = (query: string, headers: Record<string, string> = {}) =>
      service.request({
        method: 'POST',
        url: '/graphql',
        headers: { authorization: account.token, 'content-type': 'application/json', ...headers },
        payload: { query: query.replace('$P', api.projectToken) },
      });
    expect(
      (
        await gql(
          'mutation { updateTranslation(projectToken: "$P", input: { key: "a", language: "de", text: "Ä!" }) { text } }',
        )
      ).json().errors,
    ).toBeUndefined();
    expect(
      (
        await gql(
          'mutation { updateTranslation(projectToken: "$P", input: { key: "a", language: "en", text: "A!" }) { text } }',
          { 'x-change-source': 'WEB' },
        )
      ).json().errors,
    ).toBeUndefined();
    // The official client's own routes are the CLI.
    const cli = multipart([{ name: 'file', fileName: 'en.json', content: json({ cli: 'From the CLI' }) }]);
    expect(
      (
        await service.request({
          method: 'POST',
          url: '/cli/v2/upload?uploadFormat=single-language-json&languageKey=en',
          headers: { 'x-simplelocalize-token': api.apiKey, ...cli.headers },
          payload: cli.payload,
        })
      ).statusCode,
    ).toBe(200);

    const { status, body, total } = await activity(api, '?size=100');
    expect(status).toBe(200);
    expect(body.msg).toBe('OK');
    const entries = body.data as any[];
    expect(total).toBe(entries.length);
    expect(entries.map((e) => e.kind)).toEqual([
      'IMPORT',
      'TRANSLATIONS',
      'TRANSLATIONS',
      'KEYS',
      'PUBLICATION',
      'EXPORT',
      'IMPORT',
      'TRANSLATIONS',
      'TRANSLATIONS',
      'TRANSLATIONS',
      'KEYS',
      'CUSTOMERS',
      'LANGUAGES',
    ]);
    const times = entries.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const [cliImport, web, graphql, deleted, publication, exported, fileImport, v1, reviewed, first] = entries;
    expect(cliImport).toMatchObject({ source: 'CLI', actor: { kind: 'API_KEY' }, cellsChanged: 1, trigger: 'IMPORT' });
    expect(web).toMatchObject({
      source: 'WEB',
      actor: { kind: 'ACCOUNT', id: String(account.id), name: account.email },
      cellsChanged: 1,
      trigger: 'CHANGE',
    });
    expect(graphql).toMatchObject({
      source: 'GRAPHQL',
      actor: { kind: 'ACCOUNT', name: account.email },
      cellsChanged: 1,
    });
    expect(deleted).toMatchObject({
      source: 'API',
      edits: 1,
      cellsChanged: 1,
      details: { action: 'DELETE_KEY', keys: [{ key: 'b', namespace: '' }] },
    });
    // The deleted key's texts are in the history of its deletion.
    const gone = envelope(
      await service.request({
        url: `/api/v2/activity/${deleted.id}/cells`,
        headers: { 'x-service-token': api.apiKey },
      }),
    ).data;
    expect(gone).toMatchObject([{ key: 'b', language: 'en', oldText: 'B', newText: '' }]);
    expect(publication).toMatchObject({ trigger: 'PUBLICATION', source: 'CLI', details: { environment: '_latest' } });
    expect(exported).toMatchObject({
      trigger: 'EXPORT',
      source: 'CLI',
      cellsChanged: 0,
      details: { downloadFormat: 'multi-language-json' },
    });
    // One import is one entry with its counts; its cells are each in the history.
    expect(fileImport).toMatchObject({
      source: 'API',
      actor: { kind: 'API_KEY', id: null },
      cellsChanged: 3,
      details: { keysCreated: 2, translationsInserted: 3 },
    });
    const cells = envelope(
      await service.request({
        url: `/api/v2/activity/${fileImport.id}/cells`,
        headers: { 'x-service-token': api.apiKey },
      }),
    ).data;
    expect(cells.map((c: any) => [c.key, c.language, c.oldText, c.newText]).sort()).toEqual([
      ['a', 'de', null, 'Ä'],
      ['a', 'en', null, 'A'],
      ['b', 'en', null, 'B'],
    ]);
    expect(v1).toMatchObject({ cellsChanged: 2, details: { operation: 'IMPORT_TRANSLATIONS_V1', keysCreated: 1 } });
    expect(reviewed).toMatchObject({ cellsChanged: 1, details: { operation: 'UPDATE_TRANSLATION' } });
    expect(first.cellsChanged).toBe(1);

    const history = envelope(
      await service.request({
        url: '/api/v2/translations/history?key=hello&language=en',
        headers: { 'x-service-token': api.apiKey },
      }),
    ).data;
    expect(history.map((h: any) => [h.oldText, h.newText, h.oldReviewStatus, h.newReviewStatus])).toEqual([
      ['Hello', 'Hello!', 'NOT_REVIEWED', 'REVIEWED'],
      [null, 'Hello', null, 'NOT_REVIEWED'],
    ]);
    const override = envelope(
      await service.request({
        url: '/api/v2/translations/history?key=bye&language=de&customerId=acme',
        headers: { 'x-service-token': api.apiKey },
      }),
    ).data;
    expect(override).toMatchObject([{ customerId: 'acme', newText: 'Servus', kind: 'TRANSLATIONS' }]);
  });

  it('pages and filters by actor, kind and time; bad filters are 400 envelopes', async () => {
    const all = await activity(api, '?size=100');
    const page = await activity(api, '?size=3&page=1');
    expect(page.total).toBe(all.total);
    expect(page.body.data.map((e: any) => e.id)).toEqual(all.body.data.slice(3, 6).map((e: any) => e.id));
    const kinds = await activity(api, '?kind=IMPORT&kind=keys');
    expect(kinds.body.data.map((e: any) => e.kind)).toEqual(['IMPORT', 'KEYS', 'IMPORT', 'KEYS']);
    const accounts = await activity(api, `?actorKind=ACCOUNT&actorId=${account.id}`);
    expect(accounts.body.data.map((e: any) => e.source)).toEqual(['WEB', 'GRAPHQL']);
    const middle = all.body.data[5].at;
    const before = await activity(api, `?to=${encodeURIComponent(middle)}&size=100`);
    expect(before.body.data.every((e: any) => e.at < middle)).toBe(true);
    const after = await activity(api, `?from=${encodeURIComponent(middle)}&size=100`);
    expect(before.total + after.total).toBe(all.total);
    for (const bad of ['?kind=NAPPING', '?size=0', '?size=501', '?from=yesterday', '?page=-1']) {
      const res = await activity(api, bad);
      expect(res.status).toBe(400);
      expect(res.body.msg).toMatch(/kind|size|from|page/);
    }
    // GraphQL: the same log.
    const gql = await api.gql(
      '{ activity(size: 2, filter: { kinds: [EXPORT] }) { total entries { kind actor { kind } source } } }',
    );
    expect(gql.data.activity).toEqual({
      total: 1,
      entries: [{ kind: 'EXPORT', actor: { kind: 'API_KEY' }, source: 'CLI' }],
    });
  });

  it('derives lastActivityAt, lastEditedAt and the last_activity / last_edited sorts from the log', async () => {
    const other = await projectApi(service, account, 'Quiet');
    expect((await other.post('/api/v1/translation-keys', { key: 'one' })).status).toBe(200);
    // An export is activity but no edit.
    expect(
      (
        await service.request({
          url: '/api/v4/export?downloadFormat=multi-language-json',
          headers: { 'x-service-token': other.apiKey },
        })
      ).statusCode,
    ).toBe(200);
    const projects = async (sort: string) =>
      envelope(
        await service.request({ url: `/api/v2/projects?sort=${sort}`, headers: { authorization: account.token } }),
      ).data as any[];
    const listed = await projects('last_activity');
    const quiet = (await other.get('/api/v2/project')).data;
    expect(Date.parse(quiet.lastActivityAt)).toBeGreaterThan(Date.parse(quiet.lastEditedAt));
    const [newest] = await service.db.prisma.activity.findMany({
      where: { projectId: await projectIdOf(service.db, other.projectToken) },
      orderBy: { id: 'desc' },
      take: 1,
    });
    expect(new Date(quiet.lastActivityAt).getTime()).toBe(newest!.at.getTime());
    expect(listed.map((p) => p.projectToken).slice(0, 2)).toEqual([other.projectToken, api.projectToken]);
    // The busy project edited last: it leads the last_edited sort once it writes again.
    expect((await api.patch('/api/v2/translations', { key: 'hello', language: 'de', text: 'Hallo' })).status).toBe(200);
    expect((await projects('last_edited')).map((p) => p.projectToken).slice(0, 2)).toEqual([
      api.projectToken,
      other.projectToken,
    ]);
  });

  it('records a job’s start, its cells (as the job, from the starter’s source) and its end; settings name their keys only; a job reverts as one change', async () => {
    const jobs = await projectApi(service, account, 'Jobs');
    await importOk(service, jobs.apiKey, json({ en: { one: 'One', two: 'Two' }, de: {} }), {
      uploadFormat: 'multi-language-json',
    });
    const started = await jobs.post('/api/v1/jobs/auto-translate', {
      translationProvider: 'PSEUDO',
      targetProjectLanguage: 'de',
      targetLanguage: 'de',
      sourceProjectLanguage: 'en',
    });
    const jobId = started.data.jobId as string;
    const [end] = await (async () => {
      for (let i = 0; i < 400; i++) {
        const found = (await jobs.get('/api/v2/activity?kind=JOB_FINISHED')).data;
        if (found.length) return found;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('the job did not finish');
    })();
    expect(end).toMatchObject({
      trigger: 'AUTO_TRANSLATION_SUCCESS',
      actor: { kind: 'JOB', id: jobId },
      details: { jobId, state: 'SUCCESS' },
    });
    const [start] = (await jobs.get('/api/v2/activity?kind=JOB_STARTED')).data;
    expect(start).toMatchObject({
      actor: { kind: 'API_KEY' },
      source: 'API',
      details: { jobId, targetLanguage: 'de', provider: 'PSEUDO' },
    });
    const [written] = (await jobs.get(`/api/v2/activity?kind=AUTO_TRANSLATION&actorKind=JOB&actorId=${jobId}`)).data;
    expect(written).toMatchObject({ source: 'API', cellsChanged: 2, trigger: 'CHANGE', details: { jobId } });
    expect(end.details.activityId).toBe(written.id);
    const translated = (await jobs.get('/api/v2/translations?language=de')).data.map((c: any) => c.text);
    expect(translated.every((t: string) => t !== '')).toBe(true);
    expect((await jobs.post(`/api/v2/activity/${written.id}/revert`)).data).toMatchObject({ reverted: 2 });
    expect((await jobs.get('/api/v2/translations?language=de')).data.map((c: any) => c.text)).toEqual(['', '']);

    const key = await jobs.gql('mutation { setProviderApiKey(provider: MT_PROVIDER_A, apiKey: "very-secret-key") }');
    expect(key.errors).toBeUndefined();
    const [settings] = (await jobs.get('/api/v2/activity?kind=SETTINGS')).data;
    expect(settings).toMatchObject({ source: 'GRAPHQL', details: { settings: ['providerApiKeys'] } });
    expect(JSON.stringify(settings)).not.toContain('very-secret-key');
  });

  it('the service’s own dispatcher works the outbox, refusing a loopback target by default', async () => {
    const hooked = await projectApi(service, account, 'Hooked');
    const hook = (await hooked.post('/api/v2/webhooks', { url: 'http://127.0.0.1:9/hook', triggers: ['CHANGE'] })).data;
    await hooked.post('/api/v1/translation-keys', { key: 'k' });
    for (let i = 0; i < 200; i++) {
      const [delivery] = (await hooked.get(`/api/v2/webhooks/${hook.id}/deliveries`)).data;
      if (delivery?.log.length) {
        expect(delivery.log[0]).toMatchObject({
          url: 'http://127.0.0.1:9/hook',
          status: null,
          error: expect.stringMatching(/WEBHOOK_ALLOW_PRIVATE/),
        });
        return;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('no delivery attempt');
  });

  it('a failed import leaves neither events nor an activity entry', async () => {
    const failing = await projectApi(service, account, 'Failing');
    const projectId = await projectIdOf(service.db, failing.projectToken);
    // A write that fails inside the import's transaction, after its change was opened and some cells written.
    await service.db.prisma.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION refuse_boom() RETURNS trigger AS $$
      BEGIN IF NEW.text = 'BOOM' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await service.db.prisma.$executeRawUnsafe(
      `CREATE TRIGGER refuse_boom BEFORE INSERT OR UPDATE ON "Translation" FOR EACH ROW EXECUTE FUNCTION refuse_boom()`,
    );
    try {
      const res = await importRequest(service, failing.apiKey, json({ en: { ok: 'Fine', bad: 'BOOM' } }), {
        uploadFormat: 'multi-language-json',
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await service.db.prisma.$executeRawUnsafe(`DROP TRIGGER refuse_boom ON "Translation"`);
    }
    expect(await service.db.prisma.activity.count({ where: { projectId } })).toBe(0);
    expect(await storedCellEvents(service.db.prisma, { projectId })).toHaveLength(0);
    expect(await service.db.prisma.translation.count({ where: { projectId } })).toBe(0);
  });
});

describe('a 100,000-cell import', () => {
  it(
    'writes its events with a statement per chunk, one activity entry, every cell in the history',
    { timeout: 240_000 },
    async () => {
      const api = await projectApi(service, account, 'Large');
      const projectId = await projectIdOf(service.db, api.projectToken);
      const languages = ['en', 'de', 'fr', 'es', 'it', 'pl', 'pt', 'nl', 'sv', 'da'];
      const file = Object.fromEntries(
        languages.map((l) => [
          l,
          Object.fromEntries(Array.from({ length: 10_000 }, (_, k) => [`key.${k}`, `${l} text ${k}`])),
        ]),
      );
      const statements: string[] = [];
      await observeSql(
        (sql) => statements.push(sql),
        () => importOk(service, api.apiKey, json(file), { uploadFormat: 'multi-language-json' }),
      );
      expect(await service.db.prisma.translation.count({ where: { projectId } })).toBe(100_000);
      // One gate statement per chunk (IMPORT_CHUNK_CELLS: 10,000 on PostgreSQL, 5,000 embedded), each writing its cells and their events; a few per chunk besides.
      const chunks = Math.ceil(100_000 / service.config.importChunkCells);
      expect(statements.filter((s) => s.includes('INSERT INTO "CellChangeBatch"'))).toHaveLength(chunks);
      expect(statements.filter((s) => s.includes('INSERT INTO "Activity"'))).toHaveLength(1);
      expect(statements.length).toBeLessThan(20 + 5 * chunks);
      const entries = await service.db.prisma.activity.findMany({ where: { projectId } });
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ kind: 'IMPORT', cells: 100_000, actorKind: 'API_KEY', source: 'API' });
      // One batch of events per gate statement, one event per cell.
      expect(await service.db.prisma.cellChangeBatch.count({ where: { activityId: entries[0]!.id } })).toBe(chunks);
      const events = await storedCellEvents(service.db.prisma, { activityId: entries[0]!.id });
      expect(events).toHaveLength(100_000);
      expect(new Set(events.map((e) => e.id)).size).toBe(100_000);
      const sample = events.filter((e) => e.key === 'key.9999').at(-1);
      expect(sample).toMatchObject({ oldText: null, newText: 'da text 9999', newStatus: 'NOT_REVIEWED' });
      // A page read across the boundary of two batches, in the order written.
      const page = await cellsOfActivity(projectId, entries[0]!.id, 333, 30, service.db.prisma);
      expect(page.map((e) => [e.id, e.key, e.newText])).toEqual(
        events.slice(9_990, 10_020).map((e) => [e.id, e.key, e.newText]),
      );
      expect(await cellsOfActivity(projectId, entries[0]!.id, 3_333, 30, service.db.prisma)).toHaveLength(10);

      // A subscriber catching up from inside one change gets the rest of it and the next one, once each, in order.
      await importOk(service, api.apiKey, json({ en: { 'key.0': 'again', 'key.1': 'again' } }), {
        uploadFormat: 'multi-language-json',
        importOptions: 'REPLACE_TRANSLATION_IF_FOUND',
      });
      const stream = translationChangeStream(projectId, events[95_000]!.id);
      const caught = [];
      for await (const event of stream) if (caught.push(event) === 4_999 + 2) break;
      expect(caught.slice(0, 4_999).map((e) => e.id)).toEqual(events.slice(95_001).map((e) => e.id));
      expect(caught.slice(4_999).map((e) => [e.key, e.oldText, e.newText])).toEqual([
        ['key.0', 'en text 0', 'again'],
        ['key.1', 'en text 1', 'again'],
      ]);
    },
  );
});

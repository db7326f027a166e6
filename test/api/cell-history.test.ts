// Cell history and revert: one cell back to an earlier value, a whole import
// reverted in one transaction (every cell restored exactly, changed-since
// cells kept, locks respected), each revert itself a change in the log; and
// retention pruning old events without touching the current texts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { importOk } from '../support/transfer.js';
import { projectIdOf } from '../support/content.js';
import { pruneHistory } from '../../src/history/retention.js';
import { storedCellEvents } from '../support/cell-events.js';

let service: TestService;
let account: TestAccount;
beforeAll(async () => {
  service = await startTestService();
  account = await service.account();
});
afterAll(() => service.close());

const json = (value: unknown) => JSON.stringify(value);

async function cells(api: ProjectApi, customerId?: string) {
  const res = await api.get(`/api/v2/translations?size=500${customerId ? `&customerId=${customerId}` : ''}`);
  return Object.fromEntries((res.data as any[]).map((c) => [`${c.key}/${c.language}`, [c.text, c.reviewStatus]]));
}

const history = async (api: ProjectApi, query: string) =>
  (await api.get(`/api/v2/translations/history?${query}`)).data as any[];

describe('cell history and revert', () => {
  let api: ProjectApi;
  beforeAll(async () => {
    api = await projectApi(service, account, 'History');
    await api.post('/api/v1/languages', { key: 'de' });
  });

  it('lists a cell’s changes newest first and reverts one cell to its value before a change', async () => {
    await api.post('/api/v1/translation-keys', { key: 'title' });
    await api.patch('/api/v2/translations', { key: 'title', language: 'de', text: 'Titel' });
    await api.patch('/api/v2/translations', { key: 'title', language: 'de', reviewStatus: 'REVIEWED' });
    await api.patch('/api/v2/translations', { key: 'title', language: 'de', text: 'Überschrift' });
    const before = await history(api, 'key=title&language=de');
    expect(before.map((h) => [h.oldText, h.newText, h.oldReviewStatus, h.newReviewStatus])).toEqual([
      ['Titel', 'Überschrift', 'REVIEWED', 'REVIEWED'],
      ['Titel', 'Titel', 'NOT_REVIEWED', 'REVIEWED'],
      [null, 'Titel', null, 'NOT_REVIEWED'],
    ]);
    expect(before[0]).toMatchObject({ source: 'API', actor: { kind: 'API_KEY' }, kind: 'TRANSLATIONS' });
    // Back to the value before the review: "Titel", not reviewed.
    const reverted = await api.post(`/api/v2/translations/history/${before[1].id}/revert`);
    expect(reverted.status).toBe(200);
    expect(reverted.data).toMatchObject({ reverted: 1, changedSince: 0, refusedLocked: 0 });
    expect((await cells(api))['title/de']).toEqual(['Titel', 'NOT_REVIEWED']);
    const after = await history(api, 'key=title&language=de');
    expect(after[0]).toMatchObject({
      kind: 'REVERT',
      oldText: 'Überschrift',
      newText: 'Titel',
      newReviewStatus: 'NOT_REVIEWED',
    });
    const [entry] = (await api.get('/api/v2/activity?size=1')).data;
    expect(entry).toMatchObject({ id: reverted.data.activityId, kind: 'REVERT', trigger: 'REVERT', cellsChanged: 1 });
    // Bad ids and other projects' changes.
    expect((await api.post('/api/v2/translations/history/abc/revert')).status).toBe(400);
    expect((await api.post('/api/v2/translations/history/999999999/revert')).status).toBe(404);
    const stranger = await projectApi(service, await service.account(), 'Stranger');
    expect((await stranger.post(`/api/v2/translations/history/${before[1].id}/revert`)).status).toBe(404);
    expect((await stranger.get('/api/v2/translations/history?key=title&language=de')).status).toBe(404);
  });

  it('finds one cell among the other cells its changes were written with', async () => {
    // Each import writes its cells in one statement: other keys, the same key in other languages, a customer's override.
    const file = (n: number) =>
      json({ en: { 'one.a': `A${n}`, 'one.b': `B${n}` }, de: { 'one.a': `A-de${n}`, 'one.b': `B-de${n}` } });
    await importOk(service, api.apiKey, file(1), { uploadFormat: 'multi-language-json' });
    await importOk(service, api.apiKey, file(2), {
      uploadFormat: 'multi-language-json',
      importOptions: 'REPLACE_TRANSLATION_IF_FOUND',
    });
    await api.post('/api/v1/customers', { key: 'solo' });
    await importOk(service, api.apiKey, json({ de: { 'one.a': 'A-solo' } }), {
      uploadFormat: 'multi-language-json',
      customerId: 'solo',
    });
    const de = await history(api, 'key=one.a&language=de');
    expect(de.map((h) => [h.language, h.oldText, h.newText])).toEqual([
      ['de', 'A-de1', 'A-de2'],
      ['de', null, 'A-de1'],
    ]);
    expect((await history(api, 'key=one.b&language=en')).map((h) => h.newText)).toEqual(['B2', 'B1']);
    expect((await history(api, 'key=one.a&language=de&page=1&size=1')).map((h) => h.newText)).toEqual(['A-de1']);
    // A cell event is reverted by its own id, whichever position it has in its batch.
    const res = await api.post(`/api/v2/translations/history/${de[0].id}/revert`);
    expect(res.data).toMatchObject({ reverted: 1 });
    expect((await cells(api))['one.a/de']).toEqual(['A-de1', 'NOT_REVIEWED']);
    expect((await cells(api))['one.b/de']).toEqual(['B-de2', 'NOT_REVIEWED']);
  });

  it('a locked key refuses a cell revert (409) and records nothing', async () => {
    const [latest] = await history(api, 'key=title&language=de');
    await api.patch('/api/v1/translation-keys?key=title', { lock: true });
    const count = (await api.get('/api/v2/activity?size=1')).data;
    const res = await api.post(`/api/v2/translations/history/${latest.id}/revert`);
    expect(res.status).toBe(409);
    expect(res.msg).toMatch(/locked/);
    expect((await api.get('/api/v2/activity?size=1')).data[0].id).toBe(count[0].id);
    await api.patch('/api/v1/translation-keys?key=title', { lock: false });
  });

  it('reverts a whole import exactly, keeps cells changed since, respects locks, and logs the revert', async () => {
    await importOk(
      service,
      api.apiKey,
      json({ en: { a: 'A', b: 'B', c: 'C', d: 'D' }, de: { a: 'A-de', b: 'B-de' } }),
      { uploadFormat: 'multi-language-json' },
    );
    await api.patch('/api/v2/translations', { key: 'b', language: 'de', text: 'B-de', reviewStatus: 'REVIEWED' });
    const original = await cells(api);
    // The import to undo: replaces and adds texts, in both languages and a customer's overrides.
    await api.post('/api/v1/customers', { key: 'acme' });
    await importOk(
      service,
      api.apiKey,
      json({ en: { a: 'A2', b: 'B2', c: 'C2', e: 'E2' }, de: { a: 'A2-de', b: 'B2-de', c: 'C2-de' } }),
      {
        uploadFormat: 'multi-language-json',
        importOptions: 'REPLACE_TRANSLATION_IF_FOUND',
      },
    );
    await importOk(service, api.apiKey, json({ en: { a: 'Acme A' } }), {
      uploadFormat: 'multi-language-json',
      customerId: 'acme',
    });
    const [customerImport, bigImport] = (await api.get('/api/v2/activity?kind=IMPORT&size=2')).data;
    expect(bigImport.cellsChanged).toBe(7);

    // Reverting the whole import restores every cell exactly (texts and review status), and deletes the key it created.
    const res = await api.post(`/api/v2/activity/${bigImport.id}/revert`);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      reverted: 6,
      changedSince: 0,
      refusedLocked: 0,
      gone: 0,
      deletedKeys: 1,
      removed: 1,
    });
    const restored = await cells(api);
    for (const [cell, value] of Object.entries(original)) expect([cell, restored[cell]]).toEqual([cell, value]);
    expect(restored['e/en']).toBeUndefined();
    expect(restored['c/de']).toEqual(['', 'NOT_REVIEWED']);
    // The customer's import is another change: untouched.
    expect((await cells(api, 'acme'))['a/en']).toEqual(['Acme A', 'NOT_REVIEWED']);
    const [revert] = (await api.get('/api/v2/activity?size=1')).data;
    expect(revert).toMatchObject({
      kind: 'REVERT',
      revertOf: bigImport.id,
      cellsChanged: 7,
      details: { reverted: 6, deletedKeys: 1 },
    });
    // Reverting the revert brings the import's texts back; the deleted key is not recreated.
    expect((await api.post(`/api/v2/activity/${revert.id}/revert`)).data).toMatchObject({ reverted: 6, gone: 1 });
    expect((await cells(api))['a/en']).toEqual(['A2', 'NOT_REVIEWED']);
    expect((await cells(api))['e/en']).toBeUndefined();

    // A cell changed after the change keeps its newer text; a locked key keeps its text.
    await api.patch('/api/v2/translations', { key: 'c', language: 'en', text: 'Mine' });
    await api.patch('/api/v1/translation-keys?key=a', { lock: true });
    const again = await api.post(`/api/v2/activity/${bigImport.id}/revert`);
    // The first revert is itself reverted: the import's cells hold its texts again, except c/en (changed), a (locked) and e (deleted).
    expect(again.data).toMatchObject({ changedSince: 1, refusedLocked: 2, reverted: 3, gone: 1 });
    const partly = await cells(api);
    expect(partly['c/en']).toEqual(['Mine', 'NOT_REVIEWED']);
    expect(partly['a/en']).toEqual(['A2', 'NOT_REVIEWED']);
    expect(partly['b/de']).toEqual(['B-de', 'REVIEWED']);
    await api.patch('/api/v1/translation-keys?key=a', { lock: false });
    // A change without cells that created nothing has nothing to revert; an unknown one is 404.
    const [keyChange] = (await api.get('/api/v2/activity?kind=KEYS&size=1')).data;
    expect((await api.post(`/api/v2/activity/${keyChange.id}/revert`)).status).toBe(400);
    expect((await api.post('/api/v2/activity/987654321/revert')).status).toBe(404);
    void customerImport;
  });

  it('a deleted language takes its texts with it, into the history; reverting that change finds them gone', async () => {
    await api.post('/api/v1/languages', { key: 'fr' });
    await api.patch('/api/v2/translations', { key: 'title', language: 'fr', text: 'Titre' });
    expect((await api.delete('/api/v1/languages/fr')).status).toBe(200);
    const [entry] = (await api.get('/api/v2/activity?kind=LANGUAGES&size=1')).data;
    expect(entry).toMatchObject({ details: { action: 'DELETE_LANGUAGE', language: 'fr' }, cellsChanged: 1 });
    const cellsOf = (await api.get(`/api/v2/activity/${entry.id}/cells`)).data;
    expect(cellsOf).toMatchObject([{ key: 'title', language: null, oldText: 'Titre', newText: '' }]);
    expect((await api.post(`/api/v2/activity/${entry.id}/revert`)).data).toMatchObject({ reverted: 0, gone: 1 });
  });

  it('the GraphQL history of a customer override and its revert', async () => {
    const { data } = await api.gql(
      '{ translationHistory(key: "a", language: "en", customerKey: "acme") { id newText customerKey actor { kind } } }',
    );
    expect(data.translationHistory).toMatchObject([
      { newText: 'Acme A', customerKey: 'acme', actor: { kind: 'API_KEY' } },
    ]);
    const reverted = await api.gql('mutation($id: ID!) { revertTranslation(cellChangeId: $id) { reverted } }', {
      id: data.translationHistory[0].id,
    });
    expect(reverted.data.revertTranslation.reverted).toBe(1);
    expect((await cells(api, 'acme'))['a/en'][0]).toBe('A2');
  });
});

describe('retention', () => {
  it('keeps everything by default; with historyRetentionDays, prunes older events and keeps the texts', async () => {
    const api = await projectApi(service, account, 'Retention');
    const projectId = await projectIdOf(service.db, api.projectToken);
    await importOk(service, api.apiKey, json({ en: { old: 'Old', kept: 'Kept' } }), {
      uploadFormat: 'multi-language-json',
    });
    await service.db.prisma.$executeRawUnsafe(
      `UPDATE "Activity" SET at = at - interval '40 days' WHERE "projectId" = $1`,
      projectId,
    );
    await service.db.prisma.$executeRawUnsafe(
      `UPDATE "CellChangeBatch" SET at = at - interval '40 days' WHERE "projectId" = $1`,
      projectId,
    );
    await api.patch('/api/v2/translations', { key: 'kept', language: 'en', text: 'Kept!' });
    await pruneHistory();
    expect(await storedCellEvents(service.db.prisma, { projectId })).toHaveLength(3);

    expect((await api.gql('mutation { setHistoryRetention(days: 0) }')).errors?.[0].extensions.code).toBe(
      'BAD_REQUEST',
    );
    expect((await api.gql('mutation { setHistoryRetention(days: 30) }')).data.setHistoryRetention).toBe(30);
    expect((await api.gql('{ historyRetentionDays }')).data.historyRetentionDays).toBe(30);
    const pruned = await pruneHistory();
    expect(pruned.cells).toBeGreaterThanOrEqual(2);
    expect((await history(api, 'key=kept&language=en')).map((h) => h.newText)).toEqual(['Kept!']);
    expect(await history(api, 'key=old&language=en')).toEqual([]);
    expect(await cells(api)).toEqual({ 'old/en': ['Old', 'NOT_REVIEWED'], 'kept/en': ['Kept!', 'NOT_REVIEWED'] });
    const kinds = (await api.get('/api/v2/activity?size=100')).data.map((e: any) => e.kind);
    expect(kinds).toEqual(['SETTINGS', 'TRANSLATIONS']);
    expect(
      envelope(await service.request({ url: '/api/v2/activity', headers: { 'x-service-token': api.apiKey } })).status,
    ).toBe(200);
  });
});

// Reverting a change takes back the keys, languages and customers it created
// (an import, v1 POST, GraphQL writes), keeps and reports those someone else
// wrote or edited since, records it all in the revert's activity entry, and
// leaves the unpublished-changes count saying what really differs from the
// publication.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { contentOf, importOk, keysOf } from '../support/transfer.js';

let service: TestService;
let account: TestAccount;
beforeAll(async () => {
  service = await startTestService();
  account = await service.account();
});
afterAll(() => service.close());

const json = (value: unknown) => JSON.stringify(value);

async function lastEntry(api: ProjectApi, kind?: string) {
  const [entry] = (await api.get(`/api/v2/activity?size=1${kind ? `&kind=${kind}` : ''}`)).data;
  return entry;
}

const languagesOf = async (api: ProjectApi) =>
  ((await api.get('/api/v1/languages')).data as { key: string }[]).map((l) => l.key).sort();
const customersOf = async (api: ProjectApi) =>
  ((await api.get('/api/v1/customers')).data as { key: string }[]).map((c) => c.key).sort();
const keyNames = async (api: ProjectApi) =>
  (await keysOf(service, api.projectToken)).map((k) => (k.namespace ? `${k.namespace}/${k.key}` : k.key));

const backup = (keys: unknown[], languages: unknown[], customers: unknown[] = []) =>
  json({ format: 'project-backup-json', version: 1, languages, keys, customers });

describe('reverting an import', () => {
  it('deletes the keys, languages and customers it created; the project is as published again, with nothing unpublished', async () => {
    const api = await projectApi(service, account, 'Import revert');
    await importOk(service, api.apiKey, json({ en: { title: 'Title', body: 'Body' } }), {
      uploadFormat: 'multi-language-json',
    });
    expect((await api.post('/api/v2/environments/_latest/publish')).status).toBe(200);
    expect((await api.counters()).unpublishedChanges).toBe(0);
    const published = {
      content: await contentOf(service, api.projectToken),
      keys: await keyNames(api),
      languages: await languagesOf(api),
    };

    // An import replacing a text, filling none, and bringing keys, a language and a customer of its own.
    await importOk(
      service,
      api.apiKey,
      backup(
        [
          { key: 'title', translations: { en: { text: 'Title 2' }, fr: { text: 'Titre' } } },
          {
            key: 'fresh.one',
            translations: { en: { text: 'One' }, fr: { text: 'Un' } },
            customerTranslations: { acme: { en: { text: 'ACME one' } } },
          },
          { key: 'fresh.two', namespace: 'web', translations: { en: { text: 'Two' } } },
        ],
        [
          { key: 'en', isDefault: true },
          { key: 'fr', name: 'French' },
        ],
        [{ key: 'acme' }],
      ),
      { uploadFormat: 'project-backup-json', importOptions: 'REPLACE_TRANSLATION_IF_FOUND' },
    );
    const imported = await lastEntry(api, 'IMPORT');
    expect(await languagesOf(api)).toEqual(['en', 'fr']);
    expect((await api.counters()).unpublishedChanges).toBeGreaterThan(0);

    const res = await api.post(`/api/v2/activity/${imported.id}/revert`);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      reverted: 1,
      changedSince: 0,
      gone: 0,
      deletedKeys: 2,
      deletedLanguages: ['fr'],
      deletedCustomers: ['acme'],
      kept: [],
      keptCount: 0,
    });
    // The texts that went with them: fresh.one (en, fr, acme's override), fresh.two (en), title/fr.
    expect(res.data.removed).toBe(5);
    expect(await keyNames(api)).toEqual(published.keys);
    expect(await languagesOf(api)).toEqual(published.languages);
    expect(await customersOf(api)).toEqual([]);
    expect(await contentOf(service, api.projectToken)).toEqual(published.content);
    // What the CDN serves is what the project holds: nothing unpublished.
    expect((await api.counters()).unpublishedChanges).toBe(0);

    // The revert's entry says what went; the texts that went are in its history.
    const entry = await lastEntry(api);
    expect(entry).toMatchObject({
      kind: 'REVERT',
      revertOf: imported.id,
      details: { deletedKeys: 2, deletedLanguages: ['fr'], deletedCustomers: ['acme'], keptCount: 0 },
    });
    const gone = (await api.get(`/api/v2/activity/${entry.id}/cells?size=50`)).data as any[];
    expect(
      gone
        .filter((c) => c.key === 'fresh.one')
        .map((c) => c.oldText)
        .sort(),
    ).toEqual(['ACME one', 'One', 'Un']);
    // GraphQL answers the same.
    const again = await api.gql(
      `mutation($id: ID!) { revertChange(activityId: $id) { reverted deletedKeys keptCount } }`,
      { id: imported.id },
    );
    expect(again.data.revertChange).toEqual({ reverted: 0, deletedKeys: 0, keptCount: 0 });
  });

  it('keeps what someone else wrote or edited since, and says why', async () => {
    const api = await projectApi(service, account, 'Import revert kept');
    await importOk(service, api.apiKey, json({ en: { base: 'Base' } }), { uploadFormat: 'multi-language-json' });
    expect((await api.post('/api/v2/environments/_latest/publish')).status).toBe(200);
    await importOk(
      service,
      api.apiKey,
      json({
        en: { edited: 'Edited', renamed: 'Renamed', locked: 'Locked', plain: 'Plain', base: 'Base' },
        de: { base: 'Basis', plain: 'Schlicht' },
        it: { plain: 'Semplice' },
      }),
      { uploadFormat: 'multi-language-json' },
    );
    const imported = await lastEntry(api, 'IMPORT');
    // Someone else's work since: a text of a created key, a text in a created language, a rename, a lock.
    await api.patch('/api/v2/translations', { key: 'edited', language: 'en', text: 'Mine' });
    await api.patch('/api/v2/translations', { key: 'base', language: 'de', text: 'Grundlage' });
    expect((await api.patch('/api/v1/translation-keys?key=renamed', { key: 'renamed.now' })).status).toBe(200);
    expect((await api.patch('/api/v1/translation-keys?key=locked', { lock: true })).status).toBe(200);

    const res = await api.post(`/api/v2/activity/${imported.id}/revert`);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      deletedKeys: 1,
      deletedLanguages: ['it'],
      changedSince: 2,
      refusedLocked: 1,
      keptCount: 4,
    });
    expect(new Set(res.data.kept.map((k: any) => `${k.kind}:${k.key}:${k.reason}`))).toEqual(
      new Set([
        'KEY:edited:WRITTEN_SINCE',
        'KEY:renamed.now:EDITED_SINCE',
        'KEY:locked:EDITED_SINCE',
        'LANGUAGE:de:WRITTEN_SINCE',
      ]),
    );
    expect(await keyNames(api)).toEqual(['base', 'edited', 'renamed.now', 'locked']);
    expect(await languagesOf(api)).toEqual(['de', 'en']);
    const content = await contentOf(service, api.projectToken);
    // The locked key keeps the import's text (the lock refuses the write).
    expect(content.en).toEqual({ base: 'Base', edited: 'Mine', 'renamed.now': '', locked: 'Locked' });
    expect(content.de).toEqual({ base: 'Grundlage' });
    // Unpublished: what differs from the publication (edited/en, base/de, locked/en), not what the revert took back.
    expect((await api.counters()).unpublishedChanges).toBe(3);
    expect((await lastEntry(api)).details.kept).toHaveLength(4);
  });

  it('counts as unpublished a cell someone changed between the publication and the import', async () => {
    const api = await projectApi(service, account, 'Import revert between');
    await importOk(service, api.apiKey, json({ en: { a: 'A', b: 'B' } }), { uploadFormat: 'multi-language-json' });
    expect((await api.post('/api/v2/environments/_latest/publish')).status).toBe(200);
    await api.patch('/api/v2/translations', { key: 'a', language: 'en', text: 'A (edited)' });
    await importOk(service, api.apiKey, json({ en: { a: 'A2', b: 'B2' } }), {
      uploadFormat: 'multi-language-json',
      importOptions: 'REPLACE_TRANSLATION_IF_FOUND',
    });
    const imported = await lastEntry(api, 'IMPORT');
    expect((await api.post(`/api/v2/activity/${imported.id}/revert`)).data).toMatchObject({ reverted: 2 });
    // a holds the edit made after the publication: still unpublished; b is as published.
    expect(await contentOf(service, api.projectToken)).toEqual({ en: { a: 'A (edited)', b: 'B' } });
    expect((await api.counters()).unpublishedChanges).toBe(1);
  });
});

describe('reverting other writes that created something', () => {
  it('v1 POST translations: the keys and languages it created go', async () => {
    const api = await projectApi(service, account, 'V1 revert');
    await api.post('/api/v1/translation-keys', { key: 'kept' });
    const res = await api.post('/api/v1/translations', {
      content: [
        { key: 'kept', language: 'en', text: 'Kept' },
        { key: 'made', language: 'en', text: 'Made' },
        { key: 'made', language: 'pl', text: 'Zrobione' },
      ],
    });
    expect(res.status).toBe(200);
    const written = await lastEntry(api, 'TRANSLATIONS');
    const reverted = await api.post(`/api/v2/activity/${written.id}/revert`);
    expect(reverted.data).toMatchObject({ reverted: 1, deletedKeys: 1, deletedLanguages: ['pl'], keptCount: 0 });
    expect(await keyNames(api)).toEqual(['kept']);
    expect(await languagesOf(api)).toEqual(['en']);
    expect(await contentOf(service, api.projectToken)).toEqual({ en: { kept: '' } });
  });

  it('GraphQL: a key, a language and a customer created one at a time go with the revert of their change', async () => {
    const api = await projectApi(service, account, 'GraphQL revert');
    const created = await api.gql('mutation { createTranslationKey(input: { key: "gql.key" }) { key } }');
    expect(created.errors).toBeUndefined();
    const keyChange = await lastEntry(api, 'KEYS');
    await api.gql(
      'mutation { importTranslations(content: [{ key: "gql.other", language: "sv", text: "Hej" }]) { uniqueKeysProcessed } }',
    );
    const writeChange = await lastEntry(api, 'TRANSLATIONS');
    expect((await api.post('/api/v1/customers', { key: 'solo' })).status).toBe(200);
    const customerChange = await lastEntry(api, 'CUSTOMERS');

    const key = await api.gql(
      `mutation($id: ID!) { revertChange(activityId: $id) { reverted deletedKeys kept { key reason } } }`,
      { id: keyChange.id },
    );
    expect(key.data.revertChange).toEqual({ reverted: 0, deletedKeys: 1, kept: [] });
    const write = await api.gql(
      `mutation($id: ID!) { revertChange(activityId: $id) { deletedKeys deletedLanguages } }`,
      { id: writeChange.id },
    );
    expect(write.data.revertChange).toEqual({ deletedKeys: 1, deletedLanguages: ['sv'] });
    expect((await api.post(`/api/v2/activity/${customerChange.id}/revert`)).data).toMatchObject({
      deletedCustomers: ['solo'],
    });
    expect(await keyNames(api)).toEqual([]);
    expect(await languagesOf(api)).toEqual(['en']);
    expect(await customersOf(api)).toEqual([]);
    // Nothing left to take back: a change without cells and without anything it created still there.
    expect((await api.post(`/api/v2/activity/${keyChange.id}/revert`)).status).toBe(400);
  });

  it('a project keeps its default language', async () => {
    const api = await projectApi(service, account, 'Languages kept');
    const language = await api.gql('mutation { createLanguage(input: { key: "nl" }) { key } }');
    expect(language.errors).toBeUndefined();
    const change = await lastEntry(api, 'LANGUAGES');
    // Its only other language gone, nl is the default.
    expect((await api.delete('/api/v1/languages/en')).status).toBe(200);
    const res = await api.post(`/api/v2/activity/${change.id}/revert`);
    expect(res.data).toMatchObject({
      deletedLanguages: [],
      kept: [{ kind: 'LANGUAGE', key: 'nl', namespace: '', reason: 'DEFAULT_LANGUAGE' }],
      keptCount: 1,
    });
    expect(await languagesOf(api)).toEqual(['nl']);
  });
});

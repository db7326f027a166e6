// The consistency checks (docs/quality-checks.md, "Consistency"): computed by
// the findings updater per group of cells (the same source text, the same
// translation), stored as findings like the others, recomputed for the groups
// a write touches and the groups it leaves; plural forms of one message are not
// compared. And a key's new characters limit checks its cells again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { importOk } from '../support/transfer.js';
import { namedFindings } from '../support/findings.js';
import { CHECK_MESSAGES } from '../../src/checks/messages.js';
import { wordInEnglish } from '../../src/message-text.js';

let service: TestService;
let owner: TestAccount;
let api: ProjectApi;
let projectId: number;

const INCONSISTENT = 'inconsistent-translation';
const AMBIGUOUS = 'ambiguous-translation';

async function settled(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await service.db.prisma.findingQueue.count()) === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('findings still pending');
}

/** The consistency findings of a language: "key check[:severity][:dismissed] message". */
async function consistency(language: string): Promise<string[]> {
  const rows = await namedFindings(service.db.prisma, { projectId, check: { in: [INCONSISTENT, AMBIGUOUS] } });
  return rows
    .filter((r) => r.language === language)
    .map(
      (r) =>
        `${r.key} ${r.check}${r.severity === 'warning' ? '' : `:${r.severity}`}${r.dismissed ? ':dismissed' : ''} ${r.message}`,
    )
    .sort();
}

/** Writes new cells (v1 POST keeps existing texts). */
const write = async (content: { key: string; language: string; text: string }[]) => {
  const res = await api.post('/api/v1/translations', { content });
  expect(res.msg + res.status).toBe('OK200');
  await settled();
};

/** Changes existing cells, one request each (v2 PATCH). */
const change = async (content: { key: string; language: string; text: string }[]) => {
  for (const cell of content) expect((await api.patch('/api/v2/translations', cell)).status).toBe(200);
  await settled();
};

const SET =
  'mutation($checks: [QualityCheckSettingInput!]) { setQualityChecks(checks: $checks) { checks { id severity } } }';
const SAME = (names: string) =>
  `The same source text is translated otherwise in ${names}: use one translation, or dismiss if the keys mean different things`;
const OTHER = (names: string) =>
  `The same translation stands for another source text in ${names}: translate each source text as it says, or dismiss if they mean the same`;

beforeAll(async () => {
  service = await startTestService({ env: { FINDINGS_POLL_MS: '50', LOG_LEVEL: 'error' } });
  owner = await service.account();
  api = await projectApi(service, owner, 'Consistency');
  for (const key of ['de', 'ru', 'ja']) expect((await api.post('/api/v1/languages', { key })).status).toBe(200);
  projectId = (await service.db.prisma.project.findFirstOrThrow({ where: { projectToken: api.projectToken } })).id;
  // ambiguous-translation is off by default (docs/quality-checks.md): this project turns it on.
  expect((await api.gql(SET, { checks: [{ check: AMBIGUOUS, severity: 'warning' }] })).errors).toBeUndefined();
});
afterAll(() => service.close());

describe('consistency findings', () => {
  it('finds one source translated two ways and one translation for two sources; plural forms and case are no finding', async () => {
    await write([
      // "Save" three times: German twice "Speichern", once "Sichern" (a finding); Russian and Japanese alike (none).
      { key: 'save.toolbar', language: 'en', text: 'Save' },
      { key: 'save.toolbar', language: 'de', text: 'Speichern' },
      { key: 'save.toolbar', language: 'ru', text: 'Сохранить' },
      { key: 'save.toolbar', language: 'ja', text: '保存' },
      { key: 'save.dialog', language: 'en', text: 'Save' },
      { key: 'save.dialog', language: 'de', text: 'Sichern' },
      { key: 'save.dialog', language: 'ru', text: 'Сохранить' },
      { key: 'save.dialog', language: 'ja', text: '保存' },
      { key: 'save.menu', language: 'en', text: 'Save' },
      { key: 'save.menu', language: 'de', text: 'Speichern' },
      // "Schließen" for both "Close" and "Lock" (abschließen): a finding.
      { key: 'close', language: 'en', text: 'Close' },
      { key: 'close', language: 'de', text: 'Schließen' },
      { key: 'lock', language: 'en', text: 'Lock' },
      { key: 'lock', language: 'de', text: 'Schließen' },
      // "Settings" and "settings" are one source: "Einstellungen" for both is no finding.
      { key: 'menu.settings', language: 'en', text: 'Settings' },
      { key: 'menu.settings', language: 'de', text: 'Einstellungen' },
      { key: 'title.settings', language: 'en', text: 'settings' },
      { key: 'title.settings', language: 'de', text: 'Einstellungen' },
      // The same source but for its markup: one source, translated alike.
      { key: 'promo.app', language: 'en', text: 'Bring your passwords from<br/>Google' },
      { key: 'promo.app', language: 'de', text: 'Passwörter von Google holen' },
      { key: 'promo.web', language: 'en', text: 'Bring your passwords from Google' },
      { key: 'promo.web', language: 'de', text: 'Passwörter von Google holen' },
      // i18next plural keys: Russian translates the same English form two ways, Japanese two English forms alike. No finding.
      { key: 'items_few', language: 'en', text: '{{count}} items' },
      { key: 'items_few', language: 'ru', text: '{{count}} предмета' },
      { key: 'items_many', language: 'en', text: '{{count}} items' },
      { key: 'items_many', language: 'ru', text: '{{count}} предметов' },
      { key: 'files_one', language: 'en', text: '{{count}} file' },
      { key: 'files_one', language: 'ja', text: '{{count}} 個のファイル' },
      { key: 'files_other', language: 'en', text: '{{count}} files' },
      { key: 'files_other', language: 'ja', text: '{{count}} 個のファイル' },
    ]);
    expect(await consistency('de')).toEqual([
      `close ${AMBIGUOUS} ${OTHER('lock ("Lock")')}`,
      `lock ${AMBIGUOUS} ${OTHER('close ("Close")')}`,
      `save.dialog ${INCONSISTENT} ${SAME('save.menu ("Speichern"), save.toolbar ("Speichern")')}`,
      `save.menu ${INCONSISTENT} ${SAME('save.dialog ("Sichern")')}`,
      `save.toolbar ${INCONSISTENT} ${SAME('save.dialog ("Sichern")')}`,
    ]);
    expect(await consistency('ru')).toEqual([]);
    expect(await consistency('ja')).toEqual([]);
    // The default language's own texts are the sources: never compared.
    expect(await consistency('en')).toEqual([]);
  });

  it('are listed and counted for CI, filtered by check', async () => {
    const rest = await api.get(`/api/v2/quality-checks?check=${INCONSISTENT}`);
    expect(rest.status).toBe(200);
    expect(rest.data).toMatchObject({
      total: 3,
      warnings: 3,
      pending: 0,
      counts: [{ languageCode: 'de', check: INCONSISTENT, severity: 'warning', count: 3, dismissed: 0 }],
    });
    expect(rest.data.findings.map((f: any) => `${f.key} ${f.text}`)).toEqual([
      'save.toolbar Speichern',
      'save.dialog Sichern',
      'save.menu Speichern',
    ]);
    const gql = await api.gql(
      `{ qualityFindings(check: "${AMBIGUOUS}") { total counts { languageCode check count } findings { key languageCode message } } }`,
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data.qualityFindings).toMatchObject({
      total: 2,
      counts: [{ languageCode: 'de', check: AMBIGUOUS, count: 2 }],
    });
    const checks = (await api.gql('{ qualityChecks { checks { id category severity enabledByDefault } } }')).data
      .qualityChecks.checks;
    expect(checks.filter((c: any) => c.category === 'consistency')).toEqual([
      { id: INCONSISTENT, category: 'consistency', severity: 'warning', enabledByDefault: true },
      { id: AMBIGUOUS, category: 'consistency', severity: 'warning', enabledByDefault: false },
    ]);
    // The editor's filter by check reads them too.
    const rows = await api.gql('query($f: EditorFilter) { editorRows(filter: $f) { keys { key } } }', {
      f: { findingCheck: INCONSISTENT, languages: ['de'] },
    });
    expect(rows.data.editorRows.keys.map((k: any) => k.key).sort()).toEqual([
      'save.dialog',
      'save.menu',
      'save.toolbar',
    ]);
    // And the editor's rows carry them for the cells, which it cannot check alone.
    const row = await api.gql(
      'query($f: EditorFilter) { editorRows(filter: $f) { keys { key consistencyFindings(languages: ["de", "ru"]) { languageCode check severity message } } } }',
      { f: { key: 'save.menu' } },
    );
    expect(row.errors).toBeUndefined();
    expect(row.data.editorRows.keys).toEqual([
      {
        key: 'save.menu',
        consistencyFindings: [
          { languageCode: 'de', check: INCONSISTENT, severity: 'warning', message: SAME('save.dialog ("Sichern")') },
        ],
      },
    ]);
    // The message as data too (src/checks/messages.ts), for a client that words it in its own language.
    const worded = await api.gql(
      'query($f: EditorFilter) { editorRows(filter: $f) { keys { consistencyFindings(languages: ["de"]) { message messageText { id params } } } } }',
      { f: { key: 'save.menu' } },
    );
    const [finding] = worded.data.editorRows.keys[0].consistencyFindings;
    expect(finding.messageText).toEqual({
      id: `${INCONSISTENT}.keys`,
      params: { keys: 'save.dialog ("Sichern")' },
    });
    expect(wordInEnglish(CHECK_MESSAGES, finding.messageText)).toBe(finding.message);
  });

  it('follows a fix: the group a text leaves and the one it joins are computed again', async () => {
    await change([{ key: 'save.dialog', language: 'de', text: 'Speichern' }]);
    expect(await consistency('de')).toEqual([
      `close ${AMBIGUOUS} ${OTHER('lock ("Lock")')}`,
      `lock ${AMBIGUOUS} ${OTHER('close ("Close")')}`,
    ]);
    await change([{ key: 'lock', language: 'de', text: 'Sperren' }]);
    expect(await consistency('de')).toEqual([]);
  });

  it('follows a source change: the key leaves its group, its languages checked again', async () => {
    await change([{ key: 'save.dialog', language: 'de', text: 'Sichern' }]);
    expect((await consistency('de')).length).toBe(3);
    await change([{ key: 'save.dialog', language: 'en', text: 'Save as' }]);
    expect(await consistency('de')).toEqual([]);
    // Its Russian and Japanese texts, right for "Save", now stand for "Save as" too: found, then fixed.
    expect(await consistency('ru')).toEqual([
      `save.dialog ${AMBIGUOUS} ${OTHER('save.toolbar ("Save")')}`,
      `save.toolbar ${AMBIGUOUS} ${OTHER('save.dialog ("Save as")')}`,
    ]);
    expect((await consistency('ja')).length).toBe(2);
    await change([
      { key: 'save.dialog', language: 'de', text: 'Speichern unter' },
      { key: 'save.dialog', language: 'ru', text: 'Сохранить как' },
      { key: 'save.dialog', language: 'ja', text: '名前を付けて保存' },
    ]);
    expect(await consistency('de')).toEqual([]);
    expect(await consistency('ru')).toEqual([]);
    expect(await consistency('ja')).toEqual([]);
  });

  it('names three other keys and counts the rest', async () => {
    await write(
      ['a1', 'a2', 'a3', 'a4']
        .map((k) => ({ key: `save.${k}`, language: 'en', text: 'Save' }))
        .concat(['a1', 'a2', 'a3', 'a4'].map((k) => ({ key: `save.${k}`, language: 'de', text: 'Sichern' }))),
    );
    const de = await consistency('de');
    expect(de).toContain(
      `save.toolbar ${INCONSISTENT} ${SAME('save.a1 ("Sichern"), save.a2 ("Sichern"), save.a3 ("Sichern") and 1 more key')}`,
    );
    expect(de).toContain(`save.a4 ${INCONSISTENT} ${SAME('save.menu ("Speichern"), save.toolbar ("Speichern")')}`);
    expect(de.length).toBe(6);
  });

  it('a deleted key is no longer named: the cells that named it are checked again', async () => {
    const DELETE = 'mutation($keys: [TranslationKeyRefInput!]!) { deleteTranslationKeys(translationKeys: $keys) }';
    const out = await api.gql(DELETE, { keys: ['a1', 'a2', 'a3', 'a4'].map((k) => ({ key: `save.${k}` })) });
    expect(out.errors).toBeUndefined();
    await settled();
    expect(await consistency('de')).toEqual([]);
  });

  it('a renamed key is named by its new name', async () => {
    await write([
      { key: 'trash.list', language: 'en', text: 'Delete' },
      { key: 'trash.list', language: 'de', text: 'Löschen' },
      { key: 'trash.item', language: 'en', text: 'Delete' },
      { key: 'trash.item', language: 'de', text: 'Entfernen' },
    ]);
    expect(await consistency('de')).toContain(`trash.list ${INCONSISTENT} ${SAME('trash.item ("Entfernen")')}`);
    const out = await api.gql(
      'mutation { updateTranslationKey(key: "trash.item", input: { key: "trash.entry" }) { key } }',
    );
    expect(out.errors).toBeUndefined();
    await settled();
    expect(await consistency('de')).toEqual([
      `trash.entry ${INCONSISTENT} ${SAME('trash.list ("Löschen")')}`,
      `trash.list ${INCONSISTENT} ${SAME('trash.entry ("Entfernen")')}`,
    ]);
    const DELETE = 'mutation($keys: [TranslationKeyRefInput!]!) { deleteTranslationKeys(translationKeys: $keys) }';
    expect((await api.gql(DELETE, { keys: [{ key: 'trash.list' }, { key: 'trash.entry' }] })).errors).toBeUndefined();
    await settled();
  });

  it('has a configurable severity, can be turned off, and dismissed for the text the cell has', async () => {
    await change([{ key: 'lock', language: 'de', text: 'Schließen' }]);
    expect(await consistency('de')).toEqual([
      `close ${AMBIGUOUS} ${OTHER('lock ("Lock")')}`,
      `lock ${AMBIGUOUS} ${OTHER('close ("Close")')}`,
    ]);
    expect((await api.gql(SET, { checks: [{ check: AMBIGUOUS, severity: 'error' }] })).errors).toBeUndefined();
    expect(await consistency('de')).toEqual([
      `close ${AMBIGUOUS}:error ${OTHER('lock ("Lock")')}`,
      `lock ${AMBIGUOUS}:error ${OTHER('close ("Close")')}`,
    ]);
    const dismissed = await api.gql(
      'mutation { dismissQualityFinding(key: "lock", languageCode: "de", check: "ambiguous-translation", reason: "Both lock a door") }',
    );
    expect(dismissed.data?.dismissQualityFinding).toBe(1);
    // The other key changes: the finding is computed again, still dismissed (this cell's text is the same).
    await change([{ key: 'close', language: 'en', text: 'Close the door' }]);
    expect(await consistency('de')).toEqual([
      `close ${AMBIGUOUS}:error ${OTHER('lock ("Lock")')}`,
      `lock ${AMBIGUOUS}:error:dismissed ${OTHER('close ("Close the door")')}`,
    ]);
    const listed = (await api.get(`/api/v2/quality-checks?check=${AMBIGUOUS}`)).data;
    expect(listed.findings.map((f: any) => `${f.key} ${f.languageCode}`)).toEqual(['close de']);
    // Off: gone; back on: the project is checked again and they return.
    await api.gql(SET, { checks: [{ check: AMBIGUOUS, severity: 'off' }] });
    expect(await consistency('de')).toEqual([]);
    await api.gql(SET, { checks: [{ check: AMBIGUOUS, severity: 'warning' }] });
    await settled();
    expect(await consistency('de')).toEqual([
      `close ${AMBIGUOUS} ${OTHER('lock ("Lock")')}`,
      `lock ${AMBIGUOUS}:dismissed ${OTHER('close ("Close the door")')}`,
    ]);
  });

  it('recomputes only the groups a batch touches', async () => {
    const before = (await namedFindings(service.db.prisma, { projectId, check: AMBIGUOUS })).find(
      (f) => f.key === 'close',
    )!;
    expect(before).toBeDefined();
    // Mark the stored finding: a recomputation of its group would write the message again.
    await service.db.prisma.finding.update({
      where: {
        keyId_languageId_customerId_check_n: {
          keyId: before.keyId,
          languageId: before.languageId,
          customerId: 0,
          check: AMBIGUOUS,
          n: 0,
        },
      },
      data: { message: 'untouched' },
    });
    await change([{ key: 'save.menu', language: 'de', text: 'Sichern' }]);
    expect(
      (
        await service.db.prisma.finding.findFirstOrThrow({
          where: { keyId: before.keyId, languageId: before.languageId, check: AMBIGUOUS },
        })
      ).message,
    ).toBe('untouched');
    // The same text written again is no write: nothing is queued.
    await change([{ key: 'lock', language: 'de', text: 'Schließen' }]);
    expect(
      (
        await service.db.prisma.finding.findFirstOrThrow({
          where: { keyId: before.keyId, languageId: before.languageId, check: AMBIGUOUS },
        })
      ).message,
    ).toBe('untouched');
    // Another language's cell of the other member's key: its entry names that language, so only that cell
    // and its groups are checked again, not the key's German cell and its group.
    await change([{ key: 'lock', language: 'ru', text: 'Замок' }]);
    expect(
      (
        await service.db.prisma.finding.findFirstOrThrow({
          where: { keyId: before.keyId, languageId: before.languageId, check: AMBIGUOUS },
        })
      ).message,
    ).toBe('untouched');
    // The other member leaves the group: computed again, the finding goes.
    await change([{ key: 'lock', language: 'de', text: 'Abschließen' }]);
    expect(
      await service.db.prisma.finding.findFirst({
        where: { keyId: before.keyId, languageId: before.languageId, check: AMBIGUOUS },
      }),
    ).toBeNull();
  });
});

describe('a new characters limit', () => {
  const LIMIT =
    'mutation($k: String!, $l: Int!) { updateTranslationKey(key: $k, input: { charactersLimit: $l }) { charactersLimit } }';
  const limitFindings = async (key: string) =>
    (await namedFindings(service.db.prisma, { projectId, check: 'characters-limit' }))
      .filter((f) => f.key === key)
      .map((f) => `${f.language} ${f.message}`)
      .sort();

  it("checks the key's cells again (GraphQL, REST)", async () => {
    await write([
      { key: 'welcome', language: 'en', text: 'Welcome' },
      { key: 'welcome', language: 'de', text: 'Willkommen' },
    ]);
    expect(await limitFindings('welcome')).toEqual([]);
    expect((await api.gql(LIMIT, { k: 'welcome', l: 8 })).data.updateTranslationKey).toEqual({ charactersLimit: 8 });
    await settled();
    expect(await limitFindings('welcome')).toEqual(['de Over the limit: 10 of 8 characters; shorten it by 2']);
    expect((await api.patch('/api/v1/translation-keys?key=welcome', { charactersLimit: 6 })).status).toBe(200);
    await settled();
    expect(await limitFindings('welcome')).toEqual([
      'de Over the limit: 10 of 6 characters; shorten it by 4',
      'en Over the limit: 7 of 6 characters; shorten it by 1',
    ]);
    expect((await api.gql(LIMIT, { k: 'welcome', l: -1 })).data.updateTranslationKey).toEqual({
      charactersLimit: null,
    });
    await settled();
    expect(await limitFindings('welcome')).toEqual([]);
  });

  it("checks the key's cells again when an import sets the limit", async () => {
    await write([
      { key: 'hello', language: 'en', text: 'Hello' },
      { key: 'hello', language: 'de', text: 'Guten Tag' },
    ]);
    await importOk(service, api.apiKey, JSON.stringify({ hello: { message: 'Guten Tag', charactersLimit: 6 } }), {
      uploadFormat: 'simplelocalize-json',
      languageKey: 'de',
    });
    await settled();
    expect(await limitFindings('hello')).toEqual(['de Over the limit: 9 of 6 characters; shorten it by 3']);
  });
});

describe('a new default language', () => {
  it('checks every cell of the project again against its new source', async () => {
    const other = await projectApi(service, owner, 'Default change');
    for (const key of ['de', 'fr']) expect((await other.post('/api/v1/languages', { key })).status).toBe(200);
    const otherId = (await service.db.prisma.project.findFirstOrThrow({ where: { projectToken: other.projectToken } }))
      .id;
    expect((await other.gql(SET, { checks: [{ check: AMBIGUOUS, severity: 'warning' }] })).errors).toBeUndefined();
    const found = async () =>
      (await namedFindings(service.db.prisma, { projectId: otherId, check: { in: [INCONSISTENT, AMBIGUOUS] } }))
        .map((f) => `${f.key} ${f.language} ${f.check}`)
        .sort();
    expect(
      (
        await other.post('/api/v1/translations', {
          content: [
            { key: 'a', language: 'en', text: 'Save' },
            { key: 'a', language: 'de', text: 'Speichern' },
            { key: 'a', language: 'fr', text: 'Enregistrer' },
            { key: 'b', language: 'en', text: 'Save' },
            { key: 'b', language: 'de', text: 'Sichern' },
            { key: 'b', language: 'fr', text: 'Enregistrer' },
          ],
        })
      ).status,
    ).toBe(200);
    await settled();
    expect(await found()).toEqual([`a de ${INCONSISTENT}`, `b de ${INCONSISTENT}`]);
    // German becomes the source: its texts differ, so English "Save" and French "Enregistrer" now stand for two sources.
    const out = await other.gql('mutation { updateLanguage(key: "de", input: { isDefault: true }) { key isDefault } }');
    expect(out.errors).toBeUndefined();
    await settled();
    expect(await found()).toEqual([`a en ${AMBIGUOUS}`, `a fr ${AMBIGUOUS}`, `b en ${AMBIGUOUS}`, `b fr ${AMBIGUOUS}`]);
  });
});

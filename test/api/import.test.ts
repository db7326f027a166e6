// POST /api/v2/import: parameters, every import option, customers, namespaces,
// tags, plans, access, and the importFile mutation over the GraphQL
// multipart request spec.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { contentOf, importOk, importRequest, keysOf, multipart, projectSnapshot } from '../support/transfer.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ listen: true });
});
afterAll(() => service.close());

const accounts = new Map<string, Awaited<ReturnType<TestService['account']>>>();

/** A fresh project of an account on the plan (one account per plan: password hashing is slow on purpose). */
async function newProject(plan = 'business') {
  if (!accounts.has(plan)) accounts.set(plan, await service.account({ plan }));
  return accounts.get(plan)!.project('import');
}

const json = (value: unknown) => JSON.stringify(value);

describe('POST /api/v2/import', () => {
  it('streams the upload to a temp file under DATA_DIR/tmp and removes it, whether the import succeeds or is refused', async () => {
    const { apiKey } = await newProject();
    const uploads = join(service.config.dataDir, 'tmp');
    const left = () => (existsSync(uploads) ? readdirSync(uploads) : []);
    await importOk(service, apiKey, json({ en: { streamed: 'Streamed' } }), { uploadFormat: 'multi-language-json' });
    expect(
      (await importRequest(service, apiKey, '{"broken": ', { uploadFormat: 'multi-language-json' })).statusCode,
    ).toBe(400);
    expect((await importRequest(service, apiKey, json({ a: 'b' }), { uploadFormat: 'papyrus' })).statusCode).toBe(400);
    expect(existsSync(uploads)).toBe(true);
    expect(left()).toEqual([]);
  });

  it('imports a multi-language file, creates missing languages and answers the Import result', async () => {
    const { apiKey, projectToken } = await newProject();
    const data = await importOk(
      service,
      apiKey,
      json({ en: { hello: 'Hello', bye: 'Bye' }, de: { hello: 'Hallo', bye: 'Tschüss' }, fr: { hello: 'Bonjour' } }),
      {
        uploadFormat: 'multi-language-json',
      },
    );
    expect(data).toEqual({
      numberOfKeysFound: 2,
      numberOfUniqueKeysFound: 2,
      foundLanguages: [
        { key: 'en', name: 'English' },
        { key: 'de', name: 'German' },
        { key: 'fr', name: 'French' },
      ],
    });
    expect(await contentOf(service, projectToken)).toEqual({
      en: { hello: 'Hello', bye: 'Bye' },
      de: { hello: 'Hallo', bye: 'Tschüss' },
      fr: { hello: 'Bonjour' },
    });
    const languages = envelope(
      await service.request({ url: '/api/v1/languages', headers: { 'x-service-token': apiKey } }),
    ).data;
    expect(languages.map((l: { key: string }) => l.key)).toEqual(['en', 'de', 'fr']);
  });

  it('needs uploadFormat and names an unknown one', async () => {
    const { apiKey } = await newProject();
    const missing = await importRequest(service, apiKey, '{}', {});
    expect(missing.statusCode).toBe(400);
    expect(envelope(missing).msg).toBe('uploadFormat is required');
    const unknown = await importRequest(service, apiKey, '{}', { uploadFormat: 'klingon-scroll' });
    expect(unknown.statusCode).toBe(400);
    expect(envelope(unknown).msg).toContain("Unknown uploadFormat 'klingon-scroll'");
  });

  it('needs languageKey for a single-language format, and creates that language', async () => {
    const { apiKey, projectToken } = await newProject();
    const missing = await importRequest(service, apiKey, json({ a: 'A' }), { uploadFormat: 'single-language-json' });
    expect(missing.statusCode).toBe(400);
    expect(envelope(missing).msg).toMatch(/^languageKey is required: single-language-json is a single-language format/);
    const bad = await importRequest(service, apiKey, json({ a: 'A' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'pt BR',
    });
    expect(bad.statusCode).toBe(400);
    expect(envelope(bad).msg).toContain('languageKey');

    const data = await importOk(service, apiKey, json({ a: 'A', nested: { b: 'B' } }), {
      uploadFormat: 'single-language-json',
      languageKey: 'pt-BR',
    });
    expect(data.foundLanguages).toEqual([{ key: 'pt-BR', name: 'Brazilian Portuguese' }]);
    expect(await contentOf(service, projectToken)).toEqual({ 'pt-BR': { a: 'A', 'nested.b': 'B' } });
  });

  it('takes the language from the file where the format names it (po-pot Language header)', async () => {
    const { apiKey, projectToken } = await newProject();
    const po =
      'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "save"\nmsgstr "Speichern"\n';
    const data = await importOk(service, apiKey, po, { uploadFormat: 'po-pot' });
    expect(data.foundLanguages).toEqual([{ key: 'de', name: 'German' }]);
    expect(await contentOf(service, projectToken)).toEqual({ de: { save: 'Speichern' } });
  });

  it('imports only new translations unless REPLACE_TRANSLATION_IF_FOUND', async () => {
    const { apiKey, projectToken } = await newProject();
    await importOk(service, apiKey, json({ a: 'A1', b: 'B1' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
    });
    await importOk(service, apiKey, json({ a: 'A2', c: 'C2' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
    });
    expect(await contentOf(service, projectToken)).toEqual({ en: { a: 'A1', b: 'B1', c: 'C2' } });
    await importOk(service, apiKey, json({ a: 'A3', b: '' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      importOptions: 'REPLACE_TRANSLATION_IF_FOUND',
    });
    // An empty text in a file never erases a translation.
    expect(await contentOf(service, projectToken)).toEqual({ en: { a: 'A3', b: 'B1', c: 'C2' } });
  });

  it('applies TRIM_LEADING_TRAILING_SPACES, UNESCAPE_NEW_LINES and UNESCAPE_SINGLE_QUOTES to every format', async () => {
    const { apiKey, projectToken } = await newProject();
    const file = json({ trim: '  spaced  ', lines: 'one\\ntwo\\r\\nthree', quote: "It\\'s", all: "  It\\'s\\n  " });
    await importOk(service, apiKey, file, { uploadFormat: 'single-language-json', languageKey: 'en' });
    expect(await contentOf(service, projectToken)).toEqual({
      en: { trim: '  spaced  ', lines: 'one\\ntwo\\r\\nthree', quote: "It\\'s", all: "  It\\'s\\n  " },
    });
    await importOk(service, apiKey, file, {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      importOptions: ['REPLACE_TRANSLATION_IF_FOUND', 'TRIM_LEADING_TRAILING_SPACES'],
    });
    expect(await contentOf(service, projectToken)).toEqual({
      en: { trim: 'spaced', lines: 'one\\ntwo\\r\\nthree', quote: "It\\'s", all: "It\\'s\\n" },
    });
    await importOk(service, apiKey, file, {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      importOptions: 'REPLACE_TRANSLATION_IF_FOUND,UNESCAPE_NEW_LINES',
    });
    expect((await contentOf(service, projectToken)).en!.lines).toBe('one\ntwo\nthree');
    await importOk(service, apiKey, file, {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      importOptions: ['REPLACE_TRANSLATION_IF_FOUND', 'UNESCAPE_SINGLE_QUOTES'],
    });
    expect((await contentOf(service, projectToken)).en!.quote).toBe("It's");
    // All three: unescaped first, then trimmed (an escaped trailing newline goes too).
    await importOk(service, apiKey, file, {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      importOptions:
        'REPLACE_TRANSLATION_IF_FOUND,TRIM_LEADING_TRAILING_SPACES,UNESCAPE_NEW_LINES,UNESCAPE_SINGLE_QUOTES',
    });
    expect(await contentOf(service, projectToken)).toEqual({
      en: { trim: 'spaced', lines: 'one\ntwo\nthree', quote: "It's", all: "It's" },
    });
  });

  it('reads other layouts with MULTI_LANGUAGE (languages first) and LANGUAGES_NESTED (languages under each key)', async () => {
    const { apiKey, projectToken } = await newProject();
    await importOk(service, apiKey, json({ en: { title: 'Title' }, de: { title: 'Titel' } }), {
      uploadFormat: 'single-language-json',
      importOptions: 'MULTI_LANGUAGE',
    });
    await importOk(service, apiKey, json({ menu: { open: { en: 'Open', de: 'Öffnen' } } }), {
      uploadFormat: 'multi-language-json',
      importOptions: 'LANGUAGES_NESTED',
    });
    await importOk(service, apiKey, 'en:\n  save: Save\nde:\n  save: Speichern\n', {
      uploadFormat: 'yaml',
      importOptions: 'MULTI_LANGUAGE',
    });
    await importOk(service, apiKey, 'quit:\n  en: Quit\n  de: Beenden\n', {
      uploadFormat: 'yaml',
      importOptions: 'MULTI_LANGUAGE,LANGUAGES_NESTED',
    });
    expect(await contentOf(service, projectToken)).toEqual({
      en: { title: 'Title', 'menu.open': 'Open', save: 'Save', quit: 'Quit' },
      de: { title: 'Titel', 'menu.open': 'Öffnen', save: 'Speichern', quit: 'Beenden' },
    });
  });

  it('refuses a YAML file whose layout does not match MULTI_LANGUAGE / LANGUAGES_NESTED with 400, changing nothing', async () => {
    const { apiKey, projectToken } = await newProject();
    await importOk(service, apiKey, 'en:\n  home:\n    title: Home\npl:\n  home:\n    title: Start\n', {
      uploadFormat: 'yaml',
      importOptions: 'MULTI_LANGUAGE',
    });
    expect(await contentOf(service, projectToken)).toEqual({
      en: { 'home.title': 'Home' },
      pl: { 'home.title': 'Start' },
    });
    const before = await projectSnapshot(service, projectToken);
    // Keys first, read as languages first.
    const keysFirst = await importRequest(service, apiKey, 'home:\n  title:\n    en: Home!\n', {
      uploadFormat: 'yaml',
      importOptions: 'MULTI_LANGUAGE',
    });
    expect(keysFirst.statusCode).toBe(400);
    expect(envelope(keysFirst).msg).toContain('"home" on the first level is not a language code');
    // Languages first, read as keys first: never languages named after keys.
    const languagesFirst = await importRequest(service, apiKey, 'en:\n  title: Hi\n  body: Text\n', {
      uploadFormat: 'yaml',
      importOptions: 'MULTI_LANGUAGE,LANGUAGES_NESTED',
    });
    expect(languagesFirst.statusCode).toBe(400);
    expect(envelope(languagesFirst).msg).toContain('"title" is not a language code');
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });

  it('imports the documented multi-language-json shape, nested under each language, and refuses a key-first file with 400, changing nothing', async () => {
    const { apiKey, projectToken } = await newProject();
    await importOk(
      service,
      apiKey,
      json({ en: { home: { title: 'Home' }, 'nav.back': 'Back' }, pl: { home: { title: 'Strona główna' } } }),
      { uploadFormat: 'multi-language-json' },
    );
    expect(await contentOf(service, projectToken)).toEqual({
      en: { 'home.title': 'Home', 'nav.back': 'Back' },
      pl: { 'home.title': 'Strona główna' },
    });
    const before = await projectSnapshot(service, projectToken);
    const res = await importRequest(service, apiKey, json({ 'home.title': { en: 'Home!', de: 'Start' } }), {
      uploadFormat: 'multi-language-json',
    });
    expect(res.statusCode).toBe(400);
    expect(envelope(res).msg).toContain('{"en": {"home.title": "…"}, "pl": {…}}');
    expect(envelope(res).msg).toContain('LANGUAGES_NESTED');
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });

  it('reads Excel sheets as namespaces with SHEETS_AS_NAMESPACES', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('home').addRows([
      ['key', 'en', 'de'],
      ['title', 'Home', 'Start'],
    ]);
    workbook.addWorksheet('settings').addRows([
      ['key', 'en', 'de'],
      ['title', 'Settings', 'Einstellungen'],
    ]);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());

    // Without the option the sheets are one table: the same key twice is a mistake in the file.
    const plain = await newProject();
    const twice = await importRequest(service, plain.apiKey, xlsx, { uploadFormat: 'excel' });
    expect(twice.statusCode).toBe(400);
    expect(envelope(twice).msg).toContain('"title" appears twice');

    const sheets = await newProject();
    const data = await importOk(service, sheets.apiKey, xlsx, {
      uploadFormat: 'excel',
      importOptions: 'SHEETS_AS_NAMESPACES',
    });
    expect(data).toMatchObject({ numberOfKeysFound: 2, numberOfUniqueKeysFound: 2 });
    expect(await contentOf(service, sheets.projectToken)).toEqual({
      en: { 'home/title': 'Home', 'settings/title': 'Settings' },
      de: { 'home/title': 'Start', 'settings/title': 'Einstellungen' },
    });
  });

  it('puts keys without a namespace into the namespace parameter and adds tags to every key', async () => {
    const { apiKey, projectToken } = await newProject();
    await importOk(service, apiKey, json({ a: 'A' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      namespace: 'web',
      tags: ['imported', 'v1'],
    });
    // A namespace from the file wins over the parameter; tags merge with the key's own.
    const file = json({
      format: 'project-backup-json',
      version: 1,
      languages: [{ key: 'en' }],
      keys: [
        { key: 'b', namespace: 'mobile', tags: ['own'], description: 'Button', translations: { en: { text: 'B' } } },
        { key: 'a', translations: { en: { text: 'A2' } } },
      ],
    });
    await importOk(service, apiKey, file, {
      uploadFormat: 'project-backup-json',
      namespace: 'web',
      tags: 'v2,imported',
    });
    expect(await keysOf(service, projectToken)).toEqual([
      { key: 'a', namespace: 'web', description: '', tags: ['imported', 'v1', 'v2'] },
      { key: 'b', namespace: 'mobile', description: 'Button', tags: ['own', 'v2', 'imported'] },
    ]);
    expect(await contentOf(service, projectToken)).toEqual({ en: { 'web/a': 'A', 'mobile/b': 'B' } });
  });

  it('keeps the order of the file for new keys', async () => {
    const { apiKey, projectToken } = await newProject();
    await importOk(service, apiKey, 'zebra=Z\napple=A\nmango=M\n', {
      uploadFormat: 'java-properties',
      languageKey: 'en',
    });
    await importOk(service, apiKey, 'banana=B\napple=A\ncherry=C\n', {
      uploadFormat: 'java-properties',
      languageKey: 'en',
    });
    expect((await keysOf(service, projectToken)).map((k) => k.key)).toEqual([
      'zebra',
      'apple',
      'mango',
      'banana',
      'cherry',
    ]);
  });

  it("writes into an existing customer's overrides with customerId, and never creates the customer", async () => {
    const { apiKey, projectToken } = await newProject();
    await importOk(service, apiKey, json({ greeting: 'Hello' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
    });
    const created = await service.request({
      method: 'POST',
      url: '/api/v1/customers',
      headers: { 'x-service-token': apiKey },
      payload: { key: 'acme' },
    });
    expect(created.statusCode).toBe(200);
    await importOk(service, apiKey, json({ greeting: 'Howdy', extra: 'Acme only' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      customerId: 'acme',
    });
    expect(await contentOf(service, projectToken)).toEqual({ en: { greeting: 'Hello' } });
    expect(await contentOf(service, projectToken, 'acme')).toEqual({ en: { greeting: 'Howdy', extra: 'Acme only' } });

    const before = await projectSnapshot(service, projectToken);
    const unknown = await importRequest(service, apiKey, json({ greeting: 'Hi' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      customerId: 'nobody',
    });
    expect(unknown.statusCode).toBe(404);
    expect(envelope(unknown).msg).toContain("customer 'nobody' not found");
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });

  it('imports project-backup-json whole: customers, their overrides, review status', async () => {
    const { apiKey, projectToken } = await newProject();
    const file = json({
      format: 'project-backup-json',
      version: 1,
      languages: [
        { key: 'en', name: 'English' },
        { key: 'de', name: 'German' },
      ],
      customers: [{ key: 'acme', description: 'Acme Corp' }],
      keys: [
        {
          key: 'cta',
          translations: { en: { text: 'Buy', reviewStatus: 'REVIEWED' }, de: { text: 'Kaufen' } },
          customerTranslations: { acme: { en: { text: 'Order', reviewStatus: 'REVIEWED' } } },
        },
      ],
    });
    const data = await importOk(service, apiKey, file, { uploadFormat: 'project-backup-json' });
    expect(data.foundLanguages).toEqual([
      { key: 'en', name: 'English' },
      { key: 'de', name: 'German' },
    ]);
    expect(await contentOf(service, projectToken)).toEqual({ en: { cta: 'Buy' }, de: { cta: 'Kaufen' } });
    expect(await contentOf(service, projectToken, 'acme')).toEqual({ en: { cta: 'Order' } });
    const statuses = await service.db.prisma.$queryRawUnsafe<{ language: string; status: string }[]>(
      `SELECT l.key AS language, t."reviewStatus"::text AS status FROM "Translation" t JOIN "Language" l ON l.id = t."languageId"
        JOIN "Project" p ON p.id = t."projectId" WHERE p."projectToken" = $1 ORDER BY l.key`,
      projectToken,
    );
    expect(statuses).toEqual([
      { language: 'de', status: 'NOT_REVIEWED' },
      { language: 'en', status: 'REVIEWED' },
    ]);
    const customers = envelope(
      await service.request({ url: '/api/v1/customers', headers: { 'x-service-token': apiKey } }),
    ).data;
    expect(customers).toEqual([{ key: 'acme', description: 'Acme Corp' }]);
  });

  it('imports simplelocalize-json in FormatJS style into languageKey: message or defaultMessage, description as code description, limit, tags', async () => {
    const { apiKey, projectToken } = await newProject();
    const file = json({
      'home.title': { message: 'Welcome, {name}!', charactersLimit: 40, tags: ['web'] },
      'app.greeting': {
        defaultMessage: 'Hello',
        description: 'Greeting on the dashboard',
        file: 'src/App.tsx',
        line: 7,
      },
    });
    const data = await importOk(service, apiKey, file, { uploadFormat: 'simplelocalize-json', languageKey: 'pl' });
    expect(data).toMatchObject({ numberOfKeysFound: 2, foundLanguages: [{ key: 'pl' }] });
    expect(await contentOf(service, projectToken)).toEqual({
      pl: { 'home.title': 'Welcome, {name}!', 'app.greeting': 'Hello' },
    });
    const keys = await service.db.prisma.$queryRawUnsafe<
      { key: string; codeDescription: string; description: string; charactersLimit: number | null; tags: string[] }[]
    >(
      `SELECT k.key, k."codeDescription", k.description, k."charactersLimit", k.tags FROM "TranslationKey" k JOIN "Project" p ON p.id = k."projectId"
        WHERE p."projectToken" = $1 ORDER BY k."importOrder"`,
      projectToken,
    );
    expect(keys).toEqual([
      { key: 'home.title', codeDescription: '', description: '', charactersLimit: 40, tags: ['web'] },
      {
        key: 'app.greeting',
        codeDescription: 'Greeting on the dashboard',
        description: '',
        charactersLimit: null,
        tags: [],
      },
    ]);
    // The old backup document is not this format: refused with the expected shape, nothing written.
    const before = await projectSnapshot(service, projectToken);
    const res = await importRequest(service, apiKey, json({ 'home.title': 'Welcome' }), {
      uploadFormat: 'simplelocalize-json',
      languageKey: 'pl',
    });
    expect(res.statusCode).toBe(400);
    expect(envelope(res).msg).toContain('{"key": {"message": "…"}}');
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });

  it("refuses customers beyond the plan's limit and changes nothing (402)", async () => {
    const { apiKey, projectToken } = await newProject('free');
    const before = await projectSnapshot(service, projectToken);
    const file = json({
      format: 'project-backup-json',
      version: 1,
      languages: [{ key: 'en' }],
      customers: [{ key: 'acme' }],
      keys: [{ key: 'k', translations: { en: { text: 'K' } } }],
    });
    const res = await importRequest(service, apiKey, file, { uploadFormat: 'project-backup-json' });
    expect(res.statusCode).toBe(402);
    expect(envelope(res).msg).toContain('customers per project');
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });

  it('publishes _latest after the import with PUBLISH_AFTER_IMPORT', async () => {
    const { apiKey, projectToken } = await newProject();
    await importOk(service, apiKey, json({ en: { hello: 'Hello' } }), {
      uploadFormat: 'multi-language-json',
      importOptions: 'PUBLISH_AFTER_IMPORT',
    });
    const publications = await service.db.prisma.publication.findMany({
      where: { project: { projectToken } },
      include: { environment: true },
    });
    expect(publications.map((p) => [p.environment.key, p.state, p.numberOfKeys])).toEqual([['_latest', 'COMPLETE', 1]]);
  });

  it('refuses PUBLISH_AFTER_IMPORT on a plan without publishing, before writing anything (402)', async () => {
    const { apiKey, projectToken } = await newProject('free');
    const before = await projectSnapshot(service, projectToken);
    const res = await importRequest(service, apiKey, json({ en: { hello: 'Hello' } }), {
      uploadFormat: 'multi-language-json',
      importOptions: 'PUBLISH_AFTER_IMPORT',
    });
    expect(res.statusCode).toBe(402);
    expect(envelope(res).msg).toContain('PUBLISH_AFTER_IMPORT');
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });

  it('names an unknown import option', async () => {
    const { apiKey } = await newProject();
    const res = await importRequest(service, apiKey, json({ en: { a: 'A' } }), {
      uploadFormat: 'multi-language-json',
      importOptions: 'REPLACE_EVERYTHING',
    });
    expect(res.statusCode).toBe(400);
    expect(envelope(res).msg).toContain('importOptions must be one of');
    expect(envelope(res).msg).toContain("'REPLACE_EVERYTHING'");
  });

  it('needs a multipart body with the file in the field `file`', async () => {
    const { apiKey } = await newProject();
    const url = '/api/v2/import?uploadFormat=multi-language-json';
    const asJson = await service.request({
      method: 'POST',
      url,
      headers: { 'x-service-token': apiKey },
      payload: { a: 1 },
    });
    expect(asJson.statusCode).toBe(400);
    expect(envelope(asJson).msg).toContain("multipart/form-data in a form field named 'file'");
    const other = multipart([{ name: 'upload', fileName: 'x.json', content: '{}' }]);
    const wrongField = await service.request({
      method: 'POST',
      url,
      headers: { 'x-service-token': apiKey, ...other.headers },
      payload: other.payload,
    });
    expect(wrongField.statusCode).toBe(400);
    expect(envelope(wrongField).msg).toContain("not 'upload'");
    const fieldsOnly = multipart([{ name: 'comment', content: 'no file here' }]);
    const noFile = await service.request({
      method: 'POST',
      url,
      headers: { 'x-service-token': apiKey, ...fieldsOnly.headers },
      payload: fieldsOnly.payload,
    });
    expect(noFile.statusCode).toBe(400);
    expect(envelope(noFile).msg).toContain('no file');
  });

  it('needs the project API key and reaches only its own project', async () => {
    const mine = await newProject();
    const other = await newProject();
    const file = json({ en: { a: 'A' } });
    const noKey = await service.request({
      method: 'POST',
      url: '/api/v2/import?uploadFormat=multi-language-json',
      ...multipartRequest(file),
    });
    expect(noKey.statusCode).toBe(403);
    const wrongKey = await importRequest(service, 'lms_key_wrong', file, { uploadFormat: 'multi-language-json' });
    expect(wrongKey.statusCode).toBe(403);
    await importOk(service, mine.apiKey, file, { uploadFormat: 'multi-language-json' });
    expect(await contentOf(service, mine.projectToken)).toEqual({ en: { a: 'A' } });
    expect(await contentOf(service, other.projectToken)).toEqual({});
  });
});

function multipartRequest(content: string) {
  const body = multipart([{ name: 'file', fileName: 'f.json', content }]);
  return { headers: body.headers, payload: body.payload };
}

describe('importFile mutation (GraphQL multipart request spec)', () => {
  const MUTATION = `mutation ($file: Upload!, $format: FormatId!, $language: String) {
    importFile(file: $file, uploadFormat: $format, languageKey: $language) { numberOfKeysFound foundLanguages { key } keysCreated translationsInserted }
  }`;

  async function upload(headers: Record<string, string>, content: string, variables: Record<string, unknown>) {
    const form = new FormData();
    form.set('operations', JSON.stringify({ query: MUTATION, variables: { file: null, ...variables } }));
    form.set('map', JSON.stringify({ 0: ['variables.file'] }));
    form.set('0', new Blob([content], { type: 'application/json' }), 'strings.json');
    const res = await fetch(`${service.url}/graphql`, { method: 'POST', headers, body: form });
    return (await res.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
  }

  it('imports an uploaded file as the project of the API key', async () => {
    const { apiKey, projectToken } = await newProject();
    const result = await upload({ 'x-service-token': apiKey }, json({ a: 'A', b: 'B' }), {
      format: 'SINGLE_LANGUAGE_JSON',
      language: 'de',
    });
    expect(result.errors).toBeUndefined();
    expect(result.data.importFile).toEqual({
      numberOfKeysFound: 2,
      foundLanguages: [{ key: 'de' }],
      keysCreated: 2,
      translationsInserted: 2,
    });
    expect(await contentOf(service, projectToken)).toEqual({ de: { a: 'A', b: 'B' } });
  });

  it('answers a bad file with a BAD_REQUEST error', async () => {
    const { apiKey, projectToken } = await newProject();
    const before = await projectSnapshot(service, projectToken);
    const result = await upload({ 'x-service-token': apiKey }, '{"a": [', {
      format: 'SINGLE_LANGUAGE_JSON',
      language: 'de',
    });
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(result.errors?.[0]?.message).toMatch(/line 1/);
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });

  it('reads the multipart request with graphql-upload-minimal, the file through a temp file under DATA_DIR/tmp that is removed', async () => {
    const { apiKey, projectToken } = await newProject();
    const uploads = join(service.config.dataDir, 'tmp');
    const result = await upload({ 'x-service-token': apiKey }, json({ streamed: 'yes' }), {
      format: 'SINGLE_LANGUAGE_JSON',
      language: 'fr',
    });
    expect(result.data.importFile.keysCreated).toBe(1);
    expect(await contentOf(service, projectToken)).toEqual({ fr: { streamed: 'yes' } });
    expect(readdirSync(uploads)).toEqual([]);
  });

  it('answers a malformed multipart request or a batch with 400 and a message, and writes nothing', async () => {
    const { apiKey, projectToken } = await newProject();
    const before = await projectSnapshot(service, projectToken);
    const post = async (parts: Parameters<typeof multipart>[0]) => {
      const body = multipart(parts);
      const res = await service.request({
        method: 'POST',
        url: '/graphql',
        headers: { 'x-service-token': apiKey, ...body.headers },
        payload: body.payload,
      });
      return { status: res.statusCode, message: res.json().errors[0].message as string };
    };
    const file = { name: '0', fileName: 'a.json', content: json({ a: 'A' }) };
    const operations = JSON.stringify({
      query: MUTATION,
      variables: { file: null, format: 'SINGLE_LANGUAGE_JSON', language: 'de' },
    });
    expect(
      await post([{ name: 'operations', content: '{not json' }, { name: 'map', content: '{}' }, file]),
    ).toMatchObject({ status: 400, message: expect.stringContaining("Invalid JSON in the 'operations'") });
    expect(await post([{ name: 'operations', content: operations }, file])).toMatchObject({
      status: 400,
      message: expect.stringContaining('Misordered multipart fields'),
    });
    expect(
      await post([
        { name: 'operations', content: `[${operations}]` },
        { name: 'map', content: JSON.stringify({ 0: ['0.variables.file'] }) },
        file,
      ]),
    ).toEqual({ status: 400, message: 'Batched operations are not supported: send one operation per request' });
    expect(
      await post([
        { name: 'operations', content: JSON.stringify({ query: 'mutation {', variables: {} }) },
        { name: 'map', content: '{}' },
      ]),
    ).toMatchObject({ status: 400, message: expect.stringContaining('Syntax Error') });
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });

  it('refuses an upload written into the query', async () => {
    const { apiKey } = await newProject();
    const res = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `mutation { importFile(file: "text", uploadFormat: YAML) { numberOfKeysFound } }`,
      }),
    });
    const body = (await res.json()) as { errors: { message: string }[] };
    expect(body.errors[0]!.message).toContain('send the file as a multipart request');
  });
});

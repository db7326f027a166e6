// GET /api/v4/export and /api/v3/export: every download option, the sorts,
// customers, paging through large projects, downloads and their expiry, and
// the exportTranslations mutation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { envelope, startTestService, type TestService } from '../support/service.js';
import {
  download,
  exportFiles,
  exportRequest,
  exportText,
  importOk,
  importRequest,
  pathOf,
} from '../support/transfer.js';

let service: TestService;
let apiKey: string;

const json = (value: unknown) => JSON.stringify(value);

// The project: en (default), de, fr; keys in two namespaces; a description;
// a customer override; keys created by three imports (for the NEWEST sorts).
beforeAll(async () => {
  service = await startTestService();
  const account = await service.account();
  ({ apiKey } = await account.project('export'));
  await importOk(
    service,
    apiKey,
    json({
      format: 'project-backup-json',
      version: 1,
      languages: [{ key: 'en' }, { key: 'de' }, { key: 'fr' }],
      customers: [{ key: 'acme' }],
      keys: [
        {
          key: 'welcome',
          description: 'Shown on the home page',
          translations: { en: { text: 'Welcome' }, de: { text: 'Willkommen' }, fr: { text: 'Bienvenue' } },
          customerTranslations: { acme: { en: { text: 'Welcome to Acme' } } },
        },
        { key: 'bye', translations: { en: { text: 'Bye' } } },
        { key: 'ok', namespace: 'common', translations: { en: { text: 'OK' }, de: { text: 'OK' } } },
      ],
    }),
    { uploadFormat: 'project-backup-json' },
  );
  await importOk(service, apiKey, json({ en: { 'menu.open': 'Open' }, de: { 'menu.open': 'Öffnen' } }), {
    uploadFormat: 'multi-language-json',
  });
  await importOk(service, apiKey, json({ en: { about: 'About\nus' } }), { uploadFormat: 'multi-language-json' });
});
afterAll(() => service.close());

const parse = (content: Buffer) => JSON.parse(content.toString('utf8'));

describe('GET /api/v4/export', () => {
  it('writes one multi-language file by default, in import order', async () => {
    const res = await exportRequest(service, apiKey, { downloadFormat: 'multi-language-json' });
    expect(res.statusCode).toBe(200);
    const { data } = envelope(res);
    expect(data.files).toHaveLength(1);
    expect(Object.keys(data.files[0])).toEqual(['url']);
    const content = parse(await download(service, data.files[0].url));
    expect(Object.keys(content)).toEqual(['en', 'de', 'fr']);
    expect(Object.keys(content.en)).toEqual(['welcome', 'bye', 'ok', 'menu.open', 'about']);
    expect(content.en).toMatchObject({ welcome: 'Welcome', bye: 'Bye' });
    expect(content.de).toMatchObject({ welcome: 'Willkommen', bye: '' });
    expect(content.fr).toMatchObject({ welcome: 'Bienvenue', bye: '' });
  });

  it('needs downloadFormat and names an unknown one', async () => {
    const missing = await exportRequest(service, apiKey, {});
    expect(missing.statusCode).toBe(400);
    expect(envelope(missing).msg).toBe('downloadFormat is required');
    const unknown = await exportRequest(service, apiKey, { downloadFormat: 'papyrus' });
    expect(unknown.statusCode).toBe(400);
    expect(envelope(unknown).msg).toContain("Unknown downloadFormat 'papyrus'");
    const option = await exportRequest(service, apiKey, { downloadFormat: 'yaml', downloadOptions: 'SPLIT_BY_MOOD' });
    expect(option.statusCode).toBe(400);
    expect(envelope(option).msg).toContain('downloadOptions must be one of');
  });

  it('writes a single-language format as one file per language', async () => {
    const files = await exportFiles(service, apiKey, { downloadFormat: 'single-language-json' });
    expect(files.map((f) => [f.language, f.namespace])).toEqual([
      ['en', undefined],
      ['de', undefined],
      ['fr', undefined],
    ]);
    expect(parse(files[1]!.content)).toEqual({
      welcome: 'Willkommen',
      bye: '',
      ok: 'OK',
      'menu.open': 'Öffnen',
      about: '',
    });
    expect(new URL(files[0]!.url).pathname).toMatch(/^\/download\/[A-Za-z0-9_-]{32}\/en\.json$/);
  });

  it('splits by namespace with SPLIT_BY_NAMESPACES', async () => {
    const multi = await exportFiles(service, apiKey, {
      downloadFormat: 'multi-language-json',
      downloadOptions: 'SPLIT_BY_NAMESPACES',
    });
    expect(multi.map((f) => [f.namespace, f.language])).toEqual([
      ['', undefined],
      ['common', undefined],
    ]);
    expect(Object.keys(parse(multi[0]!.content).en)).toEqual(['welcome', 'bye', 'menu.open', 'about']);
    expect(parse(multi[1]!.content)).toEqual({ en: { ok: 'OK' }, de: { ok: 'OK' }, fr: { ok: '' } });
    const single = await exportFiles(service, apiKey, {
      downloadFormat: 'java-properties',
      downloadOptions: 'SPLIT_BY_NAMESPACES',
    });
    expect(single.map((f) => [f.namespace, f.language])).toEqual([
      ['', 'en'],
      ['', 'de'],
      ['', 'fr'],
      ['common', 'en'],
      ['common', 'de'],
      ['common', 'fr'],
    ]);
    expect(single[4]!.content.toString('latin1')).toBe('ok=OK\n');
  });

  it('splits a multi-language format by language with SPLIT_BY_LANGUAGES', async () => {
    const files = await exportFiles(service, apiKey, {
      downloadFormat: 'multi-language-json',
      downloadOptions: 'SPLIT_BY_LANGUAGES',
    });
    expect(files.map((f) => f.language)).toEqual(['en', 'de', 'fr']);
    expect(Object.keys(parse(files[2]!.content))).toEqual(['fr']);
    expect(parse(files[2]!.content).fr.welcome).toBe('Bienvenue');
  });

  it('writes yaml and single-language-json in one file for all languages with MULTI_LANGUAGE / LANGUAGES_NESTED', async () => {
    const languageFirst = await exportText(service, apiKey, {
      downloadFormat: 'single-language-json',
      downloadOptions: 'MULTI_LANGUAGE',
    });
    expect(Object.keys(parse(Buffer.from(languageFirst)))).toEqual(['en', 'de', 'fr']);
    expect(parse(Buffer.from(languageFirst)).de).toMatchObject({ welcome: 'Willkommen', 'menu.open': 'Öffnen' });
    const keyFirst = parse(
      Buffer.from(
        await exportText(service, apiKey, {
          downloadFormat: 'single-language-json',
          downloadOptions: 'LANGUAGES_NESTED',
        }),
      ),
    );
    expect(keyFirst.welcome).toEqual({ en: 'Welcome', de: 'Willkommen', fr: 'Bienvenue' });
    const yamlFile = await exportText(service, apiKey, { downloadFormat: 'yaml', downloadOptions: 'MULTI_LANGUAGE' });
    expect(yamlFile).toMatch(/^en:\n/m);
    expect(yamlFile).toMatch(/^de:\n/m);
    expect(yamlFile).toMatch(/^fr:\n/m);
    // Without the option each language is a file of its own.
    expect(await exportFiles(service, apiKey, { downloadFormat: 'yaml' })).toHaveLength(3);
    // A format without multi-language layouts still needs languageKey on import, whatever the option says.
    const refused = await importRequest(service, apiKey, '<resources/>', {
      uploadFormat: 'android',
      importOptions: 'MULTI_LANGUAGE',
    });
    expect(refused.statusCode).toBe(400);
    expect(envelope(refused).msg).toBe('languageKey is required: android is a single-language format');
  });

  it('restricts the languages with SELECTED_LANGUAGES and languageKeys', async () => {
    const files = await exportFiles(service, apiKey, {
      downloadFormat: 'single-language-json',
      downloadOptions: 'SELECTED_LANGUAGES',
      languageKeys: 'fr,de',
    });
    expect(files.map((f) => f.language)).toEqual(['de', 'fr']);
    const multi = parse(
      (
        await exportFiles(service, apiKey, {
          downloadFormat: 'multi-language-json',
          downloadOptions: 'SELECTED_LANGUAGES',
          languageKeys: 'de',
        })
      )[0]!.content,
    );
    expect(Object.keys(multi)).toEqual(['de']);
    expect(multi.de.welcome).toBe('Willkommen');
    const noKeys = await exportRequest(service, apiKey, {
      downloadFormat: 'yaml',
      downloadOptions: 'SELECTED_LANGUAGES',
    });
    expect(noKeys.statusCode).toBe(400);
    expect(envelope(noKeys).msg).toContain('needs languageKeys');
    const unknown = await exportRequest(service, apiKey, {
      downloadFormat: 'yaml',
      downloadOptions: 'SELECTED_LANGUAGES',
      languageKeys: 'de,xx',
    });
    expect(unknown.statusCode).toBe(400);
    expect(envelope(unknown).msg).toBe("The project has no language 'xx'");
  });

  it('writes descriptions with INCLUDE_DESCRIPTIONS', async () => {
    const query = { downloadFormat: 'java-properties', downloadOptions: 'SELECTED_LANGUAGES', languageKeys: 'en' };
    expect(await exportText(service, apiKey, query)).not.toContain('#');
    const text = await exportText(service, apiKey, {
      ...query,
      downloadOptions: 'SELECTED_LANGUAGES,INCLUDE_DESCRIPTIONS',
    });
    expect(text.split('\n').slice(0, 2)).toEqual(['# Shown on the home page', 'welcome=Welcome']);
  });

  it('keeps translated or untranslated keys with ONLY_TRANSLATED / ONLY_NOT_TRANSLATED', async () => {
    const query = { downloadFormat: 'single-language-json', downloadOptions: 'SELECTED_LANGUAGES', languageKeys: 'de' };
    expect(
      Object.keys(
        JSON.parse(
          await exportText(service, apiKey, { ...query, downloadOptions: 'SELECTED_LANGUAGES,ONLY_TRANSLATED' }),
        ),
      ),
    ).toEqual(['welcome', 'ok', 'menu.open']);
    expect(
      Object.keys(
        JSON.parse(
          await exportText(service, apiKey, { ...query, downloadOptions: 'SELECTED_LANGUAGES,ONLY_NOT_TRANSLATED' }),
        ),
      ),
    ).toEqual(['bye', 'about']);
    // Multi-language file: translated in at least one of its languages / missing in at least one.
    const missing = JSON.parse(
      await exportText(service, apiKey, {
        downloadFormat: 'multi-language-json',
        downloadOptions: 'ONLY_NOT_TRANSLATED',
      }),
    );
    expect(Object.keys(missing.en)).toEqual(['bye', 'ok', 'menu.open', 'about']);
    const both = await exportRequest(service, apiKey, {
      downloadFormat: 'yaml',
      downloadOptions: 'ONLY_TRANSLATED,ONLY_NOT_TRANSLATED',
    });
    expect(both.statusCode).toBe(400);
    expect(envelope(both).msg).toContain('exclude each other');
  });

  it('nests keys with WRITE_NESTED', async () => {
    const query = {
      downloadFormat: 'single-language-json',
      downloadOptions: 'SELECTED_LANGUAGES,WRITE_NESTED',
      languageKeys: 'de',
    };
    expect(JSON.parse(await exportText(service, apiKey, query)).menu).toEqual({ open: 'Öffnen' });
  });

  it('escapes line breaks with ESCAPE_NEW_LINES', async () => {
    const query = { downloadFormat: 'yaml', languageKeys: 'en', downloadOptions: 'SELECTED_LANGUAGES' };
    expect(await exportText(service, apiKey, query)).not.toContain('About\\nus');
    expect(
      await exportText(service, apiKey, { ...query, downloadOptions: 'SELECTED_LANGUAGES,ESCAPE_NEW_LINES' }),
    ).toContain('About\\nus');
  });

  it('bundles all files into one zip with ZIP_FILES', async () => {
    const res = await exportRequest(service, apiKey, {
      downloadFormat: 'single-language-json',
      downloadOptions: 'ZIP_FILES,SPLIT_BY_NAMESPACES',
    });
    const { files } = envelope(res).data;
    expect(files).toHaveLength(1);
    expect(files[0].url).toMatch(/\/translations-single-language-json\.zip$/);
    const zip = await JSZip.loadAsync(await download(service, files[0].url));
    expect(
      Object.keys(zip.files)
        .filter((n) => !zip.files[n]!.dir)
        .sort(),
    ).toEqual([
      '_default/de.json',
      '_default/en.json',
      '_default/fr.json',
      'common/de.json',
      'common/en.json',
      'common/fr.json',
    ]);
    expect(JSON.parse(await zip.file('common/de.json')!.async('string'))).toEqual({ ok: 'OK' });
  });

  it("merges a customer's overrides over the base texts with customerId", async () => {
    const text = await exportText(service, apiKey, {
      downloadFormat: 'single-language-json',
      downloadOptions: 'SELECTED_LANGUAGES',
      languageKeys: 'en',
      customerId: 'acme',
    });
    expect(JSON.parse(text)).toMatchObject({ welcome: 'Welcome to Acme', bye: 'Bye' });
    const unknown = await exportRequest(service, apiKey, { downloadFormat: 'yaml', customerId: 'globex' });
    expect(unknown.statusCode).toBe(404);
    expect(envelope(unknown).msg).toContain("customer 'globex' not found");
  });

  it('writes everything, customers included, in project-backup-json', async () => {
    const doc = JSON.parse(await exportText(service, apiKey, { downloadFormat: 'project-backup-json' }));
    expect(doc.customers).toEqual([{ key: 'acme' }]);
    expect(doc.keys[0]).toMatchObject({
      key: 'welcome',
      description: 'Shown on the home page',
      customerTranslations: { acme: { en: { text: 'Welcome to Acme' } } },
    });
  });

  it('orders keys by each sort', async () => {
    const order = async (sort?: string) =>
      Object.keys(JSON.parse(await exportText(service, apiKey, { downloadFormat: 'multi-language-json', sort })).en);
    expect(await order()).toEqual(['welcome', 'bye', 'ok', 'menu.open', 'about']);
    expect(await order('IMPORT_ORDER')).toEqual(['welcome', 'bye', 'ok', 'menu.open', 'about']);
    expect(await order('NEWEST_KEYS_LAST')).toEqual(['welcome', 'bye', 'ok', 'menu.open', 'about']);
    expect(await order('NEWEST_KEYS_FIRST')).toEqual(['about', 'menu.open', 'ok', 'bye', 'welcome']);
    expect(await order('namespaces')).toEqual(['about', 'bye', 'menu.open', 'welcome', 'ok']);
    const bad = await exportRequest(service, apiKey, { downloadFormat: 'yaml', sort: 'RANDOM' });
    expect(bad.statusCode).toBe(400);
    expect(envelope(bad).msg).toContain('sort must be one of');
  });

  it('exports only the project of the API key', async () => {
    const other = await (await service.account()).project('other');
    const content = JSON.parse(await exportText(service, other.apiKey, { downloadFormat: 'multi-language-json' }));
    // Its default language, without keys.
    expect(content).toEqual({ en: {} });
    const noKey = await service.request({ url: '/api/v4/export?downloadFormat=yaml' });
    expect(noKey.statusCode).toBe(403);
  });
});

describe('GET /api/v3/export (deprecated)', () => {
  it('answers one url', async () => {
    const res = await exportRequest(service, apiKey, { downloadFormat: 'multi-language-json' }, 'v3');
    expect(res.statusCode).toBe(200);
    const { data } = envelope(res);
    expect(Object.keys(data)).toEqual(['url']);
    expect(Object.keys(parse(await download(service, data.url)).en)).toHaveLength(5);
  });

  it('writes one language with languageKey, and takes exportOptions', async () => {
    const res = await exportRequest(
      service,
      apiKey,
      { downloadFormat: 'single-language-json', languageKey: 'de', exportOptions: 'WRITE_NESTED' },
      'v3',
    );
    const { data } = envelope(res);
    expect(data.url).toMatch(/\/de\.json$/);
    expect(parse(await download(service, data.url))).toEqual({
      welcome: 'Willkommen',
      bye: '',
      ok: 'OK',
      menu: { open: 'Öffnen' },
      about: '',
    });
  });

  it('zips the files when the format needs several', async () => {
    const { data } = envelope(await exportRequest(service, apiKey, { downloadFormat: 'java-properties' }, 'v3'));
    const zip = await JSZip.loadAsync(await download(service, data.url));
    expect(Object.keys(zip.files).sort()).toEqual(['de.properties', 'en.properties', 'fr.properties']);
  });
});

describe('downloads', () => {
  it('serve the file without credentials, as an attachment', async () => {
    const [file] = envelope(
      await exportRequest(service, apiKey, {
        downloadFormat: 'yaml',
        languageKeys: 'de',
        downloadOptions: 'SELECTED_LANGUAGES',
      }),
    ).data.files;
    const res = await service.request({ url: pathOf(file.url) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="de.yml"; filename*=UTF-8''de.yml`);
    expect(res.headers['content-type']).toMatch(/yaml/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain('welcome: Willkommen');
  });

  it('answer 404 for an unknown id or another file name', async () => {
    const [file] = envelope(await exportRequest(service, apiKey, { downloadFormat: 'multi-language-json' })).data.files;
    const path = pathOf(file.url);
    const wrongName = await service.request({ url: path.replace(/[^/]+$/, 'other.json') });
    expect(wrongName.statusCode).toBe(404);
    expect(envelope(wrongName).msg).toContain('does not exist or has expired');
    const wrongId = await service.request({
      url: path.replace(/\/download\/[^/]+/, '/download/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
    });
    expect(wrongId.statusCode).toBe(404);
  });

  it('expire, and expired files are deleted by the next export', async () => {
    const [file] = envelope(await exportRequest(service, apiKey, { downloadFormat: 'multi-language-json' })).data.files;
    const id = new URL(file.url).pathname.split('/')[2]!;
    const row = await service.db.prisma.exportFile.findUniqueOrThrow({ where: { id } });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(service.config.exportTtlSeconds * 1000);
    await service.db.prisma.exportFile.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await service.request({ url: pathOf(file.url) })).statusCode).toBe(404);
    await exportRequest(service, apiKey, { downloadFormat: 'yaml' });
    expect(await service.db.prisma.exportFile.findUnique({ where: { id } })).toBeNull();
  });
});

describe('exportTranslations mutation', () => {
  it('answers the files with their names, sizes and expiry', async () => {
    const res = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
      payload: {
        query: `mutation { exportTranslations(downloadFormat: ANDROID, languageKeys: ["fr"]) { files { url fileName contentType size language namespace expiresAt } } }`,
      },
    });
    const { data, errors } = res.json();
    expect(errors).toBeUndefined();
    const [file] = data.exportTranslations.files;
    expect(file).toMatchObject({ fileName: 'fr.xml', language: 'fr', namespace: null });
    const content = await download(service, file.url);
    expect(file.size).toBe(content.length);
    expect(content.toString()).toContain('<string name="welcome">Bienvenue</string>');
    expect(new Date(file.expiresAt).getTime()).toBeGreaterThan(Date.now());
  });

  it('lists the formats', async () => {
    const res = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
      payload: { query: '{ fileFormats { id name multiLanguage extension } }' },
    });
    const formats = res.json().data.fileFormats as { id: string; name: string; multiLanguage: boolean }[];
    expect(formats).toContainEqual({
      id: 'multi-language-json',
      name: 'Multi-language JSON',
      multiLanguage: true,
      extension: 'json',
    });
    expect(formats).toContainEqual({
      id: 'simplelocalize-json',
      name: 'SimpleLocalize JSON (FormatJS style)',
      multiLanguage: false,
      extension: 'json',
    });
    expect(formats).toContainEqual({
      id: 'project-backup-json',
      name: 'Project backup JSON',
      multiLanguage: true,
      extension: 'json',
    });
    expect(formats.map((f) => f.id)).toContain('po-pot');
  });
});

describe('large projects', () => {
  it('page through the keys in every sort (keyset pagination)', async () => {
    const big = await (await service.account()).project('big');
    const count = 2100;
    const names = Array.from({ length: count }, (_, i) => `key_${String((i * 7919) % count).padStart(5, '0')}`);
    await importOk(
      service,
      big.apiKey,
      json({
        en: Object.fromEntries(names.map((n) => [n, `text ${n}`])),
        de: Object.fromEntries(names.map((n) => [n, `Text ${n}`])),
      }),
      { uploadFormat: 'multi-language-json' },
    );
    const keysOf = async (query: Record<string, string>) =>
      Object.keys(JSON.parse(await exportText(service, big.apiKey, query)).de);
    expect(await keysOf({ downloadFormat: 'multi-language-json' })).toEqual(names);
    expect(await keysOf({ downloadFormat: 'multi-language-json', sort: 'NAMESPACES' })).toEqual([...names].sort());
    expect(await keysOf({ downloadFormat: 'multi-language-json', sort: 'NEWEST_KEYS_FIRST' })).toEqual(
      [...names].reverse(),
    );
    // Written page by page (java-properties): the same lines as a single write.
    const properties = await exportText(service, big.apiKey, {
      downloadFormat: 'java-properties',
      downloadOptions: 'SELECTED_LANGUAGES',
      languageKeys: 'de',
    });
    expect(properties).toBe(names.map((n) => `${n}=Text ${n}\n`).join(''));
  });

  it('writes nested files over several pages in path order, and leaves no ordering rows behind', async () => {
    const nested = await (await service.account()).project('nested');
    // 2,500 keys in 25 groups, imported group-interleaved so that import order and path order differ.
    const names = Array.from({ length: 2500 }, (_, i) => `group${i % 25}.item${Math.floor(i / 25)}`);
    const texts = Object.fromEntries(names.map((n) => [n, `text ${n}`]));
    texts['group3'] = 'a leaf that is also a parent';
    texts['list[0]'] = 'first';
    texts['list[1]'] = 'second';
    await importOk(service, nested.apiKey, json(texts), { uploadFormat: 'single-language-json', languageKey: 'en' });
    const content = JSON.parse(
      await exportText(service, nested.apiKey, {
        downloadFormat: 'single-language-json',
        downloadOptions: 'WRITE_NESTED',
      }),
    );
    expect(Object.keys(content).slice(0, 4)).toEqual(['group0', 'group1', 'group10', 'group11']);
    expect(Object.keys(content.group7)).toHaveLength(100);
    expect(content.group7.item42).toBe('text group7.item42');
    expect(content.group3).toBe('a leaf that is also a parent');
    expect(content['group3.item0']).toBe('text group3.item0');
    expect(content.list).toEqual(['first', 'second']);
    const rows = await service.db.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "ExportKeyOrder"`,
    );
    expect(rows[0]!.n).toBe(0);
    // Nor temp files: an export writes under DATA_DIR/tmp and removes its folder.
    expect(readdirSync(join(service.config.dataDir, 'tmp'))).toEqual([]);
  });
});

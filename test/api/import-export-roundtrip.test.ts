// For every registered format, through the REST endpoints: a project's
// content exported in the format, imported into a new project and exported
// again gives the same files, and the new project holds the same texts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { formatIds, registeredFormat } from '../../src/formats/registry.js';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { contentOf, exportFiles, importOk } from '../support/transfer.js';

let service: TestService;
let account: TestAccount;
let source: { apiKey: string; projectToken: string };

// Texts that exercise escaping in every syntax: quotes, markup, ampersands,
// placeholders, line breaks, non-ASCII, and a key missing in one language.
const CONTENT = {
  greeting: { en: 'Hello {name}!', de: 'Hallo {name}!', fr: 'Bonjour {name} !' },
  markup: {
    en: 'Tom & Jerry\'s "show" <b>now</b>',
    de: 'Tom & Jerrys „Show“ <b>jetzt</b>',
    fr: "L'émission « Tom & Jerry »",
  },
  lines: { en: 'First line\nSecond line', de: 'Erste Zeile\nZweite Zeile', fr: 'Première ligne\nDeuxième ligne' },
  unicode: { en: 'Grüße 👋 — 100%', de: 'Schöne Grüße 👋', fr: 'Salutations 👋' },
  only_en: { en: 'Only in English' },
  plural: {
    en: '{count, plural, one {# file} other {# files}}',
    de: '{count, plural, one {# Datei} other {# Dateien}}',
    fr: '{count, plural, one {# fichier} other {# fichiers}}',
  },
};

beforeAll(async () => {
  service = await startTestService();
  account = await service.account();
  source = await account.project('round trip source');
  // multi-language-json is language-first: {"en": {key: text}, …}.
  const byLanguage: Record<string, Record<string, string>> = {};
  for (const [key, texts] of Object.entries(CONTENT))
    for (const [language, text] of Object.entries(texts)) (byLanguage[language] ??= {})[key] = text;
  await importOk(service, source.apiKey, JSON.stringify(byLanguage), { uploadFormat: 'multi-language-json' });
});
afterAll(() => service.close());

/** Exports `apiKey`'s project in `format` and imports every file into `target`. */
async function copy(format: string, from: { apiKey: string }, target: { apiKey: string }) {
  const files = await exportFiles(service, from.apiKey, { downloadFormat: format });
  for (const file of files)
    await importOk(service, target.apiKey, file.content, {
      uploadFormat: format,
      ...(file.language && { languageKey: file.language }),
    });
  return files;
}

describe('import → export → import, for each registered format', () => {
  for (const format of formatIds()) {
    it(format, async () => {
      const target = await account.project(`round trip ${format}`);
      const first = await copy(format, source, target);
      expect(first.length).toBeGreaterThan(0);
      const sourceContent = await contentOf(service, source.projectToken);
      // A .stringsdict holds the plurals only (plain texts belong in Localizable.strings).
      const expected =
        format === 'localizable-strings-dict'
          ? Object.fromEntries(
              Object.entries(sourceContent).map(([language, texts]) => [
                language,
                Object.fromEntries(Object.entries(texts).filter(([, text]) => text.includes(', plural,'))),
              ]),
            )
          : sourceContent;
      expect(await contentOf(service, target.projectToken)).toEqual(expected);
      const second = await exportFiles(service, target.apiKey, { downloadFormat: format });
      expect(second.map((f) => [f.language, f.namespace])).toEqual(first.map((f) => [f.language, f.namespace]));
      // Spreadsheets carry creation times in their metadata; every other format is compared byte for byte, but
      // for a PO header's PO-Revision-Date: it is the project's last change of content, and the target's is
      // its import, a minute or more after the source's whenever the file runs across a minute's turn.
      const revision = /^"PO-Revision-Date: [^"]*"$/m;
      const comparable = (content: Buffer) => content.toString('utf8').replace(revision, '"PO-Revision-Date: …"');
      if (registeredFormat(format)!.format.extension !== 'xlsx') {
        second.forEach((file, i) =>
          expect(comparable(file.content), `${format} ${file.language ?? ''}`).toBe(comparable(first[i]!.content)),
        );
      }
    });
  }
});

describe('the documented file shapes: imported, then exported back the same', () => {
  it('multi-language-json, languages first, nested under each language (WRITE_NESTED) and flat', async () => {
    const project = await account.project('shape multi-language-json');
    const file = {
      en: {
        home: { title: 'Home', subtitle: 'Hello, {name}!' },
        nav: { back: 'Back' },
        items: '{count, plural, one {# item} other {# items}}',
      },
      pl: {
        home: { title: 'Strona główna', subtitle: 'Cześć, {name}!' },
        nav: { back: 'Wstecz' },
        items: '{count, plural, one {# element} few {# elementy} many {# elementów} other {# elementu}}',
      },
    };
    await importOk(service, project.apiKey, JSON.stringify(file), { uploadFormat: 'multi-language-json' });
    const nested = await exportFiles(service, project.apiKey, {
      downloadFormat: 'multi-language-json',
      downloadOptions: 'WRITE_NESTED',
    });
    expect(nested).toHaveLength(1);
    expect(JSON.parse(nested[0]!.content.toString('utf8'))).toEqual(file);
    const flat = JSON.parse(
      (await exportFiles(service, project.apiKey, { downloadFormat: 'multi-language-json' }))[0]!.content.toString(
        'utf8',
      ),
    );
    expect(Object.keys(flat)).toEqual(['en', 'pl']);
    expect(flat.pl).toEqual({
      'home.title': 'Strona główna',
      'home.subtitle': 'Cześć, {name}!',
      'nav.back': 'Wstecz',
      items: file.pl.items,
    });
    // The key-first layout, on request, both ways.
    const keyFirst = JSON.parse(
      (
        await exportFiles(service, project.apiKey, {
          downloadFormat: 'multi-language-json',
          downloadOptions: 'LANGUAGES_NESTED',
        })
      )[0]!.content.toString('utf8'),
    );
    expect(keyFirst['nav.back']).toEqual({ en: 'Back', pl: 'Wstecz' });
    const copy = await account.project('shape multi-language-json key-first');
    await importOk(service, copy.apiKey, JSON.stringify(keyFirst), {
      uploadFormat: 'multi-language-json',
      importOptions: 'LANGUAGES_NESTED',
    });
    expect(await contentOf(service, copy.projectToken)).toEqual(await contentOf(service, project.projectToken));
  });

  it('yaml with MULTI_LANGUAGE (languages first) and MULTI_LANGUAGE,LANGUAGES_NESTED (keys first), plurals with %{count}', async () => {
    const project = await account.project('shape yaml');
    const languagesFirst = [
      'en:',
      '  home:',
      '    title: Home',
      '  items:',
      '    one: "%{count} item"',
      '    other: "%{count} items"',
      'pl:',
      '  home:',
      '    title: Strona główna',
      '  items:',
      '    one: "%{count} element"',
      '    few: "%{count} elementy"',
      '    many: "%{count} elementów"',
      '    other: "%{count} elementu"',
      '',
    ].join('\n');
    await importOk(service, project.apiKey, languagesFirst, { uploadFormat: 'yaml', importOptions: 'MULTI_LANGUAGE' });
    expect((await contentOf(service, project.projectToken)).en).toEqual({
      'home.title': 'Home',
      items: '{count, plural, one {# item} other {# items}}',
    });
    const files = await exportFiles(service, project.apiKey, {
      downloadFormat: 'yaml',
      downloadOptions: 'MULTI_LANGUAGE,WRITE_NESTED',
    });
    // One file holds every language, exactly the documented shape.
    expect(files).toHaveLength(1);
    expect(files[0]!.content.toString('utf8')).not.toMatch(/\{count, plural|#/);
    expect(files[0]!.content.toString('utf8')).toBe(languagesFirst);

    const keysFirst = 'home:\n  title:\n    en: Home\n    pl: Strona główna\n';
    const other = await account.project('shape yaml keys first');
    await importOk(service, other.apiKey, keysFirst, {
      uploadFormat: 'yaml',
      importOptions: 'MULTI_LANGUAGE,LANGUAGES_NESTED',
    });
    const back = await exportFiles(service, other.apiKey, {
      downloadFormat: 'yaml',
      downloadOptions: 'MULTI_LANGUAGE,LANGUAGES_NESTED,WRITE_NESTED',
    });
    expect(back).toHaveLength(1);
    expect(YAML.parse(back[0]!.content.toString('utf8'))).toEqual(YAML.parse(keysFirst));
  });

  it('simplelocalize-json (FormatJS style), one language per file', async () => {
    const project = await account.project('shape simplelocalize-json');
    const file = {
      'home.title': {
        message: 'Welcome, {name}!',
        description: 'Title of the home page',
        charactersLimit: 40,
        tags: ['web', 'home'],
      },
      'cart.items': { message: '{count, plural, one {# item} other {# items}}' },
    };
    await importOk(service, project.apiKey, JSON.stringify(file), {
      uploadFormat: 'simplelocalize-json',
      languageKey: 'pl',
    });
    const [pl] = await exportFiles(service, project.apiKey, {
      downloadFormat: 'simplelocalize-json',
      downloadOptions: 'SELECTED_LANGUAGES',
      languageKeys: 'pl',
    });
    expect(pl!.language).toBe('pl');
    expect(pl!.content.toString('utf8')).toBe(`${JSON.stringify(file, null, 2)}\n`);
    // FormatJS extract output reads the same; its defaultMessage comes back as message.
    const extracted = await account.project('shape formatjs extract');
    await importOk(
      service,
      extracted.apiKey,
      JSON.stringify({ 'home.title': { defaultMessage: 'Welcome, {name}!', description: 'Title of the home page' } }),
      { uploadFormat: 'simplelocalize-json', languageKey: 'en' },
    );
    const [en] = await exportFiles(service, extracted.apiKey, {
      downloadFormat: 'simplelocalize-json',
      downloadOptions: 'SELECTED_LANGUAGES',
      languageKeys: 'en',
    });
    expect(JSON.parse(en!.content.toString('utf8'))).toEqual({
      'home.title': { message: 'Welcome, {name}!', description: 'Title of the home page' },
    });
  });

  it('csv-translations: key, languages, description, namespace; single-quoted values', async () => {
    const project = await account.project('shape csv');
    const file =
      "key,en,pl,description,namespace\nhome.title,'Home, sweet home','Dom, słodki dom','Title, big',web\nbye,Bye,Pa,,\n";
    await importOk(service, project.apiKey, file, { uploadFormat: 'csv-translations' });
    const out = await exportFiles(service, project.apiKey, {
      downloadFormat: 'csv-translations',
      downloadOptions: 'INCLUDE_DESCRIPTIONS',
    });
    expect(out[0]!.content.toString('utf8')).toBe(
      'key,en,pl,description,namespace\nhome.title,"Home, sweet home","Dom, słodki dom","Title, big",web\nbye,Bye,Pa,,\n',
    );
  });
});

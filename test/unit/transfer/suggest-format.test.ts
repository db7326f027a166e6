// The Import screen's format suggestion (src/formats/suggest.ts): every corpus
// file gets the format of its folder, and the suggested format, options and
// language read the file with the service's own parser; crafted files cover
// the JSON and YAML layouts and the names a language is read from.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, CORPUS_ROOT } from '../../support/corpus.js';
import { formatIds, holdsSeveralLanguages, registeredFormat } from '../../../src/formats/registry.js';
import { languageFromFileName, suggestFormat } from '../../../src/formats/suggest.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const suggest = (fileName: string, text: string) => suggestFormat({ fileName, head: bytes(text) });

/** The corpus folder → the format its files must get. */
const EXPECTED: Record<string, string | ((file: string) => string)> = {
  android: 'android',
  arb: 'arb',
  csv: 'csv-translations',
  js: (file) => (file.startsWith('element-ui') ? 'javascript' : 'module-exports'),
  json: 'single-language-json',
  'localizable-strings': 'localizable-strings',
  php: 'php-array',
  po: 'po-pot',
  properties: 'java-properties',
  'qt-ts': 'qt-linguist',
  resx: 'resx',
  stringsdict: 'localizable-strings-dict',
  xcstrings: 'localizable-xcstrings',
  xliff: (file) => (/2\.0|notes-meta/.test(file) ? 'xliff-2.0' : 'xliff-1.2'),
  yaml: 'yaml',
};

describe.skipIf(!existsSync(CORPUS_ROOT))('suggestions for the corpus files', () => {
  const files = Object.keys(EXPECTED).flatMap((folder) =>
    readdirSync(corpusPath(folder)).map((file) => ({ folder, file })),
  );

  it.each(files)('$folder/$file', async ({ folder, file }) => {
    const content = readFileSync(corpusPath(folder, file));
    const suggestion = suggestFormat({ fileName: file, head: content });
    const expected = EXPECTED[folder]!;
    expect(suggestion.format).toBe(typeof expected === 'function' ? expected(file) : expected);
    // The suggestion reads the file: format, layout options and the language its name gives (a base file names none: the user picks it).
    const format = registeredFormat(suggestion.format)!;
    const needsLanguage =
      !holdsSeveralLanguages(format, new Set(suggestion.options)) && !format.languageInFile && !format.bilingual;
    if (needsLanguage && languageFromFileName(file)) expect(suggestion.languageKey).toBe(languageFromFileName(file));
    const bundle = await format.format.parse(content, {
      languageKey: suggestion.languageKey ?? 'en',
      options: new Set(suggestion.options),
    });
    expect(bundle.keys.length).toBeGreaterThan(0);
  });
});

describe('suggestions', () => {
  it('names only registered formats', () => {
    const names = [
      'a.json',
      'a.yml',
      'a.po',
      'a.xlf',
      'a.strings',
      'a.stringsdict',
      'a.xml',
      'a.resx',
      'a.resw',
      'a.arb',
      'a.properties',
      'a.csv',
      'a.tsv',
      'a.xlsx',
      'a.php',
      'a.ts',
      'a.js',
      'a.xcstrings',
      'a',
    ];
    for (const name of names) expect(formatIds()).toContain(suggest(name, '').format);
  });

  it('tells the JSON layouts apart', () => {
    expect(suggest('en.json', '{"home": {"title": "Hi"}}')).toMatchObject({
      format: 'single-language-json',
      options: [],
      languageKey: 'en',
    });
    expect(suggest('all.json', '{"en": {"title": "Hi"}, "pt-BR": {"title": "Oi"}}')).toMatchObject({
      format: 'multi-language-json',
      options: [],
    });
    expect(suggest('all.json', '{"home": {"title": {"en": "Hi", "de": "Hallo"}}}')).toMatchObject({
      format: 'multi-language-json',
      options: ['LANGUAGES_NESTED'],
    });
    expect(suggest('de.json', '{"title": {"message": "Hallo", "description": "d"}}')).toMatchObject({
      format: 'simplelocalize-json',
      languageKey: 'de',
    });
    expect(suggest('_locales/fr/messages.json', '{"title": {"message": "Salut"}}')).toMatchObject({
      format: 'browser-extension-json',
      languageKey: 'fr',
    });
    expect(
      suggest('backup.json', '{"format": "project-backup-json", "version": 1, "languages": [], "keys": []}').format,
    ).toBe('project-backup-json');
    expect(suggest('broken.json', '{"a": ').format).toBe('single-language-json');
  });

  it('tells the YAML layouts apart', () => {
    expect(suggest('devise.yml', '# comment\nen:\n  devise:\n    title: Hi\n')).toMatchObject({
      format: 'yaml',
      options: [],
      languageKey: 'en',
    });
    expect(suggest('all.yml', 'en:\n  a: A\nde:\n  a: B\n')).toMatchObject({
      format: 'yaml',
      options: ['MULTI_LANGUAGE'],
    });
    expect(suggest('app_fr.yml', 'home:\n  title: Salut\n')).toMatchObject({
      format: 'yaml',
      options: [],
      languageKey: 'fr',
    });
  });

  it('reads the content when the extension is shared or missing', () => {
    expect(suggest('strings.xml', '<resources><string name="a">A</string></resources>').format).toBe('android');
    expect(
      suggest('Strings.xml', '<?xml version="1.0"?><root><data name="a"><value>A</value></data></root>').format,
    ).toBe('resx');
    expect(suggest('app.ts', '<?xml version="1.0"?><TS version="2.1" language="de"></TS>').format).toBe('qt-linguist');
    expect(suggest('de.ts', 'export default { a: "A" }').format).toBe('javascript');
    expect(suggest('de.js', 'module.exports = { a: "A" }').format).toBe('module-exports');
    expect(suggest('x.xlf', '<xliff version="2.0" srcLang="en"></xliff>').format).toBe('xliff-2.0');
    expect(suggestFormat({ fileName: 'sheet', head: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0]) }).format).toBe(
      'excel',
    );
    expect(suggest('upload', 'msgid ""\nmsgstr ""\n').format).toBe('po-pot');
  });

  it('reads the language from the file name', () => {
    expect(languageFromFileName('res/values-pt-rBR/strings.xml')).toBe('pt-BR');
    expect(languageFromFileName('res/values/strings.xml')).toBeUndefined();
    expect(languageFromFileName('de.lproj/Localizable.strings')).toBe('de');
    expect(languageFromFileName('messages_fr.properties')).toBe('fr');
    expect(languageFromFileName('app_en.arb')).toBe('en');
    expect(languageFromFileName('validators.ru.xlf')).toBe('ru');
    expect(languageFromFileName('uppy_ru_RU.js')).toBe('ru_RU');
    expect(languageFromFileName('duckduckgo-ios_autofill_it_Localizable.strings')).toBe('it');
    expect(languageFromFileName('translations.json')).toBeUndefined();
  });
});

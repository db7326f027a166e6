import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvTranslations, tsv } from '../../../src/formats/csv.js';
import {
  FormatError,
  type Bundle,
  type ExportOption,
  type FileFormat,
  type ImportOption,
} from '../../../src/formats/model.js';
import { toIcuPlural } from '../../../src/formats/plural.js';
import { guardCell, unguardCell } from '../../../src/formats/translation-table.js';
import { costRatio } from './support/linear-cost.js';
import { corpusPath } from '../../support/corpus.js';
import { generatedBundle } from './support/bundles.js';

/** n keys under shared prefixes, with plurals and descriptions. */

const CORPUS = corpusPath('csv');
const parseWith = (
  format: FileFormat,
  text: string | Buffer,
  languageKey?: string,
  options: ImportOption[] = [],
  namespace?: string,
) =>
  format.parse(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), {
    languageKey,
    namespace,
    options: new Set(options),
  });
const parse = (text: string | Buffer, languageKey?: string, options: ImportOption[] = [], namespace?: string) =>
  parseWith(csvTranslations, text, languageKey, options, namespace);
const serializeWith = async (format: FileFormat, bundle: Bundle, languages: string[], options: ExportOption[] = []) =>
  (
    await format.serialize(bundle, { languages: languages.map((key) => ({ key })), options: new Set(options) })
  ).toString('utf8');
const shape = (b: Bundle) =>
  b.keys.map((k) => ({ key: k.key, namespace: k.namespace, description: k.description, translations: k.translations }));

describe.skipIf(!existsSync(CORPUS))('csv-translations: corpus files', () => {
  it('godot: empty first header cell is the key column, languages after it, quoted commas, UTF-8', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'godot-demo-projects_translation_text.csv')));
    expect(b.languages.map((l) => l.key)).toEqual(['en', 'es', 'ja', 'ru']);
    expect(b.keys.map((k) => k.key)).toEqual(['KEY_HELLO', 'KEY_PUSH', 'KEY_INTRO']);
    expect(b.keys[1]!.translations).toEqual({
      en: { text: 'Push Me!' },
      es: { text: 'Aprétame!' },
      ja: { text: '押す!' },
      ru: { text: 'Толкни меня!' },
    });
    expect(b.keys[2]!.translations.en?.text).toBe('Hello, this is a translation demo project.');
    const back = await parse(await serializeWith(csvTranslations, b, ['en', 'es', 'ja', 'ru']));
    expect(shape(back)).toEqual(shape(b));
  });

  it('magento (headerless source,translation rows) imports with a languageKey: doubled quotes, multi-line fields, mixed CRLF/LF', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'mollie-magento2_de_DE.csv')), 'de_DE');
    expect(b.languages).toEqual([{ key: 'de_DE' }]);
    expect(b.keys[0]).toEqual({
      key: '"%1" does not implement %1',
      namespace: '',
      translations: { de_DE: { text: '"%1" implementiert %1 nicht' } },
    });
    expect(b.keys.find((k) => k.key === '-- Please Select --')?.translations.de_DE?.text).toBe('-- Bitte wählen --');
    const multiline = b.keys.find((k) => k.key.startsWith('<strong>Autodetect:</strong>'));
    expect(multiline?.key).toContain('<br>\n<strong>Store Locale</strong>');
    expect(multiline?.translations.de_DE?.text).toContain('<br>\n<strong>Shop-Sprache</strong>');
    expect(b.keys.length).toBeGreaterThan(450);
    expect(b.keys.every((k) => !k.key.includes('\r'))).toBe(true);
  });

  it('the magento file without a languageKey has no key column', async () => {
    await expect(parse(readFileSync(join(CORPUS, 'mollie-magento2_de_DE.csv')))).rejects.toThrow(/No key column/);
  });
});

describe('csv-translations: columns', () => {
  it('recognises header spellings in any case; namespace and description columns; empty cells are missing translations', async () => {
    const b = await parse(
      'KEY,Namespace,Comment,en,de\nhello,web,Greeting,Hello,\nbye,,,Bye,Tschüss\n',
      undefined,
      [],
      'fallback',
    );
    expect(b.languages).toEqual([{ key: 'en' }, { key: 'de' }]);
    expect(shape(b)).toEqual([
      { key: 'hello', namespace: 'web', description: 'Greeting', translations: { en: { text: 'Hello' } } },
      {
        key: 'bye',
        namespace: 'fallback',
        description: undefined,
        translations: { en: { text: 'Bye' }, de: { text: 'Tschüss' } },
      },
    ]);
    expect((await parse('Keys,Description,fr\na,d,b\n')).keys[0]).toEqual({
      key: 'a',
      namespace: '',
      description: 'd',
      translations: { fr: { text: 'b' } },
    });
  });

  it('skips blank rows, ignores cells beyond the header, accepts a BOM and CRLF', async () => {
    const b = await parse(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('key,en\r\n\r\na,A,extra\r\n,\r\nb,B\r\n')]),
    );
    expect(b.keys.map((k) => [k.key, k.translations.en?.text])).toEqual([
      ['a', 'A'],
      ['b', 'B'],
    ]);
  });

  it('reports problems with their line', async () => {
    const cases: [string, RegExp, number][] = [
      ['en,de\nx,y\n', /No key column/, 1],
      ['key,en,en\na,b,c\n', /two columns/, 1],
      ['key,en\na,b\n,orphan\n', /without a key/, 3],
      ['key,en\na,b\n"multi\nline",c\na,d\n', /appears twice/, 5],
      ['key,en\na,"unterminated\n', /Quote Not Closed/, 2],
    ];
    for (const [text, message, line] of cases) {
      const err = await parse(text).catch((e: unknown) => e);
      expect(err, text).toBeInstanceOf(FormatError);
      expect((err as Error).message).toMatch(message);
      expect((err as FormatError).position?.line, text).toBe(line);
    }
  });

  it('refuses invalid UTF-8', async () => {
    await expect(parse(Buffer.from([0x6b, 0x65, 0x79, 0x2c, 0x65, 0x6e, 0x0a, 0x61, 0x2c, 0xc0]))).rejects.toThrow(
      /not valid UTF-8/,
    );
  });
});

describe('csv-translations / tsv: formula injection', () => {
  it('guard and unguard are inverse for every text', () => {
    for (const t of ['=SUM(A1)', '+1', '-1', '@cmd', '\tx', '\rx', "'=x", "''+x", "'plain", 'plain', "it's", '', "'"]) {
      expect(unguardCell(guardCell(t)), t).toBe(t);
    }
    expect(guardCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(guardCell("'=x")).toBe("''=x");
    expect(guardCell("'plain")).toBe("'plain");
  });

  for (const format of [csvTranslations, tsv]) {
    it(`${format.id}: exported formula-like cells are neutralised and read back as the same text`, async () => {
      const bundle: Bundle = {
        languages: [{ key: 'en' }],
        keys: [
          { key: '=cmd|calc', namespace: '', translations: { en: { text: '=SUM(A1)' } } },
          { key: 'plus', namespace: '', translations: { en: { text: '+49 30 1234' } } },
          { key: 'at', namespace: '', translations: { en: { text: '@mention' } } },
          { key: 'quoted', namespace: '', translations: { en: { text: "'=already quoted" } } },
          { key: 'tab', namespace: '', translations: { en: { text: '\tindented' } } },
        ],
      };
      const out = await serializeWith(format, bundle, ['en']);
      const sep = format === tsv ? '\t' : ',';
      expect(out).toContain(`'=cmd|calc${sep}'=SUM(A1)\n`);
      expect(out).toContain(`plus${sep}'+49 30 1234\n`);
      expect(out).toContain(`quoted${sep}''=already quoted\n`);
      expect(out.split('\n').every((line) => !/(^|[,\t])[=+\-@]/.test(line))).toBe(true);
      expect(shape(await parseWith(format, out))).toEqual(shape(bundle));
    });
  }
});

describe('csv-translations / tsv: export', () => {
  const bundle: Bundle = {
    languages: [{ key: 'en' }, { key: 'de' }],
    keys: [
      {
        key: 'greeting',
        namespace: 'web',
        description: 'On the home page, "big"',
        translations: { en: { text: 'Hello, world' }, de: { text: 'Hallo\nWelt' } },
      },
      { key: 'files', namespace: '', translations: { en: { text: toIcuPlural({ one: '# file', other: '# files' }) } } },
      { key: 'tabbed\tkey', namespace: 'app', translations: { de: { text: 'a\tb "q"' } } },
      { key: 'cr', namespace: '', translations: { en: { text: 'a\rb' } } },
    ],
  };

  it('writes the documented order key, languages, description, namespace; quotes where needed', async () => {
    const out = await serializeWith(csvTranslations, bundle, ['en', 'de'], ['INCLUDE_DESCRIPTIONS']);
    expect(out.split('\n')[0]).toBe('key,en,de,description,namespace');
    expect(out).toContain('greeting,"Hello, world","Hallo\nWelt","On the home page, ""big""",web\n');
    expect(out).toContain('files,"{count, plural, one {# file} other {# files}}",,,\n');
  });

  it('leaves the namespace column out when no key has a namespace, the description column without INCLUDE_DESCRIPTIONS', async () => {
    const out = await serializeWith(csvTranslations, { languages: [], keys: [bundle.keys[1]!] }, ['en']);
    expect(out.split('\n')[0]).toBe('key,en');
  });

  it('ESCAPE_NEW_LINES writes newlines as \\n', async () => {
    const out = await serializeWith(csvTranslations, bundle, ['de'], ['ESCAPE_NEW_LINES']);
    expect(out).toContain('greeting,Hallo\\nWelt,web\n');
  });

  it('ESCAPE_SINGLE_QUOTES writes every apostrophe of a text as a backslash and an apostrophe', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: [{ key: 'k', namespace: '', translations: { en: { text: "It's" } } }],
    };
    expect(await serializeWith(csvTranslations, b, ['en'], ['ESCAPE_SINGLE_QUOTES'])).toBe("key,en\nk,It\\'s\n");
  });

  for (const format of [csvTranslations, tsv]) {
    it(`${format.id}: round-trips keys, namespaces, descriptions, plurals and texts`, async () => {
      const back = await parseWith(format, await serializeWith(format, bundle, ['en', 'de'], ['INCLUDE_DESCRIPTIONS']));
      expect(back.languages).toEqual([{ key: 'en' }, { key: 'de' }]);
      expect(shape(back)).toEqual(shape(bundle));
    });
  }

  it('export and import cost grow linearly with the number of keys', async () => {
    expect(
      await costRatio((n) =>
        serializeWith(csvTranslations, generatedBundle(n, ['en', 'de']), ['en', 'de'], ['INCLUDE_DESCRIPTIONS']),
      ),
    ).toBeLessThan(32);
    expect(
      await costRatio(
        async (n) => parse(await serializeWith(csvTranslations, generatedBundle(n, ['en', 'de']), ['en', 'de'])),
        500,
      ),
    ).toBeLessThan(32);
  }, 120_000);

  it('quotes texts that would read back as single-quoted, so they round-trip', async () => {
    const texts = ["'tis", "'quoted'", "'", "''", "'a, b'", "x'", "'=x'", "it's"];
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: texts.map((t, i) => ({ key: `k${i}`, namespace: '', translations: { en: { text: t } } })),
    };
    const out = await serializeWith(csvTranslations, b, ['en']);
    expect(out).toContain(`k0,"'tis"\n`);
    expect(out).toContain(`k7,it's\n`);
    expect((await parse(out)).keys.map((k) => k.translations.en?.text)).toEqual(texts);
  });

  it('tsv reads unquoted cells with quotes inside', async () => {
    const b = await parseWith(tsv, 'key\ten\na\tsay "hi"\n');
    expect(b.keys[0]!.translations.en?.text).toBe('say "hi"');
  });
});

describe('csv-translations: values wrapped in single or double quotes', () => {
  it('reads the documented header key, languages, description, namespace', async () => {
    const b = await parse('key,en,pl,description,namespace\nhome.title,Home,Strona,"Title, big",web\nbye,Bye,,,\n');
    expect(b.languages).toEqual([{ key: 'en' }, { key: 'pl' }]);
    expect(shape(b)).toEqual([
      {
        key: 'home.title',
        namespace: 'web',
        description: 'Title, big',
        translations: { en: { text: 'Home' }, pl: { text: 'Strona' } },
      },
      { key: 'bye', namespace: '', description: undefined, translations: { en: { text: 'Bye' } } },
    ]);
  });

  it('reads a single-quoted value with commas as one value, in a file that quotes with single quotes', async () => {
    const b = await parse(
      "key,en,de,description,namespace\ngreeting,'Hello, world','Hallo, Welt','On the home page, big',web\nits,'It''s','Es ist',,\nplain,Plain,Schlicht,,\n",
    );
    expect(
      b.keys.map((k) => [k.key, k.translations.en?.text, k.translations.de?.text, k.description, k.namespace]),
    ).toEqual([
      ['greeting', 'Hello, world', 'Hallo, Welt', 'On the home page, big', 'web'],
      ['its', "It's", 'Es ist', undefined, ''],
      ['plain', 'Plain', 'Schlicht', undefined, ''],
    ]);
    // Also a multi-line single-quoted value, and in TSV.
    expect((await parse("key,en\nk,'line 1\nline 2, still'\n")).keys[0]!.translations.en?.text).toBe(
      'line 1\nline 2, still',
    );
    expect((await parseWith(tsv, "key\ten\nk\t'a\tb'\n")).keys[0]!.translations.en?.text).toBe('a\tb');
  });

  it('unwraps single-quoted values in a file that also quotes with double quotes; double-quoted apostrophes stay', async () => {
    const b = await parse(`key,en,de\na,"Hello, ""world""",'Hallo'\nb,"'kept'",'It''s'\nc,'=x,'+1\n`);
    expect(b.keys.map((k) => [k.key, k.translations.en?.text, k.translations.de?.text])).toEqual([
      ['a', 'Hello, "world"', 'Hallo'],
      ['b', "'kept'", "It's"],
      // The formula guard's apostrophe is removed, never read as a quote.
      ['c', '=x', '+1'],
    ]);
  });

  it('keeps the double-quote reading when the file is not single-quoted after all', async () => {
    const b = await parse("key,en\na,'tis the season\nb,rock 'n' roll\n");
    expect(b.keys.map((k) => [k.key, k.translations.en?.text])).toEqual([
      ['a', "'tis the season"],
      ['b', "rock 'n' roll"],
    ]);
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { multiLanguageJson, singleLanguageJson } from '../../../src/formats/json.js';
import { FormatError, type Bundle, type ExportOption, type ImportOption } from '../../../src/formats/model.js';
import { corpusPath } from '../../support/corpus.js';

const CORPUS = corpusPath('json');
const hasCorpus = existsSync(CORPUS);

const parseSingle = (text: string | Buffer, options: ImportOption[] = [], languageKey = 'en', namespace?: string) =>
  singleLanguageJson.parse(typeof text === 'string' ? Buffer.from(text) : text, {
    languageKey,
    namespace,
    options: new Set(options),
  });
const parseMulti = (text: string, options: ImportOption[] = []) =>
  multiLanguageJson.parse(Buffer.from(text), { options: new Set(options) });
const exportSingle = async (bundle: Bundle, language: string, options: ExportOption[] = [], namespace?: string) =>
  (
    await singleLanguageJson.serialize(bundle, { languages: [{ key: language }], options: new Set(options), namespace })
  ).toString('utf8');
const exportMulti = async (bundle: Bundle, languages: string[], options: ExportOption[] = []) =>
  (
    await multiLanguageJson.serialize(bundle, {
      languages: languages.map((key) => ({ key })),
      options: new Set(options),
    })
  ).toString('utf8');

/** key -> text of one language, the part of a bundle a round trip must keep. */
const texts = (bundle: Bundle, language: string) =>
  Object.fromEntries(bundle.keys.map((k) => [k.key, k.translations[language]?.text]));
const text = (bundle: Bundle, key: string, language = 'en') =>
  bundle.keys.find((k) => k.key === key)?.translations[language]?.text;

async function formatError(promise: Promise<unknown>): Promise<FormatError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FormatError);
  return error as FormatError;
}

describe.skipIf(!hasCorpus)('single-language-json: corpus files', () => {
  it('reads actualbudget (flat i18next, sentence keys, _one/_few/_other suffixes kept as separate keys)', async () => {
    const b = await parseSingle(readFileSync(join(CORPUS, 'actualbudget_cs.json')), [], 'cs');
    expect(b.keys).toHaveLength(234);
    expect(b.languages).toEqual([{ key: 'cs' }]);
    expect(text(b, '(hidden)', 'cs')).toBe('(skryté)');
    expect(text(b, '{{count}} transactions_one', 'cs')).toBe('{{count}} transakce');
    expect(text(b, '{{count}} transactions_few', 'cs')).toBe('{{count}} transakce');
    expect(text(b, '{{count}} transactions_other', 'cs')).toBe('{{count}} transakcí');
    expect(b.keys.every((k) => k.namespace === '')).toBe(true);
  });

  it('reads excalidraw (nested two levels; _one/_many trap keys are not plurals)', async () => {
    const b = await parseSingle(readFileSync(join(CORPUS, 'excalidraw_ru-RU.json')), [], 'ru-RU');
    expect(b.keys).toHaveLength(606);
    expect(text(b, 'labels.paste', 'ru-RU')).toBe('Вставить');
    expect(text(b, 'labels.arrowhead_crowfoot_one', 'ru-RU')).toBe('Морщинки (одна)');
    expect(text(b, 'labels.arrowhead_crowfoot_many', 'ru-RU')).toBe('Морщинки (много)');
    expect(text(b, 'labels.arrowhead_cardinality_one_or_many', 'ru-RU')).toBe('Кардинальность (одна или много)');
    expect(b.keys.some((k) => k.key === 'labels.arrowhead_crowfoot')).toBe(false);
  });

  it('keeps the broken ICU of overseerr fi verbatim', async () => {
    const b = await parseSingle(readFileSync(join(CORPUS, 'overseerr_fi.react-intl.json')), [], 'fi');
    expect(b.keys).toHaveLength(117);
    expect(text(b, 'components.Discover.DiscoverMovies.activefilters', 'fi')).toBe(
      '{count, plural, one {# Active Filter} muu {# Active Filters}}',
    );
  });

  it('reads overseerr lt (flat react-intl keys with dots, ICU plurals)', async () => {
    const b = await parseSingle(readFileSync(join(CORPUS, 'overseerr_lt.react-intl.json')), [], 'lt');
    expect(b.keys).toHaveLength(729);
    expect(text(b, 'components.MovieDetails.studio', 'lt')).toBe(
      '{studioCount, plural, one {Studija} other {Studijos}}',
    );
    expect(text(b, 'components.CollectionDetails.overview', 'lt')).toBe('Apžvalga');
  });

  it.each(readdirSync(hasCorpus ? CORPUS : '.').filter((f) => f.endsWith('.json')))(
    'round-trips %s flat and nested',
    async (file) => {
      const original = await parseSingle(readFileSync(join(CORPUS, file)), [], 'xx');
      for (const options of [[], ['WRITE_NESTED']] as ExportOption[][]) {
        const exported = await exportSingle(original, 'xx', options);
        const again = await parseSingle(exported, [], 'xx');
        expect(sorted(Object.entries(texts(again, 'xx')))).toEqual(sorted(Object.entries(texts(original, 'xx'))));
      }
      // Flat export keeps the key order as well.
      expect((await parseSingle(await exportSingle(original, 'xx'), [], 'xx')).keys.map((k) => k.key)).toEqual(
        original.keys.map((k) => k.key),
      );
    },
  );
});

const sorted = <T>(a: T[]) => [...a].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));

describe('single-language-json: import rules', () => {
  it('turns nested objects into dotted keys and arrays into [i] keys', async () => {
    const b = await parseSingle(
      '{"home": {"title": "Hi", "menu": {"open": "Open"}}, "list": ["a", "b"], "flat.key": "x"}',
    );
    expect(texts(b, 'en')).toEqual({
      'home.title': 'Hi',
      'home.menu.open': 'Open',
      'list[0]': 'a',
      'list[1]': 'b',
      'flat.key': 'x',
    });
  });

  it('keeps ICU texts and does not guess plurals from suffixes', async () => {
    const b = await parseSingle(
      '{"files_one": "{{count}} file", "files_other": "{{count}} files", "icu": "{count, plural, one {# file} other {# files}}"}',
    );
    expect(b.keys.map((k) => k.key)).toEqual(['files_one', 'files_other', 'icu']);
    expect(text(b, 'icu')).toBe('{count, plural, one {# file} other {# files}}');
  });

  it('imports numbers and booleans as text, null as a key without translation, empty objects as nothing', async () => {
    const b = await parseSingle('{"n": 42, "f": 1.5, "yes": true, "missing": null, "empty": {}, "none": []}');
    expect(b.keys.map((k) => k.key)).toEqual(['n', 'f', 'yes', 'missing']);
    expect(texts(b, 'en')).toEqual({ n: '42', f: '1.5', yes: 'true', missing: undefined });
    expect(b.keys[3]!.translations).toEqual({});
  });

  it('uses the namespace and language of the request', async () => {
    const b = await parseSingle('{"a": "x"}', [], 'de', 'common');
    expect(b.keys).toEqual([{ key: 'a', namespace: 'common', translations: { de: { text: 'x' } } }]);
    expect(b.languages).toEqual([{ key: 'de' }]);
  });

  it('accepts a UTF-8 BOM and refuses invalid UTF-8', async () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": "ä"}')]);
    expect(texts(await parseSingle(withBom), 'en')).toEqual({ a: 'ä' });
    await formatError(parseSingle(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])));
  });

  it('refuses a top-level array or text, a dotted name that repeats a nested path, and a missing languageKey', async () => {
    expect((await formatError(parseSingle('["a"]'))).message).toMatch(/object at the top level, not an array/);
    expect((await formatError(parseSingle('"a"'))).message).toMatch(/not string/);
    expect((await formatError(parseSingle('{"a.b": "x", "a": {"b": "y"}}'))).message).toMatch(
      /"a\.b" is defined twice/,
    );
    await formatError(singleLanguageJson.parse(Buffer.from('{}'), { options: new Set() }));
  });

  it('reads the multi-language layouts: MULTI_LANGUAGE language-first, LANGUAGES_NESTED key-first', async () => {
    const multi = await parseSingle('{"en": {"a": "A"}, "de": {"a": "Ä"}}', ['MULTI_LANGUAGE']);
    expect(multi.languages).toEqual([{ key: 'en' }, { key: 'de' }]);
    expect(texts(multi, 'de')).toEqual({ a: 'Ä' });
    for (const options of [['LANGUAGES_NESTED'], ['MULTI_LANGUAGE', 'LANGUAGES_NESTED']] as ImportOption[][]) {
      const keyFirst = await parseSingle('{"a": {"en": "A", "de": "Ä"}}', options);
      expect(texts(keyFirst, 'de')).toEqual({ a: 'Ä' });
    }
  });
});

describe('single-language-json: export', () => {
  const bundle: Bundle = {
    languages: [{ key: 'en' }, { key: 'de' }],
    keys: [
      { key: 'a', namespace: '', translations: { en: { text: 'leaf' } } },
      { key: 'a.b', namespace: '', translations: { en: { text: 'child' } } },
      { key: 'files', namespace: '', translations: { en: { text: '{count, plural, one {# file} other {# files}}' } } },
      { key: 'nav.home', namespace: '', translations: { en: { text: 'Home' }, de: { text: 'Start' } } },
      { key: 'multi', namespace: '', translations: { en: { text: 'line 1\nline 2 "quoted" \\ \u2028' } } },
    ],
  };

  it('writes flat JSON by default, with "" for a missing translation', async () => {
    const out = await exportSingle(bundle, 'de');
    expect(JSON.parse(out)).toEqual({ a: '', 'a.b': '', files: '', 'nav.home': 'Start', multi: '' });
    expect(out.endsWith('}\n')).toBe(true);
  });

  it('writes nested JSON with WRITE_NESTED, keeping a key that is both leaf and parent', async () => {
    const out = await exportSingle(bundle, 'en', ['WRITE_NESTED']);
    expect(JSON.parse(out)).toEqual({
      a: 'leaf',
      'a.b': 'child',
      files: '{count, plural, one {# file} other {# files}}',
      nav: { home: 'Home' },
      multi: 'line 1\nline 2 "quoted" \\ \u2028',
    });
  });

  it('round-trips keys, plurals and special characters flat and nested', async () => {
    for (const options of [[], ['WRITE_NESTED']] as ExportOption[][]) {
      const again = await parseSingle(await exportSingle(bundle, 'en', options));
      expect(texts(again, 'en')).toEqual(texts(bundle, 'en'));
    }
  });

  it('writes only the namespace of a split export; without a split, the key of the first namespace in code-point order', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: [
        { key: 'title', namespace: 'app', translations: { en: { text: 'App' } } },
        { key: 'title', namespace: 'admin', translations: { en: { text: 'Admin' } } },
      ],
    };
    expect(JSON.parse(await exportSingle(b, 'en', [], 'admin'))).toEqual({ title: 'Admin' });
    expect(JSON.parse(await exportSingle(b, 'en'))).toEqual({ title: 'Admin' });
  });

  it('writes the multi-language layouts with MULTI_LANGUAGE / LANGUAGES_NESTED, which read back with the same option', async () => {
    const language = await exportSingle(bundle, 'de', ['MULTI_LANGUAGE', 'WRITE_NESTED']);
    expect(JSON.parse(language)).toEqual({ de: { a: '', 'a.b': '', files: '', nav: { home: 'Start' }, multi: '' } });
    expect(texts(await parseSingle(language, ['MULTI_LANGUAGE']), 'de')).toEqual({
      a: '',
      'a.b': '',
      files: '',
      'nav.home': 'Start',
      multi: '',
    });
    const keyFirst = await exportSingle(bundle, 'en', ['LANGUAGES_NESTED']);
    expect(JSON.parse(keyFirst)).toMatchObject({ a: { en: 'leaf' }, 'nav.home': { en: 'Home' } });
    expect(texts(await parseSingle(keyFirst, ['LANGUAGES_NESTED']), 'en')).toEqual(texts(bundle, 'en'));
  });

  it('ESCAPE_SINGLE_QUOTES writes every apostrophe as a backslash and an apostrophe', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: [{ key: 'k', namespace: '', translations: { en: { text: "It's Bob's" } } }],
    };
    expect(JSON.parse(await exportSingle(b, 'en', ['ESCAPE_SINGLE_QUOTES']))).toEqual({ k: "It\\'s Bob\\'s" });
    expect(JSON.parse(await exportSingle(b, 'en'))).toEqual({ k: "It's Bob's" });
  });
});

describe('multi-language-json', () => {
  it('reads the documented language-first shape, flat or nested under each language', async () => {
    const b = await parseMulti(
      '{"en": {"home.title": "Hi", "a": "x", "a.b": "y"}, "pl": {"home": {"title": "Cześć"}, "list": ["jeden", "dwa"]}, "pt-BR": {"a": {"b": "z"}}}',
    );
    expect(b.languages).toEqual([{ key: 'en' }, { key: 'pl' }, { key: 'pt-BR' }]);
    expect(b.keys.map((k) => k.key)).toEqual(['home.title', 'a', 'a.b', 'list[0]', 'list[1]']);
    expect(b.keys[0]!.translations).toEqual({ en: { text: 'Hi' }, pl: { text: 'Cześć' } });
    expect(b.keys[2]!.translations).toEqual({ en: { text: 'y' }, 'pt-BR': { text: 'z' } });
    expect(texts(b, 'pl')).toMatchObject({ 'list[0]': 'jeden', 'list[1]': 'dwa' });
  });

  it('uses null as "no translation" and reads an empty file as no keys', async () => {
    const b = await parseMulti('{"en": {"a": "x"}, "de": {"a": null}}');
    expect(b.keys).toEqual([{ key: 'a', namespace: '', translations: { en: { text: 'x' } } }]);
    expect(b.languages).toEqual([{ key: 'en' }, { key: 'de' }]);
    expect(await parseMulti('{}')).toEqual({ keys: [], languages: [] });
  });

  it('refuses a key-first file with a message showing the expected shape and how to read it', async () => {
    const keyFirst = (await formatError(parseMulti('{"home.title": {"en": "Hi", "de": "Hallo"}}'))).message;
    expect(keyFirst).toContain('"home.title" on the first level is not a language code');
    expect(keyFirst).toContain('{"en": {"home.title": "…"}, "pl": {…}}');
    expect(keyFirst).toContain('LANGUAGES_NESTED');
    // A nested single-language file uploaded by mistake: no language is created after its keys.
    expect((await formatError(parseMulti('{"home": {"title": "Hi"}}'))).message).toMatch(
      /"home" on the first level is not a language code/,
    );
    expect((await formatError(parseMulti('{"en": "x"}'))).message).toMatch(
      /"en" must hold an object of keys, not string/,
    );
    expect((await formatError(parseMulti('[{"en": {}}]'))).message).toMatch(/top level, not an array/);
    expect((await formatError(parseMulti('{"en": {"a.b": "1", "a": {"b": "2"}}}'))).message).toMatch(
      /"a\.b" is defined twice/,
    );
  });

  it('LANGUAGES_NESTED reads the key-first layout {key: {lang: text}}, key paths nested', async () => {
    const b = await parseMulti(
      '{"home": {"title": {"en": "Hi", "de": "Hallo"}}, "a": {"en": "x", "b": {"en": "y", "pt-BR": "z"}}, "list": [{"en": "one"}, {"en": "two"}], "n": {"en": null}}',
      ['LANGUAGES_NESTED'],
    );
    expect(b.languages).toEqual([{ key: 'en' }, { key: 'de' }, { key: 'pt-BR' }]);
    expect(b.keys.map((k) => k.key)).toEqual(['home.title', 'a', 'a.b', 'list[0]', 'list[1]', 'n']);
    expect(b.keys[0]!.translations).toEqual({ en: { text: 'Hi' }, de: { text: 'Hallo' } });
    expect(b.keys[5]!.translations).toEqual({});
    expect((await formatError(parseMulti('{"title": "Hi"}', ['LANGUAGES_NESTED']))).message).toMatch(
      /top-level value "title" is not an object/,
    );
    expect((await formatError(parseMulti('{"home": {"title": "Hi"}}', ['LANGUAGES_NESTED']))).message).toMatch(
      /"home\.title": "title" is not a language code/,
    );
    expect((await formatError(parseMulti('{"a": {"en": ["x"]}}', ['LANGUAGES_NESTED']))).message).toMatch(
      /"a\.en\[0\]" is not an object/,
    );
  });

  const bundle: Bundle = {
    languages: [{ key: 'en' }, { key: 'de' }],
    keys: [
      { key: 'a', namespace: '', translations: { en: { text: 'x' }, de: { text: 'X' } } },
      { key: 'a.b', namespace: '', translations: { en: { text: 'y' } } },
      {
        key: 'plural',
        namespace: '',
        translations: {
          en: { text: '{count, plural, one {# item} other {# items}}' },
          de: { text: '{count, plural, one {# Element} other {# Elemente}}' },
        },
      },
      { key: 'list[0]', namespace: '', translations: { de: { text: 'eins' } } },
    ],
  };

  it('writes language-first with every exported language and every key ("" when missing), as JSON.stringify lays it out', async () => {
    const expected = {
      en: { a: 'x', 'a.b': 'y', plural: '{count, plural, one {# item} other {# items}}', 'list[0]': '' },
      de: { a: 'X', 'a.b': '', plural: '{count, plural, one {# Element} other {# Elemente}}', 'list[0]': 'eins' },
    };
    const out = await exportMulti(bundle, ['en', 'de']);
    expect(out).toBe(`${JSON.stringify(expected, null, 2)}\n`);
    const nested = await exportMulti(bundle, ['de', 'en'], ['WRITE_NESTED']);
    expect(nested).toBe(
      `${JSON.stringify(
        {
          de: { a: 'X', 'a.b': '', list: ['eins'], plural: '{count, plural, one {# Element} other {# Elemente}}' },
          en: { a: 'x', 'a.b': 'y', list: [''], plural: '{count, plural, one {# item} other {# items}}' },
        },
        null,
        2,
      )}\n`,
    );
    expect(await exportMulti({ keys: [], languages: [] }, ['en', 'de'])).toBe('{\n  "en": {},\n  "de": {}\n}\n');
    expect(await exportMulti({ keys: [], languages: [] }, [])).toBe('{}\n');
  });

  it('writes the same bytes whatever the page split (one section per language)', async () => {
    const { writePages, fileOf } = await import('../../../src/formats/define.js');
    for (const options of [[], ['WRITE_NESTED']] as ExportOption[][]) {
      const whole = await exportMulti(bundle, ['en', 'de'], options);
      const { keys, options: serializeOptions } = fileOf(multiLanguageJson, bundle, {
        languages: [{ key: 'en' }, { key: 'de' }],
        options: new Set(options),
      });
      const paged = await writePages(
        multiLanguageJson.writer(serializeOptions),
        keys.map((k) => [k]),
      );
      expect(paged.toString('utf8')).toBe(whole);
    }
  });

  it('writes the key-first layout with LANGUAGES_NESTED', async () => {
    expect(JSON.parse(await exportMulti(bundle, ['en', 'de'], ['LANGUAGES_NESTED']))).toEqual({
      a: { en: 'x', de: 'X' },
      'a.b': { en: 'y', de: '' },
      plural: {
        en: '{count, plural, one {# item} other {# items}}',
        de: '{count, plural, one {# Element} other {# Elemente}}',
      },
      'list[0]': { en: '', de: 'eins' },
    });
    expect(JSON.parse(await exportMulti(bundle, ['de'], ['WRITE_NESTED', 'LANGUAGES_NESTED']))).toEqual({
      a: { de: 'X' },
      'a.b': { de: '' },
      plural: { de: '{count, plural, one {# Element} other {# Elemente}}' },
      list: [{ de: 'eins' }],
    });
  });

  it('round-trips flat and nested, in both layouts', async () => {
    for (const options of [
      [],
      ['WRITE_NESTED'],
      ['LANGUAGES_NESTED'],
      ['WRITE_NESTED', 'LANGUAGES_NESTED'],
    ] as ExportOption[][]) {
      const importOptions = options.filter((o) => o === 'LANGUAGES_NESTED') as ImportOption[];
      const again = await parseMulti(await exportMulti(bundle, ['en', 'de'], options), importOptions);
      expect(again.languages).toEqual([{ key: 'en' }, { key: 'de' }]);
      for (const lang of ['en', 'de']) {
        expect(texts(again, lang)).toEqual(
          Object.fromEntries(bundle.keys.map((k) => [k.key, k.translations[lang]?.text ?? ''])),
        );
      }
    }
  });

  it('ESCAPE_SINGLE_QUOTES applies to every language', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }, { key: 'fr' }],
      keys: [{ key: 'k', namespace: '', translations: { en: { text: "it's" }, fr: { text: "l'été" } } }],
    };
    expect(JSON.parse(await exportMulti(b, ['en', 'fr'], ['ESCAPE_SINGLE_QUOTES']))).toEqual({
      en: { k: "it\\'s" },
      fr: { k: "l\\'été" },
    });
  });
});

describe('JSON: hostile input', () => {
  it('refuses 100,000 levels of nesting with a FormatError, without overflowing the stack', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const error = await formatError(parseSingle(`{"a": ${deep}}`));
    expect(error.message).toMatch(/deeper than 64/);
    expect(error.position?.line).toBe(1);
    await formatError(parseMulti('{"a": '.repeat(100_000) + '1' + '}'.repeat(100_000)));
    await formatError(parseMulti('{"en": ' + '{"a": '.repeat(100_000) + '1' + '}'.repeat(100_001)));
  });

  it('does not let __proto__ or constructor members pollute prototypes', async () => {
    const b = await parseSingle('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"x": "y"}}}');
    expect(texts(b, 'en')).toEqual({ '__proto__.polluted': 'yes', 'constructor.prototype.x': 'y' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const out = JSON.parse(await exportSingle(b, 'en', ['WRITE_NESTED'])) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const m = await parseMulti('{"k": {"__proto__": {"en": "x"}}}', ['LANGUAGES_NESTED']);
    expect(m.keys.map((k) => k.key)).toEqual(['k.__proto__']);
    await formatError(parseMulti('{"k": {"__proto__": "x"}}', ['LANGUAGES_NESTED']));
    await formatError(parseMulti('{"__proto__": {"k": "x"}}'));
    const first = await parseMulti('{"en": {"__proto__": "x"}}');
    expect(first.keys.map((k) => k.key)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports the line and column of a syntax error', async () => {
    const error = await formatError(parseSingle('{\n  "a": "x",\n  "b": tru\n}'));
    expect(error.position).toMatchObject({ line: 3, column: 8 });
    expect(error.message).toMatch(/line 3, column 8/);
    const trailing = await formatError(parseSingle('{\n  "a": "x",\n}'));
    expect(trailing.position?.line).toBe(3);
    const unclosed = await formatError(parseMulti('{"a": {"en": "x'));
    expect(unclosed.message).toMatch(/line 1/);
  });
});

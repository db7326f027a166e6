import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { FormatError, type Bundle, type ExportOption, type ImportOption } from '../../../src/formats/model.js';
import { parseIcuPlural, toIcuPlural } from '../../../src/formats/plural.js';
import { yaml } from '../../../src/formats/yaml.js';
import { corpusPath } from '../../support/corpus.js';
import { costRatio, cpuClock, PATHOLOGICAL_CPU_MS, HOSTILE_TEST_TIMEOUT } from './support/linear-cost.js';

const CORPUS = corpusPath('yaml');
const parse = (text: string | Buffer, languageKey?: string, options: ImportOption[] = [], namespace?: string) =>
  yaml.parse(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), {
    languageKey,
    namespace,
    options: new Set(options),
  });
const serialize = async (bundle: Bundle, languages: string[], options: string[] = []) =>
  (
    await yaml.serialize(bundle, {
      languages: languages.map((key) => ({ key })),
      options: new Set(options as ExportOption[]),
    })
  ).toString('utf8');
const text = (b: Bundle, key: string, lang: string) => b.keys.find((k) => k.key === key)?.translations[lang]?.text;
const shape = (b: Bundle) =>
  b.keys.map((k) => ({ key: k.key, namespace: k.namespace, description: k.description, translations: k.translations }));
/** Nesting groups keys under their common prefixes, so the order may change: compare sorted. */
const sortedShape = (b: Bundle | ReturnType<typeof shape>) =>
  [...(Array.isArray(b) ? b : shape(b))].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));

describe.skipIf(!existsSync(CORPUS))('yaml: corpus files', () => {
  it('rails-i18n ru: root language stripped, lists, null list item, Russian plurals, symbols as text', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'rails-i18n_ru.yml')), 'ru');
    expect(text(b, 'activerecord.errors.messages.record_invalid', 'ru')).toBe('Возникли ошибки: %{errors}');
    expect(text(b, 'date.day_names[0]', 'ru')).toBe('воскресенье');
    expect(text(b, 'date.abbr_month_names[0]', 'ru')).toBe('');
    expect(text(b, 'date.abbr_month_names[1]', 'ru')).toBe('янв.');
    expect(text(b, 'date.formats.default', 'ru')).toBe('%d.%m.%Y');
    expect(text(b, 'date.order[0]', 'ru')).toBe(':day');
    expect(parseIcuPlural(text(b, 'datetime.distance_in_words.about_x_hours', 'ru')!)?.forms).toEqual({
      one: 'около # часа',
      few: 'около # часов',
      many: 'около # часов',
      other: 'около # часов',
    });
  });

  it('devise en: quoted values with escapes, one/other plural, leading comment not a description', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'devise_en.yml')), 'en');
    expect(text(b, 'devise.failure.invalid', 'en')).toBe('Invalid %{authentication_keys} or password.');
    expect(parseIcuPlural(text(b, 'errors.messages.not_saved', 'en')!)?.forms).toEqual({
      one: '1 error prohibited this %{resource} from being saved:',
      other: '# errors prohibited this %{resource} from being saved:',
    });
    expect(b.keys.every((k) => k.description === undefined)).toBe(true);
  });

  it('discourse ar: six Arabic categories, block scalar', async () => {
    const client = await parse(readFileSync(join(CORPUS, 'discourse-solved_client.ar.yml')), 'ar');
    expect(Object.keys(parseIcuPlural(text(client, 'js.solved.solution_summary', 'ar')!)!.forms)).toEqual([
      'zero',
      'one',
      'two',
      'few',
      'many',
      'other',
    ]);
    const server = await parse(readFileSync(join(CORPUS, 'discourse-solved_server.ar.yml')), 'ar');
    const block = server.keys.find((k) => k.translations.ar!.text.includes('###'));
    expect(block?.translations.ar?.text).toContain('%{base_url}');
    expect(block?.translations.ar?.text).toContain('\n');
  });

  it('activeadmin ja: unquoted Japanese scalars, quoted values', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'activeadmin_ja.yml')), 'ja');
    expect(text(b, 'active_admin.any', 'ja')).toBe('任意');
    expect(text(b, 'active_admin.batch_actions.action_label', 'ja')).toBe('選択した行を%{title}');
  });

  it('every corpus file round-trips (nested, flat, Rails root with MULTI_LANGUAGE), plural branches without a literal #', async () => {
    for (const [file, lang] of [
      ['rails-i18n_ru.yml', 'ru'],
      ['devise_en.yml', 'en'],
      ['discourse-solved_client.ar.yml', 'ar'],
      ['discourse-solved_server.ar.yml', 'ar'],
      ['activeadmin_ja.yml', 'ja'],
    ]) {
      const b = await parse(readFileSync(join(CORPUS, file!)), lang);
      for (const options of [['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS'], [], ['WRITE_NESTED', 'MULTI_LANGUAGE']]) {
        const out = await serialize(b, [lang!], options);
        const back = await parse(out, lang);
        expect(sortedShape(back), `${file} ${options.join()}`).toEqual(sortedShape(b));
        // Every plural map branch has Rails' %{count} where ICU has #.
        for (const k of b.keys) {
          const forms = parseIcuPlural(k.translations[lang!]!.text)?.forms;
          if (forms && Object.values(forms).some((f) => f.includes('#')))
            expect(out, k.key).not.toContain(Object.values(forms).find((f) => f.includes('#'))!);
        }
      }
    }
  });
});

describe('yaml: import rules', () => {
  it('nested keys, scalars kept as written, null and empty values, lists, descriptions', async () => {
    const b = await parse(
      `# file header, not a description

app:
  # The title
  title: My App
  count: 1.0
  flag: yes
  nothing: ~
  empty:
  # section heading

  # Describes quoted
  quoted: "a \\"b\\" \\n c"
  list: [one, two]
  folded: >
    folded
    text
`,
      'en',
    );
    expect(b.keys.map((k) => [k.key, k.translations.en!.text, k.description])).toEqual([
      ['app.title', 'My App', 'The title'],
      ['app.count', '1.0', undefined],
      ['app.flag', 'yes', undefined],
      ['app.nothing', '', undefined],
      ['app.empty', '', undefined],
      ['app.quoted', 'a "b" \n c', 'Describes quoted'],
      ['app.list[0]', 'one', undefined],
      ['app.list[1]', 'two', undefined],
      ['app.folded', 'folded text\n', undefined],
    ]);
  });

  it('strips a root key equal to the language (any case, - or _), not another one', async () => {
    expect((await parse('pt_BR:\n  a: b\n', 'pt-br')).keys.map((k) => k.key)).toEqual(['a']);
    expect((await parse('de:\n  a: b\n', 'en')).keys.map((k) => k.key)).toEqual(['de.a']);
    expect((await parse('en:\n  a: b\nother: c\n', 'en')).keys.map((k) => k.key)).toEqual(['en.a', 'other']);
  });

  it('a map of CLDR categories with `other` is a plural; without `other` or with other keys it is not', async () => {
    const b = await parse(
      'a:\n  one: "%{count} file"\n  other: "%{count} files"\nb:\n  one: x\n  few: y\nc:\n  one: x\n  other: y\n  label: z\n',
      'en',
    );
    expect(text(b, 'a', 'en')).toBe(toIcuPlural({ one: '# file', other: '# files' }));
    expect(b.keys.map((k) => k.key)).toEqual(['a', 'b.one', 'b.few', 'c.one', 'c.other', 'c.label']);
  });

  it('MULTI_LANGUAGE,LANGUAGES_NESTED (or LANGUAGES_NESTED alone): {key: {lang: text}} with nested key paths and plurals', async () => {
    const b = await parse(
      `greeting:
  en: Hello
  de: Hallo
menu:
  # The file menu
  file:
    en: File
    de: Datei
  items:
    en:
      one: "%{count} item"
      other: "%{count} items"
    de: "%{count} Elemente"
`,
      undefined,
      ['MULTI_LANGUAGE', 'LANGUAGES_NESTED'],
      'ui',
    );
    expect(b.languages).toEqual([{ key: 'en' }, { key: 'de' }]);
    expect(shape(b)).toEqual([
      {
        key: 'greeting',
        namespace: 'ui',
        description: undefined,
        translations: { en: { text: 'Hello' }, de: { text: 'Hallo' } },
      },
      {
        key: 'menu.file',
        namespace: 'ui',
        description: 'The file menu',
        translations: { en: { text: 'File' }, de: { text: 'Datei' } },
      },
      {
        key: 'menu.items',
        namespace: 'ui',
        description: undefined,
        translations: {
          en: { text: toIcuPlural({ one: '# item', other: '# items' }) },
          de: { text: '%{count} Elemente' },
        },
      },
    ]);
    expect(shape(await parse('greeting:\n  en: Hello\n', undefined, ['LANGUAGES_NESTED']))).toEqual([
      { key: 'greeting', namespace: '', description: undefined, translations: { en: { text: 'Hello' } } },
    ]);
    await expect(parse('a: text\n', undefined, ['MULTI_LANGUAGE', 'LANGUAGES_NESTED'])).rejects.toThrow(
      /map of languages/,
    );
    // A languages-first file read keys-first: refused, never languages named after keys.
    const error = await parse('en:\n  title: Hi\n  body: Text\n', undefined, [
      'MULTI_LANGUAGE',
      'LANGUAGES_NESTED',
    ]).then(
      () => null,
      (e: unknown) => e as FormatError,
    );
    expect(error).toBeInstanceOf(FormatError);
    expect(error!.message).toContain('"en.title": "title" is not a language code');
    expect(error!.message).toContain('MULTI_LANGUAGE alone');
    expect(error!.position?.line).toBe(2);
  });

  it('MULTI_LANGUAGE: languages on the first level, {lang: {nested keys}}', async () => {
    const b = await parse('en:\n  a:\n    b: B\n  c: C\nde:\n  a:\n    b: B-de\n', undefined, ['MULTI_LANGUAGE']);
    expect(b.languages).toEqual([{ key: 'en' }, { key: 'de' }]);
    expect(b.keys.map((k) => [k.key, k.translations])).toEqual([
      ['a.b', { en: { text: 'B' }, de: { text: 'B-de' } }],
      ['c', { en: { text: 'C' } }],
    ]);
    await expect(parse('en: text\n', undefined, ['MULTI_LANGUAGE'])).rejects.toThrow(/"en" must be a map of keys/);
    // A keys-first file read languages-first: refused with the layout named, nothing read.
    const error = await parse('home:\n  title:\n    en: Home\n', undefined, ['MULTI_LANGUAGE']).then(
      () => null,
      (e: unknown) => e as FormatError,
    );
    expect(error).toBeInstanceOf(FormatError);
    expect(error!.message).toContain('"home" on the first level is not a language code');
    expect(error!.message).toContain('MULTI_LANGUAGE,LANGUAGES_NESTED');
  });

  it('resolves ordinary aliases', async () => {
    const b = await parse('base: &b\n  ok: OK\ncopy: *b\n', 'en');
    expect(b.keys.map((k) => [k.key, k.translations.en!.text])).toEqual([
      ['base.ok', 'OK'],
      ['copy.ok', 'OK'],
    ]);
  });
});

describe('yaml: hostile and malformed input', () => {
  it(
    'refuses an alias bomb quickly',
    async () => {
      let bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
      for (let i = 1; i < 12; i++)
        bomb += `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]\n`;
      const t = cpuClock();
      await expect(parse(bomb, 'en')).rejects.toThrow(/alias/i);
      expect(cpuClock() - t).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it(
    'refuses deep nesting quickly (flow, block and compact sequences), without crashing',
    async () => {
      for (const deep of [
        '['.repeat(1_000_000),
        '{a: '.repeat(200_000),
        '- '.repeat(100_000) + 'x\n',
        Array.from({ length: 100 }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' v\n',
      ]) {
        const t = cpuClock();
        const err = await parse(deep, 'en').catch((e: unknown) => e);
        expect(err).toBeInstanceOf(FormatError);
        expect((err as Error).message).toMatch(/nested deeper than 64/);
        expect(cpuClock() - t).toBeLessThan(PATHOLOGICAL_CPU_MS);
      }
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('counts only real nesting: brackets and dashes in block scalars, quoted strings, plain scalars and comments are text', async () => {
    const b = '['.repeat(100) + ']'.repeat(100);
    const b2 = `a: |\n  ${b}\n  ${'- '.repeat(100)}\nb: "${b}"\nc: '${b}' # ${b}\nd: x ${b}\n`;
    const texts = (await parse(b2, 'en')).keys.map((k) => k.translations.en!.text);
    expect(texts).toEqual([`${b}\n${'- '.repeat(100)}\n`, b, b, `x ${b}`]);
    const err = await parse(`a: 1\nb: ${'['.repeat(65)}`, 'en').catch((e: unknown) => e);
    expect(err).toMatchObject({ message: expect.stringMatching(/nested deeper than 64/), position: { line: 2 } });
  });

  it('does not mistake brackets in strings, comments and block scalars for nesting', async () => {
    const brackets = '['.repeat(100);
    const b = await parse(
      `a: "${brackets}"\nb: '${brackets}'\n# ${brackets}\nc: |\n  ${brackets}\nd: x${brackets}\n`,
      'en',
    );
    expect(b.keys.map((k) => k.translations.en!.text)).toEqual([brackets, brackets, `${brackets}\n`, `x${brackets}`]);
  });

  it('reports syntax errors and duplicate keys with their line', async () => {
    const dup = await parse('a: 1\nb: 2\na: 3\n', 'en').catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(FormatError);
    expect((dup as FormatError).position?.line).toBe(3);
    const bad = await parse('a: 1\nb: "unterminated\n', 'en').catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(FormatError);
    expect((bad as FormatError).position?.line).toBeGreaterThanOrEqual(2);
    await expect(parse('- a\n- b\n', 'en')).rejects.toThrow(/must be a map/);
    await expect(parse('a: 1\n---\nb: 2\n', 'en')).rejects.toThrow(FormatError);
    await expect(parse('? [a, b]\n: c\n', 'en')).rejects.toThrow(/text keys/);
  });

  it('stays linear on large maps (import and export)', async () => {
    // A quadratic step (such as the parser's own duplicate-key check) makes 8x the keys cost 64x the CPU time.
    const source = (n: number) => Array.from({ length: n }, (_, i) => `k${i}:\n  a: "v ${i}"\n  b: w`).join('\n');
    const run = async (n: number) => {
      const b = await parse(source(n), 'en');
      await serialize(b, ['en'], ['WRITE_NESTED']);
      expect(b.keys.length).toBe(2 * n);
    };
    expect(await costRatio(run, 1_000)).toBeLessThan(32);
  }, 120_000);

  it('refuses a key defined both nested and with dots', async () => {
    await expect(parse('a:\n  b: x\na.b: y\n', 'en')).rejects.toThrow(/defined twice/);
  });

  it('refuses invalid UTF-8', async () => {
    await expect(parse(Buffer.from([0x61, 0x3a, 0x20, 0xfe]), 'en')).rejects.toThrow(/not valid UTF-8/);
  });
});

describe('yaml: export', () => {
  const bundle: Bundle = {
    languages: [{ key: 'en' }, { key: 'de' }],
    keys: [
      {
        key: 'app.title',
        namespace: '',
        description: 'Window title\n\nsecond paragraph',
        translations: { en: { text: 'My App' }, de: { text: 'Meine App' } },
      },
      { key: 'app', namespace: '', translations: { en: { text: 'leaf and parent' } } },
      {
        key: 'app.files',
        namespace: '',
        translations: {
          en: { text: toIcuPlural({ one: '# file', other: '# files' }) },
          de: { text: toIcuPlural({ one: '# Datei', other: '# Dateien' }) },
        },
      },
      { key: 'app.exact', namespace: '', translations: { en: { text: '{count, plural, =0 {none} other {# files}}' } } },
      { key: 'looks.one', namespace: '', translations: { en: { text: 'not a plural' } } },
      { key: 'looks.other', namespace: '', translations: { en: { text: 'either' } } },
      { key: 'days[0]', namespace: '', description: 'first day', translations: { en: { text: 'Sunday' } } },
      { key: 'days[1]', namespace: '', translations: { en: { text: 'Monday' } } },
      { key: 'scalars', namespace: '', translations: { en: { text: 'yes' }, de: { text: '1.0' } } },
      { key: 'multi', namespace: '', translations: { en: { text: 'line 1\nline 2\n' } } },
      { key: 'colon: and # hash', namespace: '', translations: { en: { text: '- starts with a dash: yes' } } },
    ],
  };
  const expected = (langs: string[]) =>
    shape(bundle).map((k) => ({
      ...k,
      translations: Object.fromEntries(langs.map((l) => [l, { text: k.translations[l]?.text ?? '' }])),
    }));

  it('writes nested keys with WRITE_NESTED: plural maps, lists, conflicting keys flat, descriptions as comments', async () => {
    const out = await serialize(bundle, ['en'], ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS']);
    const doc = YAML.parse(out);
    expect(doc.app).toEqual('leaf and parent');
    expect(doc['app.title']).toBe('My App');
    expect(doc['app.files']).toEqual({ one: '%{count} file', other: '%{count} files' });
    expect(doc['app.exact']).toBe('{count, plural, =0 {none} other {# files}}');
    expect(doc['looks.one']).toBe('not a plural');
    expect(doc.days).toEqual(['Sunday', 'Monday']);
    expect(doc.scalars).toBe('yes');
    expect(out).toContain('# Window title\n#\n# second paragraph\napp.title: My App\n');
  });

  it('writes flat keys without WRITE_NESTED', async () => {
    const out = await serialize(bundle, ['de']);
    const doc = YAML.parse(out);
    expect(doc['app.title']).toBe('Meine App');
    expect(doc['days[0]']).toBe('');
    expect(doc.scalars).toBe('1.0');
  });

  it('round-trips single-language, nested and flat', async () => {
    for (const options of [['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS'], ['INCLUDE_DESCRIPTIONS']]) {
      expect(sortedShape(await parse(await serialize(bundle, ['en'], options), 'en'))).toEqual(
        sortedShape(expected(['en'])),
      );
    }
  });

  it('MULTI_LANGUAGE (or several languages) writes languages first; with LANGUAGES_NESTED keys first; both round-trip', async () => {
    for (const options of [
      ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS'],
      ['MULTI_LANGUAGE', 'WRITE_NESTED', 'INCLUDE_DESCRIPTIONS'],
      ['MULTI_LANGUAGE', 'INCLUDE_DESCRIPTIONS'],
    ]) {
      const languagesFirst = await serialize(bundle, ['en', 'de'], options);
      expect(Object.keys(YAML.parse(languagesFirst))).toEqual(['en', 'de']);
      expect(sortedShape(await parse(languagesFirst, undefined, ['MULTI_LANGUAGE']))).toEqual(
        sortedShape(expected(['en', 'de'])),
      );
    }

    for (const options of [
      ['MULTI_LANGUAGE', 'LANGUAGES_NESTED', 'WRITE_NESTED', 'INCLUDE_DESCRIPTIONS'],
      ['LANGUAGES_NESTED', 'INCLUDE_DESCRIPTIONS'],
    ]) {
      const keysFirst = await serialize(bundle, ['en', 'de'], options);
      expect(YAML.parse(keysFirst).scalars).toEqual({ en: 'yes', de: '1.0' });
      expect(sortedShape(await parse(keysFirst, undefined, ['MULTI_LANGUAGE', 'LANGUAGES_NESTED']))).toEqual(
        sortedShape(expected(['en', 'de'])),
      );
    }

    const rails = await serialize(bundle, ['en'], ['MULTI_LANGUAGE', 'WRITE_NESTED']);
    expect(rails.startsWith('en:\n')).toBe(true);
    expect((await parse(rails, 'en')).keys.map((k) => k.key).sort()).toEqual(bundle.keys.map((k) => k.key).sort());
  });

  it('writes a key name once across namespaces; never a lone root named after the language', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: [
        { key: 'en.title', namespace: 'a', translations: { en: { text: 'first' } } },
        { key: 'en.title', namespace: 'b', translations: { en: { text: 'second' } } },
        { key: 'en.sub', namespace: 'a', translations: { en: { text: 'x' } } },
      ],
    };
    const out = await serialize(b, ['en'], ['WRITE_NESTED']);
    // Nested keys come in path order; a root branch named after the language is written flat.
    expect(out).toBe('en.sub: x\nen.title: first\n');
    expect((await parse(out, 'en')).keys.map((k) => [k.key, k.translations.en?.text])).toEqual([
      ['en.sub', 'x'],
      ['en.title', 'first'],
    ]);
  });

  it('writes ICU plural branches with %{count}, never a literal #; keeps named arguments; reads them back', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: [
        {
          key: 'files',
          namespace: '',
          translations: { en: { text: '{count, plural, one {# file} other {# files}}' } },
        },
        {
          key: 'owner',
          namespace: '',
          translations: { en: { text: "{count, plural, one {{name} has # file (#'#'1)} other {{name} has # files}}" } },
        },
        {
          key: 'other_argument',
          namespace: '',
          translations: { en: { text: '{n, plural, one {# thing} other {# things}}' } },
        },
      ],
    };
    for (const options of [[], ['WRITE_NESTED'], ['MULTI_LANGUAGE'], ['LANGUAGES_NESTED']]) {
      const out = await serialize(b, ['en'], options);
      const doc = YAML.parse(out);
      const root = options.includes('MULTI_LANGUAGE') ? doc.en : doc;
      const files = options.includes('LANGUAGES_NESTED') ? doc.files.en : root.files;
      const owner = options.includes('LANGUAGES_NESTED') ? doc.owner.en : root.owner;
      expect(files).toEqual({ one: '%{count} file', other: '%{count} files' });
      expect(owner).toEqual({ one: '{name} has %{count} file (%{count}#1)', other: '{name} has %{count} files' });
      // Not Rails' count argument: the ICU text as it is.
      const other = options.includes('LANGUAGES_NESTED') ? doc.other_argument.en : root.other_argument;
      expect(other).toBe('{n, plural, one {# thing} other {# things}}');
      const importOptions = options.filter((o) => o !== 'WRITE_NESTED') as ImportOption[];
      const back = await parse(out, 'en', importOptions);
      expect(sortedShape(back), options.join()).toEqual(sortedShape(b));
    }
  });

  it('ESCAPE_SINGLE_QUOTES writes every apostrophe as a backslash and an apostrophe', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: [{ key: 'k', namespace: '', translations: { en: { text: "It's" } } }],
    };
    expect(YAML.parse(await serialize(b, ['en'], ['ESCAPE_SINGLE_QUOTES'])).k).toBe("It\\'s");
    expect(YAML.parse(await serialize(b, ['en'])).k).toBe("It's");
  });

  it('ESCAPE_NEW_LINES writes newlines as \\n', async () => {
    const out = await serialize(bundle, ['en'], ['ESCAPE_NEW_LINES']);
    expect(YAML.parse(out).multi).toBe('line 1\\nline 2\\n');
  });

  it('an empty bundle is an empty map', async () => {
    expect(await serialize({ keys: [], languages: [] }, ['en'])).toBe('{}\n');
    expect((await parse('{}\n', 'en')).keys).toEqual([]);
  });
});

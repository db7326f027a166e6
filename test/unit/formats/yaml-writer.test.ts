// The YAML export as a streaming writer: pages of keys in, the same bytes as
// serialize out, and the two rules that used to need the whole file.
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { fileOf } from '../../../src/formats/define.js';
import type { Bundle, BundleKey, ExportOption, ImportOption, WriterOutput } from '../../../src/formats/model.js';
import { toIcuPlural } from '../../../src/formats/plural.js';
import { yaml } from '../../../src/formats/yaml.js';
import { generatedBundle } from './support/bundles.js';

const given = (languages: string[], options: string[]) => ({
  languages: languages.map((key) => ({ key })),
  options: new Set(options as ExportOption[]),
});
const serialize = async (bundle: Bundle, languages: string[], options: string[] = []) =>
  (await yaml.serialize(bundle, given(languages, options))).toString('utf8');
const parse = (text: string, languageKey: string | undefined, options: ImportOption[] = []) =>
  yaml.parse(Buffer.from(text, 'utf8'), { languageKey, options: new Set(options) });

/** Collects writer output as the export engine does: each section apart, then section 0, 1, ... */
class WrittenFile {
  private readonly sections: Buffer[][] = [];
  add(output: WriterOutput): void {
    const chunks = typeof output === 'string' || Buffer.isBuffer(output) ? [output] : output.sections;
    chunks.forEach((chunk, i) =>
      (this.sections[i] ??= []).push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, 'utf8')),
    );
  }
  text(): string {
    return Buffer.concat(this.sections.flat()).toString('utf8');
  }
}

const chunkText = (output: WriterOutput) =>
  (typeof output === 'string' || Buffer.isBuffer(output) ? [output] : output.sections).map(String).join('');

/** The file written through yaml.writer, the keys handed over in pages of the given sizes (cycled). */
async function streamed(bundle: Bundle, languages: string[], options: string[], pageSizes: number[]): Promise<string> {
  const { keys, options: writerOptions } = fileOf(yaml, bundle, given(languages, options));
  const writer = yaml.writer(writerOptions);
  const file = new WrittenFile();
  for (let at = 0, page = 0; at < keys.length; page++) {
    const size = pageSizes[page % pageSizes.length]!;
    file.add(await writer.write(keys.slice(at, at + size)));
    at += size;
  }
  file.add(await writer.end());
  return file.text();
}

const key = (name: string, en: string, extra: Partial<BundleKey> = {}): BundleKey => ({
  key: name,
  namespace: '',
  translations: { en: { text: en } },
  ...extra,
});
// ICU `#` is Rails' `%{count}` in a YAML plural map.
const files = toIcuPlural({ one: '# file', other: '# files' });

/** Keys for every path of the writer: held plural-looking branches, lists, leaf-and-parent, flat keys, block scalars, comments. */
const bundle: Bundle = {
  languages: [{ key: 'en' }, { key: 'de' }],
  keys: [
    key('app', 'leaf and parent'),
    key('app.title', 'My App', {
      description: 'Window title\n\nsecond paragraph',
      translations: { en: { text: 'My App' }, de: { text: 'Meine App' } },
    }),
    key('app.files', files, {
      translations: { en: { text: files }, de: { text: toIcuPlural({ one: '# Datei', other: '# Dateien' }) } },
    }),
    key('app.exact', '{count, plural, =0 {none} other {# files}}'),
    key('looks.one', 'not a plural', { description: 'singular' }),
    key('looks.other', 'either'),
    key('broken.one', 'one'),
    key('broken.other', 'other'),
    key('broken.title', 'breaks the pattern last'),
    key('nested.few', 'few'),
    key('nested.other.deep', 'a branch breaks it'),
    key('no.one', 'without other'),
    key('no.zero', 'stays nested'),
    key('a.b.c.one', 'deep'),
    key('a.b.c.other', 'plural-looking'),
    key('days[0]', 'Sunday', { description: 'first day' }),
    key('days[1]', 'Monday'),
    key('items[0].one', 'list item'),
    key('items[0].other', 'looks like a plural'),
    key('items[1]', 'plain item'),
    key('sparse[0]', 'not'),
    key('sparse[2]', 'a list'),
    key('deep.er.text', 'line 1\n\nline 3\n', {
      description: 'one\n\nthree',
      translations: { en: { text: 'line 1\n\nline 3\n' }, de: { text: '  indented\nnext' } },
    }),
    key('deep.er.keep', 'kept\n\n'),
    key('deep.er.yes', 'yes', { translations: { en: { text: 'yes' }, de: { text: '1.0' } } }),
    key('Done.', 'colon: and # hash'),
    key('a..b', 'empty segment'),
    key('colon: and # hash', '- starts with a dash: yes', { namespace: 'other' }),
    key('app.title', 'a second namespace, not written', { namespace: 'zz' }),
  ],
};

const layouts: [string, string[], string[]][] = [
  ['single', ['en'], []],
  ['languages first (MULTI_LANGUAGE)', ['en', 'de'], ['MULTI_LANGUAGE']],
  ['keys first (MULTI_LANGUAGE,LANGUAGES_NESTED)', ['en', 'de'], ['MULTI_LANGUAGE', 'LANGUAGES_NESTED']],
];
const variants = [
  [],
  ['WRITE_NESTED'],
  ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS'],
  ['INCLUDE_DESCRIPTIONS', 'ESCAPE_NEW_LINES'],
  ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS', 'ESCAPE_NEW_LINES'],
];
const pageSizes = [[1], [2], [3], [0, 1], [5, 0, 0, 2], [1000]];

describe('yaml writer: streaming gives the bytes of serialize', () => {
  it('in pages of any size, with empty pages, in every layout, nested and flat', async () => {
    for (const source of [bundle, generatedBundle(300, ['en', 'de'])]) {
      for (const [layout, languages, layoutOptions] of layouts) {
        for (const variant of variants) {
          const options = [...layoutOptions, ...variant];
          const whole = await serialize(source, languages, options);
          for (const sizes of pageSizes) {
            expect(
              await streamed(source, languages, options, sizes),
              `${layout} ${variant.join()} pages ${sizes.join()}`,
            ).toBe(whole);
          }
        }
      }
    }
  }, 30_000);

  it('re-parses to the same keys and texts in every layout', async () => {
    const { keys } = fileOf(yaml, bundle, given(['en'], []));
    const texts = (b: Bundle | BundleKey[], languages: string[]) =>
      Object.fromEntries(
        (Array.isArray(b) ? b : b.keys).map((k) => [k.key, languages.map((l) => k.translations[l]?.text ?? '')]),
      );
    for (const [layout, languages, layoutOptions] of layouts) {
      for (const nesting of [[], ['WRITE_NESTED']]) {
        const out = await streamed(bundle, languages, [...layoutOptions, ...nesting, 'INCLUDE_DESCRIPTIONS'], [3]);
        const back = await parse(out, layout === 'single' ? 'en' : undefined, layoutOptions as ImportOption[]);
        expect(texts(back, languages), `${layout} ${nesting.join()}`).toEqual(texts(keys, languages));
      }
    }
  });

  it('no page, then end(): the empty file of serialize', async () => {
    for (const [, languages, layoutOptions] of layouts) {
      for (const nesting of [[], ['WRITE_NESTED']]) {
        const options = [...layoutOptions, ...nesting];
        const writer = yaml.writer({ ...given(languages, options), namespacesInFile: [] });
        const file = new WrittenFile();
        file.add(await writer.end());
        expect(file.text()).toBe(await serialize({ keys: [], languages: [] }, languages, options));
      }
    }
    expect(await serialize({ keys: [], languages: [] }, ['en'], ['WRITE_NESTED'])).toBe('{}\n');
    expect(await serialize({ keys: [], languages: [] }, ['en', 'de'], ['MULTI_LANGUAGE', 'LANGUAGES_NESTED'])).toBe(
      '{}\n',
    );
    expect(await serialize({ keys: [], languages: [] }, ['en', 'de'], ['MULTI_LANGUAGE'])).toBe('en: {}\nde: {}\n');
    expect(await serialize({ keys: [], languages: [] }, ['en', 'de'])).toBe('en: {}\nde: {}\n');
  });

  it('writes each page as it comes: only the page and bounded state are held', async () => {
    const writer = yaml.writer({ ...given(['en'], ['WRITE_NESTED']), namespacesInFile: [''] });
    for (let page = 0; page < 20; page++) {
      const group = `g${String(page).padStart(2, '0')}`;
      const out = chunkText(
        await writer.write(
          Array.from({ length: 1000 }, (_, i) => key(`${group}.k${String(i).padStart(4, '0')}`, `text ${i}`)),
        ),
      );
      expect(out.startsWith(`${group}:\n  k0000: text 0\n`)).toBe(true);
      expect(out.endsWith('  k0999: text 999\n')).toBe(true);
    }
    expect(chunkText(await writer.end())).toBe('');
  });

  it('keeps the exact text of the whole-document writer (comments, block scalars, lists, plural maps)', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }, { key: 'de' }],
      keys: bundle.keys.filter(
        (k) =>
          ['app', 'app.title', 'app.files', 'days[0]', 'days[1]', 'deep.er.text', 'deep.er.yes', 'Done.'].includes(
            k.key,
          ) && k.namespace === '',
      ),
    };
    expect(await streamed(b, ['en', 'de'], ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS'], [1])).toBe(`en:
  Done.: "colon: and # hash"
  app: leaf and parent
  app.files:
    one: "%{count} file"
    other: "%{count} files"
  # Window title
  #
  # second paragraph
  app.title: My App
  days:
    # first day
    - Sunday
    - Monday
  deep:
    er:
      # one
      #
      # three
      text: |
        line 1

        line 3
      yes: yes
de:
  Done.: ""
  app: ""
  app.files:
    one: "%{count} Datei"
    other: "%{count} Dateien"
  # Window title
  #
  # second paragraph
  app.title: Meine App
  days:
    # first day
    - ""
    - ""
  deep:
    er:
      # one
      #
      # three
      text: |2-
          indented
        next
      yes: "1.0"
`);
    expect(
      await streamed(
        b,
        ['en', 'de'],
        ['MULTI_LANGUAGE', 'LANGUAGES_NESTED', 'WRITE_NESTED', 'INCLUDE_DESCRIPTIONS'],
        [1],
      ),
    ).toBe(`Done.:
  en: "colon: and # hash"
  de: ""
app:
  en: leaf and parent
  de: ""
app.files:
  en:
    one: "%{count} file"
    other: "%{count} files"
  de:
    one: "%{count} Datei"
    other: "%{count} Dateien"
# Window title
#
# second paragraph
app.title:
  en: My App
  de: Meine App
days:
  # first day
  - en: Sunday
    de: ""
  - en: Monday
    de: ""
deep:
  er:
    # one
    #
    # three
    text:
      en: |
        line 1

        line 3
      de: |2-
          indented
        next
    yes:
      en: yes
      de: "1.0"
`);
  });

  it('indents block scalars and comments without trailing spaces, and they read back', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: [
        key('a.b.c.d', 'first\n\n\nfourth\n', { description: 'line\n\nafter a blank' }),
        key('a.b.c.e', 'kept\n\n'),
        key('a.b.list[0]', 'x\n\ny', { description: '\n' }),
      ],
    };
    for (const options of [
      ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS'],
      ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS', 'MULTI_LANGUAGE'],
    ]) {
      const out = await streamed(b, ['en'], options, [1]);
      expect(out.split('\n').filter((line) => /\s$/.test(line))).toEqual([]);
      const back = await parse(out, 'en', options.filter((o) => o === 'MULTI_LANGUAGE') as ImportOption[]);
      expect(back.keys.map((k) => [k.key, k.translations.en?.text, k.description])).toEqual([
        ['a.b.c.d', 'first\n\n\nfourth\n', 'line\n\nafter a blank'],
        ['a.b.c.e', 'kept\n\n', undefined],
        ['a.b.list[0]', 'x\n\ny', '\n'],
      ]);
    }
  });
});

describe('yaml writer: rule 1, a branch of category-named leaves is written flat', () => {
  it('only when it would read back as a plural: `other` among category-named leaves only', async () => {
    const out = await serialize(bundle, ['en'], ['WRITE_NESTED']);
    const doc = YAML.parse(out) as Record<string, unknown>;
    expect(doc['looks.one']).toBe('not a plural');
    expect(doc['looks.other']).toBe('either');
    expect(doc.a).toEqual({ b: { 'c.one': 'deep', 'c.other': 'plural-looking' } });
    expect(doc.broken).toEqual({ one: 'one', other: 'other', title: 'breaks the pattern last' });
    expect(doc.nested).toEqual({ few: 'few', other: { deep: 'a branch breaks it' } });
    expect(doc.no).toEqual({ one: 'without other', zero: 'stays nested' });
    // A list item cannot be flat: the list's items become members.
    expect(doc['items[0].one']).toBe('list item');
    expect(doc['items[1]']).toBe('plain item');
    expect(doc.items).toBeUndefined();
    const back = await parse(out, 'en');
    for (const name of [
      'looks.one',
      'looks.other',
      'a.b.c.one',
      'broken.one',
      'broken.title',
      'items[0].one',
      'items[0].other',
      'items[1]',
    ]) {
      expect(
        back.keys.find((k) => k.key === name),
        name,
      ).toBeDefined();
    }
  });

  it('holds the branch back across pages until it closes or a member breaks the pattern', async () => {
    const writer = yaml.writer({ ...given(['en'], ['WRITE_NESTED']), namespacesInFile: [''] });
    const pages = [
      [key('a', 'A')],
      [key('x.one', '1')],
      [key('x.other', '2')],
      [key('y.one', '3')],
      [key('y.other', '4')],
      [key('y.title', '5')],
      [key('z', 'Z')],
    ];
    const outputs: string[] = [];
    for (const page of pages) outputs.push(chunkText(await writer.write(page)));
    outputs.push(chunkText(await writer.end()));
    expect(outputs).toEqual([
      'a: A\n',
      '',
      '',
      'x.one: "1"\nx.other: "2"\n',
      '',
      'y:\n  one: "3"\n  other: "4"\n  title: "5"\n',
      'z: Z\n',
      '',
    ]);
  });

  it('applies within each language of the languages-first layout, not to keys-first language maps', async () => {
    const b: Bundle = { languages: [{ key: 'en' }], keys: [key('x.one', '1'), key('x.other', '2')] };
    expect(await serialize(b, ['en', 'de'], ['WRITE_NESTED'])).toBe(
      'en:\n  x.one: "1"\n  x.other: "2"\nde:\n  x.one: ""\n  x.other: ""\n',
    );
    expect(await serialize(b, ['en', 'de'], ['WRITE_NESTED', 'MULTI_LANGUAGE'])).toBe(
      'en:\n  x.one: "1"\n  x.other: "2"\nde:\n  x.one: ""\n  x.other: ""\n',
    );
    expect(await serialize(b, ['en', 'de'], ['WRITE_NESTED', 'MULTI_LANGUAGE', 'LANGUAGES_NESTED'])).toBe(
      'x:\n  one:\n    en: "1"\n    de: ""\n  other:\n    en: "2"\n    de: ""\n',
    );
  });
});

describe('yaml writer: rule 2, a root branch named like the language is written flat', () => {
  it('always in the single-language layout with WRITE_NESTED, lone or not, any case and separator', async () => {
    const b: Bundle = {
      languages: [{ key: 'pt-BR' }],
      keys: [key('pt_BR.title', 'T'), key('pt_BR.sub.x', 'X'), key('zz', 'Z')].map((k) => ({
        ...k,
        translations: { 'pt-BR': { text: k.translations.en!.text } },
      })),
    };
    const out = await serialize(b, ['pt-BR'], ['WRITE_NESTED']);
    expect(out).toBe('pt_BR.sub.x: X\npt_BR.title: T\nzz: Z\n');
    expect((await parse(out, 'pt-BR')).keys.map((k) => k.key)).toEqual(['pt_BR.sub.x', 'pt_BR.title', 'zz']);
    // Other layouts are never stripped on import: the branch nests.
    expect(await serialize(b, ['pt-BR'], ['WRITE_NESTED', 'MULTI_LANGUAGE'])).toBe(
      'pt-BR:\n  pt_BR:\n    sub:\n      x: X\n    title: T\n  zz: Z\n',
    );
  });

  it('a key named like the language is text, never a plural map that would be stripped', async () => {
    for (const options of [[], ['WRITE_NESTED']]) {
      const b: Bundle = {
        languages: [{ key: 'en' }],
        keys: [key('en', files), key('en.sub', 'S'), key('list.en', files)],
      };
      const out = await serialize(b, ['en'], options);
      expect(YAML.parse(out).en).toBe(files);
      const back = await parse(out, 'en');
      expect(back.keys.map((k) => [k.key, k.translations.en?.text]).sort()).toEqual([
        ['en', files],
        ['en.sub', 'S'],
        ['list.en', files],
      ]);
      // Alone, too.
      const lone = await serialize({ languages: [{ key: 'en' }], keys: [key('en', files)] }, ['en'], options);
      expect((await parse(lone, 'en')).keys.map((k) => [k.key, k.translations.en?.text])).toEqual([['en', files]]);
    }
  });
});

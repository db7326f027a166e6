import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FormatError, type Bundle, type BundleLanguage, type ExportOption } from '../../../src/formats/model.js';
import { parseIcuPlural } from '../../../src/formats/plural.js';
import { localizableXcstrings } from '../../../src/formats/xcstrings.js';
import { costRatio, cpuClock, PATHOLOGICAL_CPU_MS, HOSTILE_TEST_TIMEOUT } from './support/linear-cost.js';
import { corpusPath } from '../../support/corpus.js';
import { bilingualBundle } from './support/bundles.js';

const CORPUS = corpusPath('xcstrings');
const parse = (input: string | Buffer | object, namespace?: string) =>
  localizableXcstrings.parse(
    Buffer.isBuffer(input) ? input : Buffer.from(typeof input === 'string' ? input : JSON.stringify(input)),
    { namespace, options: new Set() },
  );
const serialize = (bundle: Bundle, languages: BundleLanguage[], options: ExportOption[] = ['INCLUDE_DESCRIPTIONS']) =>
  localizableXcstrings.serialize(bundle, { languages, options: new Set(options) });
const get = (b: Bundle, key: string) => b.keys.find((k) => k.key === key)!;
const unit = (value: string, state = 'translated') => ({ stringUnit: { state, value } });

/** n keys with plurals, namespaces, descriptions and review states. */

describe.skipIf(!existsSync(CORPUS))('localizable-xcstrings: corpus', () => {
  it('reads CotEditor CommandBar: 18 languages, plural variations, comments, needs_review', async () => {
    const b = await parse(readFileSync(`${CORPUS}/coteditor_CommandBar.xcstrings`));
    expect(b.keys.map((k) => k.key)).toEqual(['%lld commands found', 'Command', 'Quick Actions', 'Script']);
    expect(b.languages).toHaveLength(18);
    expect(b.languages[0]).toEqual({ key: 'en', isDefault: true });
    const found = get(b, '%lld commands found');
    expect(found.description).toBe('VoiceOver announcement for when incrementally updating the command search result.');
    expect(parseIcuPlural(found.translations.cs!.text)).toEqual({
      argument: 'count',
      forms: {
        zero: 'Nebyly nalezeny žádné příkazy',
        one: 'Nalezen # příkaz',
        few: 'Nalezeny # příkazy',
        many: 'Nalezeno # příkazu',
        other: 'Nalezeno # příkazů',
      },
    });
    expect(found.translations.cs!.text).toBe(
      '{count, plural, zero {Nebyly nalezeny žádné příkazy} one {Nalezen # příkaz} few {Nalezeny # příkazy} many {Nalezeno # příkazu} other {Nalezeno # příkazů}}',
    );
    // `translated` says nothing about the team's review (no status); any other state is NOT_REVIEWED.
    expect(found.translations.cs!.reviewStatus).toBeUndefined();
    expect(found.translations.fr!.reviewStatus).toBe('NOT_REVIEWED');
    expect(get(b, 'Command').translations.de).toEqual({ text: 'Befehl' });
    // No source localization: the key is the English text; nothing is invented.
    expect(get(b, 'Command').translations.en).toBeUndefined();
    expect(get(b, 'Quick Actions').description).toBeUndefined();
  });

  it('reads the storyboard catalog: extractionState and shouldTranslate as tags, state new', async () => {
    const b = await parse(readFileSync(`${CORPUS}/coteditor_ShortcutTreeView.xcstrings`));
    expect(b.keys).toHaveLength(5);
    const k = get(b, '0Uo-2F-m2T.title');
    expect(k).toEqual({
      key: '0Uo-2F-m2T.title',
      namespace: '',
      description: 'Class = "NSTextFieldCell"; title = "ACTION NAME"; ObjectID = "0Uo-2F-m2T";',
      tags: ['extractionState:extracted_with_value', 'shouldTranslate:false'],
      translations: { bg: { text: 'ИМЕ НА ДЕЙСТВИЕТО' }, en: { text: 'ACTION NAME', reviewStatus: 'NOT_REVIEWED' } },
    });
    expect(get(b, '597-z1-wgd.headerCell.title').tags).toEqual(['extractionState:extracted_with_value']);
  });

  it('reads NetNewsWire: device variations as a select, stale as deprecated', async () => {
    const b = await parse(readFileSync(`${CORPUS}/netnewswire_DefaultAccountNames.xcstrings`));
    expect(b.keys).toEqual([
      {
        key: 'account.name.on-my-device',
        namespace: '',
        description: 'Device specific default account name, e.g: On My iPhone',
        deprecated: true,
        translations: {
          en: {
            text: '{device, select, appletv {On My Apple TV} applevision {On My Apple Vision} applewatch {On My Apple Watch} ipad {On My iPad} iphone {On My iPhone} ipod {On My iPod} mac {On My Mac} other {On My Device}}',
          },
        },
      },
    ]);
  });

  it('exports the corpus files as Xcode writes them (every non-empty text "translated": review is the team\'s workflow)', async () => {
    for (const file of [
      'coteditor_CommandBar.xcstrings',
      'coteditor_ShortcutTreeView.xcstrings',
      'netnewswire_DefaultAccountNames.xcstrings',
    ]) {
      const input = readFileSync(`${CORPUS}/${file}`, 'utf8');
      const b = await parse(input);
      const out = (await serialize(b, b.languages)).toString('utf8');
      const expected = input
        .replace('"version" : "1.1"', '"version" : "1.0"')
        .replace(/"state" : "(new|needs_review)"/g, '"state" : "translated"');
      expect(out).toBe(expected);
      const again = await parse(out);
      const withoutStatus = b.keys.map((k) => ({
        ...k,
        translations: Object.fromEntries(Object.entries(k.translations).map(([l, t]) => [l, { text: t.text }])),
      }));
      expect(again.keys).toEqual(withoutStatus);
    }
  });
});

describe('localizable-xcstrings: rules', () => {
  const doc = (strings: object, sourceLanguage = 'en') => ({ sourceLanguage, strings, version: '1.0' });

  it('reads substitutions as embedded plurals and writes them back', async () => {
    const input = doc({
      'files.in.folders': {
        localizations: {
          en: {
            stringUnit: { state: 'translated', value: 'Found %1$#@files@ in %#@folders@' },
            substitutions: {
              files: {
                argNum: 1,
                formatSpecifier: 'lld',
                variations: { plural: { one: unit('%arg file'), other: unit('%arg files') } },
              },
              folders: {
                argNum: 2,
                formatSpecifier: 'ld',
                variations: { plural: { one: unit('one folder'), other: unit('%arg folders') } },
              },
            },
          },
        },
      },
    });
    const b = await parse(input);
    const k = get(b, 'files.in.folders');
    expect(k.translations.en).toEqual({
      text: 'Found {files, plural, one {%arg file} other {%arg files}} in {folders, plural, one {one folder} other {%arg folders}}',
    });
    expect(k.codeDescription).toBe(
      'Plural variables: {"files":{"position":"1$","type":"lld","argNum":1},"folders":{"type":"ld","argNum":2}}',
    );
    const out = JSON.parse((await serialize(b, [{ key: 'en' }])).toString());
    expect(out).toEqual(input);
    expect(await parse(JSON.stringify(out))).toEqual(b);
  });

  it('reads the number of plural variations and substitutions (%lld, %d, %li, %u) as #', async () => {
    const input = doc({
      v: {
        localizations: { en: { variations: { plural: { one: unit('%d item'), other: unit('%li items, %u%%') } } } },
      },
      s: {
        localizations: {
          en: {
            stringUnit: { state: 'translated', value: 'Found %#@files@' },
            substitutions: {
              files: {
                argNum: 1,
                formatSpecifier: 'd',
                variations: { plural: { one: unit('%d file'), other: unit('%d files') } },
              },
            },
          },
        },
      },
    });
    const b = await parse(input);
    // Only the first number placeholder of a case (and its repeats) is the count; %u here is another argument.
    expect(get(b, 'v').translations.en!.text).toBe('{count, plural, one {# item} other {# items, %u%}}');
    expect(get(b, 's').translations.en!.text).toBe('Found {files, plural, one {# file} other {# files}}');
    const out = JSON.parse((await serialize(b, [{ key: 'en' }])).toString());
    // A substitution keeps its recorded formatSpecifier: %d stays %d.
    expect(out.strings.s).toEqual((input.strings as Record<string, unknown>).s);
    expect(out.strings.v.localizations.en.variations.plural).toEqual({
      one: unit('%lld item'),
      other: unit('%lld items, %u%%'),
    });
  });

  it('imports the base value when a substitution is broken instead of failing', async () => {
    const b = await parse(
      doc({
        k: {
          localizations: {
            en: { stringUnit: { state: 'translated', value: 'Has %#@x@' }, substitutions: { x: { argNum: 1 } } },
          },
        },
      }),
    );
    expect(get(b, 'k').translations.en!.text).toBe('Has %#@x@');
  });

  it('maps review status, comments, tags and deprecation in both directions', async () => {
    const bundle: Bundle = {
      languages: [{ key: 'de' }, { key: 'en', isDefault: true }],
      keys: [
        {
          key: 'b.key',
          namespace: '',
          description: 'Shown "here"',
          tags: ['extractionState:manual', 'shouldTranslate:false'],
          translations: {
            en: { text: 'Hello', reviewStatus: 'REVIEWED' },
            de: { text: 'Hallo', reviewStatus: 'NOT_REVIEWED' },
          },
        },
        {
          key: 'a.key',
          namespace: '',
          deprecated: true,
          translations: { en: { text: 'Old' }, fr: { text: 'not exported' } },
        },
        { key: 'no.translations', namespace: '', translations: {} },
      ],
    };
    const text = (await serialize(bundle, bundle.languages)).toString();
    expect(JSON.parse(text)).toEqual({
      sourceLanguage: 'en',
      strings: {
        'b.key': {
          comment: 'Shown "here"',
          extractionState: 'manual',
          // NOT_REVIEWED is written `translated` too: Xcode must not hold back a text nobody reviewed here.
          localizations: { de: unit('Hallo'), en: unit('Hello') },
          shouldTranslate: false,
        },
        'a.key': { extractionState: 'stale', localizations: { en: unit('Old') } },
        'no.translations': {},
      },
      version: '1.0',
    });
    // Keys keep the given order; properties are sorted; Xcode's " : " separator.
    expect(text.indexOf('"b.key"')).toBeLessThan(text.indexOf('"a.key"'));
    expect(text).toContain('"sourceLanguage" : "en"');
    expect(text.endsWith('}')).toBe(true);
    const again = await parse(text);
    expect(get(again, 'b.key')).toMatchObject({
      description: 'Shown "here"',
      tags: ['extractionState:manual', 'shouldTranslate:false'],
      translations: { en: { text: 'Hello' }, de: { text: 'Hallo' } },
    });
    expect(get(again, 'b.key').translations.de!.reviewStatus).toBeUndefined();
    expect(get(again, 'a.key')).toMatchObject({ deprecated: true, translations: { en: { text: 'Old' } } });
    // An empty translation is untranslated: no localization at all.
    const empty = JSON.parse(
      (
        await serialize(
          {
            languages: [{ key: 'en' }, { key: 'de' }],
            keys: [{ key: 'e', namespace: '', translations: { en: { text: 'E' }, de: { text: '' } } }],
          },
          [{ key: 'en', isDefault: true }, { key: 'de' }],
        )
      ).toString(),
    );
    expect(empty.strings.e.localizations).toEqual({ en: unit('E') });
    // A state set in Xcode other than `translated` comes in as NOT_REVIEWED.
    const states = await parse(
      doc({ k: { localizations: { de: unit('A', 'needs_review'), fr: unit('B', 'new'), it: unit('C') } } }),
    );
    expect(get(states, 'k').translations).toEqual({
      de: { text: 'A', reviewStatus: 'NOT_REVIEWED' },
      fr: { text: 'B', reviewStatus: 'NOT_REVIEWED' },
      it: { text: 'C' },
    });
    const noComments = JSON.parse((await serialize(bundle, bundle.languages, [])).toString());
    expect(noComments.strings['b.key'].comment).toBeUndefined();
  });

  it('round-trips plurals from other formats, exact matches, nested device/plural and ICU quoting', async () => {
    const bundle: Bundle = {
      languages: [{ key: 'en', isDefault: true }, { key: 'ru' }],
      keys: [
        {
          key: 'files',
          namespace: 'ns',
          translations: {
            en: { text: "{count, plural, one {# file, 100% '#'1} other {# files, 100% '#'1}}" },
            ru: { text: '{count, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}' },
          },
        },
        {
          key: 'device.plural',
          namespace: 'ns',
          translations: {
            en: {
              text: "{device, select, mac {{count, plural, one {Click once} other {Click # times}}} other {Tap it''s '{'x'}'}}",
            },
          },
        },
        { key: 'quoted', namespace: 'ns', translations: { en: { text: "It's {plain}" } } },
        {
          key: 'named',
          namespace: 'ns',
          translations: { en: { text: '{count, plural, one {{name} has # file} other {{name} has # files}}' } },
        },
      ],
    };
    const out = await serialize(bundle, bundle.languages);
    const json = JSON.parse(out.toString());
    // ICU's # is %lld in a plural variation (what Xcode writes for an Int); a literal % is %%.
    expect(json.strings.files.localizations.en.variations.plural).toEqual({
      one: unit('%lld file, 100%% #1'),
      other: unit('%lld files, 100%% #1'),
    });
    expect(json.strings.named.localizations.en.variations.plural.other).toEqual(unit('{name} has %lld files'));
    expect(json.strings['device.plural'].localizations.en.variations.device.mac.variations.plural.other).toEqual(
      unit('Click %lld times'),
    );
    expect(json.strings['device.plural'].localizations.en.variations.device.other).toEqual(unit("Tap it's {x}"));
    expect(json.strings.quoted.localizations.en).toEqual(unit("It's {plain}"));
    const again = await parse(out, 'ns');
    expect(again.keys).toEqual(bundle.keys);
    // A lone apostrophe is literal in ICU; re-import writes the canonical doubled form (as plural.ts does).
    const lone = await serialize(
      {
        languages: [{ key: 'en' }],
        keys: [
          { key: 'q', namespace: '', translations: { en: { text: "{count, plural, one {it's} other {they're}}" } } },
        ],
      },
      [{ key: 'en' }],
    );
    expect(JSON.parse(lone.toString()).strings.q.localizations.en.variations.plural.one).toEqual(unit("it's"));
    expect(get(await parse(lone), 'q').translations.en!.text).toBe("{count, plural, one {it''s} other {they''re}}");

    const exact = await serialize(
      {
        languages: [{ key: 'en' }],
        keys: [
          { key: 'n', namespace: '', translations: { en: { text: '{n, plural, =0 {none} =1 {one} other {many}}' } } },
        ],
      },
      [{ key: 'en' }],
    );
    expect(Object.keys(JSON.parse(exact.toString()).strings.n.localizations.en.variations.plural)).toEqual([
      'one',
      'other',
      'zero',
    ]);
  });
});

describe('localizable-xcstrings: bad input', () => {
  const error = (input: string | Buffer) =>
    parse(input).then(
      () => null,
      (e: unknown) => e,
    );

  it('reports JSON syntax errors with line and column', async () => {
    const e = await error(
      '{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "a" : { "comment" : "x" }\n    "b" : {}\n  }\n}',
    );
    expect(e).toBeInstanceOf(FormatError);
    expect((e as Error).message).toMatch(/Malformed JSON: expected "," or "}".*\(line 5, column 5\)/);
    expect(await error('{"sourceLanguage": "en", "strings": {"a": "x"}}')).toMatchObject({
      message: 'strings["a"] must be an object',
    });
    expect(await error('{"strings": {}}')).toMatchObject({ message: 'A String Catalog needs a "sourceLanguage"' });
    expect(await error('[]')).toMatchObject({ message: 'A String Catalog must be a JSON object' });
  });

  it(
    'refuses deeply nested JSON quickly',
    async () => {
      const deep = `{"sourceLanguage":"en","strings":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
      const start = cpuClock();
      expect(await error(deep)).toMatchObject({
        name: 'FormatError',
        message: expect.stringMatching(/nesting is deeper than 64 levels \(line 1, column \d+\)/),
      });
      expect(cpuClock() - start).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('refuses substitutions that expand exponentially', async () => {
    const subs: Record<string, object> = {};
    for (let i = 0; i < 40; i++)
      subs[`v${i}`] = {
        argNum: 1,
        formatSpecifier: 'd',
        variations: { plural: { other: unit(i === 39 ? 'end' : `%#@v${i + 1}@ %#@v${i + 1}@`) } },
      };
    const e = await error(
      JSON.stringify({
        sourceLanguage: 'en',
        strings: {
          bomb: {
            localizations: { en: { stringUnit: { state: 'translated', value: '%#@v0@' }, substitutions: subs } },
          },
        },
      }),
    );
    expect(e).toBeInstanceOf(FormatError);
    expect((e as Error).message).toMatch(/"bomb" expand to too much text/);
  });

  it('refuses invalid UTF-8', async () => {
    expect(await error(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]))).toMatchObject({
      message: expect.stringMatching(/not valid UTF-8: invalid byte at offset 2/),
    });
  });
});

describe('localizable-xcstrings: cost', () => {
  it('exports in time linear in the number of keys', async () => {
    expect(await costRatio((n) => serialize(bilingualBundle(n), [{ key: 'en' }, { key: 'de' }]), 500)).toBeLessThan(32);
  }, 60_000);
});

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { arb } from '../../../src/formats/arb.js';
import { FormatError, type Bundle, type ExportOption } from '../../../src/formats/model.js';
import { parseIcuPlural } from '../../../src/formats/plural.js';
import { costRatio, cpuClock, PATHOLOGICAL_CPU_MS, HOSTILE_TEST_TIMEOUT } from './support/linear-cost.js';
import { corpusPath } from '../../support/corpus.js';
import { bilingualBundle } from './support/bundles.js';

const CORPUS = corpusPath('arb');
const parse = (input: string | Buffer | object, languageKey: string | null = 'en', namespace?: string) =>
  arb.parse(Buffer.isBuffer(input) ? input : Buffer.from(typeof input === 'string' ? input : JSON.stringify(input)), {
    languageKey: languageKey ?? undefined,
    namespace,
    options: new Set(),
  });
const serialize = async (bundle: Bundle, language: string, options: ExportOption[] = ['INCLUDE_DESCRIPTIONS']) =>
  (await arb.serialize(bundle, { languages: [{ key: language }], options: new Set(options) })).toString('utf8');
const get = (b: Bundle, key: string) => b.keys.find((k) => k.key === key)!;

/** n keys with plurals, namespaces, descriptions and review states. */

describe.skipIf(!existsSync(CORPUS))('arb: corpus', () => {
  it('reads the Aves template: ICU kept as is, placeholders in codeDescription', async () => {
    const b = await parse(readFileSync(`${CORPUS}/aves_app_en.arb`));
    expect(b.keys).toHaveLength(722);
    expect(get(b, 'itemCount')).toEqual({
      key: 'itemCount',
      namespace: '',
      codeDescription: '{"placeholders":{"count":{"type":"int","format":"decimalPattern"}}}',
      translations: { en: { text: '{count, plural, =1{{count} item} other{{count} items}}' } },
    });
    expect(parseIcuPlural(get(b, 'itemCount').translations.en!.text)?.forms).toEqual({
      '=1': '{count} item',
      other: '{count} items',
    });
    expect(JSON.parse(get(b, 'storageAccessDialogMessage').codeDescription!).placeholders.volume).toEqual({
      type: 'String',
      example: 'SD card',
      description: 'the name of a storage volume',
    });
    expect(get(b, 'appName').codeDescription).toBeUndefined();
  });

  it('reads the Sorani Kurdish file: @@locale skipped, empty metadata, other-only plural', async () => {
    const b = await parse(readFileSync(`${CORPUS}/aves_app_ckb.arb`), 'ckb');
    expect(b.keys).toHaveLength(314);
    expect(b.keys.some((k) => k.key.startsWith('@'))).toBe(false);
    expect(get(b, 'welcomeOptional')).toEqual({
      key: 'welcomeOptional',
      namespace: '',
      translations: { ckb: { text: 'ئارەزومەندانە' } },
    });
    expect(get(b, 'columnCount').translations.ckb!.text).toBe('{count, plural, other{ڕیز {count}}}');
    expect(get(b, 'timeSeconds').codeDescription).toBe('{"placeholders":{"seconds":{}}}');
  });

  it('reads the Flutter Gallery translation without metadata, with =0/=1 plurals', async () => {
    const b = await parse(readFileSync(`${CORPUS}/flutter-gallery_intl_de.arb`), 'de');
    expect(b.keys).toHaveLength(826);
    // German typography: no-break spaces between number and noun.
    expect(get(b, 'craneFlyStops').translations.de!.text).toBe(
      '{numberOfStops,plural,=0{Nonstop}=1{1\u00a0Zwischenstopp}other{{numberOfStops}\u00a0Zwischenstopps}}',
    );
    expect(get(b, 'demoTwoPaneItem').translations.de!.text).toBe('Element\u00a0{value}');
    expect(b.keys.every((k) => k.codeDescription === undefined && k.description === undefined)).toBe(true);
  });

  it('round-trips every corpus file and keeps its JSON content', async () => {
    for (const [file, lang] of [
      ['aves_app_en.arb', 'en'],
      ['aves_app_ckb.arb', 'ckb'],
      ['flutter-gallery_intl_de.arb', 'de'],
    ] as const) {
      const input = readFileSync(`${CORPUS}/${file}`, 'utf8');
      const b = await parse(input, lang);
      const out = await serialize(b, lang);
      expect(await parse(out, lang)).toEqual(b);
      // Same JSON except "@@locale" and the empty "@key": {} entries.
      const original = Object.fromEntries(
        Object.entries(JSON.parse(input) as Record<string, unknown>).filter(
          ([k, v]) => k !== '@@locale' && !(k.startsWith('@') && JSON.stringify(v) === '{}'),
        ),
      );
      expect({ ...JSON.parse(out), '@@locale': undefined }).toEqual({ ...original, '@@locale': undefined });
      expect(JSON.parse(out)['@@locale']).toBe(lang);
    }
  });
});

describe('arb: rules', () => {
  it('reads descriptions and keeps all other metadata; the request language and namespace win', async () => {
    const b = await parse(
      {
        '@@locale': 'fr',
        '@@last_modified': '2024-01-01',
        greeting: 'Bonjour {name}',
        '@greeting': {
          description: 'Greets the user',
          type: 'text',
          context: 'home',
          placeholders: { name: { type: 'String', example: 'Ana' } },
        },
        '@orphan': { description: 'metadata without message' },
      },
      'fr_CA',
      'mobile',
    );
    expect(b.languages).toEqual([{ key: 'fr_CA' }]);
    expect(b.keys).toEqual([
      {
        key: 'greeting',
        namespace: 'mobile',
        description: 'Greets the user',
        codeDescription: '{"type":"text","context":"home","placeholders":{"name":{"type":"String","example":"Ana"}}}',
        translations: { fr_CA: { text: 'Bonjour {name}' } },
      },
    ]);
  });

  it('falls back to @@locale when no language is given', async () => {
    expect((await parse({ '@@locale': 'pt_BR', a: 'b' }, null)).languages).toEqual([{ key: 'pt_BR' }]);
  });

  it('exports @@locale, messages, description (INCLUDE_DESCRIPTIONS) and metadata; skips untranslated keys', async () => {
    const bundle: Bundle = {
      languages: [{ key: 'de' }],
      keys: [
        {
          key: 'count',
          namespace: '',
          description: 'Item count',
          codeDescription: '{"placeholders":{"n":{"type":"int"}}}',
          translations: { de: { text: '{n, plural, =0{Keine} one{Ein Element} other{{n} Elemente}}' } },
        },
        {
          key: 'foreign',
          namespace: '',
          codeDescription: 'Plural variables: {"x":{}}',
          translations: { de: { text: 'Text' } },
        },
        { key: 'missing', namespace: '', translations: { en: { text: 'English only' } } },
        {
          key: '__proto__',
          namespace: '',
          codeDescription: '{"__proto__":{"polluted":true}}',
          translations: { de: { text: 'odd key' } },
        },
      ],
    };
    const out = await serialize(bundle, 'de');
    expect(JSON.parse(out)).toEqual(
      JSON.parse(
        JSON.stringify({
          '@@locale': 'de',
          count: '{n, plural, =0{Keine} one{Ein Element} other{{n} Elemente}}',
          '@count': { description: 'Item count', placeholders: { n: { type: 'int' } } },
          foreign: 'Text',
        }).replace(/}$/, ',"__proto__":"odd key","@__proto__":{"__proto__":{"polluted":true}}}'),
      ),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const again = await parse(out, 'de');
    expect(again.keys).toEqual(
      bundle.keys
        .filter((k) => k.key !== 'missing')
        .map((k) => (k.key === 'foreign' ? { ...k, codeDescription: undefined } : k))
        .map((k) => JSON.parse(JSON.stringify(k))),
    );
    const withoutDescriptions = JSON.parse(await serialize(bundle, 'de', []));
    expect(withoutDescriptions['@count']).toEqual({ placeholders: { n: { type: 'int' } } });
  });
});

describe('arb: bad input', () => {
  const error = (input: string | Buffer) =>
    parse(input).then(
      () => null,
      (e: unknown) => e,
    );

  it('reports JSON syntax errors with line and column, and non-string messages', async () => {
    expect(await error('{\n  "a": "b",\n  "c": \'d\'\n}')).toMatchObject({
      name: 'FormatError',
      message: 'Malformed JSON: unexpected character "\'" (line 3, column 8)',
    });
    expect(await error('{"a": "b",}')).toMatchObject({
      message: expect.stringMatching(/expected a property name.*\(line 1, column 11\)/),
    });
    expect(await error('{"a": {"nested": "x"}}')).toMatchObject({
      message: 'The value of "a" must be a string, not object',
    });
    expect(await error('{"a": "x", "@a": "not metadata"}')).toMatchObject({ message: '"@a" must be an object' });
    expect(await error('["a"]')).toMatchObject({ message: 'An ARB file must be a JSON object' });
  });

  it(
    'refuses deeply nested JSON quickly, also inside metadata',
    async () => {
      const start = cpuClock();
      const e = await error(`{"a": "x", "@a": {"placeholders": ${'['.repeat(200_000)}${']'.repeat(200_000)}}}`);
      expect(e).toBeInstanceOf(FormatError);
      expect((e as Error).message).toMatch(/JSON nesting is deeper than 64 levels \(line 1, column 97\)/);
      expect(cpuClock() - start).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );
});

describe('arb: cost', () => {
  it('exports in time linear in the number of keys', async () => {
    expect(await costRatio((n) => serialize(bilingualBundle(n), 'en'))).toBeLessThan(32);
  }, 60_000);
});

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localizableStrings } from '../../../src/formats/localizable-strings.js';
import { FormatError, type Bundle, type ExportOption } from '../../../src/formats/model.js';
import { costRatio, cpuClock, PATHOLOGICAL_CPU_MS, HOSTILE_TEST_TIMEOUT } from './support/linear-cost.js';
import { corpusPath } from '../../support/corpus.js';
import { bilingualBundle } from './support/bundles.js';

const CORPUS = corpusPath('localizable-strings');
const parse = (input: string | Buffer, languageKey = 'de', namespace?: string) =>
  localizableStrings.parse(typeof input === 'string' ? Buffer.from(input) : input, {
    languageKey,
    namespace,
    options: new Set(),
  });
const serialize = async (bundle: Bundle, language: string, options: ExportOption[] = []) =>
  (await localizableStrings.serialize(bundle, { languages: [{ key: language }], options: new Set(options) })).toString(
    'utf8',
  );
const get = (b: Bundle, key: string) => b.keys.find((k) => k.key === key);

/** n keys with plurals, namespaces, descriptions and review states. */

describe.skipIf(!existsSync(CORPUS))('localizable-strings: corpus', () => {
  it('reads the DuckDuckGo file: dotted keys, descriptions, escaped quotes around %@', async () => {
    const b = await parse(readFileSync(`${CORPUS}/duckduckgo-ios_autofill_it_Localizable.strings`), 'it');
    expect(b.keys).toHaveLength(32);
    expect(b.languages).toEqual([{ key: 'it' }]);
    expect(get(b, 'action.button.close')).toEqual({
      key: 'action.button.close',
      namespace: '',
      description: 'Close button title',
      translations: { it: { text: 'Chiudi' } },
    });
    expect(get(b, 'credential.provider.list.details.copy-prompt')?.translations.it?.text).toBe('Copia %@');
    expect(get(b, 'credential.provider.list.prompt')?.translations.it?.text).toBe(
      'Scegli una password da usare per "%@"',
    );
    expect(get(b, 'credential.provider.list.search.no-results.subtitle')?.translations.it?.text).toBe('per "%@"');
  });

  it('reads ResearchKit: license header is not a description, section comment is; \\n and \\\\n', async () => {
    const b = await parse(readFileSync(`${CORPUS}/researchkit_ja_ResearchKit.strings`), 'ja');
    expect(b.keys).toHaveLength(520);
    expect(get(b, 'CONSENT_NAME_TITLE')).toMatchObject({
      description: 'Informed consent process.',
      translations: { ja: { text: '同意' } },
    });
    expect(get(b, 'CONSENT_NAME_GIVEN')?.description).toBeUndefined();
    expect(b.keys.some((k) => k.description?.includes('Copyright'))).toBe(false);
    expect(get(b, 'MEMORY_GAME_TIMEOUT_MESSAGE')?.translations.ja?.text).toBe(
      '時間がなくなりました。\n続けるには、“次へ”をタップしてください。',
    );
    // Line 370 has an escaped backslash followed by n: a literal backslash, not a newline.
    expect(get(b, 'MEMORY_GAME_FAILED_MESSAGE')?.translations.ja?.text).toBe(
      'うまくできませんでした。\\n続けるには、“次へ”をタップしてください。',
    );
    expect(get(b, 'CONSENT_PAGE_NUMBER_FORMAT')?.translations.ja?.text).toBe('ページ%1$ld/%2$ld');
    expect(get(b, 'MEMORY_GAME_GAMEPLAY_TITLE_%@')).toBeDefined();
  });

  it('reads the UTF-16LE Sparkle file with BOM and Interface Builder comments', async () => {
    const b = await parse(readFileSync(`${CORPUS}/sparkle-1.27.1_de_SUUpdateAlert.utf16le.strings`));
    expect(b.keys.map((k) => k.key)).toEqual([
      '5.title',
      '170.title',
      '171.title',
      '172.title',
      '173.title',
      '175.title',
    ]);
    expect(get(b, '171.title')).toMatchObject({
      description: 'Class = "NSButtonCell"; title = "Später erinnern"; ObjectID = "171";',
      translations: { de: { text: 'Später erinnern' } },
    });
  });

  it('reads Sparkle: source-text keys with %@ and \\n, reordered positional placeholders', async () => {
    const b = await parse(readFileSync(`${CORPUS}/sparkle_de_Sparkle.strings`));
    expect(b.keys).toHaveLength(67);
    // The key has a no-break space before the last %@.
    const k = get(b, '%@ %@ is currently the newest version available.\n(You are currently running version\u00a0%@.)');
    expect(k?.translations.de?.text).toBe(
      '%1$@ %2$@ ist zurzeit die neueste verfügbare Version.\n(Die derzeit installierte Version ist %3$@.)',
    );
    expect(k?.description).toBe('No comment provided by engineer.');
  });

  it('round-trips every corpus file', async () => {
    for (const [file, lang] of [
      ['duckduckgo-ios_autofill_it_Localizable.strings', 'it'],
      ['researchkit_ja_ResearchKit.strings', 'ja'],
      ['sparkle-1.27.1_de_SUUpdateAlert.utf16le.strings', 'de'],
      ['sparkle_de_Sparkle.strings', 'de'],
    ] as const) {
      const b = await parse(readFileSync(`${CORPUS}/${file}`), lang);
      const again = await parse(await serialize(b, lang, ['INCLUDE_DESCRIPTIONS']), lang);
      expect(again).toEqual(b);
    }
  });
});

describe('localizable-strings: rules', () => {
  it('reads quoted and unquoted keys/values, key-only entries and all escapes', async () => {
    const b = await parse(
      [
        '"quoted" = "a \\"b\\" \\\\ c\\nd\\te\\rf";',
        'unquoted_key = unquoted.value-1;',
        '"mixed" = value;',
        '"alone";',
        '"unicode" = "\\U00e9\\u20AC \\UD83D\\UDE00";',
        '"octal" = "\\101\\102";',
        '"apostrophe" = "it\\\'s";',
        '"multi',
        'line" = "x";',
      ].join('\n'),
    );
    expect(Object.fromEntries(b.keys.map((k) => [k.key, k.translations.de!.text]))).toEqual({
      quoted: 'a "b" \\ c\nd\te\rf',
      unquoted_key: 'unquoted.value-1',
      mixed: 'value',
      alone: 'alone',
      unicode: 'é€ 😀',
      octal: 'AB',
      apostrophe: "it's",
      'multi\nline': 'x',
    });
  });

  it('takes the comment right before an entry as description, /* */ or consecutive // lines', async () => {
    const b = await parse(
      [
        '/* File header */',
        '',
        '/* Greeting */',
        '"hello" = "Hallo";',
        '"no.comment" = "x"; // trailing comment belongs to no one',
        '"next" = "y";',
        '// first line',
        '// second line',
        '"slashes" = "z";',
        '/* separated by a blank line */',
        '',
        '"far" = "w";',
        '/* multi',
        '   line */',
        '"block" = "v";',
      ].join('\n'),
    );
    expect(Object.fromEntries(b.keys.map((k) => [k.key, k.description]))).toEqual({
      hello: 'Greeting',
      'no.comment': undefined,
      next: undefined,
      slashes: 'first line\nsecond line',
      far: undefined,
      block: 'multi\n   line',
    });
  });

  it('lets the last duplicate win and uses the request namespace', async () => {
    const b = await parse('"a" = "1";\n"b" = "2";\n"a" = "3";', 'en', 'ios');
    expect(b.keys.map((k) => [k.key, k.namespace, k.translations.en!.text])).toEqual([
      ['a', 'ios', '3'],
      ['b', 'ios', '2'],
    ]);
  });

  it('reads UTF-16 without BOM (LE and BE) and UTF-8 with BOM', async () => {
    const text = '"k" = "Grüße";\n';
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.from(le).swap16();
    for (const input of [le, be, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])]) {
      expect((await parse(input)).keys[0]!.translations.de!.text).toBe('Grüße');
    }
  });

  it('exports escaped UTF-8, descriptions only with INCLUDE_DESCRIPTIONS, and skips untranslated keys', async () => {
    const bundle: Bundle = {
      languages: [{ key: 'de' }],
      keys: [
        {
          key: 'say "hi"',
          namespace: '',
          description: 'a */ tricky comment',
          translations: { de: { text: 'Zeile 1\nZeile 2\t"x" \\ ü' } },
        },
        { key: 'missing', namespace: '', translations: { en: { text: 'only English' } } },
        { key: 'empty', namespace: '', translations: { de: { text: '' } } },
      ],
    };
    expect(await serialize(bundle, 'de')).toBe(
      '"say \\"hi\\"" = "Zeile 1\\nZeile 2\\t\\"x\\" \\\\ ü";\n\n"empty" = "";\n',
    );
    const withComments = await serialize(bundle, 'de', ['INCLUDE_DESCRIPTIONS']);
    expect(withComments.startsWith('/* a * / tricky comment */\n"say')).toBe(true);
    const again = await parse(withComments);
    expect(again.keys.map((k) => [k.key, k.translations.de!.text, k.description])).toEqual([
      ['say "hi"', 'Zeile 1\nZeile 2\t"x" \\ ü', 'a * / tricky comment'],
      ['empty', '', undefined],
    ]);
  });

  it('round-trips plurals (as ICU text), descriptions and special characters', async () => {
    const bundle: Bundle = {
      languages: [{ key: 'en' }],
      keys: [
        {
          key: 'files',
          namespace: '',
          description: 'File count',
          translations: { en: { text: '{count, plural, one {%d file} other {%d files}}' } },
        },
        { key: 'path', namespace: '', translations: { en: { text: 'C:\\dir\\new "quoted"\r\n' } } },
      ],
    };
    const again = await parse(await serialize(bundle, 'en', ['INCLUDE_DESCRIPTIONS']), 'en');
    expect(again.keys).toEqual(bundle.keys);
  });
});

describe('localizable-strings: bad input', () => {
  const fails = async (input: string | Buffer, message: RegExp) => {
    const error = await parse(input).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FormatError);
    expect((error as Error).message).toMatch(message);
  };

  it('reports the line and column of syntax errors', async () => {
    await fails(
      '"a" = "1";\n"b" = "2"\n"c" = "3";',
      /expected ";" after the value of "b", found "\\"" \(line 3, column 1\)/,
    );
    await fails('"a" = "1";\n\n"b" "2";', /expected "=" after the key "b".*\(line 3, column 5\)/);
    await fails('"a" = "unterminated;\n', /string is not closed \(line 1, column 7\)/);
    await fails('"a" = "1";\n/* open comment', /comment is not closed \(line 2, column 1\)/);
    await fails('"a" = "\\u";', /invalid \\u escape/);
    await fails('"a" = ;', /expected a value, found ";"/);
    await fails('"a" = "b"', /found end of file/);
  });

  it('refuses invalid UTF-16 (odd length) and invalid UTF-8', async () => {
    await fails(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('"a" = "b";', 'utf16le'), Buffer.from([0x41])]),
      /odd number of bytes/,
    );
    await fails(Buffer.from([0x22, 0x61, 0x22, 0x3d, 0x22, 0xc3, 0x28, 0x22, 0x3b]), /not valid UTF-8.*offset 5/);
  });

  it(
    'stays linear on a large file',
    async () => {
      const big = Array.from({ length: 50_000 }, (_, i) => `/* c${i} */\n"key.${i}" = "value \\"${i}\\"";`).join('\n');
      const start = cpuClock();
      const b = await parse(big);
      expect(b.keys).toHaveLength(50_000);
      expect(cpuClock() - start).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );
});

describe('localizable-strings: cost', () => {
  it('exports in time linear in the number of keys', async () => {
    expect(await costRatio((n) => serialize(bilingualBundle(n), 'en', ['INCLUDE_DESCRIPTIONS']))).toBeLessThan(32);
  }, 60_000);
});

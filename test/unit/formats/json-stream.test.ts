// The JSON formats read as a stream (FileFormat.parseStream): chunks whatever
// the byte split, the same bundle as a whole-file parse, the rules a streaming
// reader changes (document order, a text given twice), encodings, and a heap
// that follows the chunk, not the file.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { multiLanguageJson, singleLanguageJson } from '../../../src/formats/json.js';
import { FormatError, type Bundle, type FileFormat, type ImportOption } from '../../../src/formats/model.js';

/** The bytes in pieces of `size` (1: every byte apart, splitting characters, escapes, numbers and literals). */
async function* pieces(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function chunksOf(
  format: FileFormat,
  text: string | Buffer,
  { size = 1, cells = 3, options = [] as ImportOption[], languageKey = 'en' } = {},
): Promise<Bundle[]> {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const out: Bundle[] = [];
  for await (const chunk of format.parseStream!(
    () => pieces(bytes, size),
    { languageKey, options: new Set(options) },
    cells,
  ))
    out.push(chunk);
  return out;
}

/** Chunks merged back into one bundle: keys in first-met order, their texts joined; a text in two chunks fails. */
function merged(chunks: Bundle[]): Bundle {
  const keys = new Map<string, Bundle['keys'][number]>();
  const languages: Bundle['languages'] = [];
  for (const chunk of chunks) {
    languages.push(...chunk.languages);
    for (const k of chunk.keys) {
      const key = keys.get(k.key) ?? keys.set(k.key, { ...k, translations: {} }).get(k.key)!;
      for (const [language, t] of Object.entries(k.translations)) {
        expect(key.translations[language], `${k.key}/${language} in two chunks`).toBeUndefined();
        key.translations[language] = t;
      }
    }
  }
  return { keys: [...keys.values()], languages };
}

const cellsOf = (b: Bundle) => b.keys.reduce((n, k) => n + Object.keys(k.translations).length, 0);

async function formatError(promise: Promise<unknown>): Promise<FormatError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FormatError);
  return error as FormatError;
}

const SAMPLE = JSON.stringify({
  en: {
    home: { title: 'Hi "there"', menu: ['Open', 'Close'] },
    price: 1.5e3,
    yes: true,
    none: null,
    emoji: '😀 \u00e9\\n',
    'flat.key': 'x',
    empty: {},
  },
  de: { home: { title: 'Hallo' }, price: -0.25, 'flat.key': 'y', only: 'nur' },
  'pt-BR': {},
});

describe('JSON read as a stream', () => {
  it('gives the whole-file bundle in chunks of at most the asked texts, whatever the byte split', async () => {
    const whole = await multiLanguageJson.parse(Buffer.from(SAMPLE), { options: new Set() });
    for (const size of [1, 2, 3, 7, 64]) {
      const chunks = await chunksOf(multiLanguageJson, SAMPLE, { size, cells: 3 });
      expect(chunks.length).toBeGreaterThan(3);
      for (const chunk of chunks) expect(cellsOf(chunk)).toBeLessThanOrEqual(3);
      expect(merged(chunks)).toEqual(whole);
    }
    expect(whole.languages).toEqual([{ key: 'en' }, { key: 'de' }, { key: 'pt-BR' }]);
    expect(whole.keys.find((k) => k.key === 'price')!.translations).toEqual({
      en: { text: '1500' },
      de: { text: '-0.25' },
    });
    expect(whole.keys.find((k) => k.key === 'emoji')!.translations.en!.text).toBe('😀 é\\n');
    expect(whole.keys.find((k) => k.key === 'home.menu[1]')!.translations.en!.text).toBe('Close');
  });

  it('streams the single-language and key-first layouts the same way', async () => {
    const single = '{"a": {"b": "x", "c": ["y", 2]}, "d": false}';
    expect(merged(await chunksOf(singleLanguageJson, single, { cells: 1 }))).toEqual(
      await singleLanguageJson.parse(Buffer.from(single), { languageKey: 'en', options: new Set() }),
    );
    const keyFirst = '{"a": {"en": "A", "de": "Ä", "b": {"en": "B"}}, "list": [{"en": "one"}]}';
    const options: ImportOption[] = ['LANGUAGES_NESTED'];
    expect(merged(await chunksOf(multiLanguageJson, keyFirst, { cells: 1, options }))).toEqual(
      await multiLanguageJson.parse(Buffer.from(keyFirst), { options: new Set(options) }),
    );
  });

  it('keeps document order for index-like names, refuses a text given twice, merges a repeated object', async () => {
    // JSON.parse would list "10" and "2" first (and "2" before "10").
    const order = await singleLanguageJson.parse(Buffer.from('{"b": "x", "10": "y", "2": "z"}'), {
      languageKey: 'en',
      options: new Set(),
    });
    expect(order.keys.map((k) => k.key)).toEqual(['b', '10', '2']);
    // JSON.parse would keep the last; a stream has written the first already.
    expect(
      (
        await formatError(
          multiLanguageJson.parse(Buffer.from('{"en": {"a": "1", "b": "2", "a": "3"}}'), { options: new Set() }),
        )
      ).message,
    ).toMatch(/The key "a" is defined twice in "en"/);
    const repeated = await singleLanguageJson.parse(Buffer.from('{"a": {"x": "1"}, "a": {"y": "2"}}'), {
      languageKey: 'en',
      options: new Set(),
    });
    expect(repeated.keys.map((k) => k.key)).toEqual(['a.x', 'a.y']);
    // A language given twice: its keys are merged the same way.
    const twice = await multiLanguageJson.parse(Buffer.from('{"en": {"a": "1"}, "de": {"a": "2"}, "en": {"b": "3"}}'), {
      options: new Set(),
    });
    expect(twice.keys.map((k) => [k.key, k.translations])).toEqual([
      ['a', { en: { text: '1' }, de: { text: '2' } }],
      ['b', { en: { text: '3' } }],
    ]);
  });

  it('decodes UTF-16 with a BOM and refuses invalid UTF-8 wherever the pieces split it, with its offset', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"en": {"a": "ä€😀"}}', 'utf16le')]);
    expect(merged(await chunksOf(multiLanguageJson, utf16, { size: 1 })).keys[0]!.translations.en!.text).toBe('ä€😀');
    const bad = Buffer.concat([Buffer.from('{"en": {\n"a": "€'), Buffer.from([0xe2, 0x82]), Buffer.from('"}}')]);
    for (const size of [1, 2, 5, 100]) {
      const error = await formatError(chunksOf(multiLanguageJson, bad, { size }));
      expect(error.message).toBe('The file is not valid UTF-8: invalid byte at offset 18 (line 2)');
    }
    const truncated = Buffer.concat([Buffer.from('{"en": {"a": "x"}}'), Buffer.from([0xf0, 0x9f])]);
    expect((await formatError(chunksOf(multiLanguageJson, truncated, { size: 3 }))).message).toMatch(
      /invalid byte at offset 18/,
    );
  });

  it('reports a syntax error at the end of a long file with its line and column, after the chunks before it', async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `    "k${i}": "text ${i}"`);
    const text = `{\n  "en": {\n${lines.join(',\n')},\n    "last": tru\n  }\n}\n`;
    const chunks: Bundle[] = [];
    const error = await formatError(
      (async () => {
        for await (const chunk of multiLanguageJson.parseStream!(
          () => pieces(Buffer.from(text), 4096),
          { options: new Set() },
          50,
        ))
          chunks.push(chunk);
      })(),
    );
    expect(chunks.length).toBe(10);
    expect(error.message).toBe('Malformed JSON: unexpected character "t" (line 503, column 13)');
    expect((await formatError(chunksOf(multiLanguageJson, '{"en": {"a": "x"}} {', { size: 2 }))).message).toMatch(
      /unexpected character "\{" after the JSON value \(line 1, column 20\)/,
    );
    expect((await formatError(chunksOf(multiLanguageJson, '{"en": {"a": "x\\q"}}', { size: 2 }))).message).toMatch(
      /invalid escape \(line 1, column 16\)/,
    );
    expect((await formatError(chunksOf(multiLanguageJson, '{"en": {"a": "x', { size: 2 }))).message).toMatch(
      /string is not closed/,
    );
  });

  it('parses a 500,000-text file, generated as it is read, in a process whose heap is capped far below the file', () => {
    // The file is about 40 MB: holding it whole, even as one Buffer read in chunks, exhausts a 64 MiB heap; the stream needs under 48 MiB.
    const out = execFileSync(
      process.execPath,
      ['--max-old-space-size=64', '--import', 'tsx', 'test/support/json-stream-memory.ts'],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(JSON.parse(out)).toEqual({ cells: 500_000, keys: 50_000, maxChunkCells: 50_000 });
  }, 130_000);
});

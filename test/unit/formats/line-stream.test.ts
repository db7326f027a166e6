// The line formats read as a stream (java-properties, CSV, TSV, PO:
// FileFormat.parseStream): chunks of at most the asked texts whatever the
// byte split, the same bundle as a whole-file parse (corpus files included),
// the whole-file decisions taken by first passes (encoding, a key given
// twice, the quote character, PO's header entry), and a heap that follows the chunk, not the file.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { csvTranslations, tsv } from '../../../src/formats/csv.js';
import { javaProperties } from '../../../src/formats/java-properties.js';
import { FormatError, type Bundle, type FileFormat } from '../../../src/formats/model.js';
import { poPot } from '../../../src/formats/po.js';
import { lineBatches } from '../../../src/formats/text-stream.js';
import { corpusPath } from '../../support/corpus.js';

/** The bytes in pieces of `size` (1: every byte apart, splitting characters and CRLF line ends). */
async function* pieces(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function chunksOf(
  format: FileFormat,
  bytes: Buffer,
  { size = 1, cells = 3, languageKey = undefined as string | undefined } = {},
): Promise<Bundle[]> {
  const out: Bundle[] = [];
  for await (const chunk of format.parseStream!(() => pieces(bytes, size), { languageKey, options: new Set() }, cells))
    out.push(chunk);
  return out;
}

/** Chunks joined back: each key is in exactly one chunk for these formats. */
function joined(chunks: Bundle[]): Bundle {
  return { keys: chunks.flatMap((c) => c.keys), languages: chunks.flatMap((c) => c.languages) };
}

const cellsOf = (b: Bundle) => b.keys.reduce((n, k) => n + Object.keys(k.translations).length, 0);

async function expectSameInChunks(
  format: FileFormat,
  bytes: Buffer,
  sizes: number[],
  languageKey?: string,
): Promise<void> {
  const whole = await format.parse(bytes, { languageKey, options: new Set() });
  for (const size of sizes) {
    const chunks = await chunksOf(format, bytes, { size, cells: 3, languageKey });
    expect(chunks.length, `size ${size}`).toBeGreaterThan(1);
    // A CSV row is not cut: a chunk ends with the row that reaches 3 texts.
    for (const chunk of chunks) expect(cellsOf(chunk)).toBeLessThan(3 + 10);
    expect(joined(chunks), `size ${size}`).toEqual(whole);
  }
}

const PROPERTIES = [
  '# header comment',
  '',
  '! bang comment for a',
  'a=1',
  'b : 2 \\',
  '   continued \\\\',
  'c = caf\\u00e9 😀 é',
  'dup = first',
  'e = ends with backslash \\\\\\',
  '  continued',
  '# comment before the second dup',
  'dup = second',
  'f',
  'dup = third, moved here',
  'g = \\',
].join('\r\n');

const CSV =
  'key,en,de,description\r\nhello,"Hello, ""world""","Hallo\r\nWelt",greeting\nbye,Bye,,\rits,It\'s,Es ist,x\r\n"multi\nline",a,b,\n=formula,\'=x,y,\n';

describe('java-properties read as a stream', () => {
  it('gives the whole-file bundle in chunks, whatever the byte split: continued lines, CRLF, a key given three times', async () => {
    await expectSameInChunks(javaProperties, Buffer.from(PROPERTIES), [1, 2, 3, 5, 64], 'en');
    const whole = await javaProperties.parse(Buffer.from(PROPERTIES), { languageKey: 'en', options: new Set() });
    // The last line of a key given again wins, with its comment, where it is.
    expect(whole.keys.map((k) => k.key)).toEqual(['a', 'b', 'c', 'e', 'f', 'dup', 'g']);
    expect(whole.keys.find((k) => k.key === 'dup')).toEqual({
      key: 'dup',
      namespace: '',
      translations: { en: { text: 'third, moved here' } },
    });
    expect(whole.keys.find((k) => k.key === 'b')!.translations.en!.text).toBe('2 continued \\');
  });

  it('decides the encoding for the whole file: ISO-8859-1 when a byte late in the file is not UTF-8, a UTF-8 BOM dropped', async () => {
    const text = `${Array.from({ length: 50 }, (_, i) => `a${i}=é\n`).join('')}z=caf`;
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const latin1 = Buffer.concat([utf8, Buffer.from([0xe9])]);
    for (const size of [1, 2, 4096]) {
      const texts = (b: Bundle) => [b.keys[0]!.translations.en!.text, b.keys.at(-1)!.translations.en!.text];
      expect(texts(joined(await chunksOf(javaProperties, utf8, { size, languageKey: 'en' })))).toEqual(['é', 'caf']);
      expect(texts(joined(await chunksOf(javaProperties, latin1, { size, languageKey: 'en' })))).toEqual([
        'Ã©',
        'café',
      ]);
    }
    await expectSameInChunks(javaProperties, latin1, [1, 7], 'en');
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('a=1\nb=ü\nc=3\nd=4\ne=5\nf=6\ng=7\n', 'utf16le'),
    ]);
    await expectSameInChunks(javaProperties, utf16, [1, 3], 'en');
  });

  it('refuses a broken file before its first chunk', async () => {
    const chunks: Bundle[] = [];
    const text = `${Array.from({ length: 50 }, (_, i) => `k${i}=v`).join('\n')}\nlast=x\\u12G4\n`;
    const error = await (async () => {
      for await (const chunk of javaProperties.parseStream!(
        () => pieces(Buffer.from(text), 16),
        { languageKey: 'en', options: new Set() },
        5,
      ))
        chunks.push(chunk);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).position).toEqual({ line: 51, column: 7 });
    expect(chunks).toEqual([]);
  });
});

describe.skipIf(!existsSync(corpusPath()))('line formats read as a stream: corpus files', () => {
  it('the properties, CSV and PO files of the corpus give the whole-file bundle in chunks', async () => {
    for (const [name, language] of [
      ['hibernate-validator_ValidationMessages_ja.properties', 'ja'],
      ['jenkins_LogRecorder_index_da.latin1.properties', 'da'],
      ['jenkins_hudson_model_Messages_fr.properties', 'fr'],
    ]) {
      await expectSameInChunks(javaProperties, readFileSync(corpusPath('properties', name!)), [7, 4096], language);
    }
    await expectSameInChunks(
      csvTranslations,
      readFileSync(corpusPath('csv', 'mollie-magento2_de_DE.csv')),
      [7, 4096],
      'de_DE',
    );
    await expectSameInChunks(
      csvTranslations,
      readFileSync(corpusPath('csv', 'godot-demo-projects_translation_text.csv')),
      [1, 64],
    );
    for (const [name, language] of [
      ['gnome-clocks_th.po'],
      ['wtforms_ar.po'],
      ['uranium.pot', 'en'],
      ['wtforms.pot', 'en'],
    ]) {
      await expectSameInChunks(poPot, readFileSync(corpusPath('po', name!)), [7, 4096], language);
    }
  });
});

describe('CSV and TSV read as a stream', () => {
  it('give the whole-file bundle in chunks, whatever the byte split: quoted line breaks, mixed line ends, the formula guard', async () => {
    await expectSameInChunks(csvTranslations, Buffer.from(CSV), [1, 2, 3, 64]);
    await expectSameInChunks(tsv, Buffer.from(CSV.replace(/,/g, '\t')), [1, 5]);
    const whole = await csvTranslations.parse(Buffer.from(CSV), { options: new Set() });
    expect(whole.keys.map((k) => [k.key, k.translations.en?.text])).toEqual([
      ['hello', 'Hello, "world"'],
      ['bye', 'Bye'],
      ['its', "It's"],
      ['multi\nline', 'a'],
      ['=formula', '=x'],
    ]);
  });

  it('choose the single quote for the whole file when a late field needs it, the double quote when a late field is double-quoted', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => `k${i},v${i}`).join('\n');
    const single = `key,en\n${rows}\nlast,'a, b'\n`;
    const double = `key,en\nfirst,'a, b'\n${rows}\nlast,"x, y"\n`;
    for (const size of [1, 16]) {
      expect(
        joined(await chunksOf(csvTranslations, Buffer.from(single), { size })).keys.at(-1)!.translations.en?.text,
      ).toBe('a, b');
      expect(
        joined(await chunksOf(csvTranslations, Buffer.from(double), { size })).keys[0]!.translations.en?.text,
      ).toBe("'a");
    }
    await expectSameInChunks(csvTranslations, Buffer.from(single), [3]);
    await expectSameInChunks(csvTranslations, Buffer.from(double), [3]);
  });

  it('give an invalid byte, then a syntax error, before anything, as a whole-file reading orders them; a key given twice where it stands', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => `k${i},v${i}`).join('\n');
    const cases: [string | Buffer, RegExp, number, boolean][] = [
      [`key,en\n${rows}\nk0,again\nlast,"open\n`, /^Invalid CSV: Quote Not Closed/, 23, false],
      [
        Buffer.concat([Buffer.from(`key,en\n"a${rows}\n`), Buffer.from([0xc0]), Buffer.from('\n')]),
        /^The file is not valid UTF-8: invalid byte at offset \d+/,
        22,
        false,
      ],
      [`key,en\n${rows}\nk0,it's again\n`, /^Key "k0" appears twice/, 22, true],
    ];
    for (const [text, message, line, afterChunks] of cases) {
      const chunks: Bundle[] = [];
      const error = await (async () => {
        for await (const chunk of csvTranslations.parseStream!(
          () => pieces(Buffer.from(text), 8),
          { options: new Set() },
          3,
        ))
          chunks.push(chunk);
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FormatError);
      expect((error as Error).message).toMatch(message);
      expect((error as FormatError).position?.line).toBe(line);
      expect(chunks.length > 0).toBe(afterChunks);
    }
  });
});

const PO = [
  'msgid "a"',
  'msgstr "A"',
  '',
  '#, fuzzy',
  '# translator note',
  'msgctxt "ctx"',
  'msgid "b"',
  'msgstr ""',
  '"B \\"line\\"\\n"',
  '"second"',
  '',
  'msgid "file"',
  'msgid_plural "files"',
  'msgstr[0] "%d plik"',
  'msgstr[1] "%d pliki"',
  'msgstr[2] "%d plików"',
  '',
  '#~ msgid "obsolete"',
  '#~ msgstr "gone"',
  '',
  'msgid "c"',
  'msgstr "C\r"',
  '',
  'msgid "d"',
  'msgstr ""',
  '',
  '# The header entry may come last: its language and plural forms apply to every entry.',
  'msgid ""',
  'msgstr ""',
  '"Language: pl\\n"',
  '"Content-Type: text/plain; charset=ISO-8859-2\\n"',
  '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"',
].join('\r\n');

describe('gettext PO read as a stream', () => {
  it('gives the whole-file bundle in chunks, whatever the byte split: the header entry last, plurals, continued strings, CRLF', async () => {
    await expectSameInChunks(poPot, Buffer.from(PO), [1, 2, 3, 64]);
    const whole = await poPot.parse(Buffer.from(PO), { options: new Set() });
    expect(whole.languages).toEqual([{ key: 'pl' }]);
    expect(whole.keys.map((k) => [k.key, k.namespace, k.translations.pl?.text])).toEqual([
      ['a', '', 'A'],
      ['b', 'ctx', 'B "line"\nsecond'],
      ['file', '', '{count, plural, one {# plik} few {# pliki} many {# plików} other {# plików}}'],
      // A lone \r does not end a PO line: it is a character of the string.
      ['c', '', 'C\r'],
      ['d', '', ''],
    ]);
  });

  it('decodes a file in the legacy charset it declares, decided for the whole file', async () => {
    const latin2 = Buffer.from(PO.replace('msgstr "C\r"', 'msgstr "\u00b1\r"'), 'latin1');
    await expectSameInChunks(poPot, latin2, [1, 7]);
    expect(
      (await poPot.parse(latin2, { options: new Set() })).keys.find((k) => k.key === 'c')!.translations.pl!.text,
    ).toBe('ą\r');
  });

  it('refuses a syntax error before the first chunk, a message given twice where it stands', async () => {
    const entries = Array.from({ length: 20 }, (_, i) => `msgid "k${i}"\nmsgstr "v${i}"\n`).join('\n');
    for (const [text, message, line, afterChunks] of [
      [`${entries}\nmsgid "last"\nmsgstr "open\n`, /^Unterminated string/, 62, false],
      [`${entries}\nmsgid "k3"\nmsgstr "again"\n`, /^Duplicate message "k3"/, 61, true],
    ] as const) {
      const chunks: Bundle[] = [];
      const error = await (async () => {
        for await (const chunk of poPot.parseStream!(
          () => pieces(Buffer.from(text), 16),
          { languageKey: 'en', options: new Set() },
          3,
        ))
          chunks.push(chunk);
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FormatError);
      expect((error as Error).message).toMatch(message);
      expect((error as FormatError).position?.line).toBe(line);
      expect(chunks.length > 0).toBe(afterChunks);
    }
  });
});

describe('lineBatches', () => {
  it('cuts lines as split(/\\r\\n|\\r|\\n/) does, whatever the pieces', async () => {
    for (const text of ['a\r\nb\rc\nd', 'a\r\n', '\r\r\n\n', '', 'x\r']) {
      for (const size of [1, 2, 3, 100]) {
        async function* texts() {
          for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
        }
        const lines: string[] = [];
        for await (const batch of lineBatches(texts())) lines.push(...batch);
        expect(lines, JSON.stringify([text, size])).toEqual(text.split(/\r\n|\r|\n/));
      }
    }
  });
});

describe('line formats read as a stream: memory', () => {
  it('parse files of about 40 MB, generated as they are read, in a process whose heap is capped far below the file', () => {
    for (const [format, cells] of [
      ['csv-translations', 500_000],
      ['java-properties', 200_000],
      ['po-pot', 200_000],
    ] as const) {
      const out = execFileSync(
        process.execPath,
        ['--max-old-space-size=64', '--import', 'tsx', 'test/support/line-stream-memory.ts', format],
        { encoding: 'utf8', timeout: 240_000 },
      );
      expect(JSON.parse(out), format).toEqual({ cells, maxChunkCells: 10_000 });
    }
  }, 500_000);
});

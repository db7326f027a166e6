import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { checkZipArchive, DEFAULT_ZIP_LIMITS, excel, sheetNames } from '../../../src/formats/excel.js';
import { FormatError, type Bundle, type ExportOption, type ImportOption } from '../../../src/formats/model.js';
import { toIcuPlural } from '../../../src/formats/plural.js';
import { costRatio, cpuClock, PATHOLOGICAL_CPU_MS } from './support/linear-cost.js';
import { generatedBundle } from './support/bundles.js';

/** n keys under shared prefixes, with plurals and descriptions. */

const parse = (input: Buffer, options: ImportOption[] = [], namespace?: string, languageKey?: string) =>
  excel.parse(input, { languageKey, namespace, options: new Set(options) });
const serialize = (bundle: Bundle, languages: string[], options: ExportOption[] = []) =>
  excel.serialize(bundle, { languages: languages.map((key) => ({ key })), options: new Set(options) });
const shape = (b: Bundle) =>
  b.keys.map((k) => ({ key: k.key, namespace: k.namespace, description: k.description, translations: k.translations }));

async function workbook(sheets: Record<string, ExcelJS.CellValue[][]>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    for (const r of rows) ws.addRow(r);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function load(buffer: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as unknown as ExcelJS.Buffer);
  return wb;
}

describe('excel: import', () => {
  it('reads the CSV columns on every sheet, with cell values as text', async () => {
    const input = await workbook({
      First: [
        ['Key', 'Namespace', 'Description', 'en', 'de'],
        ['hello', 'web', 'Greeting', 'Hello', { richText: [{ text: 'Hal' }, { font: { bold: true }, text: 'lo' }] }],
        ['count', '', null, 42, true],
        ['calc', '', null, { formula: 'A1&"x"', result: 'Keyx' }, null],
        ['when', '', null, new Date(Date.UTC(2024, 0, 2)), { text: 'link', hyperlink: 'https://example.com' }],
      ],
      Empty: [],
      Second: [
        ['key', 'fr'],
        ['hello', 'Bonjour'],
        ['other', 'Autre'],
      ],
    });
    const b = await parse(input, [], 'default-ns');
    expect(b.languages).toEqual([{ key: 'en' }, { key: 'de' }, { key: 'fr' }]);
    expect(shape(b)).toEqual([
      {
        key: 'hello',
        namespace: 'web',
        description: 'Greeting',
        translations: { en: { text: 'Hello' }, de: { text: 'Hallo' } },
      },
      {
        key: 'count',
        namespace: 'default-ns',
        description: undefined,
        translations: { en: { text: '42' }, de: { text: 'true' } },
      },
      { key: 'calc', namespace: 'default-ns', description: undefined, translations: { en: { text: 'Keyx' } } },
      {
        key: 'when',
        namespace: 'default-ns',
        description: undefined,
        translations: { en: { text: '2024-01-02T00:00:00.000Z' }, de: { text: 'link' } },
      },
      { key: 'hello', namespace: 'default-ns', description: undefined, translations: { fr: { text: 'Bonjour' } } },
      { key: 'other', namespace: 'default-ns', description: undefined, translations: { fr: { text: 'Autre' } } },
    ]);
  });

  it('SHEETS_AS_NAMESPACES: the sheet name is the namespace', async () => {
    const input = await workbook({
      Web: [
        ['key', 'namespace', 'en'],
        ['a', 'ignored', 'A'],
      ],
      Mobile: [
        ['key', 'en'],
        ['a', 'A2'],
      ],
    });
    const b = await parse(input, ['SHEETS_AS_NAMESPACES']);
    expect(b.keys.map((k) => [k.namespace, k.key, k.translations.en?.text])).toEqual([
      ['Web', 'a', 'A'],
      ['Mobile', 'a', 'A2'],
    ]);
  });

  it('reports a sheet without key column, or a duplicate key, with sheet and row', async () => {
    await expect(
      parse(
        await workbook({
          Data: [
            ['en', 'de'],
            ['x', 'y'],
          ],
        }),
      ),
    ).rejects.toThrow(/sheet "Data": No key column.*\(row 1\)/);
    await expect(
      parse(
        await workbook({
          A: [
            ['key', 'en'],
            ['k', '1'],
          ],
          B: [
            ['key', 'en'],
            ['x', '1'],
            ['k', '2'],
          ],
        }),
      ),
    ).rejects.toThrow(/sheet "B": Key "k" appears twice \(row 3\)/);
  });

  it('does not strip apostrophes (in .xlsx the text marker is a style, not part of the value)', async () => {
    const b = await parse(
      await workbook({
        S: [
          ['key', 'en'],
          ['a', "'=quoted"],
        ],
      }),
    );
    expect(b.keys[0]!.translations.en?.text).toBe("'=quoted");
  });
});

describe('excel: export', () => {
  const bundle: Bundle = {
    languages: [{ key: 'en' }, { key: 'de' }],
    // Grouped by namespace in code-point order, as the keys of sheets per namespace come (keyOrder).
    keys: [
      { key: 'number', namespace: 'app', translations: { en: { text: '007' }, de: { text: '1e3' } } },
      {
        key: 'files',
        namespace: 'app',
        translations: { en: { text: toIcuPlural({ one: '# file', other: '# files' }) } },
      },
      { key: 'multi', namespace: 'app', translations: { en: { text: 'line 1\nline 2' } } },
      {
        key: 'formula',
        namespace: 'web',
        description: 'not a formula',
        translations: { en: { text: '=1+1' }, de: { text: '=SUM(A1)' } },
      },
      { key: 'plus', namespace: 'web', translations: { en: { text: '+49 30 1234' }, de: { text: '@cmd' } } },
    ],
  };

  it('writes every value as a text cell, never a formula or a number', async () => {
    const out = await serialize(bundle, ['en', 'de'], ['INCLUDE_DESCRIPTIONS', 'SHEETS_AS_NAMESPACES']);
    const wb = await load(out);
    const ws = wb.getWorksheet('web')!;
    const texts = (row: ExcelJS.Row) => Array.from({ length: row.cellCount }, (_, i) => row.getCell(i + 1).text);
    expect(texts(ws.getRow(1))).toEqual(['key', 'en', 'de', 'description', 'namespace']);
    // Inline strings (exceljs reads them as rich text of one run), with the text number format.
    const cell = ws.getRow(2).getCell(2);
    expect(cell.value).toEqual({ richText: [{ text: '=1+1' }] });
    expect(cell.type).toBe(ExcelJS.ValueType.RichText);
    expect(cell.numFmt).toBe('@');
    expect(wb.getWorksheet('app')!.getRow(2).getCell(2).value).toEqual({ richText: [{ text: '007' }] });
    const zip = await JSZip.loadAsync(out);
    for (const name of Object.keys(zip.files).filter((n) => n.startsWith('xl/worksheets/sheet'))) {
      expect(await zip.file(name)!.async('string')).not.toContain('<f>');
    }
  });

  it('without SHEETS_AS_NAMESPACES: one "Translations" sheet with a namespace column', async () => {
    const out = await serialize(bundle, ['en', 'de'], ['INCLUDE_DESCRIPTIONS']);
    const wb = await load(out);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Translations']);
    expect(wb.worksheets[0]!.getRow(1).getCell(5).text).toBe('namespace');
    expect(shape(await parse(out))).toEqual(shape(bundle));
  });

  it('SHEETS_AS_NAMESPACES: one sheet per namespace named after it; reads back the same with or without the import option', async () => {
    const out = await serialize(bundle, ['en', 'de'], ['INCLUDE_DESCRIPTIONS', 'SHEETS_AS_NAMESPACES']);
    expect((await load(out)).worksheets.map((w) => w.name)).toEqual(['app', 'web']);
    expect(shape(await parse(out))).toEqual(shape(bundle));
    expect(shape(await parse(out, ['SHEETS_AS_NAMESPACES']))).toEqual(shape(bundle));
  });

  it('SHEETS_AS_NAMESPACES: a namespace that cannot name a sheet gets a derived name; the namespace column keeps the file lossless', async () => {
    expect([...sheetNames(['', 'APP', 'a/b', 'app', 'x'.repeat(40), "'q'"]).values()]).toEqual([
      'Translations',
      'APP',
      'a_b',
      'app (2)',
      'x'.repeat(31),
      'q',
    ]);
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: [
        ...bundle.keys,
        { key: 'k', namespace: '', translations: { en: { text: 'v' } } },
        { key: 'k', namespace: 'a/b', translations: { en: { text: 'w' } } },
      ],
    };
    const out = await serialize(b, ['en'], ['SHEETS_AS_NAMESPACES']);
    expect((await load(out)).worksheets.map((w) => w.name)).toEqual(['Translations', 'a_b', 'app', 'web']);
    // Sheets in namespace order ('' first): the rows come grouped by namespace.
    const byNamespace = <T extends { namespace: string }>(rows: T[]) =>
      [...rows].sort((x, y) => (x.namespace < y.namespace ? -1 : x.namespace > y.namespace ? 1 : 0));
    expect(shape(await parse(out))).toEqual(
      byNamespace(
        shape(b).map((k) => ({
          ...k,
          description: undefined,
          translations: k.translations.en ? { en: k.translations.en } : {},
        })),
      ),
    );
  });

  it('import -> export -> import keeps =SUM(A1) as text', async () => {
    const input = await workbook({
      S: [
        ['key', 'en'],
        ['sum', '=SUM(A1)'],
      ],
    });
    const first = await parse(input);
    const again = await parse(await serialize(first, ['en']));
    expect(again.keys[0]!.translations.en?.text).toBe('=SUM(A1)');
  });

  it('export and import cost grow linearly with the number of keys', async () => {
    expect(await costRatio((n) => serialize(generatedBundle(n, ['en', 'de']), ['en', 'de']), 200)).toBeLessThan(32);
    expect(
      await costRatio(async (n) => parse(await serialize(generatedBundle(n, ['en', 'de']), ['en', 'de'])), 200),
    ).toBeLessThan(32);
  }, 180_000);

  it('ESCAPE_NEW_LINES writes newlines as \\n', async () => {
    const out = await serialize(bundle, ['en'], ['ESCAPE_NEW_LINES']);
    expect((await parse(out)).keys.find((k) => k.key === 'multi')?.translations.en?.text).toBe('line 1\\nline 2');
  });
});

describe('excel: hostile input', () => {
  it('refuses something that is not a zip, and an old .xls', async () => {
    await expect(parse(Buffer.from('key,en\na,b\n'))).rejects.toThrow(/Not an .xlsx file/);
    await expect(parse(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).rejects.toThrow(
      /old binary .xls/,
    );
    await expect(parse(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]))).rejects.toThrow(
      FormatError,
    );
  });

  it('refuses a zip that is not a workbook', async () => {
    const zip = new JSZip();
    zip.file('hello.txt', 'hi');
    const err = await parse(await zip.generateAsync({ type: 'nodebuffer' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
  });

  it('refuses a zip bomb (a huge, highly compressible entry) before inflating it', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    zip.file('xl/worksheets/sheet1.xml', Buffer.alloc(12 * 1024 * 1024, 0x20));
    const bomb = await zip.generateAsync({
      type: 'nodebuffer',
      compression: 'DEFLATE',
      compressionOptions: { level: 9 },
    });
    expect(bomb.length).toBeLessThan(200_000);
    const t = cpuClock();
    await expect(parse(bomb)).rejects.toThrow(/zip bomb/);
    expect(cpuClock() - t).toBeLessThan(PATHOLOGICAL_CPU_MS);
  }, 60_000);

  it('refuses an entry that inflates beyond the size its header claims', async () => {
    const zip = new JSZip();
    zip.file('xl/worksheets/sheet1.xml', Buffer.alloc(4 * 1024 * 1024, 0x41));
    const buf = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    // Lie about the uncompressed size in the local header and the central directory.
    for (let i = 0; i < buf.length - 4; i++) {
      const sig = buf.readUInt32LE(i);
      if (sig === 0x04034b50) buf.writeUInt32LE(1000, i + 22);
      if (sig === 0x02014b50) buf.writeUInt32LE(1000, i + 24);
    }
    await expect(checkZipArchive(buf)).rejects.toThrow(/inflates beyond its declared size/);
  }, 30_000);

  it('applies the total-size and entry-count caps', async () => {
    const zip = new JSZip();
    zip.file('a.xml', 'x'.repeat(600));
    zip.file('b.xml', 'y'.repeat(600));
    const buf = await zip.generateAsync({ type: 'nodebuffer' });
    await expect(checkZipArchive(buf, { ...DEFAULT_ZIP_LIMITS, maxTotalBytes: 1000 })).rejects.toThrow(/too large/);
    await expect(checkZipArchive(buf, { ...DEFAULT_ZIP_LIMITS, maxEntries: 1 })).rejects.toThrow(/too many entries/);
    await expect(checkZipArchive(buf)).resolves.toBeDefined();
  });
});

// Excel workbooks (.xlsx, via exceljs). Multi-language.
//
// Each sheet is a translation table like CSV (translation-table.ts: `key`,
// optional `namespace` / `description`, one column per language).
//
// Import: every sheet is read. With SHEETS_AS_NAMESPACES the sheet name is
// the namespace of its rows (a namespace column is then ignored); otherwise
// the namespace column, else the import's namespace, else ''. Cell values:
// text and rich text as their text, numbers and booleans as written, dates as
// ISO 8601, formulas as their cached result (what Excel showed). No
// apostrophe is stripped: in .xlsx the "text" marker is a style, not part of
// the value.
//
// Before exceljs sees the bytes, the archive is checked: it must be a zip,
// with at most 10,000 entries, each entry and the total at most 200 MiB
// uncompressed, and no entry over 1 MiB with a compression ratio above 200:1
// (the sizes from the zip directory, then the real inflated sizes, which stop
// as soon as an entry outgrows what it declared: a zip bomb is refused
// without being inflated).
//
// Export: the columns of translation-table.ts (`key`, the languages,
// `description` with INCLUDE_DESCRIPTIONS, `namespace` when some key has a
// namespace). Without SHEETS_AS_NAMESPACES, one sheet "Translations". With
// the export option SHEETS_AS_NAMESPACES, one sheet per namespace, in
// namespace order, named after its namespace; a namespace that cannot name a
// sheet gets a name derived from it: the default namespace's sheet is
// "Translations", characters Excel refuses ([ ] : * ? / \) become `_`, names
// are cut to 31 characters, leading and trailing apostrophes dropped, and a
// name already taken (Excel ignores case) gets " (2)", " (3)"... Every sheet
// keeps the namespace column, so the workbook reads back exactly without the
// import option; read with SHEETS_AS_NAMESPACES, the sheet names are the
// namespaces (exact when every namespace names its own sheet). Both are
// decided from the file's namespaces before the first key
// (SerializeOptions.namespacesInFile); for sheets per namespace the keys come
// grouped by namespace (keyOrder). ESCAPE_NEW_LINES and ESCAPE_SINGLE_QUOTES
// as for CSV. Every cell is a text cell (an inline string with the text number
// format; inline, not shared, so memory does not grow with the texts):
// `=1+1` stays a string, never a formula. The workbook is streamed row by row
// (see writer below).
import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type * as ExcelJS from 'exceljs';
import type JSZip from 'jszip';
import { defineFormat } from './define.js';
import {
  FormatError,
  type Bundle,
  type FileFormat,
  type FormatWriter,
  type ParseOptions,
  type SerializeOptions,
} from './model.js';
import { addTable, TableColumns, type TableRow } from './translation-table.js';
import { lazyRequire } from '../lazy-module.js';

// exceljs is loaded when a workbook is first read or written (src/lazy-module.ts).
const excelJs = lazyRequire<typeof ExcelJS>('exceljs');

export interface ZipLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  /** Uncompressed/compressed ratio allowed for entries above ratioFloorBytes. */
  maxRatio: number;
  ratioFloorBytes: number;
}

const MiB = 1024 * 1024;
export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxEntryBytes: 200 * MiB,
  maxTotalBytes: 200 * MiB,
  maxRatio: 200,
  ratioFloorBytes: MiB,
};

interface JsZipEntryData {
  uncompressedSize?: number;
  compressedSize?: number;
}

/** Refuses anything that is not a zip of reasonable uncompressed size. */
export async function checkZipArchive(input: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<JSZip> {
  if (input.length >= 8 && input.readUInt32BE(0) === 0xd0cf11e0)
    throw new FormatError('This is an old binary .xls workbook: save it as .xlsx');
  if (input.length < 4 || input.readUInt32LE(0) !== 0x04034b50)
    throw new FormatError('Not an .xlsx file (an .xlsx file is a zip archive)');
  let zip: JSZip;
  try {
    // Loaded on first use, like exceljs: only Excel files need it.
    const { default: loader } = await import('jszip');
    zip = await loader.loadAsync(input, { checkCRC32: false });
  } catch (e) {
    throw new FormatError(`Corrupt .xlsx archive: ${(e as Error).message}`);
  }
  const files = Object.values(zip.files).filter((f) => !f.dir);
  if (files.length > limits.maxEntries)
    throw new FormatError(`The .xlsx archive has too many entries (${files.length})`);
  let total = 0;
  for (const f of files) {
    const data = (f as unknown as { _data?: JsZipEntryData })._data ?? {};
    const size = data.uncompressedSize ?? 0;
    const compressed = data.compressedSize ?? 0;
    total += size;
    if (size > limits.maxEntryBytes || total > limits.maxTotalBytes)
      throw new FormatError(`The .xlsx archive is too large once uncompressed (${f.name})`);
    if (size > limits.ratioFloorBytes && size > compressed * limits.maxRatio)
      throw new FormatError(`The .xlsx archive entry ${f.name} is compressed suspiciously well (zip bomb?)`);
  }
  // The directory's sizes are only claims: inflate each entry once, stopping as soon as it outgrows its claim.
  for (const f of files) {
    const declared = ((f as unknown as { _data?: JsZipEntryData })._data ?? {}).uncompressedSize ?? 0;
    await new Promise<void>((resolve, reject) => {
      let seen = 0;
      const stream = f.nodeStream('nodebuffer');
      stream
        .on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > declared) {
            stream.pause();
            reject(new FormatError(`The .xlsx archive entry ${f.name} inflates beyond its declared size (zip bomb?)`));
          }
        })
        .on('error', (e: Error) => reject(new FormatError(`Corrupt .xlsx archive entry ${f.name}: ${e.message}`)))
        .on('end', () => resolve());
    });
  }
  return zip;
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('formula' in value || 'sharedFormula' in value)
      return cellText((value as { result?: ExcelJS.CellValue }).result ?? null);
    if ('text' in value) return cellText((value as { text: ExcelJS.CellValue }).text);
    if ('error' in value) return '';
  }
  return String(value);
}

async function parse(input: Buffer, options: ParseOptions): Promise<Bundle> {
  const zip = await checkZipArchive(input);
  if (!zip.file('[Content_Types].xml') || !Object.keys(zip.files).some((n) => /(^|\/)workbook\.xml$/.test(n))) {
    throw new FormatError('Not an .xlsx workbook (the zip archive has no workbook part)');
  }
  const wb = new (excelJs().Workbook)();
  try {
    await wb.xlsx.load(input as unknown as ExcelJS.Buffer);
  } catch (e) {
    throw new FormatError(`Unreadable .xlsx workbook: ${(e as Error).message}`);
  }
  const bundle: Bundle = { keys: [], languages: [] };
  const seen = new Set<string>();
  const sheetsAsNamespaces = options.options.has('SHEETS_AS_NAMESPACES');
  for (const ws of wb.worksheets) {
    const rows: TableRow[] = [];
    ws.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      const cells: string[] = [];
      for (let c = 1; c <= row.cellCount; c++) cells.push(cellText(row.getCell(c).value));
      rows.push({ cells, line: rowNumber });
    });
    addTable(
      bundle,
      rows,
      options,
      {
        unguard: false,
        rows: true,
        label: `sheet "${ws.name}"`,
        ...(sheetsAsNamespaces ? { namespace: ws.name } : {}),
      },
      seen,
    );
  }
  return bundle;
}

const INVALID_SHEET_CHARACTERS = /[[\]:*?/\\]/g;
const DEFAULT_SHEET = 'Translations';
const MAX_SHEET_NAME = 31;

/** One sheet per namespace: with SHEETS_AS_NAMESPACES, when the file has keys. */
function sheetPerNamespace(options: SerializeOptions): boolean {
  return options.options.has('SHEETS_AS_NAMESPACES') && options.namespacesInFile.length > 0;
}

/** The sheet name of each namespace (see the header): the namespace itself when Excel allows it. */
export function sheetNames(namespaces: readonly string[]): Map<string, string> {
  const taken = new Set<string>();
  const names = new Map<string, string>();
  for (const namespace of namespaces) {
    let base =
      namespace === ''
        ? DEFAULT_SHEET
        : namespace
            .replace(INVALID_SHEET_CHARACTERS, '_')
            .slice(0, MAX_SHEET_NAME)
            .replace(/^'+|'+$/g, '');
    if (base === '') base = '_';
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++)
      name = `${base.slice(0, MAX_SHEET_NAME - ` (${n})`.length)} (${n})`;
    taken.add(name.toLowerCase());
    names.set(namespace, name);
  }
  return names;
}

/**
 * Streams the workbook: exceljs's streaming writer zips each committed row
 * into `out`, and every write() or end() returns the bytes that came out since
 * the last call. Rows are committed as they are written and a sheet when the
 * next one starts, so what is held is the zip's buffers, not the rows. Strings
 * are inline, not shared: a shared-strings table would hold every text until
 * the end.
 */
function writer(options: SerializeOptions): FormatWriter {
  const columns = new TableColumns(options);
  const perNamespace = sheetPerNamespace(options) ? sheetNames(options.namespacesInFile) : null;
  const out = new PassThrough();
  const zipped: Buffer[] = [];
  out.on('data', (chunk: Buffer) => zipped.push(chunk));
  const workbook = new (excelJs().stream.xlsx.WorkbookWriter)({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const started = new Set<string>();
  let sheet: { name: string; ws: ExcelJS.Worksheet } | undefined;

  const addRow = (ws: ExcelJS.Worksheet, values: string[]) => {
    const row = ws.addRow([]);
    values.forEach((v, i) => {
      const cell = row.getCell(i + 1);
      // An inline string: without shared strings exceljs writes a plain string
      // as t="str", which its reader decodes twice ("&amp;" would come back "&").
      cell.value = { richText: [{ text: v }] };
      cell.numFmt = '@';
    });
    row.commit();
  };
  const sheetNamed = (name: string): ExcelJS.Worksheet => {
    if (sheet?.name === name) return sheet.ws;
    // keyOrder groups the keys by namespace: a sheet, once left, is complete.
    if (started.has(name)) throw new Error(`Excel export: the keys of namespace "${name}" did not come grouped`);
    sheet?.ws.commit();
    started.add(name);
    sheet = { name, ws: workbook.addWorksheet(name) };
    addRow(sheet.ws, columns.header());
    return sheet.ws;
  };
  const take = (): Buffer => Buffer.concat(zipped.splice(0));

  return {
    async write(keys) {
      // The previous page is compressed while the engine reads this one: wait for it only now.
      if (sheet) await drained(sheet.ws);
      for (const k of keys) addRow(sheetNamed(perNamespace?.get(k.namespace) ?? DEFAULT_SHEET), columns.row(k));
      return take();
    },
    async end() {
      if (!sheet) sheetNamed(DEFAULT_SHEET);
      await workbook.commit();
      await finished(out);
      return take();
    },
  };
}

/** What drained() relies on: exceljs's sheet buffer and the zip entry that reads it (archiver's PassThrough). */
interface SheetStream {
  stream?: { pipes?: (Writable & { _writableState?: { needDrain?: boolean } })[] };
}

/**
 * exceljs writes a sheet's XML into a buffer its zip reads without
 * back-pressure, and zlib compresses off the main thread: wait until the zip
 * entry has taken in what the page wrote, so a page's XML leaves memory with
 * its page. (exceljs offers no public way to wait for this; without the
 * streams it looks for, nothing is awaited and the bytes come out later.)
 */
async function drained(ws: ExcelJS.Worksheet): Promise<void> {
  for (const reader of (ws as unknown as SheetStream).stream?.pipes ?? []) {
    // archiver's streams come from readable-stream 2, which lacks the public writableNeedDrain.
    while (reader.writableNeedDrain ?? reader._writableState?.needDrain) await once(reader, 'drain');
  }
}

export const excel: FileFormat = defineFormat({
  id: 'excel',
  multiLanguage: true,
  // The namespace column (or the sheet names).
  namespaces: true,
  extension: 'xlsx',
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  // One sheet per namespace needs the keys grouped by namespace.
  keyOrder: (options) => (sheetPerNamespace(options) ? 'namespace' : undefined),
  parse,
  writer,
});

// CSV (`csv-translations`) and TSV (`tsv`) translation tables. Multi-language.
//
// Columns and header spellings: see translation-table.ts (key column `key`,
// one column per language, optional `description` and `namespace`; export
// writes the vendor's order `key, <languages…>, description, namespace`).
//
// Formula injection: on export, a cell beginning with =, + , -, @, tab or CR
// (after any apostrophes) is written with one apostrophe in front, so a
// spreadsheet shows it as text instead of running it; on import exactly one
// leading apostrophe is removed from such a cell. `=SUM(A1)` is written
// `'=SUM(A1)` and reads back as `=SUM(A1)`; a text that itself begins with
// `'=` gets a second apostrophe, so every text survives the round trip.
//
// Import: UTF-8 (BOM accepted), RFC 4180 quoting (fields with quotes, commas,
// tabs or newlines in double quotes, "" for a quote); CRLF, LF and mixed line
// ends. Values may also be wrapped in single quotes, as the vendor documents:
// - a field wrapped whole in single quotes and not in double quotes
//   (`'Hello'`) is unwrapped, `''` inside it being one apostrophe;
// - a file that quotes nothing with double quotes and has a field that opens
//   a single quote without closing it in the same field (`'a, b'` seen as
//   `'a` and ` b'`) is read again with the single quote as csv-parse's quote
//   and escape character, strictly, so `'a, b'` is one value (`'It''s'` is
//   It's); if that reading fails (an apostrophe inside an unquoted value, a
//   closing quote not followed by a delimiter: `'tis`, `rock 'n' roll`), the
//   double-quote reading stands. The formula guard's apostrophe (`'=x`,
//   below) never counts as an opening quote.
// A file mixing both kinds of quoting fields with delimiters is read with
// double quotes. Export: UTF-8 without BOM, LF line ends, fields quoted with
// double quotes when needed and when they would read back as single-quoted
// (`'tis`, `'quoted'`; not the formula guard's `'=x`); streamed: the header
// row (its columns decided from the options, see TableColumns), then the rows
// of each page of keys.
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { defineFormat } from './define.js';
import { entryWriter } from './entry-writer.js';
import { FormatError, type Bundle, type FileFormat, type FormatWriter, type ParseOptions, type SerializeOptions } from './model.js';
import { decodeText } from './text.js';
import { addTable, guardCell, TableColumns, type TableRow } from './translation-table.js';

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

const GUARD = /^'+[=+\-@\t\r]/;
const SINGLE_WRAPPED = /^'([\s\S]*)'$/;

interface Reading {
  records: CsvRecord[];
  /** Fields in double quotes. */
  doubleQuoted: number;
  /** Unquoted fields that open a single quote and do not close it. */
  openSingle: number;
}

function read(text: string, delimiter: string, quote: '"' | "'"): Reading {
  const reading: Reading = { records: [], doubleQuoted: 0, openSingle: 0 };
  reading.records = parseCsv(text, {
    delimiter,
    quote,
    escape: quote,
    info: true,
    relax_column_count: true,
    // The single-quote reading is strict: an apostrophe inside an unquoted value, or a closing quote not followed by a delimiter, makes it fail.
    relax_quotes: quote === '"',
    record_delimiter: ['\r\n', '\n', '\r'],
    cast: (value: string, context: { quoting: boolean }) => {
      if (quote === "'") return value;
      if (context.quoting) { reading.doubleQuoted++; return value; }
      if (!value.startsWith("'") || GUARD.test(value)) return value;
      const wrapped = value.length >= 2 ? SINGLE_WRAPPED.exec(value) : null;
      if (wrapped) return wrapped[1]!.replace(/''/g, "'");
      reading.openSingle++;
      return value;
    },
  }) as unknown as CsvRecord[];
  return reading;
}

function tableFormat(id: string, delimiter: string, extension: string, contentType: string): FileFormat {
  return defineFormat({
    id,
    multiLanguage: true,
    // The namespace column.
    namespaces: true,
    extension,
    contentType,
    async parse(input: Buffer, options: ParseOptions): Promise<Bundle> {
      const text = decodeText(input);
      let records: CsvRecord[];
      try {
        const double = read(text, delimiter, '"');
        records = double.records;
        if (double.doubleQuoted === 0 && double.openSingle > 0) {
          try {
            records = read(text, delimiter, "'").records;
          } catch {
            // Not single-quoted after all: the double-quote reading stands.
          }
        }
      } catch (e) {
        const err = e as Error & { lines?: number; column?: number };
        throw new FormatError(`Invalid ${id === 'tsv' ? 'TSV' : 'CSV'}: ${err.message.replace(/ at line \d+.*$/, '')}`, err.lines ? { line: err.lines } : undefined);
      }
      // info.lines is the line a record ends on; it starts after the previous one.
      let previousEnd = 0;
      const rows: TableRow[] = records.map((r) => {
        const row = { cells: r.record, line: previousEnd + 1 };
        previousEnd = r.info.lines;
        return row;
      });
      const bundle: Bundle = { keys: [], languages: [] };
      addTable(bundle, rows, options, { unguard: true }, new Set());
      return bundle;
    },
    writer(options: SerializeOptions): FormatWriter {
      const columns = new TableColumns(options);
      // Records are independent, so the rows of each page stringify on their own.
      // A cell that would read back as single-quoted (wrapped in apostrophes, or opening one that is not the formula guard's) is quoted.
      const records = (rows: string[][]) => stringify(rows.map((r) => r.map(guardCell)), { delimiter, record_delimiter: '\n', quoted_match: [/\r/, /^'+(?![=+\-@\t\r'])/, /^'[\s\S]*'$/] });
      return entryWriter({
        header: () => records([columns.header()]),
        entries: (keys) => records(keys.map((k) => columns.row(k))),
      });
    },
  });
}

export const csvTranslations: FileFormat = tableFormat('csv-translations', ',', 'csv', 'text/csv; charset=utf-8');
export const tsv: FileFormat = tableFormat('tsv', '\t', 'tsv', 'text/tab-separated-values; charset=utf-8');

// CSV (`csv-translations`) and TSV (`tsv`) translation tables. Multi-language.
//
// Columns and header spellings: see translation-table.ts (key column `key`,
// optional `namespace` and `description`, one column per language).
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
// ends. Export: UTF-8 without BOM, LF line ends, fields quoted when needed.
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { FormatError, type Bundle, type FileFormat, type ParseOptions, type SerializeOptions } from './model.js';
import { decodeText } from './text.js';
import { addTable, hasNamespaces, tableRows, type TableRow } from './translation-table.js';
import { keysForFile } from './single-language.js';

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

function tableFormat(id: string, delimiter: string, extension: string, contentType: string): FileFormat {
  return {
    id,
    multiLanguage: true,
    extension,
    contentType,
    async parse(input: Buffer, options: ParseOptions): Promise<Bundle> {
      const text = decodeText(input);
      let records: CsvRecord[];
      try {
        records = parseCsv(text, {
          delimiter,
          info: true,
          relax_column_count: true,
          relax_quotes: true,
          record_delimiter: ['\r\n', '\n', '\r'],
        }) as unknown as CsvRecord[];
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
    async serialize(bundle: Bundle, options: SerializeOptions): Promise<Buffer> {
      const keys = keysForFile(bundle, options);
      const rows = tableRows(keys, options, { guard: true }, hasNamespaces(keys));
      return Buffer.from(stringify(rows, { delimiter, record_delimiter: '\n', quoted_match: /\r/ }), 'utf8');
    },
  };
}

export const csvTranslations: FileFormat = tableFormat('csv-translations', ',', 'csv', 'text/csv; charset=utf-8');
export const tsv: FileFormat = tableFormat('tsv', '\t', 'tsv', 'text/tab-separated-values; charset=utf-8');

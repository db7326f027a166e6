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
// ends. Export: UTF-8 without BOM, LF line ends, fields quoted when needed;
// streamed: the header row (its columns decided from the options, see
// TableColumns), then the rows of each page of keys.
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
    writer(options: SerializeOptions): FormatWriter {
      const columns = new TableColumns(options);
      // Records are independent, so the rows of each page stringify on their own.
      const records = (rows: string[][]) => stringify(rows.map((r) => r.map(guardCell)), { delimiter, record_delimiter: '\n', quoted_match: /\r/ });
      return entryWriter({
        header: () => records([columns.header()]),
        entries: (keys) => records(keys.map((k) => columns.row(k))),
      });
    },
  });
}

export const csvTranslations: FileFormat = tableFormat('csv-translations', ',', 'csv', 'text/csv; charset=utf-8');
export const tsv: FileFormat = tableFormat('tsv', '\t', 'tsv', 'text/tab-separated-values; charset=utf-8');

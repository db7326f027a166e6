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
// double quotes. Files are read as a stream (readTable below), by parse() and
// parseStream() alike, after first passes that settle the encoding, syntax
// errors and the quote character, so errors come as a whole-file reading
// gives them. Export: UTF-8 without BOM, LF line ends, fields quoted with
// double quotes when needed and when they would read back as single-quoted
// (`'tis`, `'quoted'`; not the formula guard's `'=x`); streamed: the header
// row (its columns decided from the options, see TableColumns), then the rows
// of each page of keys.
import { pipeline, Readable } from 'node:stream';
import { parse as csvParser } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { defineFormat } from './define.js';
import { entryWriter } from './entry-writer.js';
import {
  FormatError,
  type Bundle,
  type FileFormat,
  type FormatWriter,
  type OpenFile,
  type ParseOptions,
  type SerializeOptions,
} from './model.js';
import { decodeStream, readToEnd } from './text-stream.js';
import { guardCell, TableColumns, TableReader, type TableRow } from './translation-table.js';

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

const GUARD = /^'+[=+\-@\t\r]/;
const SINGLE_WRAPPED = /^'([\s\S]*)'$/;

/** How a reading found the fields quoted. */
interface Quoting {
  /** Fields in double quotes. */
  doubleQuoted: number;
  /** Unquoted fields that open a single quote and do not close it. */
  openSingle: number;
}

/**
 * The rows of a text read by csv-parse with `quote`, as they come; its syntax
 * errors as FormatErrors. With `quoting`, a double-quote reading looks at each
 * field (unwraps single-quoted ones, counts into `quoting`): only a file with
 * an apostrophe needs it, and it costs csv-parse an object per field.
 */
async function* csvRows(
  texts: AsyncIterable<string>,
  name: string,
  delimiter: string,
  quote: '"' | "'",
  quoting?: Quoting,
): AsyncGenerator<TableRow> {
  const parser = csvParser({
    delimiter,
    quote,
    escape: quote,
    info: true,
    relax_column_count: true,
    // The single-quote reading is strict: an apostrophe inside an unquoted value, or a closing quote not followed by a delimiter, makes it fail.
    relax_quotes: quote === '"',
    record_delimiter: ['\r\n', '\n', '\r'],
    ...(quote === '"' &&
      quoting && {
        cast: (value: string, context: { quoting: boolean }) => {
          if (context.quoting) {
            quoting.doubleQuoted++;
            return value;
          }
          if (!value.startsWith("'") || GUARD.test(value)) return value;
          const wrapped = value.length >= 2 ? SINGLE_WRAPPED.exec(value) : null;
          if (wrapped) return wrapped[1]!.replace(/''/g, "'");
          quoting.openSingle++;
          return value;
        },
      }),
  });
  // The reader below gets any error of the text or the parser.
  const records = pipeline(Readable.from(texts), parser, () => {}) as AsyncIterable<CsvRecord>;
  // info.lines is the line a record ends on; it starts after the previous one.
  let previousEnd = 0;
  try {
    for await (const r of records) {
      yield { cells: r.record, line: previousEnd + 1 };
      previousEnd = r.info.lines;
    }
  } catch (e) {
    if (e instanceof FormatError) throw e;
    const err = e as Error & { lines?: number };
    throw new FormatError(
      `Invalid ${name}: ${err.message.replace(/ at line \d+.*$/, '')}`,
      err.lines ? { line: err.lines } : undefined,
    );
  }
}

/**
 * A table in chunks of about `chunkCells` texts (a whole file: unbounded, one
 * chunk). First passes settle what holds for the whole file and give its
 * errors in the order a whole-file reading does: the bytes are decoded (an
 * invalid one is the first error; whether the file has an apostrophe is
 * noted), read with double quotes (a syntax error is the next), then, in a
 * file with an apostrophe, the quote character is chosen (quoteOf). The last
 * pass reads the rows with it and hands the keys over as they come; only the
 * table's own rules (a key given twice, a row without a key) can fail there,
 * where the row stands.
 */
async function* readTable(
  open: OpenFile,
  id: string,
  delimiter: string,
  options: ParseOptions,
  chunkCells: number,
): AsyncGenerator<Bundle> {
  const name = id === 'tsv' ? 'TSV' : 'CSV';
  const bytes = { apostrophe: false };
  await readToEnd(decodeStream(noting(open(), bytes)));
  await readToEnd(csvRows(decodeStream(open()), name, delimiter, '"'));
  // Without an apostrophe no field is single-quoted: the reading that does not look at each field gives the same rows.
  const quote = bytes.apostrophe ? await quoteOf(open, name, delimiter) : '"';
  const quoting = bytes.apostrophe && quote === '"' ? { doubleQuoted: 0, openSingle: 0 } : undefined;
  const table = new TableReader({ keys: [], languages: [] }, options, { unguard: true }, new Set());
  for await (const row of csvRows(decodeStream(open()), name, delimiter, quote, quoting)) {
    table.add(row);
    if (table.cells >= chunkCells) yield table.take();
  }
  yield table.take();
}

/**
 * The quote character of a file with an apostrophe (see the header): double
 * quotes as soon as the double-quote reading meets a double-quoted field;
 * else, when it opened a single quote it did not close, single quotes if the
 * whole file reads with them.
 */
async function quoteOf(open: OpenFile, name: string, delimiter: string): Promise<'"' | "'"> {
  const double: Quoting = { doubleQuoted: 0, openSingle: 0 };
  for await (const row of csvRows(decodeStream(open()), name, delimiter, '"', double)) {
    void row;
    if (double.doubleQuoted > 0) return '"';
  }
  if (double.openSingle === 0) return '"';
  try {
    await readToEnd(csvRows(decodeStream(open()), name, delimiter, "'"));
    return "'";
  } catch {
    // Not single-quoted after all: the double-quote reading stands.
    return '"';
  }
}

/** The bytes as they are, noting whether an apostrophe is among them. */
async function* noting(input: AsyncIterable<Buffer>, seen: { apostrophe: boolean }): AsyncGenerator<Buffer> {
  for await (const piece of input) {
    if (!seen.apostrophe && piece.includes(0x27)) seen.apostrophe = true;
    yield piece;
  }
}

function tableFormat(id: string, delimiter: string, extension: string, contentType: string): FileFormat {
  return defineFormat({
    id,
    multiLanguage: true,
    // The namespace column.
    namespaces: true,
    extension,
    contentType,
    parseStream: (open, options, chunkCells) => readTable(open, id, delimiter, options, chunkCells),
    writer(options: SerializeOptions): FormatWriter {
      const columns = new TableColumns(options);
      // Records are independent, so the rows of each page stringify on their own.
      // A cell that would read back as single-quoted (wrapped in apostrophes, or opening one that is not the formula guard's) is quoted.
      const records = (rows: string[][]) =>
        stringify(
          rows.map((r) => r.map(guardCell)),
          { delimiter, record_delimiter: '\n', quoted_match: [/\r/, /^'+(?![=+\-@\t\r'])/, /^'[\s\S]*'$/] },
        );
      return entryWriter({
        header: () => records([columns.header()]),
        entries: (keys) => records(keys.map((k) => columns.row(k))),
      });
    },
  });
}

export const csvTranslations: FileFormat = tableFormat('csv-translations', ',', 'csv', 'text/csv; charset=utf-8');
export const tsv: FileFormat = tableFormat('tsv', '\t', 'tsv', 'text/tab-separated-values; charset=utf-8');

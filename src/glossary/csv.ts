// Glossaries as CSV (docs/glossary.md): a header row, then one term a row.
// Columns: term (required), description, partOfSpeech, forbidden,
// doNotTranslate, caseSensitive, abbreviation (flags: yes/no, true/false,
// 1/0, empty = no), and every other column a language key holding the term's
// translation. Cells are guarded against spreadsheet formulas on export and
// unguarded on import, as the translation CSV does (src/formats/translation-table.ts).
// Read as a stream, a row at a time (readGlossaryCsv).
import { pipeline, Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { FormatError, type OpenFile } from '../formats/model.js';
import { decodeStream, inMemory } from '../formats/text-stream.js';
import { ParseClock } from '../formats/parse-clock.js';
import { guardCell, unguardCell } from '../formats/translation-table.js';
import type { ExportTerm } from './tbx.js';
import type { TermInput } from './terms.js';

const FIELDS = [
  'term',
  'description',
  'partOfSpeech',
  'forbidden',
  'doNotTranslate',
  'caseSensitive',
  'abbreviation',
] as const;
const FLAGS = new Set(['forbidden', 'doNotTranslate', 'caseSensitive', 'abbreviation']);

function flag(value: string, at: string): boolean {
  const v = value.trim().toLowerCase();
  if (['', 'no', 'false', '0', 'n'].includes(v)) return false;
  if (['yes', 'true', '1', 'y', 'x'].includes(v)) return true;
  throw new FormatError(`${at}: "${value.slice(0, 20)}" is not yes or no`);
}

export interface CsvLimits {
  maxTerms: number;
  /** The time budget for reading the file (ParseClock: the batches' writing not counted). */
  maxSeconds?: number;
  /** Terms handed over at a time (the last batch may be smaller). */
  batch?: number;
}

/** The first line of a text stream (up to MAX_RECORD characters), and the text read so far. */
async function firstLine(texts: AsyncIterator<string>): Promise<{ line: string; read: string; done: boolean }> {
  let read = '';
  for (;;) {
    const next = await texts.next();
    if (next.done) return { line: read.split('\n', 1)[0]!, read, done: true };
    read += next.value;
    const end = read.indexOf('\n');
    if (end >= 0 || read.length > MAX_RECORD)
      return { line: read.slice(0, end >= 0 ? end : MAX_RECORD), read, done: false };
  }
}

const MAX_RECORD = 64 * 1024;

/**
 * Reads a CSV glossary as a stream, a row at a time, handing its terms to
 * `onBatch` a batch at a time. Faults are FormatErrors (a cell's own rules
 * are checked by the caller, src/glossary/terms.ts checkTerm).
 */
export async function readGlossaryCsv(
  open: OpenFile,
  limits: CsvLimits,
  onBatch: (terms: TermInput[]) => Promise<void>,
): Promise<{ terms: number }> {
  const clock = new ParseClock(limits.maxSeconds ?? 120);
  const size = limits.batch ?? 2_000;
  const decoded = decodeStream(open())[Symbol.asyncIterator]();
  // Spreadsheets of some locales write semicolons: the header row says which.
  const head = await firstLine(decoded);
  const delimiter = (head.line.match(/;/g)?.length ?? 0) > (head.line.match(/,/g)?.length ?? 0) ? ';' : ',';
  async function* texts(): AsyncGenerator<string> {
    yield head.read;
    if (head.done) return;
    for (let next = await decoded.next(); !next.done; next = await decoded.next()) yield next.value;
  }
  const parser = parse({
    delimiter,
    relax_column_count: true,
    skip_empty_lines: true,
    bom: true,
    max_record_size: MAX_RECORD,
  });
  const rows = pipeline(Readable.from(texts()), parser, () => {}) as AsyncIterable<string[]>;
  let columns: string[] | undefined;
  const known = new Map(FIELDS.map((f) => [f.toLowerCase(), f]));
  const batch: TermInput[] = [];
  let count = 0;
  try {
    for await (const row of rows) {
      clock.check();
      if (!columns) {
        columns = headerColumns(row);
        continue;
      }
      count++;
      if (count > limits.maxTerms) throw new FormatError(`The file has more than ${limits.maxTerms} terms`);
      batch.push(rowTerm(row, columns, known, `line ${count + 1}`));
      while (batch.length >= size) {
        const full = batch.splice(0, size);
        await clock.paused(() => onBatch(full));
      }
    }
  } catch (error) {
    if (error instanceof FormatError) throw error;
    throw new FormatError(`Malformed CSV: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!columns) throw new FormatError('The CSV file is empty');
  if (batch.length) await clock.paused(() => onBatch(batch));
  return { terms: count };
}

function headerColumns(header: string[]): string[] {
  const columns = header.map((h) => h.trim());
  const termColumn = columns.findIndex((c) => c.toLowerCase() === 'term');
  if (termColumn < 0)
    throw new FormatError(
      `The CSV header has no "term" column (it has ${columns
        .slice(0, 5)
        .map((c) => `"${c.slice(0, 30)}"`)
        .join(', ')})`,
    );
  const seen = new Set<string>();
  for (const c of columns) {
    if (!c) throw new FormatError('The CSV header has an empty column name');
    if (seen.has(c.toLowerCase())) throw new FormatError(`The CSV header names "${c}" twice`);
    seen.add(c.toLowerCase());
  }
  return columns;
}

function rowTerm(row: string[], columns: string[], known: Map<string, string>, at: string): TermInput {
  const term: Record<string, unknown> & { translations: { language: string; text: string }[] } = {
    term: '',
    translations: [],
  };
  columns.forEach((column, c) => {
    const cell = unguardCell(row[c] ?? '');
    const field = known.get(column.toLowerCase());
    if (field && FLAGS.has(field)) term[field] = flag(cell, `${at}, ${column}`);
    else if (field) term[field] = cell;
    else if (cell.trim()) term.translations.push({ language: column, text: cell });
  });
  return term as unknown as TermInput;
}

/** A whole CSV glossary in memory read into its terms (readGlossaryCsv, collected: for small files and tests). */
export async function parseGlossaryCsv(input: Buffer, limits: CsvLimits): Promise<{ terms: TermInput[] }> {
  const terms: TermInput[] = [];
  await readGlossaryCsv(inMemory(input), limits, async (batch) => {
    terms.push(...batch);
  });
  return { terms };
}

export function csvHeader(languages: string[]): string {
  return stringify([[...FIELDS, ...languages]]);
}

export function csvRows(terms: ExportTerm[], languages: string[]): string {
  return stringify(
    terms.map((t) => {
      const byLanguage = new Map(t.translations.map((tr) => [tr.language, tr.text]));
      return [t.term, t.description, t.partOfSpeech, t.forbidden, t.doNotTranslate, t.caseSensitive, t.abbreviation]
        .map((v) => (typeof v === 'boolean' ? (v ? 'yes' : '') : guardCell(v)))
        .concat(languages.map((l) => guardCell(byLanguage.get(l) ?? '')));
    }),
  );
}

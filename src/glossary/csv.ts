// Glossaries as CSV (docs/glossary.md): a header row, then one term a row.
// Columns: term (required), description, partOfSpeech, forbidden,
// doNotTranslate, caseSensitive, abbreviation (flags: yes/no, true/false,
// 1/0, empty = no), and every other column a language key holding the term's
// translation. Cells are guarded against spreadsheet formulas on export and
// unguarded on import, as the translation CSV does (src/formats/translation-table.ts).
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { FormatError } from '../formats/model.js';
import { decodeText } from '../formats/text.js';
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

export function parseGlossaryCsv(input: Buffer, limits: { maxTerms: number }): { terms: TermInput[] } {
  const text = decodeText(input);
  let rows: string[][];
  try {
    // Spreadsheets of some locales write semicolons: the header row says which.
    const first = text.split('\n', 1)[0]!;
    const delimiter = (first.match(/;/g)?.length ?? 0) > (first.match(/,/g)?.length ?? 0) ? ';' : ',';
    rows = parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
      max_record_size: 64 * 1024,
    });
  } catch (error) {
    throw new FormatError(`Malformed CSV: ${error instanceof Error ? error.message : String(error)}`);
  }
  const [header, ...body] = rows;
  if (!header) throw new FormatError('The CSV file is empty');
  const columns = header.map((h) => h.trim());
  const known = new Map(FIELDS.map((f) => [f.toLowerCase(), f]));
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
  if (body.length > limits.maxTerms) throw new FormatError(`The file has more than ${limits.maxTerms} terms`);
  const terms = body.map((row, i): TermInput => {
    const at = `line ${i + 2}`;
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

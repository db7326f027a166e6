// Translation tables shared by CSV, TSV and Excel: a header row with a key
// column, one column per language (the header is the language key), and
// optional description and namespace columns; the vendor's documented order
// is `key, <languages…>, description, namespace`, which the export writes.
// Import finds the columns by their header, in any order.
//
// Header spellings, any case: key column `key`, `keys`, `id` (or an empty
// first header cell, as in Godot's CSV files); `namespace`; `description`,
// `comment`, `comments`, `note`, `notes`. Every other non-empty header is a
// language. A file without such a header but with two columns, imported with
// a languageKey, is read as `source,translation` rows (Magento 2 i18n CSV).
// Empty cells are missing translations, not empty ones. Cells beyond the
// header's columns are ignored.
//
// Formula injection (CSV/TSV only; Excel cells are typed as text instead): on
// export a cell that begins with =, +, -, @, tab or CR — after any number of
// apostrophes — gets one apostrophe in front, so spreadsheet programs show it
// as text; on import exactly one leading apostrophe is removed from a cell
// that matches the same pattern. The two are inverse, so any text (including
// one that really begins with "'=") survives export -> import unchanged.
import { FormatError, type Bundle, type BundleKey, type ParseOptions, type SerializeOptions } from './model.js';

export interface TableRow {
  cells: string[];
  /** For error messages: line (CSV) or row number (Excel). */
  line: number;
}

export interface TableParseContext {
  /** Excel with SHEETS_AS_NAMESPACES: the sheet name is every row's namespace. */
  namespace?: string;
  /** Remove the formula-injection apostrophe (CSV/TSV). */
  unguard: boolean;
  /** Where the table is, for messages (e.g. `sheet "Main"`). */
  label?: string;
  /** Excel: positions are spreadsheet rows, not text lines. */
  rows?: boolean;
}

const GUARDED = /^'*[=+\-@\t\r]/;
const GUARD_ADDED = /^'+[=+\-@\t\r]/;

export function guardCell(text: string): string {
  return GUARDED.test(text) ? `'${text}` : text;
}

export function unguardCell(text: string): string {
  return GUARD_ADDED.test(text) ? text.slice(1) : text;
}

type Column =
  | { kind: 'key' }
  | { kind: 'namespace' }
  | { kind: 'description' }
  | { kind: 'language'; language: string }
  | { kind: 'ignored' };

function classify(header: string, index: number): Column {
  const h = header.trim();
  const lower = h.toLowerCase();
  if (lower === 'key' || lower === 'keys' || lower === 'id' || (h === '' && index === 0)) return { kind: 'key' };
  if (lower === 'namespace') return { kind: 'namespace' };
  if (['description', 'comment', 'comments', 'note', 'notes'].includes(lower)) return { kind: 'description' };
  if (h === '') return { kind: 'ignored' };
  return { kind: 'language', language: h };
}

/**
 * Adds the keys of one table to `into` (several Excel sheets share one bundle).
 * Keys are identified by namespace and key; a second row for the same key is an error.
 */
export function addTable(
  into: Bundle,
  rows: TableRow[],
  options: ParseOptions,
  ctx: TableParseContext,
  seen: Set<string>,
): void {
  const table = new TableReader(into, options, ctx, seen);
  for (const row of rows) table.add(row);
}

/**
 * Reads a table row by row, as addTable does, for a file read as a stream:
 * blank rows are skipped, the first other row is the header, each following
 * one a key added to the current bundle; take() hands that bundle over and
 * starts an empty one. Across the table it keeps the columns and `seen`.
 */
export class TableReader {
  /** Texts added since the last take(). */
  cells = 0;
  private columns: Column[] | undefined;
  private keyColumn = -1;

  constructor(
    private into: Bundle,
    private readonly options: ParseOptions,
    private readonly ctx: TableParseContext,
    private readonly seen: Set<string>,
  ) {}

  add(row: TableRow): void {
    if (!row.cells.some((c) => c !== '')) return;
    if (!this.columns) this.header(row);
    else this.key(row);
  }

  /** The keys and languages added since the last call. */
  take(): Bundle {
    const bundle = this.into;
    this.into = { keys: [], languages: [] };
    this.cells = 0;
    return bundle;
  }

  private cell(row: TableRow, i: number): string {
    const v = row.cells[i] ?? '';
    return this.ctx.unguard ? unguardCell(v) : v;
  }

  private fail(message: string, line: number, column?: number): never {
    const at = this.ctx.label ? `${this.ctx.label}: ` : '';
    if (!this.ctx.rows) throw new FormatError(`${at}${message}`, { line, ...(column !== undefined ? { column } : {}) });
    throw new FormatError(`${at}${message} (row ${line}${column !== undefined ? `, column ${column}` : ''})`);
  }

  private header(header: TableRow): void {
    const classified = header.cells.map((h, i) => classify(this.ctx.unguard ? unguardCell(h) : h, i));
    let columns: Column[];
    if (classified.some((c) => c.kind === 'key')) {
      columns = classified;
    } else if (
      this.options.languageKey &&
      header.cells.filter((c) => c !== '').length <= 2 &&
      header.cells.length <= 2
    ) {
      columns = [{ kind: 'key' }, { kind: 'language', language: this.options.languageKey }];
    } else {
      return this.fail(
        'No key column in the header row: name a column "key" (and the others after their languages)',
        header.line,
      );
    }
    const keyColumn = columns.findIndex((c) => c.kind === 'key');
    const seenLanguages = new Set<string>();
    columns.forEach((c, i) => {
      if (c.kind === 'key' && i !== keyColumn) this.fail('Two key columns in the header row', header.line, i + 1);
      if (c.kind !== 'language') return;
      if (seenLanguages.has(c.language)) this.fail(`Language "${c.language}" has two columns`, header.line, i + 1);
      seenLanguages.add(c.language);
      if (!this.into.languages.some((l) => l.key === c.language)) this.into.languages.push({ key: c.language });
    });
    this.columns = columns;
    this.keyColumn = keyColumn;
    // A headerless source,translation file: its first row is a key.
    if (columns !== classified) this.key(header);
  }

  private key(row: TableRow): void {
    const key = this.cell(row, this.keyColumn);
    if (key === '') this.fail('A row without a key', row.line);
    let namespace = this.ctx.namespace;
    let description: string | undefined;
    const translations: BundleKey['translations'] = {};
    this.columns!.forEach((c, i) => {
      const v = this.cell(row, i);
      if (c.kind === 'namespace' && this.ctx.namespace === undefined && v !== '') namespace = v;
      else if (c.kind === 'description' && v !== '') description = v;
      else if (c.kind === 'language' && v !== '') {
        translations[c.language] = { text: v };
        this.cells++;
      }
    });
    namespace ??= this.options.namespace ?? '';
    const id = `${namespace}\u0000${key}`;
    if (this.seen.has(id))
      this.fail(`Key "${key}"${namespace ? ` in namespace "${namespace}"` : ''} appears twice`, row.line);
    this.seen.add(id);
    this.into.keys.push({ key, namespace, translations, ...(description !== undefined ? { description } : {}) });
  }
}

/**
 * The columns of an exported table, decided from the options before the first
 * key, in the vendor's order: key, the languages, description (with
 * INCLUDE_DESCRIPTIONS), namespace (when a key of the file has a namespace,
 * known from namespacesInFile). A missing translation is an empty cell.
 * ESCAPE_NEW_LINES writes line breaks as \n and ESCAPE_SINGLE_QUOTES every '
 * as \' (the inverses of the import options UNESCAPE_NEW_LINES and
 * UNESCAPE_SINGLE_QUOTES), in the language cells.
 */
export class TableColumns {
  private readonly languages: string[];
  private readonly namespaceColumn: boolean;
  private readonly descriptionColumn: boolean;
  private readonly escapeNewLines: boolean;
  private readonly escapeSingleQuotes: boolean;

  constructor(options: SerializeOptions) {
    this.languages = options.languages.map((l) => l.key);
    this.namespaceColumn = options.namespacesInFile.some((n) => n !== '');
    this.descriptionColumn = options.options.has('INCLUDE_DESCRIPTIONS');
    this.escapeNewLines = options.options.has('ESCAPE_NEW_LINES');
    this.escapeSingleQuotes = options.options.has('ESCAPE_SINGLE_QUOTES');
  }

  header(): string[] {
    return ['key', ...this.languages, ...this.optional('description', 'namespace')];
  }

  row(k: BundleKey): string[] {
    const texts = this.languages.map((l) => {
      let t = k.translations[l]?.text ?? '';
      if (this.escapeNewLines) t = t.replace(/\r?\n/g, '\\n');
      if (this.escapeSingleQuotes) t = t.replace(/'/g, "\\'");
      return t;
    });
    return [k.key, ...texts, ...this.optional(k.description ?? '', k.namespace)];
  }

  private optional(description: string, namespace: string): string[] {
    return [...(this.descriptionColumn ? [description] : []), ...(this.namespaceColumn ? [namespace] : [])];
  }
}

// The in-memory model every file format parses into and serializes from.
// Plural texts are ICU MessageFormat plural messages (see ./plural.ts), so a
// plural imported from Android can be exported to gettext or Qt unchanged.

export type ReviewStatus = 'REVIEWED' | 'NOT_REVIEWED';

export interface BundleTranslation {
  /** Text, or an ICU plural message `{count, plural, one {...} other {...}}`. */
  text: string;
  reviewStatus?: ReviewStatus;
}

export interface BundleKey {
  key: string;
  /** '' is the default namespace. */
  namespace: string;
  description?: string;
  codeDescription?: string;
  tags?: string[];
  charactersLimit?: number | null;
  lock?: boolean;
  deprecated?: boolean;
  /** Language key -> translation. */
  translations: Record<string, BundleTranslation>;
  /** Customer key -> language key -> override (project-backup-json only). */
  customerTranslations?: Record<string, Record<string, BundleTranslation>>;
  /**
   * In an export's file of some of the languages read: whether the key has a
   * plural text in a language left out of the file. A single-language format
   * with plural entries keeps an untranslated message's plural shape with it
   * (isPluralKey, src/formats/plural.ts).
   */
  pluralElsewhere?: boolean;
}

export interface BundleLanguage {
  key: string;
  name?: string;
  isDefault?: boolean;
}

export interface Bundle {
  keys: BundleKey[];
  /** Languages found in the file, in file order. */
  languages: BundleLanguage[];
  /** Customers found (project-backup-json only). */
  customers?: { key: string; description?: string }[];
}

export type ImportOption =
  | 'TRIM_LEADING_TRAILING_SPACES'
  | 'UNESCAPE_NEW_LINES'
  | 'UNESCAPE_SINGLE_QUOTES'
  | 'SHEETS_AS_NAMESPACES'
  | 'MULTI_LANGUAGE'
  | 'LANGUAGES_NESTED';

export interface ParseOptions {
  /** Language of a single-language file (required by the import endpoint for those). */
  languageKey?: string;
  /** Namespace given with the import request; a format's own namespaces win. */
  namespace?: string;
  options: Set<ImportOption>;
}

export type ExportOption =
  | 'WRITE_NESTED'
  | 'INCLUDE_DESCRIPTIONS'
  | 'ESCAPE_NEW_LINES'
  | 'MULTI_LANGUAGE'
  | 'LANGUAGES_NESTED'
  | 'ESCAPE_SINGLE_QUOTES'
  | 'SHEETS_AS_NAMESPACES';

export interface SerializeOptions {
  /** Languages to write, in order. Single-language formats get exactly one. */
  languages: BundleLanguage[];
  options: Set<ExportOption>;
  /** Set when the export is split by namespace: the file holds this namespace only. */
  namespace?: string;
  /**
   * The distinct namespaces of the file's keys, in code-point order ('' first
   * when present), known before the first key so a writer can choose its
   * header (a namespace column, one sheet per namespace).
   */
  namespacesInFile: readonly string[];
  /**
   * The customers to declare (project-backup-json): the export passes the
   * project's, serialize the bundle's; undefined: only those the keys use.
   */
  customers?: readonly { key: string; description?: string }[];
  /** When the exported content last changed (PO's PO-Revision-Date); absent: now. */
  revisedAt?: Date;
}

/** An uploaded file's bytes from its start, read anew at each call (FileFormat.parseStream). */
export type OpenFile = () => AsyncIterable<Buffer>;

/** What a writer returns, to append to the file: text (written as UTF-8) or bytes. */
export type FileChunk = string | Buffer;

/**
 * Writes one file incrementally. The export engine hands it the file's keys
 * page by page and appends every returned chunk to the file, so memory follows
 * the page, not the file. `write` is called zero or more times (a page may be
 * empty), then `end` once. The keys it gets are exactly the file's keys: of
 * the file's namespace when split, one key per name when the format has no
 * namespaces and the export is not split, and in the order of the format's `keyOrder` when it has one.
 */
export interface FormatWriter {
  write(keys: readonly BundleKey[]): WriterOutput | Promise<WriterOutput>;
  end(): WriterOutput | Promise<WriterOutput>;
}

/**
 * A chunk, or one chunk per section of a file whose parts each go over all
 * the keys (YAML with one tree per language): the file is section 0, then
 * section 1, and so on; the engine keeps each section apart until the end.
 * A plain chunk belongs to section 0.
 */
export type WriterOutput = FileChunk | { sections: FileChunk[] };

export interface FileFormat {
  /** The identifier of the contract (uploadFormat / downloadFormat). */
  id: string;
  /** True when one file carries several languages. */
  multiLanguage: boolean;
  /**
   * True when a file carries namespaces (PO msgctxt, Qt context, a CSV column, ...).
   * Otherwise a file holds one value per key name: when keys of several
   * namespaces share a name, the key of the namespace first in code-point
   * order ('' first) is written, and the others only in a split export.
   */
  namespaces: boolean;
  /** File extension for exported files, without dot. */
  extension: string;
  contentType: string;
  /**
   * The order the writer needs the keys in, when it is not the export's sort:
   * 'path' (nested writers: pathSortKey of nested-keys.ts, which ignores the
   * namespace) or 'namespace' (grouped by namespace in code-point order, the
   * export's sort within each).
   */
  keyOrder?(options: SerializeOptions): 'path' | 'namespace' | undefined;
  parse(input: Buffer, options: ParseOptions): Promise<Bundle>;
  /**
   * The same reader as parse, over the file as it streams in, in chunks of
   * about `chunkCells` texts, so an import holds a chunk, not the file (the
   * JSON formats, java-properties, CSV, TSV and PO have one). `open` reads the
   * file from its start at each call: a format may read it first to decide
   * what holds for the whole file (java-properties: its encoding, the keys
   * given twice; CSV: its quote character; PO: its header entry). A chunk
   * holds the keys that got a text, or were first met, since the previous
   * chunk (a key may come back in a later chunk with other languages, never
   * with a text it already had) and the languages first met, in file order. The importer validates each chunk,
   * defaults its namespace and applies the text options, as for a whole
   * bundle. The last chunk may be empty.
   */
  parseStream?(open: OpenFile, options: ParseOptions, chunkCells: number): AsyncIterable<Bundle>;
  /** Starts writing one file. */
  writer(options: SerializeOptions): FormatWriter;
  /** The whole file of a bundle, through the writer (see defineFormat in define.ts). */
  serialize(bundle: Bundle, options: Omit<SerializeOptions, 'namespacesInFile'>): Promise<Buffer>;
}

/** A file the parser cannot accept. `position` says where, for the error message. */
export class FormatError extends Error {
  constructor(
    message: string,
    public readonly position?: { line?: number; column?: number; offset?: number },
  ) {
    super(
      position?.line != null
        ? `${message} (line ${position.line}${position.column != null ? `, column ${position.column}` : ''})`
        : message,
    );
    this.name = 'FormatError';
  }
}

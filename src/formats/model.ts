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
  /** Customer key -> language key -> override (simplelocalize-json only). */
  customerTranslations?: Record<string, Record<string, BundleTranslation>>;
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
  /** Customers found (simplelocalize-json only). */
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
  | 'ESCAPE_NEW_LINES';

export interface SerializeOptions {
  /** Languages to write, in order. Single-language formats get exactly one. */
  languages: BundleLanguage[];
  options: Set<ExportOption>;
  /** Set when the export is split by namespace: the file holds this namespace only. */
  namespace?: string;
}

export interface FileFormat {
  /** The identifier of the contract (uploadFormat / downloadFormat). */
  id: string;
  /** True when one file carries several languages. */
  multiLanguage: boolean;
  /** File extension for exported files, without dot. */
  extension: string;
  contentType: string;
  parse(input: Buffer, options: ParseOptions): Promise<Bundle>;
  serialize(bundle: Bundle, options: SerializeOptions): Promise<Buffer>;
}

/** A file the parser cannot accept. `position` says where, for the error message. */
export class FormatError extends Error {
  constructor(
    message: string,
    public readonly position?: { line?: number; column?: number; offset?: number },
  ) {
    super(position?.line != null ? `${message} (line ${position.line}${position.column != null ? `, column ${position.column}` : ''})` : message);
    this.name = 'FormatError';
  }
}

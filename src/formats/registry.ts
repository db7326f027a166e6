// The file formats of the import and export endpoints, by the identifier the
// contract uses (uploadFormat / downloadFormat), with what the transfer engine
// needs to know beyond the FileFormat interface.
import { android, androidStrings, androidXml } from './android.js';
import { arb } from './arb.js';
import { browserExtensionJson } from './browser-extension.js';
import { csvTranslations, tsv } from './csv.js';
import { excel } from './excel.js';
import { javaProperties } from './java-properties.js';
import { javascript, moduleExports } from './javascript.js';
import { multiLanguageJson, singleLanguageJson } from './json.js';
import { localizableStrings } from './localizable-strings.js';
import type { FileFormat } from './model.js';
import type { ContentKind } from './sniff.js';
import { phpArray } from './php-array.js';
import { poPot } from './po.js';
import { qtLinguist } from './qt-linguist.js';
import { resx, stringResources } from './resx.js';
import { localizableStringsDict } from './stringsdict.js';
import { projectBackupJson } from './project-backup-json.js';
import { simplelocalizeJson } from './simplelocalize-json.js';
import { localizableXcstrings } from './xcstrings.js';
import { xliff12, xliff12Export, xliff20, xliff20Export } from './xliff.js';
import { yaml } from './yaml.js';

export interface RegisteredFormat {
  format: FileFormat;
  /** The kinds of content the format reads; a file plainly of another kind is refused (sniff.ts). */
  reads: readonly ContentKind[];
  /** The format's name for people (GraphQL FileFormat.name, docs). */
  name: string;
  /**
   * A single-language file that may name its own language (PO `Language`
   * header, Qt `<TS language>`, ARB `@@locale`): languageKey is optional on import.
   */
  languageInFile?: boolean;
  /**
   * A source and a target language per file (XLIFF): an export writes one
   * file per target language, the project's default language as the source.
   */
  bilingual?: boolean;
  /** The file carries customers' overrides beside the base texts (project-backup-json). */
  customerTranslations?: boolean;
  /**
   * A single-language format with multi-language layouts, chosen by the
   * options MULTI_LANGUAGE / LANGUAGES_NESTED on import and export alike.
   */
  multiLanguageLayouts?: boolean;
  /**
   * A single-language format with plural entries (PO msgid_plural, Qt
   * numerus): an untranslated message keeps the plural shape its key has in
   * another language. An export reads the project's default language for it
   * too, and tells each file (BundleKey.pluralElsewhere).
   */
  pluralShapeOfUntranslated?: boolean;
}

// What each format reads (sniff.ts): a file plainly of another kind is refused before it is parsed.
const XML: ContentKind[] = ['xml'];
const JSON_TEXT: ContentKind[] = ['json'];
const CSV: ContentKind[] = ['csv'];
const TSV: ContentKind[] = ['tsv'];
const ZIP: ContentKind[] = ['zip'];
const PROPERTIES: ContentKind[] = ['properties'];
const STRINGS: ContentKind[] = ['strings'];
const PO: ContentKind[] = ['po'];
const PHP: ContentKind[] = ['php'];
const JAVASCRIPT: ContentKind[] = ['javascript'];
const STRING_CATALOG: ContentKind[] = ['string-catalog', 'json'];
const PROJECT_BACKUP: ContentKind[] = ['project-backup', 'json'];
const ARB: ContentKind[] = ['arb', 'json'];
// YAML 1.2 is a superset of JSON: a JSON file is a YAML file.
const YAML: ContentKind[] = ['yaml', 'json'];

const FORMATS: RegisteredFormat[] = [
  { format: android, reads: XML, name: 'Android strings.xml' },
  { format: androidStrings, reads: XML, name: 'Android string resources' },
  { format: androidXml, reads: XML, name: 'Android XML' },
  { format: csvTranslations, reads: CSV, name: 'CSV translations' },
  { format: tsv, reads: TSV, name: 'TSV translations' },
  { format: excel, reads: ZIP, name: 'Excel workbook (.xlsx)' },
  { format: javaProperties, reads: PROPERTIES, name: 'Java properties' },
  { format: localizableXcstrings, reads: STRING_CATALOG, name: 'Apple String Catalog (.xcstrings)' },
  { format: localizableStrings, reads: STRINGS, name: 'Apple Localizable.strings' },
  { format: localizableStringsDict, reads: XML, name: 'Apple Localizable.stringsdict' },
  { format: poPot, reads: PO, name: 'gettext PO / POT', languageInFile: true, pluralShapeOfUntranslated: true },
  { format: phpArray, reads: PHP, name: 'PHP array' },
  { format: stringResources, reads: XML, name: 'Windows string resources (.resw)' },
  { format: resx, reads: XML, name: '.NET RESX' },
  { format: simplelocalizeJson, reads: JSON_TEXT, name: 'SimpleLocalize JSON (FormatJS style)' },
  { format: projectBackupJson, reads: PROJECT_BACKUP, name: 'Project backup JSON', customerTranslations: true },
  { format: singleLanguageJson, reads: JSON_TEXT, name: 'Single-language JSON', multiLanguageLayouts: true },
  { format: multiLanguageJson, reads: JSON_TEXT, name: 'Multi-language JSON' },
  { format: javascript, reads: JAVASCRIPT, name: 'JavaScript (export default)' },
  { format: moduleExports, reads: JAVASCRIPT, name: 'JavaScript (module.exports)' },
  { format: yaml, reads: YAML, name: 'YAML', multiLanguageLayouts: true },
  { format: qtLinguist, reads: XML, name: 'Qt Linguist (.ts)', languageInFile: true, pluralShapeOfUntranslated: true },
  { format: xliff12, reads: XML, name: 'XLIFF 1.2', bilingual: true },
  { format: xliff20, reads: XML, name: 'XLIFF 2.0', bilingual: true },
  { format: xliff12Export, reads: XML, name: 'XLIFF 1.2', bilingual: true },
  { format: xliff20Export, reads: XML, name: 'XLIFF 2.0', bilingual: true },
  { format: arb, reads: ARB, name: 'Flutter ARB', languageInFile: true },
  { format: browserExtensionJson, reads: JSON_TEXT, name: 'Browser extension messages.json' },
];

const BY_ID = new Map(FORMATS.map((f) => [f.format.id, f]));

/** The registered format of an identifier, or undefined. */
export function registeredFormat(id: string): RegisteredFormat | undefined {
  return BY_ID.get(id);
}

/** Every identifier, in registration order. */
export function formatIds(): string[] {
  return FORMATS.map((f) => f.format.id);
}

/**
 * True when a file of the format holds several languages: a multi-language
 * format, or one read and written in a multi-language layout. Import (no
 * languageKey needed) and export (one file for all languages) ask this alike.
 */
export function holdsSeveralLanguages(format: RegisteredFormat, options: ReadonlySet<string>): boolean {
  if (format.format.multiLanguage) return true;
  return format.multiLanguageLayouts === true && (options.has('MULTI_LANGUAGE') || options.has('LANGUAGES_NESTED'));
}

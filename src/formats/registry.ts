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

const FORMATS: RegisteredFormat[] = [
  { format: android, name: 'Android strings.xml' },
  { format: androidStrings, name: 'Android string resources' },
  { format: androidXml, name: 'Android XML' },
  { format: csvTranslations, name: 'CSV translations' },
  { format: tsv, name: 'TSV translations' },
  { format: excel, name: 'Excel workbook (.xlsx)' },
  { format: javaProperties, name: 'Java properties' },
  { format: localizableXcstrings, name: 'Apple String Catalog (.xcstrings)' },
  { format: localizableStrings, name: 'Apple Localizable.strings' },
  { format: localizableStringsDict, name: 'Apple Localizable.stringsdict' },
  { format: poPot, name: 'gettext PO / POT', languageInFile: true, pluralShapeOfUntranslated: true },
  { format: phpArray, name: 'PHP array' },
  { format: stringResources, name: 'Windows string resources (.resw)' },
  { format: resx, name: '.NET RESX' },
  { format: simplelocalizeJson, name: 'SimpleLocalize JSON (FormatJS style)' },
  { format: projectBackupJson, name: 'Project backup JSON', customerTranslations: true },
  { format: singleLanguageJson, name: 'Single-language JSON', multiLanguageLayouts: true },
  { format: multiLanguageJson, name: 'Multi-language JSON' },
  { format: javascript, name: 'JavaScript (export default)' },
  { format: moduleExports, name: 'JavaScript (module.exports)' },
  { format: yaml, name: 'YAML', multiLanguageLayouts: true },
  { format: qtLinguist, name: 'Qt Linguist (.ts)', languageInFile: true, pluralShapeOfUntranslated: true },
  { format: xliff12, name: 'XLIFF 1.2', bilingual: true },
  { format: xliff20, name: 'XLIFF 2.0', bilingual: true },
  { format: xliff12Export, name: 'XLIFF 1.2', bilingual: true },
  { format: xliff20Export, name: 'XLIFF 2.0', bilingual: true },
  { format: arb, name: 'Flutter ARB', languageInFile: true },
  { format: browserExtensionJson, name: 'Browser extension messages.json' },
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

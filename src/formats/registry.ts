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
import { simplelocalizeJson } from './simplelocalize-json.js';
import { localizableXcstrings } from './xcstrings.js';
import { xliff12, xliff12Export, xliff20, xliff20Export } from './xliff.js';
import { yaml } from './yaml.js';

export interface RegisteredFormat {
  format: FileFormat;
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
  /** The file carries customers' overrides beside the base texts (simplelocalize-json). */
  customerTranslations?: boolean;
}

const FORMATS: RegisteredFormat[] = [
  { format: android },
  { format: androidStrings },
  { format: androidXml },
  { format: csvTranslations },
  { format: tsv },
  { format: excel },
  { format: javaProperties },
  { format: localizableXcstrings },
  { format: localizableStrings },
  { format: localizableStringsDict },
  { format: poPot, languageInFile: true },
  { format: phpArray },
  { format: stringResources },
  { format: resx },
  { format: simplelocalizeJson, customerTranslations: true },
  { format: singleLanguageJson },
  { format: multiLanguageJson },
  { format: javascript },
  { format: moduleExports },
  { format: yaml },
  { format: qtLinguist, languageInFile: true },
  { format: xliff12, bilingual: true },
  { format: xliff20, bilingual: true },
  { format: xliff12Export, bilingual: true },
  { format: xliff20Export, bilingual: true },
  { format: arb, languageInFile: true },
  { format: browserExtensionJson },
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

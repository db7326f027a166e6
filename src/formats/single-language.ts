// Small helpers shared by single-language file formats (Android, Qt .ts, .resx, ...).
import { FormatError, type ParseOptions, type SerializeOptions } from './model.js';

/** The language a single-language file is parsed into; the import endpoint always gives one. */
export function requireLanguageKey(options: ParseOptions, formatId: string): string {
  const key = options.languageKey?.trim();
  if (!key) throw new FormatError(`The ${formatId} format holds one language: a languageKey is required`);
  return key;
}

/** The one language a single-language serializer writes. */
export function singleLanguage(options: SerializeOptions, formatId: string): string {
  const lang = options.languages[0]?.key;
  if (!lang) throw new FormatError(`The ${formatId} format needs exactly one language to export`);
  return lang;
}

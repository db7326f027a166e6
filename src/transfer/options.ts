// The options of the import and export endpoints (the contract's values plus
// the export options users of such services expect), and the lookup of a
// format identifier with a 400 that names it.
import { badRequest } from '../errors.js';
import { formatIds, registeredFormat, type RegisteredFormat } from '../formats/registry.js';
import type { ExportOption as SerializerOption, ImportOption as ParserOption } from '../formats/model.js';

export const IMPORT_OPTIONS = [
  'PUBLISH_AFTER_IMPORT',
  'REPLACE_TRANSLATION_IF_FOUND',
  'TRIM_LEADING_TRAILING_SPACES',
  'UNESCAPE_NEW_LINES',
  'UNESCAPE_SINGLE_QUOTES',
  'SHEETS_AS_NAMESPACES',
  'MULTI_LANGUAGE',
  'LANGUAGES_NESTED',
  // The official client's upload options (spec/real-clients.md).
  'DELETE_NOT_PRESENT_KEYS',
  'INCLUDE_FILE_PATH',
] as const;
export type ImportOption = (typeof IMPORT_OPTIONS)[number];

export const EXPORT_OPTIONS = [
  'SPLIT_BY_NAMESPACES',
  'SELECTED_LANGUAGES',
  'SPLIT_BY_LANGUAGES',
  'INCLUDE_DESCRIPTIONS',
  'ONLY_TRANSLATED',
  'ONLY_NOT_TRANSLATED',
  'WRITE_NESTED',
  'ESCAPE_NEW_LINES',
  'ZIP_FILES',
  // Sent by the vendor's clients (spec/real-clients.md).
  'SPLIT_BY_CUSTOMERS',
  'MULTI_LANGUAGE',
  'LANGUAGES_NESTED',
  'ESCAPE_SINGLE_QUOTES',
  'SHEETS_AS_NAMESPACES',
] as const;
export type ExportOption = (typeof EXPORT_OPTIONS)[number];

export const EXPORT_SORTS = ['NEWEST_KEYS_FIRST', 'NEWEST_KEYS_LAST', 'NAMESPACES', 'IMPORT_ORDER'] as const;
export type ExportSort = (typeof EXPORT_SORTS)[number];
/** Keys in the order they were first imported or created. */
export const DEFAULT_EXPORT_SORT: ExportSort = 'IMPORT_ORDER';

/** Import options the format parsers read themselves (ParseOptions.options). */
const PARSER_OPTIONS: readonly ParserOption[] = ['SHEETS_AS_NAMESPACES', 'MULTI_LANGUAGE', 'LANGUAGES_NESTED'];
/** Export options the serializers read themselves (SerializeOptions.options). */
const SERIALIZER_OPTIONS: readonly SerializerOption[] = [
  'WRITE_NESTED',
  'INCLUDE_DESCRIPTIONS',
  'ESCAPE_NEW_LINES',
  'MULTI_LANGUAGE',
  'LANGUAGES_NESTED',
  'ESCAPE_SINGLE_QUOTES',
  'SHEETS_AS_NAMESPACES',
];

export function parserOptions(options: Iterable<ImportOption>): Set<ParserOption> {
  return new Set([...options].filter((o): o is ParserOption => (PARSER_OPTIONS as readonly string[]).includes(o)));
}

export function serializerOptions(options: Iterable<ExportOption>): Set<SerializerOption> {
  return new Set(
    [...options].filter((o): o is SerializerOption => (SERIALIZER_OPTIONS as readonly string[]).includes(o)),
  );
}

/** The format of an identifier; an unknown one is a 400 naming it and listing the known ones. */
export function formatOf(id: string, parameter: 'uploadFormat' | 'downloadFormat'): RegisteredFormat {
  const found = registeredFormat(id.trim());
  if (!found) throw badRequest(`Unknown ${parameter} '${id}'; known formats: ${formatIds().join(', ')}`);
  return found;
}

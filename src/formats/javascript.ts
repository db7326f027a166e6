// JavaScript locale modules, one language per file.
//   javascript:      export default { … };
//   module-exports:  module.exports = { … };
// Import reads the module without running it (./js-module-reader.ts, over @babel/parser): either
// wrapper is accepted by both formats (each prefers its own), as is the
// `const x = {…}; x.strings = {…}; module.exports = x` shape of Uppy locales.
// - Every string literal in the exported object is imported; members whose
//   value is code (functions such as Uppy's `pluralize`, calls, templates with
//   ${…}) are skipped, and the file still imports. Nothing is executed.
// - Nested objects give dotted keys, arrays `key[0]` (see ./nested-keys.ts);
//   objects keyed '0', '1', '2' (Polyglot/Uppy plural objects) stay dotted keys
//   `key.0` … rather than being guessed into ICU plurals.
// - Numbers and booleans are imported as their text, null as "no translation".
// - Comments on the lines directly above a member become its description.
// Export: the matching wrapper around a JSON-compatible object literal (flat,
// or nested with WRITE_NESTED, keys then in path order as in the JSON formats), "" for a missing translation; with
// INCLUDE_DESCRIPTIONS each description is written as `//` lines above its
// member, which import reads back. Code such as functions is not written back.
// ESCAPE_NEW_LINES does not apply: string literals always escape newlines.
import { defineFormat } from './define.js';
import {
  FormatError,
  type Bundle,
  type BundleKey,
  type FileFormat,
  type FormatWriter,
  type ParseOptions,
  type SerializeOptions,
} from './model.js';
import { JsLeaf, readJsModule } from './js-module-reader.js';
import { flatten } from './nested-keys.js';
import { nestedKeyOrder, objectLiteralFileWriter } from './object-literal-writer.js';
import { requireLanguageKey, singleLanguage } from './single-language.js';
import { decodeText } from './text.js';

export const javascript = moduleFormat('javascript', 'default', 'export default ');
export const moduleExports = moduleFormat('module-exports', 'commonjs', 'module.exports = ');

function moduleFormat(id: string, prefer: 'default' | 'commonjs', wrapper: string): FileFormat {
  return defineFormat({
    id,
    multiLanguage: false,
    namespaces: false,
    extension: 'js',
    contentType: 'text/javascript; charset=utf-8',
    keyOrder: nestedKeyOrder,
    parse: async (input, options) => parseModule(input, options, prefer, id),
    writer: (options) => moduleWriter(options, wrapper, id),
  });
}

function parseModule(input: Buffer, options: ParseOptions, prefer: 'default' | 'commonjs', formatId: string): Bundle {
  const language = requireLanguageKey(options, formatId);
  const module = readJsModule(decodeText(input));
  // References to one object from several places are allowed, within a budget
  // proportional to the file (so a few lines cannot expand into millions of keys).
  const entries = flatten<unknown>(module.exported(prefer), { maxNodes: module.valueBound * 2 + 1024 });
  const keys = entries.map(({ key, value }): BundleKey => {
    if (!(value instanceof JsLeaf)) throw new FormatError(`Unexpected value at "${key}"`);
    const bundleKey: BundleKey = { key, namespace: options.namespace ?? '', translations: {} };
    if (value.value !== null) bundleKey.translations[language] = { text: value.value };
    if (value.description !== undefined) bundleKey.description = value.description;
    return bundleKey;
  });
  return { keys, languages: [{ key: language }] };
}

/** A JSON string, with the two line separators escaped for older JavaScript tools. */
function jsString(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function moduleWriter(options: SerializeOptions, wrapper: string, formatId: string): FormatWriter {
  const language = singleLanguage(options, formatId);
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');
  const style = {
    name: jsString,
    leaf: (k: BundleKey) => jsString(k.translations[language]?.text ?? ''),
    // Every kind of line break ends a `//` comment, so each becomes its own comment line.
    comment: withDescriptions
      ? (k: BundleKey) => (k.description ? k.description.split(/\r\n|[\n\r\u2028\u2029]/) : undefined)
      : undefined,
  };
  return objectLiteralFileWriter(
    options,
    { prefix: wrapper, suffix: ';\n' },
    style,
    (k: BundleKey) => ({ kind: 'leaf', value: k }),
    (k) => k,
  );
}

// JSON translation files.
//
// single-language-json: {"key": "text"}, or nested objects whose paths become
// dotted keys ({"a": {"b": "x"}} -> `a.b`; arrays -> `a[0]`, see nested-keys.ts).
// - Texts are kept as they are. ICU messages are already valid values, and
//   i18next plural suffixes (`items_one`, `items_other`) stay separate keys: we
//   do not guess plurals from suffixes, since `arrowhead_crowfoot_one` (a real
//   excalidraw key) is not a plural form.
// - Numbers and booleans are imported as their text; null means "no translation"
//   (the key is created without one). Empty objects and arrays give no key.
// - A property repeated inside one object: the last wins (JSON.parse). A dotted
//   name that equals a nested path ({"a.b": …, "a": {"b": …}}) is refused.
// - Property names that are array indices ("0", "1") come first within their
//   object: JSON.parse orders them so. Only the order of such keys changes.
// - The import options MULTI_LANGUAGE and LANGUAGES_NESTED read the file in the
//   multi-language layouts below.
// - Export: flat by default, nested with WRITE_NESTED (a key that is both a leaf
//   and a parent stays lossless: {"a": "x", "a.b": "y"}); a nested file lists
//   its keys in path order (nested-keys.ts, pathSortKey), a flat one in the
//   export's sort. A key without a translation is written as "". The file has
//   no namespaces: when keys of several namespaces share a name, the key of
//   the first namespace is written (split the export by namespace to keep all). ESCAPE_NEW_LINES and INCLUDE_DESCRIPTIONS do not
//   apply (JSON always escapes newlines and has no comments).
//
// multi-language-json: {"key": {"en": "…", "de": "…"}}, key paths may nest.
// - The rule: every string (or number, boolean, null) value is a translation.
//   Its property name is the language and the path of the object holding it is
//   the key. Object values continue the key path. So {"a": {"en": "x",
//   "b": {"en": "y"}}} holds `a` and `a.b`, with no guessing about which objects
//   are "language maps".
// - A language name must look like a language code: 2-3 letters, then subtags
//   of letters or digits joined by '-' or '_' (en, pt-BR, zh_Hant_TW). A nested
//   single-language file uploaded by mistake is refused with a message instead
//   of creating languages named after its keys. An array holds language maps
//   (or objects) as items `key[0]`, `key[1]`; a bare text in an array is refused.
// - LANGUAGES_NESTED (import option): {"en": {…keys…}, "de": {…}}, each
//   language holding a single-language tree as above.
// - Export: {"key": {"en": …, "de": …}} with every exported language per key
//   ("" when missing, so a key never becomes an empty object that would vanish
//   on re-import); nested with WRITE_NESTED. Namespaces as for single-language.
import { isJsonObject, parseJson } from './json-safe.js';
import { defineFormat } from './define.js';
import { FormatError, type Bundle, type BundleKey, type BundleTranslation, type FormatWriter, type ParseOptions, type SerializeOptions } from './model.js';
import { flatten, type NestedNode } from './nested-keys.js';
import { nestedKeyOrder, objectLiteralFileWriter } from './object-literal-writer.js';
import { requireLanguageKey, singleLanguage } from './single-language.js';

const LANGUAGE_CODE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/;

export const singleLanguageJson = defineFormat({
  id: 'single-language-json',
  multiLanguage: false,
  namespaces: false,
  extension: 'json',
  contentType: 'application/json',
  keyOrder: nestedKeyOrder,
  parse: async (input, options) => {
    if (options.options.has('LANGUAGES_NESTED')) return readLanguagesNested(parseJson(input), options);
    if (options.options.has('MULTI_LANGUAGE')) return readMultiLanguage(parseJson(input), options);
    return readSingleLanguage(parseJson(input), options);
  },
  writer: (options) => {
    const language = singleLanguage(options, 'single-language-json');
    return jsonFileWriter(options, (text: string) => ({ kind: 'leaf', value: text }), (k) => k.translations[language]?.text ?? '');
  },
});

export const multiLanguageJson = defineFormat({
  id: 'multi-language-json',
  multiLanguage: true,
  namespaces: false,
  extension: 'json',
  contentType: 'application/json',
  keyOrder: nestedKeyOrder,
  parse: async (input, options) =>
    options.options.has('LANGUAGES_NESTED') ? readLanguagesNested(parseJson(input), options) : readMultiLanguage(parseJson(input), options),
  writer: (options) => {
    const languages = options.languages.map((l) => l.key);
    return jsonFileWriter(options, (key: BundleKey) => languageMap(key, languages), (k) => k);
  },
});

function jsonFileWriter<V>(options: SerializeOptions, toNode: (value: V) => NestedNode<string>, valueOf: (key: BundleKey) => V): FormatWriter {
  return objectLiteralFileWriter(options, { prefix: '', suffix: '\n' }, { leaf: (text: string) => JSON.stringify(text) }, toNode, valueOf);
}

function languageMap(key: BundleKey, languages: string[]): NestedNode<string> {
  return { kind: 'object', entries: languages.map((lang) => [lang, { kind: 'leaf', value: key.translations[lang]?.text ?? '' }]) };
}

/** A JSON scalar as a translation; null is "no translation". */
function translationOf(value: unknown, where: string): BundleTranslation | null {
  if (value === null) return null;
  if (typeof value === 'string') return { text: value };
  if (typeof value === 'number' || typeof value === 'boolean') return { text: String(value) };
  throw new FormatError(`Unexpected value at "${where}"`);
}

function topObject(tree: unknown, layout: string): Record<string, unknown> {
  if (!isJsonObject(tree)) throw new FormatError(`${layout} must hold a JSON object at the top level, not ${Array.isArray(tree) ? 'an array' : typeof tree}`);
  return tree;
}

function requireLanguageCode(name: string, where: string): void {
  if (!LANGUAGE_CODE.test(name)) {
    throw new FormatError(`"${where}": "${name}" is not a language code. A multi-language JSON file maps each key to its languages, {"key": {"en": "text"}}`);
  }
}

/** Keys in first-seen order; `translate` adds one language's value to a key. */
class KeyCollector {
  private readonly keys = new Map<string, BundleKey>();
  private readonly languages = new Set<string>();
  constructor(private readonly namespace: string) {}

  add(path: string, language: string, value: unknown, where: string): void {
    let key = this.keys.get(path);
    if (!key) {
      key = { key: path, namespace: this.namespace, translations: {} };
      this.keys.set(path, key);
    }
    this.languages.add(language);
    const translation = translationOf(value, where);
    if (!translation) return;
    if (Object.hasOwn(key.translations, language)) throw new FormatError(`The key "${path}" has two "${language}" translations (once nested and once with dots in its name)`);
    key.translations[language] = translation;
  }

  bundle(): Bundle {
    return { keys: [...this.keys.values()], languages: [...this.languages].map((key) => ({ key })) };
  }
}

function readSingleLanguage(tree: unknown, options: ParseOptions): Bundle {
  const language = requireLanguageKey(options, 'single-language-json');
  const keys = new KeyCollector(options.namespace ?? '');
  for (const { key, value } of flatten(topObject(tree, 'A single-language JSON file'))) keys.add(key, language, value, key);
  return { ...keys.bundle(), languages: [{ key: language }] };
}

function readLanguagesNested(tree: unknown, options: ParseOptions): Bundle {
  const keys = new KeyCollector(options.namespace ?? '');
  const languages: string[] = [];
  for (const [language, subtree] of Object.entries(topObject(tree, 'A JSON file with LANGUAGES_NESTED'))) {
    if (!LANGUAGE_CODE.test(language)) throw new FormatError(`With LANGUAGES_NESTED the top-level names are languages: "${language}" is not a language code`);
    if (!isJsonObject(subtree)) throw new FormatError(`With LANGUAGES_NESTED each language holds an object of keys: "${language}" does not`);
    languages.push(language);
    for (const { key, value } of flatten(subtree)) keys.add(key, language, value, `${language}.${key}`);
  }
  return { ...keys.bundle(), languages: languages.map((key) => ({ key })) };
}

function readMultiLanguage(tree: unknown, options: ParseOptions): Bundle {
  const keys = new KeyCollector(options.namespace ?? '');
  // Depth is bounded by parseJson (64), so recursion is safe.
  const walk = (obj: Record<string, unknown>, path: string | null): void => {
    for (const [name, value] of Object.entries(obj)) {
      const where = path === null ? name : `${path}.${name}`;
      if (isJsonObject(value)) walk(value, where);
      else if (Array.isArray(value)) walkArray(value, where);
      else if (path === null) throw new FormatError(`The top-level value "${name}" is not an object; a multi-language JSON file maps each key to its languages, {"key": {"en": "text"}}`);
      else {
        requireLanguageCode(name, where);
        keys.add(path, name, value, where);
      }
    }
  };
  // Keys written as `list[0]` (nested export of array-like keys) are arrays of language maps.
  const walkArray = (items: unknown[], path: string): void => {
    items.forEach((item, i) => {
      if (!isJsonObject(item)) throw new FormatError(`"${path}[${i}]" is not an object; a multi-language JSON file maps each key to its languages, {"key": {"en": "text"}}`);
      walk(item, `${path}[${i}]`);
    });
  };
  walk(topObject(tree, 'A multi-language JSON file'), null);
  return keys.bundle();
}

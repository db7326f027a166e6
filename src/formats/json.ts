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
//   multi-language layouts below (MULTI_LANGUAGE: language-first;
//   LANGUAGES_NESTED, with or without MULTI_LANGUAGE: key-first), and the
//   export options write them the same way (with the languages the export
//   gives the file: one per file, as for every single-language format), so
//   such a file reads back with the same options.
// - Export: flat by default, nested with WRITE_NESTED (a key that is both a leaf
//   and a parent stays lossless: {"a": "x", "a.b": "y"}); a nested file lists
//   its keys in path order (nested-keys.ts, pathSortKey), a flat one in the
//   export's sort. A key without a translation is written as "". The file has
//   no namespaces: when keys of several namespaces share a name, the key of
//   the first namespace is written (split the export by namespace to keep all).
//   ESCAPE_SINGLE_QUOTES writes every ' as \' (the inverse of the import
//   option UNESCAPE_SINGLE_QUOTES). ESCAPE_NEW_LINES and INCLUDE_DESCRIPTIONS
//   do not apply (JSON always escapes newlines and has no comments).
//
// multi-language-json, the vendor's documented shape and what i18next's
// `resources` takes: languages on the first level, each holding a
// single-language tree as above: {"en": {"home.title": "…"}, "de": {…}}, or
// nested {"en": {"home": {"title": "…"}}} (the key `home.title`).
// - A first-level name must look like a language code: 2-3 letters, then
//   subtags of letters or digits joined by '-' or '_' (en, pt-BR, zh_Hant_TW),
//   and hold an object. A key-first file ({"home.title": {"en": "…"}}) or a
//   single-language file uploaded by mistake is refused with a message that
//   shows the expected shape, instead of creating languages named after keys.
// - MULTI_LANGUAGE changes nothing (the format is multi-language).
//   LANGUAGES_NESTED reads the key-first layout, languages nested under each
//   key: {"key": {"en": "…", "de": "…"}}, key paths may nest. There every
//   string (or number, boolean, null) value is a translation; its property
//   name is the language (checked as above) and the path of the object holding
//   it is the key. Object values continue the key path, so {"a": {"en": "x",
//   "b": {"en": "y"}}} holds `a` and `a.b`, with no guessing about which
//   objects are "language maps". An array holds language maps (or objects) as
//   items `key[0]`, `key[1]`; a bare text in an array is refused.
// - Export: language-first, every exported language present, each with every
//   key of the file ("" when missing, so no key vanishes on re-import); flat,
//   or nested with WRITE_NESTED. Each language's object goes over all the keys
//   as they stream in, so each is a section of the file (model.ts,
//   WriterOutput): the engine appends the sections in language order at the
//   end. With LANGUAGES_NESTED the key-first layout is written instead,
//   {"key": {"en": …, "de": …}}. Namespaces and ESCAPE_SINGLE_QUOTES as for
//   single-language-json.
import { isJsonObject, parseJson } from './json-safe.js';
import { defineFormat } from './define.js';
import { FormatError, type Bundle, type BundleKey, type BundleTranslation, type FormatWriter, type ParseOptions, type SerializeOptions } from './model.js';
import { flatten, type NestedNode } from './nested-keys.js';
import { NestedStream } from './nested-stream.js';
import { nestedKeyOrder, objectLiteralEnd, objectLiteralFileWriter, objectLiteralMembers } from './object-literal-writer.js';
import { requireLanguageKey, singleLanguage } from './single-language.js';
import { LANGUAGE_CODE } from './language-code.js';


const LANGUAGE_FIRST_SHAPE = '{"en": {"home.title": "…"}, "pl": {…}}';
const KEY_FIRST_SHAPE = '{"home.title": {"en": "…", "pl": "…"}}';

export const singleLanguageJson = defineFormat({
  id: 'single-language-json',
  multiLanguage: false,
  namespaces: false,
  extension: 'json',
  contentType: 'application/json',
  keyOrder: nestedKeyOrder,
  parse: async (input, options) => {
    if (options.options.has('LANGUAGES_NESTED')) return readKeyFirst(parseJson(input), options);
    if (options.options.has('MULTI_LANGUAGE')) return readLanguageFirst(parseJson(input), options);
    return readSingleLanguage(parseJson(input), options);
  },
  writer: (options) => {
    const language = singleLanguage(options, 'single-language-json');
    // The multi-language layouts hold every language the export gives the file (one, when split by language).
    const languages = options.languages.map((l) => l.key);
    if (options.options.has('LANGUAGES_NESTED')) return keyFirstWriter(options, languages);
    if (options.options.has('MULTI_LANGUAGE')) return languageFirstWriter(options, languages);
    const text = textOf(options);
    return jsonFileWriter(options, (t: string) => ({ kind: 'leaf', value: t }), (k) => text(k, language));
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
    options.options.has('LANGUAGES_NESTED') ? readKeyFirst(parseJson(input), options) : readLanguageFirst(parseJson(input), options),
  writer: (options) => {
    const languages = options.languages.map((l) => l.key);
    return options.options.has('LANGUAGES_NESTED') ? keyFirstWriter(options, languages) : languageFirstWriter(options, languages);
  },
});

/** A key's exported text in a language: "" when missing; ESCAPE_SINGLE_QUOTES applied. */
function textOf(options: SerializeOptions): (key: BundleKey, language: string) => string {
  const escape = options.options.has('ESCAPE_SINGLE_QUOTES');
  return (key, language) => {
    const text = key.translations[language]?.text ?? '';
    return escape ? text.replace(/'/g, "\\'") : text;
  };
}

const JSON_LEAF = { leaf: (text: string) => JSON.stringify(text) };

function jsonFileWriter<V>(options: SerializeOptions, toNode: (value: V) => NestedNode<string>, valueOf: (key: BundleKey) => V): FormatWriter {
  return objectLiteralFileWriter(options, { prefix: '', suffix: '\n' }, JSON_LEAF, toNode, valueOf);
}

/** {"key": {"en": …, "de": …}}: one language map per key. */
function keyFirstWriter(options: SerializeOptions, languages: string[]): FormatWriter {
  const text = textOf(options);
  const languageMap = (key: BundleKey): NestedNode<string> => ({ kind: 'object', entries: languages.map((lang) => [lang, { kind: 'leaf', value: text(key, lang) }]) });
  return jsonFileWriter(options, languageMap, (k) => k);
}

/**
 * {"en": {…keys…}, "de": {…}}: one object per language, each written as the
 * keys stream in, as section i of the file (the engine appends the sections in
 * order at the end). Section 0 opens the file, the last one closes it.
 */
function languageFirstWriter(options: SerializeOptions, languages: string[]): FormatWriter {
  if (!languages.length) return { write: () => '', end: () => '{}\n' };
  const text = textOf(options);
  const nested = options.options.has('WRITE_NESTED');
  const trees = languages.map((language, i) => ({
    language,
    started: false,
    // Flat files skip the nesting machinery: ten languages make ten members per key, and its per-member cost showed in the export benchmark.
    stream: nested ? new NestedStream(objectLiteralMembers(JSON_LEAF, (t: string): NestedNode<string> => ({ kind: 'leaf', value: t }), 1), true) : new FlatMembers(),
    head(): string {
      if (this.started) return '';
      this.started = true;
      return `${i === 0 ? '{' : ','}\n  ${JSON.stringify(language)}: {`;
    },
  }));
  const last = trees.length - 1;
  return {
    write: (keys) => ({
      sections: trees.map((tree) => {
        let out = tree.head();
        for (const key of keys) out += tree.stream.add(key.key, text(key, tree.language));
        return out;
      }),
    }),
    end: () => ({
      sections: trees.map((tree, i) => tree.head() + tree.stream.end() + objectLiteralEnd(tree.stream.rootMembers, 1) + (i === last ? '\n}\n' : '')),
    }),
  };
}

/** The members of a flat language object, written as NestedStream writes them at depth 0 under a language. */
class FlatMembers {
  rootMembers = 0;

  add(key: string, text: string): string {
    return `${this.rootMembers++ === 0 ? '\n' : ',\n'}    ${JSON.stringify(key)}: ${JSON.stringify(text)}`;
  }

  end(): string {
    return '';
  }
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
    throw new FormatError(`"${where}": "${name}" is not a language code. With LANGUAGES_NESTED a multi-language JSON file has the languages under each key, ${KEY_FIRST_SHAPE}`);
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

/** {"en": {…keys…}, "de": {…}}: the multi-language-json default. */
function readLanguageFirst(tree: unknown, options: ParseOptions): Bundle {
  const keys = new KeyCollector(options.namespace ?? '');
  const languages: string[] = [];
  const expected = `A multi-language JSON file has the languages on the first level, each holding its keys (flat or nested): ${LANGUAGE_FIRST_SHAPE}`;
  for (const [language, subtree] of Object.entries(topObject(tree, 'A multi-language JSON file'))) {
    if (!LANGUAGE_CODE.test(language)) {
      const keyFirst = isJsonObject(subtree) && Object.keys(subtree).some((name) => LANGUAGE_CODE.test(name));
      throw new FormatError(
        `"${language}" on the first level is not a language code. ${expected}.`
        + (keyFirst ? ` This file looks key-first (${KEY_FIRST_SHAPE}): import it with the option LANGUAGES_NESTED.` : ''),
      );
    }
    if (!isJsonObject(subtree)) throw new FormatError(`"${language}" must hold an object of keys, not ${Array.isArray(subtree) ? 'an array' : subtree === null ? 'null' : typeof subtree}. ${expected}`);
    languages.push(language);
    for (const { key, value } of flatten(subtree)) keys.add(key, language, value, `${language}.${key}`);
  }
  return { ...keys.bundle(), languages: languages.map((key) => ({ key })) };
}

/** {"key": {"en": "…"}} with nested key paths: LANGUAGES_NESTED. */
function readKeyFirst(tree: unknown, options: ParseOptions): Bundle {
  const keys = new KeyCollector(options.namespace ?? '');
  const shape = `with LANGUAGES_NESTED a multi-language JSON file maps each key to its languages, ${KEY_FIRST_SHAPE}`;
  // Depth is bounded by parseJson (64), so recursion is safe.
  const walk = (obj: Record<string, unknown>, path: string | null): void => {
    for (const [name, value] of Object.entries(obj)) {
      const where = path === null ? name : `${path}.${name}`;
      if (isJsonObject(value)) walk(value, where);
      else if (Array.isArray(value)) walkArray(value, where);
      else if (path === null) throw new FormatError(`The top-level value "${name}" is not an object; ${shape}`);
      else {
        requireLanguageCode(name, where);
        keys.add(path, name, value, where);
      }
    }
  };
  // Keys written as `list[0]` (nested export of array-like keys) are arrays of language maps.
  const walkArray = (items: unknown[], path: string): void => {
    items.forEach((item, i) => {
      if (!isJsonObject(item)) throw new FormatError(`"${path}[${i}]" is not an object; ${shape}`);
      walk(item, `${path}[${i}]`);
    });
  };
  walk(topObject(tree, 'A multi-language JSON file'), null);
  return keys.bundle();
}

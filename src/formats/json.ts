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
// - Files are read as a stream (json-stream.ts), by parse() and parseStream()
//   alike, so an import holds a chunk, not the file. Hence, unlike JSON.parse:
//   keys come in document order, index-like names ("0", "10") included (JSON.parse
//   moves them first); a text given twice for the same key and language is
//   refused, whether a property is repeated or a dotted name equals a nested
//   path ({"a.b": …, "a": {"b": …}}), since the first may be written already;
//   a repeated property holding an object (or a language given twice) adds
//   its keys to the first. Errors come in document order: a semantic one
//   (not a language code) before a syntax error further down.
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
import { childPath, JsonReader, type JsonFrame, type JsonVisitor } from './json-stream.js';
import { decodeStream, detached } from './text-stream.js';
import { defineFormat } from './define.js';
import {
  FormatError,
  type Bundle,
  type BundleKey,
  type BundleLanguage,
  type BundleTranslation,
  type FormatWriter,
  type OpenFile,
  type ParseOptions,
  type SerializeOptions,
} from './model.js';
import type { NestedNode } from './nested-keys.js';
import { NestedStream } from './nested-stream.js';
import {
  nestedKeyOrder,
  objectLiteralEnd,
  objectLiteralFileWriter,
  objectLiteralMembers,
} from './object-literal-writer.js';
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
  parseStream: (input, options, chunkCells) =>
    readJsonChunks(input, layoutOf(options.options, false), options, chunkCells),
  writer: (options) => {
    const language = singleLanguage(options, 'single-language-json');
    // The multi-language layouts hold every language the export gives the file (one, when split by language).
    const languages = options.languages.map((l) => l.key);
    if (options.options.has('LANGUAGES_NESTED')) return keyFirstWriter(options, languages);
    if (options.options.has('MULTI_LANGUAGE')) return languageFirstWriter(options, languages);
    const text = textOf(options);
    return jsonFileWriter(
      options,
      (t: string) => ({ kind: 'leaf', value: t }),
      (k) => text(k, language),
    );
  },
});

export const multiLanguageJson = defineFormat({
  id: 'multi-language-json',
  multiLanguage: true,
  namespaces: false,
  extension: 'json',
  contentType: 'application/json',
  keyOrder: nestedKeyOrder,
  parseStream: (input, options, chunkCells) =>
    readJsonChunks(input, layoutOf(options.options, true), options, chunkCells),
  writer: (options) => {
    const languages = options.languages.map((l) => l.key);
    return options.options.has('LANGUAGES_NESTED')
      ? keyFirstWriter(options, languages)
      : languageFirstWriter(options, languages);
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

function jsonFileWriter<V>(
  options: SerializeOptions,
  toNode: (value: V) => NestedNode<string>,
  valueOf: (key: BundleKey) => V,
): FormatWriter {
  return objectLiteralFileWriter(options, { prefix: '', suffix: '\n' }, JSON_LEAF, toNode, valueOf);
}

/** {"key": {"en": …, "de": …}}: one language map per key. */
function keyFirstWriter(options: SerializeOptions, languages: string[]): FormatWriter {
  const text = textOf(options);
  const languageMap = (key: BundleKey): NestedNode<string> => ({
    kind: 'object',
    entries: languages.map((lang) => [lang, { kind: 'leaf', value: text(key, lang) }]),
  });
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
    stream: nested
      ? new NestedStream(
          objectLiteralMembers(JSON_LEAF, (t: string): NestedNode<string> => ({ kind: 'leaf', value: t }), 1),
          true,
        )
      : new FlatMembers(),
    head(): string {
      if (this.started) return '';
      this.started = true;
      return `${i === 0 ? '{' : ','}\n  ${JSON.stringify(language)}: {`;
    },
  }));
  const last = trees.length - 1;
  return {
    write: (keys) => {
      // A flat file writes each key's name in every language: encoded once per page.
      const names = nested ? [] : keys.map((key) => JSON.stringify(key.key));
      return {
        sections: trees.map((tree) => {
          let out = tree.head();
          const { stream } = tree;
          if (stream instanceof FlatMembers)
            for (let i = 0; i < keys.length; i++) out += stream.add(names[i]!, text(keys[i]!, tree.language));
          else for (const key of keys) out += stream.add(key.key, text(key, tree.language));
          return out;
        }),
      };
    },
    end: () => ({
      sections: trees.map(
        (tree, i) =>
          tree.head() + tree.stream.end() + objectLiteralEnd(tree.stream.rootMembers, 1) + (i === last ? '\n}\n' : ''),
      ),
    }),
  };
}

/** The members of a flat language object, written as NestedStream writes them at depth 0 under a language. */
class FlatMembers {
  rootMembers = 0;

  /** A member; `name` is the key's name already JSON-encoded (once per page for every language). */
  add(name: string, text: string): string {
    return `${this.rootMembers++ === 0 ? '\n' : ',\n'}    ${name}: ${JSON.stringify(text)}`;
  }

  end(): string {
    return '';
  }
}

/** A JSON scalar as a translation; null is "no translation". */
function translationOf(value: JsonScalar): BundleTranslation | null {
  if (value === null) return null;
  return { text: typeof value === 'string' ? value : String(value) };
}

type JsonScalar = string | number | boolean | null;

/** How today's whole-tree readers named a value that is not an object: typeof, 'an array' (given as 'array'). */
const kindOf = (value: JsonScalar) => (value === 'array' ? 'an array' : typeof value);

function topObjectError(layout: string, value: JsonScalar): FormatError {
  return new FormatError(`${layout} must hold a JSON object at the top level, not ${kindOf(value)}`);
}

function requireLanguageCode(name: string, where: string): void {
  if (!LANGUAGE_CODE.test(name)) {
    throw new FormatError(
      `"${where}": "${name}" is not a language code. With LANGUAGES_NESTED a multi-language JSON file has the languages under each key, ${KEY_FIRST_SHAPE}`,
    );
  }
}

/** A growable bit set: which keys (by index) already have a text in one language. */
class BitSet {
  private bits = new Uint8Array(1024);
  /** Sets bit `i`; false when it was already set. */
  add(i: number): boolean {
    if (i >> 3 >= this.bits.length) {
      const grown = new Uint8Array(Math.max(this.bits.length * 2, (i >> 3) + 1));
      grown.set(this.bits);
      this.bits = grown;
    }
    const mask = 1 << (i & 7);
    if (this.bits[i >> 3]! & mask) return false;
    this.bits[i >> 3]! |= mask;
    return true;
  }
}

/**
 * The file's keys as they are read, handed out in chunks (see FileFormat.
 * parseStream): a chunk holds the keys that got a text (or were first met)
 * since the previous one, and the languages first met. Across the file it
 * keeps only an index per key name and a bit per key and language, to refuse
 * a text given twice.
 */
class KeyCollector {
  private readonly keyIndex = new Map<string, number>();
  private readonly languageIndex = new Map<string, number>();
  private readonly seen: BitSet[] = [];
  private chunk = new Map<string, BundleKey>();
  private chunkLanguages: BundleLanguage[] = [];
  /** Texts in the current chunk. */
  cells = 0;
  constructor(private readonly namespace: string) {}

  language(language: string): number {
    let index = this.languageIndex.get(language);
    if (index === undefined) {
      index = this.seen.length;
      this.languageIndex.set(language, index);
      this.seen.push(new BitSet());
      this.chunkLanguages.push({ key: language });
    }
    return index;
  }

  add(path: string, language: string, value: JsonScalar): void {
    const languageIndex = this.language(language);
    let index = this.keyIndex.get(path);
    const isNew = index === undefined;
    // The index keeps the name for the whole file (and the import keeps the chunk's key): a copy,
    // not a slice of the text read, which would keep that text alive with it.
    if (isNew) this.keyIndex.set((path = detached(path)), (index = this.keyIndex.size));
    const translation = translationOf(value);
    if (!translation && !isNew) return;
    let key = this.chunk.get(path);
    if (!key) {
      key = { key: path, namespace: this.namespace, translations: {} };
      this.chunk.set(path, key);
    }
    if (!translation) return;
    if (!this.seen[languageIndex]!.add(index!)) {
      throw new FormatError(
        `The key "${path}" is defined twice in "${language}" (a repeated property, or once nested and once with dots in its name)`,
      );
    }
    key.translations[language] = translation;
    this.cells++;
  }

  /** The chunk so far; the next one starts empty. */
  take(): Bundle {
    const bundle = { keys: [...this.chunk.values()], languages: this.chunkLanguages };
    this.chunk = new Map();
    this.chunkLanguages = [];
    this.cells = 0;
    return bundle;
  }
}

type Layout = 'single' | 'language-first' | 'key-first';

/** Reads a JSON file in chunks of about `chunkCells` texts (a whole file: chunkCells Infinity, one chunk). */
async function* readJsonChunks(
  open: OpenFile,
  layout: Layout,
  options: ParseOptions,
  chunkCells: number,
): AsyncGenerator<Bundle> {
  const keys = new KeyCollector(options.namespace ?? '');
  const reader = new JsonReader(
    layout === 'single'
      ? singleLanguageVisitor(keys, options)
      : layout === 'language-first'
        ? languageFirstVisitor(keys)
        : keyFirstVisitor(keys),
    { keyDepth: layout === 'language-first' ? 2 : 1 },
  );
  const full = () => keys.cells >= chunkCells;
  for await (const text of decodeStream(open())) {
    reader.write(text);
    while (reader.run(full)) yield keys.take();
  }
  reader.end();
  yield keys.take();
}

function layoutOf(formatOptions: ParseOptions['options'], multiLanguageFormat: boolean): Layout {
  if (formatOptions.has('LANGUAGES_NESTED')) return 'key-first';
  return multiLanguageFormat || formatOptions.has('MULTI_LANGUAGE') ? 'language-first' : 'single';
}

function singleLanguageVisitor(keys: KeyCollector, options: ParseOptions): JsonVisitor {
  const language = requireLanguageKey(options, 'single-language-json');
  keys.language(language);
  const layout = 'A single-language JSON file';
  return {
    open(frame, parent) {
      if (!parent && frame.kind === 'array') throw topObjectError(layout, 'array');
    },
    scalar(value, parent, name) {
      if (!parent) throw topObjectError(layout, value);
      keys.add(childPath(parent, name!), language, value);
    },
  };
}

/** {"en": {…keys…}, "de": {…}}: the multi-language-json default. */
function languageFirstVisitor(keys: KeyCollector): JsonVisitor {
  const expected = `A multi-language JSON file has the languages on the first level, each holding its keys (flat or nested): ${LANGUAGE_FIRST_SHAPE}`;
  const notLanguage = (name: string, keyFirst: boolean) =>
    new FormatError(
      `"${name}" on the first level is not a language code. ${expected}.` +
        (keyFirst
          ? ` This file looks key-first (${KEY_FIRST_SHAPE}): import it with the option LANGUAGES_NESTED.`
          : ''),
    );
  const notObject = (language: string, value: JsonScalar) =>
    new FormatError(
      `"${language}" must hold an object of keys, not ${value === null ? 'null' : kindOf(value)}. ${expected}`,
    );
  // A first-level name that is not a language code, holding an object: its member names tell whether the
  // file looks key-first. The error comes when that object closes, so a syntax error inside it comes first.
  let misplaced: string | null = null;
  let looksKeyFirst = false;
  const inspect = (parent: JsonFrame, name: string | number) => {
    if (parent.depth === 2 && typeof name === 'string' && LANGUAGE_CODE.test(name)) looksKeyFirst = true;
  };
  let current = '';
  return {
    open(frame, parent) {
      if (!parent) {
        if (frame.kind === 'array') throw topObjectError('A multi-language JSON file', 'array');
        return;
      }
      if (misplaced !== null) return inspect(parent, frame.name!);
      if (parent.depth !== 1) return;
      const name = frame.name as string;
      if (!LANGUAGE_CODE.test(name)) {
        if (frame.kind === 'array') throw notLanguage(name, false);
        misplaced = name;
        return;
      }
      if (frame.kind === 'array') throw notObject(name, 'array');
      keys.language(name);
      current = name;
    },
    close(frame) {
      if (misplaced !== null && frame.depth === 2) throw notLanguage(misplaced, looksKeyFirst);
    },
    scalar(value, parent, name) {
      if (!parent) throw topObjectError('A multi-language JSON file', value);
      if (misplaced !== null) return inspect(parent, name!);
      if (parent.depth === 1) {
        if (!LANGUAGE_CODE.test(name as string)) throw notLanguage(name as string, false);
        throw notObject(name as string, value);
      }
      keys.add(childPath(parent, name!, 2), current, value);
    },
  };
}

/** {"key": {"en": "…"}} with nested key paths: LANGUAGES_NESTED. */
function keyFirstVisitor(keys: KeyCollector): JsonVisitor {
  const shape = `with LANGUAGES_NESTED a multi-language JSON file maps each key to its languages, ${KEY_FIRST_SHAPE}`;
  return {
    open(frame, parent) {
      if (!parent) {
        if (frame.kind === 'array') throw topObjectError('A multi-language JSON file', 'array');
        return;
      }
      // Keys written as `list[0]` (nested export of array-like keys) are arrays of language maps.
      if (parent.kind === 'array' && frame.kind !== 'object')
        throw new FormatError(`"${frame.path}" is not an object; ${shape}`);
    },
    scalar(value, parent, name) {
      if (!parent) throw topObjectError('A multi-language JSON file', value);
      if (parent.kind === 'array') throw new FormatError(`"${childPath(parent, name!)}" is not an object; ${shape}`);
      if (parent.depth === 1)
        throw new FormatError(`The top-level value "${name as string}" is not an object; ${shape}`);
      requireLanguageCode(name as string, `${parent.path}.${name as string}`);
      keys.add(parent.path, name as string, value);
    },
  };
}

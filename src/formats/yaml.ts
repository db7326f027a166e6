// YAML translation files (Rails i18n, Symfony, and others).
//
// Import (the `yaml` package, failsafe schema so every scalar stays the text
// it was written as: `yes`, `1.0`, `:day` are strings):
// - Layouts: single-language nested keys (default) -> dotted keys;
//   MULTI_LANGUAGE: languages on the first level, `{lang: {nested keys}}`
//   (the vendor's documented shape); LANGUAGES_NESTED (with MULTI_LANGUAGE or
//   alone): the languages under each key, `{key: {lang: text}}` (nested key
//   paths whose leaves are maps of language -> text). Language names must
//   look like language codes (2-3 letters, then subtags joined by '-' or '_',
//   as for JSON): a file whose first level (MULTI_LANGUAGE) or leaf maps
//   (LANGUAGES_NESTED) are not languages is refused with a message naming
//   the layout, never read as languages named after keys.
// - Rails files wrap a single-language file in its language (`en: {...}`):
//   when the only root key equals languageKey ('-' and '_' alike, any case),
//   it is stripped.
// - Plurals: a map whose keys are all CLDR categories (zero/one/two/few/many/
//   other), with `other` among them and texts as values, is one key whose text
//   is an ICU plural (Rails' convention). In its branches Rails' `%{count}`
//   is the plural number, ICU `#` (plural.ts, the per-platform mapping): a
//   branch `%{count} items` is `# items`; a literal `#` is ICU `'#'`; a named
//   ICU argument (`{name}`) stays an argument; other `%{name}` stay as
//   written.
// - Lists become keys with their index in brackets, as in the JSON formats
//   (`date.day_names[0]`, see nested-keys.ts); an empty or null value is an
//   empty text.
// - A comment directly above a leaf key (no blank line between) is its
//   description; a comment separated from the key by a blank line is not.
// - Hostile input: nesting deeper than 64 levels is refused before the parser
//   sees it (the parser recurses), from the tokens of yaml's own Lexer; aliases are resolved with a budget (an
//   alias bomb is refused); duplicate keys are an error (checked with a set:
//   the parser's uniqueKeys option is quadratic in the size of a map).
//
// Export, written while the keys stream in page by page (FormatWriter): the
// writer holds the path of open branches, a list being gathered (see
// nested-stream.ts) and at most one held branch (rule 1), never the file.
// - Layout, as on import: LANGUAGES_NESTED writes the keys-first layout (a
//   map of languages under each key); MULTI_LANGUAGE, or several languages,
//   the languages-first layout; one language without either the
//   single-language layout (without a root language key: MULTI_LANGUAGE
//   gives a Rails file, `en:` then the keys). The languages-first layout
//   writes one tree per language, each a section of the file (model.ts,
//   WriterOutput), since each goes over all the keys.
// - WRITE_NESTED nests keys on '.', as for the other formats, from keys in
//   path order (nested-stream.ts); without it keys are written flat
//   (`a.b: text`) in the export's order. Nesting follows nested-keys.ts: a key
//   that is both a leaf and a parent keeps its children flat next to it,
//   `t[0]`, `t[1]` keys become a list, keys with an empty segment stay flat.
//   A file has no namespaces: when several namespaces share a key name, the
//   key of the first namespace in code-point order is written.
// - Two rules keep nesting lossless on import, with bounded state:
//   1. A branch holding only category-named leaves (`x.one`, `x.other`)
//      would read back as one plural key, so it is written flat (`x.one:`,
//      `x.other:`). Such a branch has at most 6 members: an opened branch is
//      held back while all its members so far are category-named leaves; at
//      its close it is written flat if `other` is among them, else as a
//      branch; a member that breaks the pattern writes it out at once. A list
//      item cannot be flat, so a list holding such an item is written as
//      `t[0].one`, `t[1]` members. (Keys-first leaves are language maps,
//      never plurals: no rule needed.)
//   2. A lone root branch named after the language (`en: {...}`) would be
//      stripped as a Rails root on import. Whether it is lone is only known at
//      the end, so in the single-language layout a root branch named like the
//      language (any case, '-' or '_') is always written flat (`en.title:`),
//      and a key so named is written as text, never as a plural map.
// - ICU plurals become category maps when that is lossless (argument `count`,
//   only category branches, and the map reads back as exactly the same ICU
//   text), with `#` written as `%{count}`, never a literal `#`; others (an
//   argument other than `count`, `=0` branches, text around the plural) are
//   written as their ICU text.
// - ESCAPE_SINGLE_QUOTES writes every ' of a text as \' (the inverse of the
//   import option UNESCAPE_SINGLE_QUOTES); such a text is never a plural map.
// - Descriptions as `#` comments with INCLUDE_DESCRIPTIONS; ESCAPE_NEW_LINES
//   writes newlines as the two characters \n. A missing translation is ''.
//   An empty file is `{}` (an empty language tree `lang: {}`).
// - Each member is rendered by the `yaml` package (a document of that one
//   member, indented to its depth), so quoting, block scalars and comments
//   are as in one whole document; empty lines get no indentation.
import type { Document, LineCounter, Node as YamlNode, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { lazyRequire } from '../lazy-module.js';
import { defineFormat } from './define.js';
import {
  FormatError,
  type Bundle,
  type BundleKey,
  type BundleTranslation,
  type FormatWriter,
  type ParseOptions,
  type SerializeOptions,
} from './model.js';
import type { NestedNode } from './nested-keys.js';
import { NestedStream, type NestedStyle } from './nested-stream.js';
import { nestedKeyOrder } from './object-literal-writer.js';

/** yaml loads with the first YAML file read or written: memory an idle service need not hold (docs/benchmarks.md). */
const yamlLib = lazyRequire<typeof import('yaml')>('yaml');
const scalarNode = (value: unknown): Scalar => new (yamlLib().Scalar)(value);
const mapNode = (): YAMLMap => new (yamlLib().YAMLMap)();
const seqNode = (): YAMLSeq => new (yamlLib().YAMLSeq)();
const pairNode = (key: unknown, value: unknown): Pair => new (yamlLib().Pair)(key, value);
import { PLURAL_CATEGORIES, pluralFromPlatform, pluralToPlatform, type NumberPlaceholder } from './plural.js';
import { decodeText } from './text.js';
import { requireLanguageKey } from './single-language.js';
import { LANGUAGE_CODE } from './language-code.js';

const MAX_DEPTH = 64;
/** Rails i18n: `%{count}` is the plural number in a branch. */
const YAML_NUMBER: NumberPlaceholder = { number: '%{count}', count: /%\{count\}/y, printf: false };

/** The ICU plural of a category map (categories in CLDR order), branches read with YAML_NUMBER. */
function pluralText(forms: Record<string, string>): string {
  const ordered: Record<string, string> = {};
  for (const c of PLURAL_CATEGORIES) if (forms[c] !== undefined) ordered[c] = forms[c];
  return pluralFromPlatform(ordered, YAML_NUMBER);
}
const MAX_ALIASES = 1000;
const MAX_NODES = 1_000_000;

// ---- Import: YAML -> a plain ordered value ----

type YValue = string | YList | YMap;
interface YEntry {
  value: YValue;
  description?: string;
  line: number;
}
interface YList {
  kind: 'list';
  items: YEntry[];
}
interface YMap {
  kind: 'map';
  entries: (YEntry & { key: string })[];
}

/**
 * Rejects flow collections ([ {) or compact sequences (- - -) nested deeper
 * than the limit, before the parser (which recurses, and takes seconds on a
 * megabyte of brackets) sees them. Reads the tokens of yaml's own Lexer (a
 * state machine, no recursion), so quoted strings, comments and block scalars
 * are what the parser will take them for; it stops at the first token past
 * the limit. Indicators (`-`, `?`, `:`) count only in a row at the start of a
 * line, outside flow collections.
 */
function checkNesting(text: string): void {
  let line = 1;
  let flow = 0;
  let compact = 0;
  let lineStart = true;
  const tooDeep = (): never => {
    throw new FormatError(`YAML nested deeper than ${MAX_DEPTH} levels`, { line });
  };
  for (const token of new (yamlLib().Lexer)().lex(text)) {
    switch (yamlLib().CST.tokenType(token)) {
      case 'flow-map-start':
      case 'flow-seq-start':
        if (++flow > MAX_DEPTH) tooDeep();
        lineStart = false;
        break;
      case 'flow-map-end':
      case 'flow-seq-end':
        if (flow > 0) flow--;
        lineStart = false;
        break;
      case 'seq-item-ind':
      case 'explicit-key-ind':
      case 'map-value-ind':
        if (lineStart && flow === 0 && ++compact > MAX_DEPTH) tooDeep();
        break;
      case 'newline':
        lineStart = true;
        compact = 0;
        break;
      case 'space':
      case 'doc-mode':
      case undefined: // the lexer's markers before scalars and documents
        break;
      default:
        lineStart = false;
    }
    for (let i = token.indexOf('\n'); i >= 0; i = token.indexOf('\n', i + 1)) line++;
  }
}

function scalarText(node: Scalar): string {
  const v = node.value;
  if (v === null || v === undefined) return '';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a scalar's value: a string, number, boolean or bigint.
  const s = String(v);
  if (node.type === yamlLib().Scalar.PLAIN && /^(?:~|null|Null|NULL)$/.test(s)) return '';
  return s;
}

/** The comment block directly above a key: the lines after the last blank line. */
function descriptionOf(comment: string | null | undefined): string | undefined {
  if (!comment) return undefined;
  const lines = comment.split('\n');
  const lastBlank = lines.lastIndexOf('');
  const block = lines.slice(lastBlank + 1).map((l) => l.replace(/^ /, ''));
  return block.length ? block.join('\n') : undefined;
}

function isPluralMap(v: YValue): v is YMap {
  if (typeof v === 'string' || v.kind !== 'map' || v.entries.length === 0) return false;
  return (
    v.entries.every((e) => (PLURAL_CATEGORIES as readonly string[]).includes(e.key) && typeof e.value === 'string') &&
    v.entries.some((e) => e.key === 'other')
  );
}

function leafText(v: YValue): string | null {
  if (typeof v === 'string') return v;
  if (isPluralMap(v)) return pluralText(Object.fromEntries(v.entries.map((e) => [e.key, e.value as string])));
  return null;
}

function sameLanguage(a: string, b: string): boolean {
  return a.toLowerCase().replace(/_/g, '-') === b.toLowerCase().replace(/_/g, '-');
}

interface Collected {
  keys: Map<string, BundleKey>;
  languages: string[];
}

function addTranslation(
  c: Collected,
  key: string,
  namespace: string,
  language: string,
  text: string,
  description: string | undefined,
  line: number,
): void {
  let k = c.keys.get(key);
  if (!k) {
    k = { key, namespace, translations: {} };
    c.keys.set(key, k);
  } else if (k.translations[language] !== undefined) {
    throw new FormatError(`Key "${key}" is defined twice`, { line });
  }
  k.translations[language] = { text };
  if (description !== undefined && k.description === undefined) k.description = description;
  if (!c.languages.includes(language)) c.languages.push(language);
}

/** Single-language tree: leaves are texts or plural maps. */
function collectKeys(
  c: Collected,
  v: YValue,
  path: string | null,
  language: string,
  namespace: string,
  description?: string,
  line = 0,
): void {
  if (path !== null) {
    const text = leafText(v);
    if (text !== null) {
      addTranslation(c, path, namespace, language, text, description, line);
      return;
    }
  }
  if (typeof v === 'string') return;
  if (v.kind === 'list')
    v.items.forEach((e, i) =>
      collectKeys(c, e.value, `${path ?? ''}[${i}]`, language, namespace, e.description, e.line),
    );
  else
    for (const e of v.entries)
      collectKeys(c, e.value, path === null ? e.key : `${path}.${e.key}`, language, namespace, e.description, e.line);
}

const KEYS_FIRST = 'with LANGUAGES_NESTED the languages sit under each key (key:\n  en: text)';

/** Keys-first tree (LANGUAGES_NESTED): leaves are maps of language -> text or plural map. */
function collectMulti(
  c: Collected,
  v: YValue,
  path: string | null,
  namespace: string,
  description?: string,
  line = 0,
): void {
  const isLanguageMap =
    typeof v !== 'string' && v.kind === 'map' && path !== null && v.entries.every((e) => leafText(e.value) !== null);
  if (isLanguageMap) {
    for (const e of (v as YMap).entries) {
      if (!LANGUAGE_CODE.test(e.key)) {
        throw new FormatError(
          `"${path}.${e.key}": "${e.key}" is not a language code; ${KEYS_FIRST}. A file with the languages on the first level is read with MULTI_LANGUAGE alone`,
          { line: e.line },
        );
      }
    }
    if (!c.keys.has(path))
      c.keys.set(path, {
        key: path,
        namespace,
        translations: {},
        ...(description !== undefined ? { description } : {}),
      });
    for (const e of (v as YMap).entries)
      addTranslation(c, path, namespace, e.key, leafText(e.value)!, undefined, e.line);
    return;
  }
  if (typeof v === 'string')
    throw new FormatError(`"${path ?? ''}" must be a map of languages to texts: ${KEYS_FIRST}`, { line });
  if (v.kind === 'list')
    v.items.forEach((e, i) => collectMulti(c, e.value, `${path ?? ''}[${i}]`, namespace, e.description, e.line));
  else
    for (const e of v.entries)
      collectMulti(c, e.value, path === null ? e.key : `${path}.${e.key}`, namespace, e.description, e.line);
}

async function parse(input: Buffer, options: ParseOptions): Promise<Bundle> {
  const text = decodeText(input);
  checkNesting(text);
  let doc: Document.Parsed;
  const lineCounter = new (yamlLib().LineCounter)();
  try {
    doc = yamlLib().parseDocument(text, { schema: 'failsafe', uniqueKeys: false, prettyErrors: false, lineCounter });
  } catch (e) {
    throw new FormatError(`Invalid YAML: ${(e as Error).message}`);
  }
  const err = doc.errors[0];
  if (err) {
    const pos = lineCounter.linePos(err.pos[0]);
    throw new FormatError(`Invalid YAML: ${err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`, {
      line: pos.line,
      column: pos.col,
    });
  }
  let root: YValue | null;
  try {
    root = toValue(doc, lineCounter);
  } catch (e) {
    if (e instanceof FormatError) throw e;
    throw new FormatError(`Invalid YAML: ${(e as Error).message}`);
  }
  const c: Collected = { keys: new Map(), languages: [] };
  const namespace = options.namespace ?? '';
  if (root === null || root === '')
    return { keys: [], languages: options.languageKey ? [{ key: options.languageKey }] : [] };
  if (typeof root === 'string' || root.kind !== 'map')
    throw new FormatError('A YAML translation file must be a map of keys');

  if (options.options.has('LANGUAGES_NESTED')) {
    collectMulti(c, root, null, namespace);
  } else if (options.options.has('MULTI_LANGUAGE')) {
    const shape =
      'with MULTI_LANGUAGE the first level holds the languages, each a map of its keys (en:\n  home.title: text); a file with the languages under each key is read with MULTI_LANGUAGE,LANGUAGES_NESTED';
    for (const e of root.entries) {
      if (!LANGUAGE_CODE.test(e.key))
        throw new FormatError(`"${e.key}" on the first level is not a language code: ${shape}`, { line: e.line });
      if (typeof e.value === 'string' || e.value.kind !== 'map')
        throw new FormatError(`"${e.key}" must be a map of keys: ${shape}`, { line: e.line });
      if (!c.languages.includes(e.key)) c.languages.push(e.key);
      collectKeys(c, e.value, null, e.key, namespace);
    }
  } else {
    const language = requireLanguageKey(options, 'yaml');
    const only = root.entries.length === 1 ? root.entries[0]! : null;
    const body =
      only && sameLanguage(only.key, language) && typeof only.value !== 'string' && only.value.kind === 'map'
        ? only.value
        : root;
    collectKeys(c, body, null, language, namespace);
    if (!c.languages.includes(language)) c.languages.push(language);
  }
  return { keys: [...c.keys.values()], languages: c.languages.map((key) => ({ key })) };
}

/** Converts the parsed document, resolving aliases within a budget and a depth limit. */
function toValue(doc: Document.Parsed, lineCounter: LineCounter): YValue | null {
  let nodes = 0;
  let aliases = 0;
  const lineOf = (node: unknown) => {
    const range = (node as { range?: [number, number, number] | null } | null)?.range;
    return range ? lineCounter.linePos(range[0]).line : 0;
  };
  const convert = (node: unknown, depth: number): YValue => {
    if (++nodes > MAX_NODES) throw new FormatError('The YAML document expands to too many nodes (alias bomb?)');
    if (depth > MAX_DEPTH) throw new FormatError(`YAML nested deeper than ${MAX_DEPTH} levels`, { line: lineOf(node) });
    if (yamlLib().isAlias(node)) {
      if (++aliases > MAX_ALIASES) throw new FormatError('Too many YAML aliases (alias bomb?)', { line: lineOf(node) });
      const target = node.resolve(doc);
      if (!target) throw new FormatError(`Unknown YAML alias *${node.source}`, { line: lineOf(node) });
      return convert(target, depth + 1);
    }
    if (yamlLib().isScalar(node)) return scalarText(node);
    if (yamlLib().isSeq(node)) {
      return {
        kind: 'list',
        items: node.items.map((item, index) => {
          const own = (item as { commentBefore?: string | null } | null)?.commentBefore;
          const description = descriptionOf(own ?? (index === 0 ? node.commentBefore : undefined));
          return {
            value: convert(item, depth + 1),
            line: lineOf(item),
            ...(description !== undefined ? { description } : {}),
          };
        }),
      };
    }
    if (yamlLib().isMap(node)) {
      const map: YMap = { kind: 'map', entries: [] };
      // Duplicate keys are checked here: the parser's own check is quadratic in the map size.
      const keys = new Set<string>();
      node.items.forEach((pair, index) => {
        let keyNode: unknown = pair.key;
        if (yamlLib().isAlias(keyNode)) keyNode = keyNode.resolve(doc);
        if (keyNode !== null && !yamlLib().isScalar(keyNode))
          throw new FormatError('Only text keys are supported in YAML maps', { line: lineOf(pair.key) });
        const key = keyNode === null ? '' : scalarText(keyNode as Scalar);
        if (keys.has(key)) throw new FormatError(`Duplicate key "${key}"`, { line: lineOf(pair.key) });
        keys.add(key);
        const keyComment = yamlLib().isScalar(pair.key) ? pair.key.commentBefore : undefined;
        // The parser puts the comment above a nested map's first key on the map itself.
        const comment = keyComment ?? (index === 0 ? node.commentBefore : undefined);
        const description = descriptionOf(comment);
        map.entries.push({
          key,
          value: convert(pair.value, depth + 1),
          line: lineOf(pair.key),
          ...(description !== undefined ? { description } : {}),
        });
      });
      return map;
    }
    if (node === null || node === undefined) return '';
    throw new FormatError('Unsupported YAML node', { line: lineOf(node) });
  };
  return doc.contents === null ? null : convert(doc.contents, 0);
}

// ---- Export ----

type Layout = 'single' | 'multi' | 'languages-nested';
type KeyNode = NestedNode<BundleKey>;
type KeyBranch = Extract<KeyNode, { kind: 'object' }>;
type KeyList = Extract<KeyNode, { kind: 'array' }>;

const isCategory = (name: string): boolean => (PLURAL_CATEGORIES as readonly string[]).includes(name);

function pluralMapFor(text: string): [string, string][] | null {
  const p = pluralToPlatform(text, YAML_NUMBER);
  if (!p || p.argument !== 'count' || Object.keys(p.forms).some((k) => !isCategory(k))) return null;
  // Only what reads back as exactly this text (canonical order and quoting).
  if (pluralText(p.forms) !== text) return null;
  return Object.entries(p.forms);
}

/** A branch of category-named texts would read back as one plural key. */
function looksLikePlural(node: KeyBranch): boolean {
  return (
    node.entries.some(([n]) => n === 'other') && node.entries.every(([n, c]) => c.kind === 'leaf' && isCategory(n))
  );
}

/** A list none of whose items (at any list depth) would read back as a plural. */
function listSafe(node: KeyList): boolean {
  return node.items.every((item) =>
    item.kind === 'object' ? !looksLikePlural(item) : item.kind !== 'array' || listSafe(item),
  );
}

/**
 * Builds `yaml` nodes for members and renders them as text at their
 * indentation level (2 spaces a level), so quoting, block scalars and
 * comments are the package's, as if the whole file were one document.
 */
class YamlText {
  /** One document, reused: only its contents change. */
  private readonly doc = new (yamlLib().Document)();

  constructor(
    private readonly escapeNewLines: boolean,
    private readonly escapeSingleQuotes: boolean,
    private readonly withDescriptions: boolean,
    /** Single-language layouts: what would read back as a plural key is written flat. */
    readonly guardPlurals: boolean,
  ) {}

  private scalar(text: string): Scalar {
    let out = this.escapeNewLines ? text.replace(/\r?\n/g, '\\n') : text;
    if (this.escapeSingleQuotes) out = out.replace(/'/g, "\\'");
    return scalarNode(out);
  }

  private comment<N extends { commentBefore?: string | null }>(node: N, description: string | undefined): N {
    if (this.withDescriptions && description)
      node.commentBefore = description
        .split('\n')
        .map((l) => ` ${l}`)
        .join('\n');
    return node;
  }

  /** A translation: a plural map when lossless and `pluralMap` allows, else a string. */
  translation(t: BundleTranslation | undefined, pluralMap = true): YamlNode {
    const text = t?.text ?? '';
    // Escaped apostrophes would not read back as the ICU quoting of a plural: written as text.
    const plural = pluralMap && !(this.escapeSingleQuotes && text.includes("'")) ? pluralMapFor(text) : null;
    if (!plural) return this.scalar(text);
    const map = mapNode();
    for (const [cat, form] of plural) map.items.push(pairNode(scalarNode(cat), this.scalar(form)));
    return map;
  }

  /** `name: node` as text at `level`; `leaf` makes a key's value. */
  member(name: string, node: KeyNode, level: number, leaf: (k: BundleKey) => YamlNode): string {
    const map = mapNode();
    this.add(map, name, node, leaf);
    return this.render(map, level);
  }

  /** The `name:` line of a branch whose members follow at level + 1. */
  opening(name: string, level: number): string {
    const sentinel = mapNode();
    sentinel.items.push(pairNode(scalarNode('x'), scalarNode('x')));
    const text = this.render(pairMap(scalarNode(name), sentinel), 0);
    let head: string;
    if (text.endsWith(':\n  x: x\n')) head = text.slice(0, -'  x: x\n'.length);
    // A key over 1024 characters is explicit (`? name`, then `: x: x`): its members go below the `:`.
    else if (text.endsWith('\n: x: x\n')) head = text.slice(0, -' x: x\n'.length) + '\n';
    else throw new Error(`Unexpected YAML for the branch "${name}"`);
    return indent(head, level);
  }

  /** `name: {}`, a map without members. */
  emptyMap(name: string): string {
    return this.render(pairMap(scalarNode(name), mapNode()), 0);
  }

  /** Adds `name: child` to a map, or flat members where nesting would not read back. */
  private add(map: YAMLMap, name: string, child: KeyNode, leaf: (k: BundleKey) => YamlNode): void {
    if (this.guardPlurals && child.kind === 'object' && looksLikePlural(child)) {
      for (const [n, c] of child.entries) this.add(map, `${name}.${n}`, c, leaf);
      return;
    }
    // A list item cannot be written flat: the list's items become `name[i]` members.
    if (this.guardPlurals && child.kind === 'array' && !listSafe(child)) {
      child.items.forEach((item, i) => this.add(map, `${name}[${i}]`, item, leaf));
      return;
    }
    const key = this.comment(scalarNode(name), child.kind === 'leaf' ? child.value.description : undefined);
    map.items.push(pairNode(key, this.node(child, leaf)));
  }

  private node(node: KeyNode, leaf: (k: BundleKey) => YamlNode): YamlNode {
    if (node.kind === 'leaf') return leaf(node.value);
    if (node.kind === 'array') {
      const seq = seqNode();
      for (const item of node.items) {
        const value = this.node(item, leaf);
        if (item.kind === 'leaf') this.comment(value as Scalar | YAMLMap, item.value.description);
        seq.items.push(value);
      }
      return seq;
    }
    const map = mapNode();
    for (const [name, child] of node.entries) this.add(map, name, child, leaf);
    return map;
  }

  private render(map: YAMLMap, level: number): string {
    this.doc.contents = map;
    return indent(this.doc.toString({ lineWidth: 0 }), level);
  }
}

function pairMap(key: Scalar, value: YamlNode): YAMLMap {
  const map = mapNode();
  map.items.push(pairNode(key, value));
  return map;
}

/**
 * Indents block YAML text by `level` steps. Empty lines stay empty: inside a
 * block scalar they are content either way, and trailing spaces would not be.
 */
function indent(text: string, level: number): string {
  if (level === 0) return text;
  const pad = '  '.repeat(level);
  return text
    .split('\n')
    .map((line) => (line === '' ? line : pad + line))
    .join('\n');
}

/**
 * Members of one tree as they stream in (see NestedStream), at `base` levels
 * below the file's root, holding back a branch that may read back as a plural
 * (rule 1 at the top of the file).
 */
class YamlStyle implements NestedStyle<BundleKey> {
  /** An opened branch not written yet: all its members so far are category-named leaves (at most 6). */
  private held: { name: string; depth: number; members: [string, KeyNode][] } | undefined;

  constructor(
    private readonly text: YamlText,
    private readonly leaf: (k: BundleKey) => YamlNode,
    private readonly base: number,
    /** Single layout with WRITE_NESTED: the language's name, whose root branch stays flat (rule 2). */
    private readonly rootLanguage?: string,
  ) {}

  member(name: string, node: KeyNode, depth: number): string {
    const held = this.held;
    if (held && depth === held.depth + 1 && node.kind === 'leaf' && isCategory(name)) {
      held.members.push([name, node]);
      return '';
    }
    return this.release() + this.write(name, node, depth);
  }

  open(name: string, depth: number): string {
    const out = this.release();
    if (!this.text.guardPlurals) return out + this.text.opening(name, depth + this.base);
    this.held = { name, depth, members: [] };
    return out;
  }

  close(): string {
    const held = this.held;
    // A block map needs no closing text. A held branch is always the innermost open one: it is the one closing.
    if (!held) return '';
    this.held = undefined;
    if (!held.members.some(([n]) => n === 'other')) return this.branch(held.name, held.depth, held.members);
    // It would read back as one plural key: its members go flat into the parent.
    return held.members.map(([n, node]) => this.write(`${held.name}.${n}`, node, held.depth)).join('');
  }

  flatBranch(name: string): boolean {
    return this.rootLanguage !== undefined && sameLanguage(name, this.rootLanguage);
  }

  /** Writes a held branch as an ordinary one: a member broke the plural pattern. */
  private release(): string {
    const held = this.held;
    if (!held) return '';
    this.held = undefined;
    return this.branch(held.name, held.depth, held.members);
  }

  private branch(name: string, depth: number, members: [string, KeyNode][]): string {
    return (
      this.text.opening(name, depth + this.base) + members.map(([n, node]) => this.write(n, node, depth + 1)).join('')
    );
  }

  private write(name: string, node: KeyNode, depth: number): string {
    return this.text.member(name, node, depth + this.base, this.leaf);
  }
}

/** One tree of keys (the file's root map, or one language's map), written as keys stream in. */
class YamlTree {
  private readonly stream: NestedStream<BundleKey>;

  constructor(style: YamlStyle, nested: boolean) {
    this.stream = new NestedStream(style, nested);
  }

  get members(): number {
    return this.stream.rootMembers;
  }

  write(keys: readonly BundleKey[]): string {
    let out = '';
    for (const key of keys) out += this.stream.add(key.key, key);
    return out;
  }

  end(): string {
    return this.stream.end();
  }
}

function writer(options: SerializeOptions): FormatWriter {
  const opts = options.options as Set<string>;
  const languages = options.languages.map((l) => l.key);
  if (!languages.length) throw new FormatError('The yaml format needs a language to export');
  const layout: Layout = opts.has('LANGUAGES_NESTED')
    ? 'multi'
    : opts.has('MULTI_LANGUAGE') || languages.length > 1
      ? 'languages-nested'
      : 'single';
  const nested = opts.has('WRITE_NESTED');
  const text = new YamlText(
    opts.has('ESCAPE_NEW_LINES'),
    opts.has('ESCAPE_SINGLE_QUOTES'),
    opts.has('INCLUDE_DESCRIPTIONS'),
    layout !== 'multi',
  );

  if (layout === 'languages-nested') {
    // One section per language: `lang:` and its keys one level down, or `lang: {}`.
    const trees = languages.map((language) => {
      const tree = new YamlTree(new YamlStyle(text, (k) => text.translation(k.translations[language]), 1), nested);
      let opened = false;
      const section = (out: string) => {
        if (out === '' || opened) return out;
        opened = true;
        return text.opening(language, 0) + out;
      };
      return {
        write: (keys: readonly BundleKey[]) => section(tree.write(keys)),
        end: () => {
          const out = section(tree.end());
          return tree.members === 0 ? text.emptyMap(language) : out;
        },
      };
    });
    return {
      write: (keys) => ({ sections: trees.map((t) => t.write(keys)) }),
      end: () => ({ sections: trees.map((t) => t.end()) }),
    };
  }

  let style: YamlStyle;
  if (layout === 'single') {
    const language = languages[0]!;
    // A lone root member named after the language would be stripped as a Rails root on import (rule 2).
    style = new YamlStyle(
      text,
      (k) => text.translation(k.translations[language], !sameLanguage(k.key, language)),
      0,
      nested ? language : undefined,
    );
  } else {
    style = new YamlStyle(
      text,
      (k) => {
        const map = mapNode();
        for (const l of languages) map.items.push(pairNode(scalarNode(l), text.translation(k.translations[l])));
        return map;
      },
      0,
    );
  }
  const tree = new YamlTree(style, nested);
  return {
    write: (keys) => tree.write(keys),
    end: () => {
      const out = tree.end();
      return tree.members === 0 ? '{}\n' : out;
    },
  };
}

export const yaml = defineFormat({
  id: 'yaml',
  multiLanguage: false,
  namespaces: false,
  extension: 'yml',
  contentType: 'application/yaml; charset=utf-8',
  keyOrder: nestedKeyOrder,
  parse,
  writer,
});

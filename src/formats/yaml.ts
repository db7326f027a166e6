// YAML translation files (Rails i18n, Symfony, and others).
//
// Import (the `yaml` package, failsafe schema so every scalar stays the text
// it was written as: `yes`, `1.0`, `:day` are strings):
// - Layouts: single-language nested keys (default) -> dotted keys;
//   MULTI_LANGUAGE: `{key: {lang: text}}` (nested key paths whose leaves are
//   maps of language -> text); LANGUAGES_NESTED: `{lang: {nested keys}}`.
// - Rails files wrap a single-language file in its language (`en: {...}`):
//   when the only root key equals languageKey ('-' and '_' alike, any case),
//   it is stripped.
// - Plurals: a map whose keys are all CLDR categories (zero/one/two/few/many/
//   other), with `other` among them and texts as values, is one key whose text
//   is an ICU plural (Rails' convention).
// - Lists become keys with their index in brackets, as in the JSON formats
//   (`date.day_names[0]`, see nested-keys.ts); an empty or null value is an
//   empty text.
// - A comment directly above a leaf key (no blank line between) is its
//   description; a comment separated from the key by a blank line is not.
// - Hostile input: nesting deeper than 64 levels is refused before the parser
//   sees it (the parser recurses); aliases are resolved with a budget (an
//   alias bomb is refused); duplicate keys are an error (checked with a set:
//   the parser's uniqueKeys option is quadratic in the size of a map).
//
// Export:
// - Layout: options may carry MULTI_LANGUAGE or LANGUAGES_NESTED (cast from
//   the import option names); otherwise several languages give the
//   LANGUAGES_NESTED layout and one language the single-language layout
//   (without a root language key: use LANGUAGES_NESTED for a Rails file).
// - WRITE_NESTED nests keys on '.', as for the other formats; without it keys
//   are written flat (`a.b: text`). Nesting follows nested-keys.ts: a key that
//   is both a leaf and a parent keeps its children flat next to it, `t[0]`,
//   `t[1]` keys become a list, keys with an empty segment stay flat. A branch
//   holding only category-named leaves (`x.one`, `x.other`) is also written
//   flat, or it would read back as one plural key. A file has no namespaces:
//   when several namespaces share a key name, the first is written.
// - ICU plurals become category maps when that is lossless (argument `count`,
//   only category branches, canonical form); others are written as text.
// - Descriptions as `#` comments with INCLUDE_DESCRIPTIONS; ESCAPE_NEW_LINES
//   writes newlines as the two characters \n. A missing translation is ''.
import YAML, { isAlias, isMap, isScalar, isSeq, Pair, Scalar, YAMLMap, YAMLSeq, type Node as YamlNode } from 'yaml';
import { FormatError, type Bundle, type BundleKey, type BundleTranslation, type FileFormat, type ParseOptions, type SerializeOptions } from './model.js';
import { PLURAL_CATEGORIES, parseIcuPlural, toIcuPlural } from './plural.js';
import { decodeText } from './text.js';
import { firstOfEachKey, flatObject, unflatten, type NestedNode } from './nested-keys.js';
import { keysForFile, requireLanguageKey } from './single-language.js';

const MAX_DEPTH = 64;
const MAX_ALIASES = 1000;
const MAX_NODES = 1_000_000;

// ---- Import: YAML -> a plain ordered value ----

type YValue = string | YList | YMap;
interface YEntry { value: YValue; description?: string; line: number }
interface YList { kind: 'list'; items: YEntry[] }
interface YMap { kind: 'map'; entries: (YEntry & { key: string })[] }

/**
 * Rejects flow collections ([ {) or compact sequences (- - -) nested deeper
 * than the limit, before the parser (which recurses, and takes seconds on a
 * megabyte of brackets) sees them. Quoted strings, comments and block scalars
 * are skipped; an over-estimate only refuses what the depth check after
 * parsing would refuse anyway.
 */
function checkNesting(text: string): void {
  const lines = text.split('\n');
  const blockHeader = /[|>][-+0-9]*[ \t]*(?:#.*)?$/y;
  let flow = 0;
  let quote: string | null = null;
  let blockIndent = -1; // inside a block scalar: lines indented more than this belong to it
  let lineIndent = 0;
  for (let ln = 0; ln < lines.length; ln++) {
    const l = lines[ln]!.endsWith('\r') ? lines[ln]!.slice(0, -1) : lines[ln]!;
    const tooDeep = (): never => { throw new FormatError(`YAML nested deeper than ${MAX_DEPTH} levels`, { line: ln + 1 }); };
    let j = 0;
    if (quote === null && flow === 0) {
      let indent = 0;
      while (l[indent] === ' ') indent++;
      if (blockIndent >= 0) {
        if (indent === l.length || indent > blockIndent) continue;
        blockIndent = -1;
      }
      const compact = /^(?:[-?:][ \t]+)+/.exec(l.slice(indent, indent + 4 * MAX_DEPTH + 8));
      if (compact && compact[0].replace(/\s/g, '').length > MAX_DEPTH) tooDeep();
      j = indent;
      lineIndent = indent;
    }
    let tokenStart = true;
    for (; j < l.length; j++) {
      const c = l[j]!;
      if (quote !== null) {
        if (quote === '"' && c === '\\') { j++; continue; }
        if (c === quote) {
          if (quote === "'" && l[j + 1] === "'") { j++; continue; }
          quote = null;
          tokenStart = false;
        }
        continue;
      }
      if (c === '#' && tokenStart) break;
      if ((c === '"' || c === "'") && tokenStart) { quote = c; continue; }
      if ((c === '[' || c === '{') && tokenStart) { if (++flow > MAX_DEPTH) tooDeep(); continue; }
      if ((c === ']' || c === '}') && flow > 0) { flow--; tokenStart = false; continue; }
      if ((c === '|' || c === '>') && tokenStart && flow === 0) {
        blockHeader.lastIndex = j;
        if (blockHeader.test(l)) { blockIndent = lineIndent; break; }
      }
      tokenStart = c === ' ' || c === '\t' || c === ',' || ((c === '-' || c === ':' || c === '?') && /\s/.test(l[j + 1] ?? ' '));
    }
  }
}

function scalarText(node: Scalar): string {
  const v = node.value;
  if (v === null || v === undefined) return '';
  const s = String(v);
  if (node.type === Scalar.PLAIN && /^(?:~|null|Null|NULL)$/.test(s)) return '';
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
  return v.entries.every((e) => (PLURAL_CATEGORIES as readonly string[]).includes(e.key) && typeof e.value === 'string') && v.entries.some((e) => e.key === 'other');
}

function leafText(v: YValue): string | null {
  if (typeof v === 'string') return v;
  if (isPluralMap(v)) return toIcuPlural(Object.fromEntries(v.entries.map((e) => [e.key, e.value as string])));
  return null;
}

function sameLanguage(a: string, b: string): boolean {
  return a.toLowerCase().replace(/_/g, '-') === b.toLowerCase().replace(/_/g, '-');
}

interface Collected {
  keys: Map<string, BundleKey>;
  languages: string[];
}

function addTranslation(c: Collected, key: string, namespace: string, language: string, text: string, description: string | undefined, line: number): void {
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
function collectKeys(c: Collected, v: YValue, path: string | null, language: string, namespace: string, description?: string, line = 0): void {
  if (path !== null) {
    const text = leafText(v);
    if (text !== null) { addTranslation(c, path, namespace, language, text, description, line); return; }
  }
  if (typeof v === 'string') return;
  if (v.kind === 'list') v.items.forEach((e, i) => collectKeys(c, e.value, `${path ?? ''}[${i}]`, language, namespace, e.description, e.line));
  else for (const e of v.entries) collectKeys(c, e.value, path === null ? e.key : `${path}.${e.key}`, language, namespace, e.description, e.line);
}

/** MULTI_LANGUAGE tree: leaves are maps of language -> text or plural map. */
function collectMulti(c: Collected, v: YValue, path: string | null, namespace: string, description?: string, line = 0): void {
  const isLanguageMap = typeof v !== 'string' && v.kind === 'map' && path !== null && v.entries.every((e) => leafText(e.value) !== null);
  if (isLanguageMap) {
    if (!c.keys.has(path)) c.keys.set(path, { key: path, namespace, translations: {}, ...(description !== undefined ? { description } : {}) });
    for (const e of (v as YMap).entries) addTranslation(c, path, namespace, e.key, leafText(e.value)!, undefined, e.line);
    return;
  }
  if (typeof v === 'string') throw new FormatError(`In the MULTI_LANGUAGE layout "${path ?? ''}" must be a map of languages to texts`, { line });
  if (v.kind === 'list') v.items.forEach((e, i) => collectMulti(c, e.value, `${path ?? ''}[${i}]`, namespace, e.description, e.line));
  else for (const e of v.entries) collectMulti(c, e.value, path === null ? e.key : `${path}.${e.key}`, namespace, e.description, e.line);
}

async function parse(input: Buffer, options: ParseOptions): Promise<Bundle> {
  const text = decodeText(input);
  checkNesting(text);
  let doc: YAML.Document.Parsed;
  const lineCounter = new YAML.LineCounter();
  try {
    doc = YAML.parseDocument(text, { schema: 'failsafe', uniqueKeys: false, prettyErrors: false, lineCounter });
  } catch (e) {
    throw new FormatError(`Invalid YAML: ${(e as Error).message}`);
  }
  const err = doc.errors[0];
  if (err) {
    const pos = lineCounter.linePos(err.pos[0]);
    throw new FormatError(`Invalid YAML: ${err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`, { line: pos.line, column: pos.col });
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
  if (root === null || root === '') return { keys: [], languages: options.languageKey ? [{ key: options.languageKey }] : [] };
  if (typeof root === 'string' || root.kind !== 'map') throw new FormatError('A YAML translation file must be a map of keys');

  if (options.options.has('MULTI_LANGUAGE')) {
    collectMulti(c, root, null, namespace);
  } else if (options.options.has('LANGUAGES_NESTED')) {
    for (const e of root.entries) {
      if (typeof e.value === 'string' || e.value.kind !== 'map') throw new FormatError(`In the LANGUAGES_NESTED layout "${e.key}" must be a map of keys`, { line: e.line });
      if (!c.languages.includes(e.key)) c.languages.push(e.key);
      collectKeys(c, e.value, null, e.key, namespace);
    }
  } else {
    const language = requireLanguageKey(options, 'yaml');
    const only = root.entries.length === 1 ? root.entries[0]! : null;
    const body = only && sameLanguage(only.key, language) && typeof only.value !== 'string' && only.value.kind === 'map' ? only.value : root;
    collectKeys(c, body, null, language, namespace);
    if (!c.languages.includes(language)) c.languages.push(language);
  }
  return { keys: [...c.keys.values()], languages: c.languages.map((key) => ({ key })) };
}

/** Converts the parsed document, resolving aliases within a budget and a depth limit. */
function toValue(doc: YAML.Document.Parsed, lineCounter: YAML.LineCounter): YValue | null {
  let nodes = 0;
  let aliases = 0;
  const lineOf = (node: unknown) => {
    const range = (node as { range?: [number, number, number] | null } | null)?.range;
    return range ? lineCounter.linePos(range[0]).line : 0;
  };
  const convert = (node: unknown, depth: number): YValue => {
    if (++nodes > MAX_NODES) throw new FormatError('The YAML document expands to too many nodes (alias bomb?)');
    if (depth > MAX_DEPTH) throw new FormatError(`YAML nested deeper than ${MAX_DEPTH} levels`, { line: lineOf(node) });
    if (isAlias(node)) {
      if (++aliases > MAX_ALIASES) throw new FormatError('Too many YAML aliases (alias bomb?)', { line: lineOf(node) });
      const target = node.resolve(doc);
      if (!target) throw new FormatError(`Unknown YAML alias *${node.source}`, { line: lineOf(node) });
      return convert(target, depth + 1);
    }
    if (isScalar(node)) return scalarText(node);
    if (isSeq(node)) {
      return {
        kind: 'list',
        items: node.items.map((item, index) => {
          const own = (item as { commentBefore?: string | null } | null)?.commentBefore;
          const description = descriptionOf(own ?? (index === 0 ? node.commentBefore : undefined));
          return { value: convert(item, depth + 1), line: lineOf(item), ...(description !== undefined ? { description } : {}) };
        }),
      };
    }
    if (isMap(node)) {
      const map: YMap = { kind: 'map', entries: [] };
      // Duplicate keys are checked here: the parser's own check is quadratic in the map size.
      const keys = new Set<string>();
      node.items.forEach((pair, index) => {
        let keyNode: unknown = pair.key;
        if (isAlias(keyNode)) keyNode = keyNode.resolve(doc);
        if (keyNode !== null && !isScalar(keyNode)) throw new FormatError('Only text keys are supported in YAML maps', { line: lineOf(pair.key) });
        const key = keyNode === null ? '' : scalarText(keyNode as Scalar);
        if (keys.has(key)) throw new FormatError(`Duplicate key "${key}"`, { line: lineOf(pair.key) });
        keys.add(key);
        const keyComment = isScalar(pair.key) ? pair.key.commentBefore : undefined;
        // The parser puts the comment above a nested map's first key on the map itself.
        const comment = keyComment ?? (index === 0 ? node.commentBefore : undefined);
        const description = descriptionOf(comment);
        map.entries.push({ key, value: convert(pair.value, depth + 1), line: lineOf(pair.key), ...(description !== undefined ? { description } : {}) });
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

function pluralMapFor(text: string): [string, string][] | null {
  const p = parseIcuPlural(text);
  if (!p || p.argument !== 'count' || Object.keys(p.forms).some((k) => k.startsWith('='))) return null;
  if (toIcuPlural(p.forms) !== text) return null;
  return Object.entries(p.forms);
}

/** A branch of category-named texts would read back as one plural key. */
function looksLikePlural(node: NestedNode<BundleKey>): boolean {
  if (node.kind !== 'object') return false;
  const names = node.entries.map(([n]) => n);
  return names.includes('other') && node.entries.every(([n, c]) => c.kind === 'leaf' && (PLURAL_CATEGORIES as readonly string[]).includes(n));
}

class Writer {
  constructor(
    private readonly escapeNewLines: boolean,
    private readonly withDescriptions: boolean,
    private readonly nested: boolean,
    /** Single-language layouts: category-named branches must be kept flat. */
    private readonly guardPlurals: boolean,
  ) {}

  private scalar(text: string): Scalar {
    return new Scalar(this.escapeNewLines ? text.replace(/\r?\n/g, '\\n') : text);
  }

  private comment<N extends { commentBefore?: string | null }>(node: N, description: string | undefined): N {
    if (this.withDescriptions && description) node.commentBefore = description.split('\n').map((l) => ` ${l}`).join('\n');
    return node;
  }

  /** A translation: a plural map when lossless, else a string. */
  translation(t: BundleTranslation | undefined): YamlNode {
    const text = t?.text ?? '';
    const plural = pluralMapFor(text);
    if (!plural) return this.scalar(text);
    const map = new YAMLMap();
    for (const [cat, form] of plural) map.items.push(new Pair(new Scalar(cat), this.scalar(form)));
    return map;
  }

  /** The keys as a map, nested (WRITE_NESTED, see nested-keys.ts) or flat; `leaf` makes each key's value. */
  keys(keys: BundleKey[], leaf: (k: BundleKey) => YamlNode): YamlNode {
    const entries = keys.map((k) => [k.key, k] as const);
    return this.node(this.nested ? unflatten(entries) : flatObject(entries), leaf);
  }

  private node(node: NestedNode<BundleKey>, leaf: (k: BundleKey) => YamlNode): YamlNode {
    if (node.kind === 'leaf') return leaf(node.value);
    if (node.kind === 'array') {
      const seq = new YAMLSeq();
      for (const item of node.items) {
        const value = this.node(item, leaf);
        if (item.kind === 'leaf') this.comment(value as Scalar | YAMLMap, item.value.description);
        seq.items.push(value);
      }
      return seq;
    }
    const map = new YAMLMap();
    const add = (name: string, child: NestedNode<BundleKey>) => {
      if (this.guardPlurals && looksLikePlural(child) && child.kind === 'object') {
        for (const [n, c] of child.entries) add(`${name}.${n}`, c);
        return;
      }
      const key = this.comment(new Scalar(name), child.kind === 'leaf' ? child.value.description : undefined);
      map.items.push(new Pair(key, this.node(child, leaf)));
    };
    for (const [name, child] of node.entries) add(name, child);
    return map;
  }
}

async function serialize(bundle: Bundle, options: SerializeOptions): Promise<Buffer> {
  const opts = options.options as Set<string>;
  const languages = options.languages.map((l) => l.key);
  if (!languages.length) throw new FormatError('The yaml format needs a language to export');
  const layout: Layout = opts.has('MULTI_LANGUAGE') ? 'multi' : opts.has('LANGUAGES_NESTED') || languages.length > 1 ? 'languages-nested' : 'single';
  const w = new Writer(opts.has('ESCAPE_NEW_LINES'), opts.has('INCLUDE_DESCRIPTIONS'), opts.has('WRITE_NESTED'), layout !== 'multi');
  const keys = firstOfEachKey(keysForFile(bundle, options));

  let contents: YamlNode;
  if (layout === 'single') {
    const language = languages[0]!;
    contents = w.keys(keys, (k) => w.translation(k.translations[language]));
    // A lone root branch named after the language would be stripped as a Rails root on import: stay flat.
    if (contents instanceof YAMLMap && contents.items.length === 1 && contents.items[0]!.value instanceof YAMLMap && sameLanguage(String((contents.items[0]!.key as Scalar).value), language)) {
      contents = new Writer(opts.has('ESCAPE_NEW_LINES'), opts.has('INCLUDE_DESCRIPTIONS'), false, true).keys(keys, (k) => w.translation(k.translations[language]));
    }
  } else if (layout === 'multi') {
    contents = w.keys(keys, (k) => {
      const map = new YAMLMap();
      for (const l of languages) map.items.push(new Pair(new Scalar(l), w.translation(k.translations[l])));
      return map;
    });
  } else {
    const map = new YAMLMap();
    for (const l of languages) map.items.push(new Pair(new Scalar(l), w.keys(keys, (k) => w.translation(k.translations[l]))));
    contents = map;
  }
  const doc = new YAML.Document();
  doc.contents = contents;
  const text = keys.length || layout !== 'single' ? doc.toString({ lineWidth: 0 }) : '{}\n';
  return Buffer.from(text, 'utf8');
}

export const yaml: FileFormat = {
  id: 'yaml',
  multiLanguage: false,
  extension: 'yml',
  contentType: 'application/yaml; charset=utf-8',
  parse,
  serialize,
};

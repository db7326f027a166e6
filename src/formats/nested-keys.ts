// Dotted keys <-> nested objects, for the JSON-like formats (JSON, JavaScript).
//
// flatten: a parsed tree (plain objects, Maps, arrays, leaves) -> [dotted key, leaf].
//   Object members join with '.', array items with `[i]`: {a: {b: 'x'}, t: ['p', 'q']}
//   gives `a.b`, `t[0]`, `t[1]`. Empty objects and arrays give no key. Depth is
//   capped (FormatError); a visit budget stops shared references (JavaScript
//   bindings used twice) from multiplying a small file into a huge one.
//
// unflatten: [dotted key, value] -> an ordered tree (NestedNode), the inverse of
//   flatten, so flatten(unflatten(keys)) gives back exactly the same keys. Rules:
//   - `a` and `a.b` both present (a leaf that is also a parent): the leaf stays
//     at `a` and everything below it is written flat in the same object,
//     {a: 'x', 'a.b': 'y'}. Nothing is dropped and re-reading gives `a`, `a.b`.
//   - `t[0]`, `t[1]`, ... become an array when the indices are exactly 0..n-1
//     and every item fits in an array (no item that is both a leaf and a parent).
//     Otherwise the items stay as flat `t[5]`-style names next to `t`.
//   - A key with an empty segment (`Done.`, `.a`, `a..b`) or more than 64 parts
//     is written flat at the top level: sentence-like keys stay readable and the
//     output never nests deeper than the parsers accept.
//   - The same key given twice: the first value is kept.
// Both directions are linear in the total length of the keys.
import { FormatError } from './model.js';

export const MAX_NESTING = 64;

export type NestedNode<V> =
  | { kind: 'leaf'; value: V }
  | { kind: 'object'; entries: [string, NestedNode<V>][] }
  | { kind: 'array'; items: NestedNode<V>[] };

export interface FlatEntry<L> {
  key: string;
  value: L;
}

export interface FlattenOptions {
  /** Maximum nesting of objects and arrays, the root object counting as 1. Default 64. */
  maxDepth?: number;
  /** Maximum number of values visited (branches and leaves). Default: no limit. */
  maxNodes?: number;
}

type Branch = unknown[] | Map<string, unknown> | Record<string, unknown>;

/** Arrays, Maps and plain objects are branches; anything else (including class instances) is a leaf. */
export function isBranch(value: unknown): value is Branch {
  if (Array.isArray(value) || value instanceof Map) return true;
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Dotted keys of every leaf, in document order. */
export function flatten<L = unknown>(root: unknown, options: FlattenOptions = {}): FlatEntry<L>[] {
  const maxDepth = options.maxDepth ?? MAX_NESTING;
  let budget = options.maxNodes ?? Number.POSITIVE_INFINITY;
  const out: FlatEntry<L>[] = [];
  // Two paths can only give the same key when a member name holds '.' or '['.
  let ambiguous = false;
  const visit = (node: unknown, path: string, depth: number): void => {
    if (--budget < 0)
      throw new FormatError('The file expands to too many values (is one object referenced many times?)');
    if (!isBranch(node)) {
      out.push({ key: path, value: node as L });
      return;
    }
    if (depth > maxDepth) throw new FormatError(`Nesting is deeper than ${maxDepth} levels at "${path}"`);
    if (Array.isArray(node)) {
      // Holes and undefined items (skipped values) give no key; the other indices stay as they are.
      node.forEach((item, i) => {
        if (item !== undefined) visit(item, `${path}[${i}]`, depth + 1);
      });
      return;
    }
    const member = (child: unknown, name: string) => {
      if (child === undefined) return;
      if (!ambiguous && (name.includes('.') || name.includes('['))) ambiguous = true;
      visit(child, depth === 1 ? name : `${path}.${name}`, depth + 1);
    };
    if (node instanceof Map) node.forEach(member);
    else for (const name of Object.keys(node)) member(node[name], name);
  };
  visit(root, '', 1);
  if (ambiguous) {
    const seen = new Set<string>();
    for (const { key } of out) {
      if (seen.has(key))
        throw new FormatError(`The key "${key}" is defined twice (once nested and once with dots in its name)`);
      seen.add(key);
    }
  }
  return out;
}

interface Trie<V> {
  has: boolean;
  value: V | undefined;
  /**
   * Child id -> child, in first-seen order. A member's id is its name (never
   * holds '.'), an array index's id is '.' + its digits, so they cannot clash.
   */
  children: Map<string, Trie<V>> | null;
  /** A root child that is a whole key written flat (empty segment or too many parts). */
  flat: boolean;
  arrayable: boolean | undefined;
}

const newTrie = <V>(): Trie<V> => ({ has: false, value: undefined, children: null, flat: false, arrayable: undefined });
const isIndex = (id: string) => id.charCodeAt(0) === 46; /* . */
/** A part of keyParts that is an array index (`.12`), not a member name. */
export const isIndexPart = isIndex;
const CANONICAL_INDEX = /^(?:0|[1-9]\d{0,8})$/;

/** Fills `parts` with the child ids of a key; false when the key must stay flat (empty segment or too deep). */
export function keyParts(key: string, maxParts: number, parts: string[]): boolean {
  parts.length = 0;
  for (const segment of key.split('.')) {
    if (segment === '') return false;
    let end = segment.length;
    const first = parts.length;
    // Trailing canonical indices, read from the end: `t[0][12]` -> t, .0, .12
    while (end > 0 && segment.charCodeAt(end - 1) === 93 /* ] */) {
      const open = segment.lastIndexOf('[', end - 1);
      if (open <= 0) break;
      const digits = segment.slice(open + 1, end - 1);
      if (!CANONICAL_INDEX.test(digits)) break;
      parts.push('.' + digits);
      end = open;
    }
    if (parts.length > first) {
      parts.push(segment.slice(0, end));
      // Indices were read last-first: put the name first, then the indices in order.
      const tail = parts.splice(first).reverse();
      for (const id of tail) parts.push(id);
    } else {
      parts.push(segment);
    }
    if (parts.length > maxParts) return false;
  }
  return true;
}

/** Builds the nested form of [dotted key, value] pairs (see the rules at the top of this file). */
export function unflatten<V>(
  entries: Iterable<readonly [string, V]>,
  options: { maxDepth?: number } = {},
): NestedNode<V> {
  // The root object is one level, so a key may have maxDepth parts (maxDepth - 1 nested branches below the root).
  const maxParts = options.maxDepth ?? MAX_NESTING;
  const root = newTrie<V>();
  const rootChildren = (root.children = new Map<string, Trie<V>>());
  const parts: string[] = [];
  for (const [key, value] of entries) {
    let node: Trie<V>;
    if (keyParts(key, maxParts, parts)) {
      node = root;
      for (const id of parts) {
        const children = (node.children ??= new Map<string, Trie<V>>());
        let child = children.get(id);
        if (!child) {
          child = newTrie<V>();
          children.set(id, child);
        }
        node = child;
      }
    } else {
      // Flat keys hold '.' or many parts, so they cannot equal a member name.
      let flat = rootChildren.get(key);
      if (!flat) {
        flat = newTrie<V>();
        flat.flat = true;
        rootChildren.set(key, flat);
      }
      node = flat;
    }
    if (!node.has) {
      node.has = true;
      node.value = value;
    }
  }
  const out: [string, NestedNode<V>][] = [];
  for (const [id, child] of rootChildren) {
    if (child.flat) out.push([id, { kind: 'leaf', value: child.value as V }]);
    else place(out, id, child);
  }
  return { kind: 'object', entries: out };
}

const childPath = (path: string, id: string) => (isIndex(id) ? `${path}[${id.slice(1)}]` : `${path}.${id}`);

/** Writes `node` under `name` into an object's entries. */
function place<V>(entries: [string, NestedNode<V>][], name: string, node: Trie<V>): void {
  if (node.has) {
    entries.push([name, { kind: 'leaf', value: node.value as V }]);
    // A leaf that is also a parent: its descendants go flat next to it.
    if (node.children) for (const [id, child] of node.children) placeFlat(entries, childPath(name, id), child);
    return;
  }
  if (arrayable(node)) {
    entries.push([name, arrayOf(node)]);
    return;
  }
  const members: [string, NestedNode<V>][] = [];
  const hoisted: [string, Trie<V>][] = [];
  for (const [id, child] of node.children!) {
    if (isIndex(id)) hoisted.push([childPath(name, id), child]);
    else place(members, id, child);
  }
  if (members.length) entries.push([name, { kind: 'object', entries: members }]);
  // Items that cannot form an array stay as `name[i]` members of this object.
  for (const [itemName, child] of hoisted) place(entries, itemName, child);
}

function placeFlat<V>(entries: [string, NestedNode<V>][], path: string, node: Trie<V>): void {
  if (node.has) entries.push([path, { kind: 'leaf', value: node.value as V }]);
  if (node.children) for (const [id, child] of node.children) placeFlat(entries, childPath(path, id), child);
}

/** Children are exactly indices 0..n-1, and each item is a plain leaf or a branch that needs no flat names outside itself. */
function arrayable<V>(node: Trie<V>): boolean {
  if (node.arrayable !== undefined) return node.arrayable;
  let ok = !node.has && node.children !== null && node.children.size > 0;
  if (ok) {
    const n = node.children!.size;
    for (const [id, child] of node.children!) {
      if (!isIndex(id) || Number(id.slice(1)) >= n) {
        ok = false;
        break;
      }
      if (
        child.has ? child.children !== null && child.children.size > 0 : hasIndexChildren(child) && !arrayable(child)
      ) {
        ok = false;
        break;
      }
    }
  }
  node.arrayable = ok;
  return ok;
}

function hasIndexChildren<V>(node: Trie<V>): boolean {
  if (node.children) for (const id of node.children.keys()) if (isIndex(id)) return true;
  return false;
}

function arrayOf<V>(node: Trie<V>): NestedNode<V> {
  const items = new Array<NestedNode<V>>(node.children!.size);
  for (const [id, child] of node.children!) {
    let item: NestedNode<V>;
    if (child.has) item = { kind: 'leaf', value: child.value as V };
    else if (arrayable(child)) item = arrayOf(child);
    else {
      const members: [string, NestedNode<V>][] = [];
      for (const [cid, grandchild] of child.children!) place(members, cid, grandchild);
      item = { kind: 'object', entries: members };
    }
    items[Number(id.slice(1))] = item;
  }
  return { kind: 'array', items };
}

/** Maps every leaf of a nested tree (e.g. a key's value to the node that writes it). */
export function mapLeaves<V, W>(node: NestedNode<V>, f: (value: V) => NestedNode<W>): NestedNode<W> {
  if (node.kind === 'leaf') return f(node.value);
  if (node.kind === 'array') return { kind: 'array', items: node.items.map((item) => mapLeaves(item, f)) };
  return { kind: 'object', entries: node.entries.map(([name, child]) => [name, mapLeaves(child, f)]) };
}

/** Plain JavaScript form of a nested tree (objects have no prototype, so any key is safe). */
export function toPlain<V>(node: NestedNode<V>): unknown {
  if (node.kind === 'leaf') return node.value;
  if (node.kind === 'array') return node.items.map(toPlain);
  const obj = Object.create(null) as Record<string, unknown>;
  for (const [name, child] of node.entries) obj[name] = toPlain(child);
  return obj;
}

const NAME_TERMINATOR = Buffer.from([0, 1]);
const ESCAPED_ZERO = Buffer.from([0, 0xff]);

/**
 * The order nested writers need (nested-stream.ts), as bytes that compare
 * like the order: keys written flat at the top level first (see the rules
 * above), then the others by their parts, a parent before its descendants,
 * every subtree contiguous, array items (by index) before object members (by
 * code point). Distinct keys give distinct bytes, so it also names a key.
 */
export function pathSortKey(key: string, maxParts: number = MAX_NESTING): Buffer {
  const parts: string[] = [];
  if (!keyParts(key, maxParts, parts)) return Buffer.concat([Buffer.from([0]), escapeZeros(Buffer.from(key, 'utf8'))]);
  const out: Buffer[] = [Buffer.from([1])];
  for (const id of parts) {
    if (isIndex(id)) {
      const index = Buffer.alloc(5);
      index[0] = 1;
      index.writeUInt32BE(Number(id.slice(1)), 1);
      out.push(index);
    } else {
      out.push(Buffer.from([2]), escapeZeros(Buffer.from(id, 'utf8')), NAME_TERMINATOR);
    }
  }
  return Buffer.concat(out);
}

/** 0x00 -> 0x00 0xFF, so the terminator 0x00 0x01 sorts below any continuation of a name. */
function escapeZeros(bytes: Buffer): Buffer {
  if (!bytes.includes(0)) return bytes;
  const out: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(0); i !== -1; i = bytes.indexOf(0, start)) {
    out.push(bytes.subarray(start, i), ESCAPED_ZERO);
    start = i + 1;
  }
  out.push(bytes.subarray(start));
  return Buffer.concat(out);
}

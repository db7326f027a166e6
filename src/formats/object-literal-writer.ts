// Writes a NestedNode (./nested-keys.ts) as brace-and-bracket text with two-space
// indentation: JSON, or the JSON-compatible object literal of a JavaScript module.
// Output is built from parts joined once, so it is linear in its size.
import { mapLeaves, type NestedNode } from './nested-keys.js';
import type { BundleKey, FormatWriter, SerializeOptions } from './model.js';
import { NestedStream, type NestedStyle } from './nested-stream.js';

export interface ObjectLiteralStyle<V> {
  /** Text of a leaf value. */
  leaf(value: V): string;
  /** Comment lines written before a member whose value is this leaf (JavaScript only). */
  comment?(value: V): string[] | undefined;
  /** Text of a member name; JSON string by default. */
  name?(name: string): string;
}

export function writeObjectLiteral<V>(root: NestedNode<V>, style: ObjectLiteralStyle<V>, baseIndent = ''): string {
  const parts: string[] = [];
  const name = style.name ?? ((n: string) => JSON.stringify(n));
  const comments = (node: NestedNode<V>, indent: string) => {
    if (!style.comment || node.kind !== 'leaf') return;
    for (const line of style.comment(node.value) ?? []) parts.push(indent, line === '' ? '//' : `// ${line}`, '\n');
  };
  const write = (node: NestedNode<V>, indent: string): void => {
    if (node.kind === 'leaf') {
      parts.push(style.leaf(node.value));
      return;
    }
    const items =
      node.kind === 'object' ? node.entries : node.items.map((item) => ['', item] as [string, NestedNode<V>]);
    const [open, close] = node.kind === 'object' ? ['{', '}'] : ['[', ']'];
    if (items.length === 0) {
      parts.push(open, close);
      return;
    }
    const inner = indent + '  ';
    parts.push(open, '\n');
    items.forEach(([member, child], i) => {
      comments(child, inner);
      parts.push(inner);
      if (node.kind === 'object') parts.push(name(member), ': ');
      write(child, inner);
      parts.push(i < items.length - 1 ? ',\n' : '\n');
    });
    parts.push(indent, close);
  };
  write(root, baseIndent);
  return parts.join('');
}

/**
 * The same text written member by member (NestedStream in nested-stream.ts).
 * `toNode` turns a key's value into what its member holds (a text leaf, or a
 * multi-language JSON map of languages). The root braces are the caller's:
 * `{` before the members and objectLiteralEnd() after them. `baseDepth`: the
 * levels the root object itself is nested at (1 for the object of one
 * language inside a language-first JSON file).
 */
export function objectLiteralMembers<V, L>(
  style: ObjectLiteralStyle<L>,
  toNode: (value: V) => NestedNode<L>,
  baseDepth = 0,
): NestedStyle<V> {
  const name = style.name ?? ((n: string) => JSON.stringify(n));
  const indent = (depth: number) => '  '.repeat(depth + 1 + baseDepth);
  const start = (member: string, depth: number, first: boolean, node?: NestedNode<L>) => {
    let out = first ? '\n' : ',\n';
    if (style.comment && node?.kind === 'leaf')
      for (const line of style.comment(node.value) ?? [])
        out += `${indent(depth)}${line === '' ? '//' : `// ${line}`}\n`;
    return `${out}${indent(depth)}${name(member)}: `;
  };
  return {
    member(member, node, depth, first) {
      const value = mapLeaves(node, toNode);
      return start(member, depth, first, value) + writeObjectLiteral(value, style, indent(depth));
    },
    open: (member, depth, first) => `${start(member, depth, first)}{`,
    close: (depth) => `\n${indent(depth)}}`,
  };
}

/** The root object's closing brace: `{}` when it has no member. */
export function objectLiteralEnd(rootMembers: number, baseDepth = 0): string {
  return rootMembers === 0 ? '}' : `\n${'  '.repeat(baseDepth)}}`;
}

/** Keys in path order for nested output (WRITE_NESTED). */
export const nestedKeyOrder = (options: SerializeOptions): 'path' | undefined =>
  options.options.has('WRITE_NESTED') ? 'path' : undefined;

/**
 * A file holding one object literal, `${prefix}{…}${suffix}`: flat, or nested
 * with WRITE_NESTED. `valueOf` picks what a key's member is made of.
 */
export function objectLiteralFileWriter<V, L>(
  options: SerializeOptions,
  wrap: { prefix: string; suffix: string },
  style: ObjectLiteralStyle<L>,
  toNode: (value: V) => NestedNode<L>,
  valueOf: (key: BundleKey) => V,
): FormatWriter {
  const stream = new NestedStream(objectLiteralMembers(style, toNode), options.options.has('WRITE_NESTED'));
  let started = false;
  const head = () => {
    if (started) return '';
    started = true;
    return `${wrap.prefix}{`;
  };
  return {
    write(keys) {
      let out = head();
      for (const key of keys) out += stream.add(key.key, valueOf(key));
      return out;
    },
    end: () => head() + stream.end() + objectLiteralEnd(stream.rootMembers) + wrap.suffix,
  };
}

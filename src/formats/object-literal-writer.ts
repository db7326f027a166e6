// Writes a NestedNode (./nested-keys.ts) as brace-and-bracket text with two-space
// indentation: JSON, or the JSON-compatible object literal of a JavaScript module.
// Output is built from parts joined once, so it is linear in its size.
import type { NestedNode } from './nested-keys.js';

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
    const items = node.kind === 'object' ? node.entries : node.items.map((item) => ['', item] as [string, NestedNode<V>]);
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

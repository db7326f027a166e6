// ICU MessageFormat as machine translation sees it, enough to send only the
// literal texts of a message to a provider: plural / selectordinal / select
// arguments are split into their branches, simple arguments ({name},
// {n, number}) and `#` are kept as they are. Reading is
// src/formats/icu-message.ts, the service's one ICU reader (its header has
// the quoting rules); this module is its node view plus the writing side.
import { parseIcuMessage, type IcuPart } from '../formats/icu-message.js';

export type IcuNode = { type: 'text'; value: string } | { type: 'arg'; raw: string } | { type: 'pound' } | IcuComplex;

export interface IcuComplex {
  type: 'complex';
  name: string;
  kind: 'plural' | 'selectordinal' | 'select';
  /** `offset:N` of a plural, if any. */
  offset?: string;
  branches: { selector: string; nodes: IcuNode[] }[];
}

/** The message's nodes, or null when the text is not valid ICU MessageFormat. */
export function parseIcu(text: string): IcuNode[] | null {
  const parts = parseIcuMessage(text);
  return parts ? parts.map(toNode) : null;
}

function toNode(part: IcuPart): IcuNode {
  switch (part.type) {
    case 'text':
      return { type: 'text', value: part.value };
    case 'raw':
      return { type: 'arg', raw: part.value };
    case 'number':
      return { type: 'pound' };
    default:
      return {
        type: 'complex',
        name: part.argument,
        kind: part.kind,
        offset: part.offset ? `offset:${part.offset}` : undefined,
        branches: part.branches.map((b) => ({ selector: b.key, nodes: b.parts.map(toNode) })),
      };
  }
}

/** True when the nodes hold a plural, selectordinal or select argument. */
export function hasComplexArgument(nodes: IcuNode[]): boolean {
  return nodes.some((n) => n.type === 'complex');
}

/**
 * Literal text written into an ICU message: apostrophes doubled, braces
 * quoted, and `#` quoted inside plural branches (where it means the number).
 * The same quoting as src/formats/plural.ts uses for plural branches.
 */
export function escapeIcuText(text: string, inPlural: boolean): string {
  let out = text.replace(/'/g, "''").replace(/[{}]/g, (c) => `'${c}'`);
  if (inPlural) out = out.replace(/#/g, "'#'");
  return out;
}

/** `{name, kind, [offset:N ]sel {…} sel {…}}` from already rendered branch texts. */
export function renderComplex(node: IcuComplex, renderedBranches: string[]): string {
  const branches = node.branches.map((b, i) => `${b.selector} {${renderedBranches[i] ?? ''}}`).join(' ');
  return `{${node.name}, ${node.kind}, ${node.offset ? `${node.offset} ` : ''}${branches}}`;
}

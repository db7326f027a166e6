// A small ICU MessageFormat reader, enough to send only the literal texts of a
// message to a provider: plural / selectordinal / select arguments are split
// into their branches, simple arguments ({name}, {n, number}) and `#` are
// kept as they are. Apostrophe quoting follows ICU's default mode ('' is an
// apostrophe; a ' before { } # | starts a quoted literal).

export type IcuNode =
  | { type: 'text'; value: string }
  | { type: 'arg'; raw: string }
  | { type: 'pound' }
  | IcuComplex;

export interface IcuComplex {
  type: 'complex';
  name: string;
  kind: 'plural' | 'selectordinal' | 'select';
  /** `offset:N` of a plural, if any. */
  offset?: string;
  branches: { selector: string; nodes: IcuNode[] }[];
}

class IcuSyntaxError extends Error {}

class Reader {
  i = 0;
  constructor(readonly s: string) {}
  get c(): string | undefined {
    return this.s[this.i];
  }
  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }
  expect(ch: string): void {
    if (this.s[this.i] !== ch) throw new IcuSyntaxError(`expected "${ch}" at ${this.i}`);
    this.i++;
  }
  match(re: RegExp): string | undefined {
    re.lastIndex = this.i;
    const m = re.exec(this.s);
    if (!m || m.index !== this.i) return undefined;
    this.i += m[0].length;
    return m[0];
  }
}

function parseMessage(r: Reader, inPlural: boolean, nested: boolean): IcuNode[] {
  const nodes: IcuNode[] = [];
  let text = '';
  const flush = () => {
    if (text) nodes.push({ type: 'text', value: text });
    text = '';
  };
  const s = r.s;
  while (r.i < s.length) {
    const c = s[r.i]!;
    if (c === "'") {
      const next = s[r.i + 1];
      if (next === "'") {
        text += "'";
        r.i += 2;
      } else if (next === '{' || next === '}' || next === '|' || (inPlural && next === '#')) {
        r.i++;
        while (r.i < s.length) {
          if (s[r.i] === "'") {
            if (s[r.i + 1] === "'") {
              text += "'";
              r.i += 2;
              continue;
            }
            r.i++;
            break;
          }
          text += s[r.i++];
        }
      } else {
        text += c;
        r.i++;
      }
      continue;
    }
    if (c === '{') {
      flush();
      nodes.push(parseArgument(r, inPlural));
      continue;
    }
    if (c === '}') {
      if (nested) break;
      throw new IcuSyntaxError(`unbalanced "}" at ${r.i}`);
    }
    if (c === '#' && inPlural) {
      flush();
      nodes.push({ type: 'pound' });
      r.i++;
      continue;
    }
    text += c;
    r.i++;
  }
  flush();
  return nodes;
}

function skipStyle(r: Reader): void {
  // Up to the argument's closing brace; styles may hold nested braces and quotes.
  let depth = 0;
  const s = r.s;
  while (r.i < s.length) {
    const c = s[r.i]!;
    if (c === "'") {
      const close = s.indexOf("'", r.i + 1);
      r.i = close < 0 ? s.length : close + 1;
      continue;
    }
    if (c === '{') depth++;
    if (c === '}') {
      if (depth === 0) return;
      depth--;
    }
    r.i++;
  }
  throw new IcuSyntaxError('unterminated argument style');
}

function parseArgument(r: Reader, inPlural: boolean): IcuNode {
  const start = r.i;
  r.expect('{');
  r.ws();
  const name = r.match(/[^\s{},'#]+/y);
  if (!name) throw new IcuSyntaxError(`argument name expected at ${r.i}`);
  r.ws();
  if (r.c === '}') {
    r.i++;
    return { type: 'arg', raw: r.s.slice(start, r.i) };
  }
  r.expect(',');
  r.ws();
  const type = r.match(/[A-Za-z]+/y);
  if (!type) throw new IcuSyntaxError(`argument type expected at ${r.i}`);
  r.ws();
  if (type === 'plural' || type === 'selectordinal' || type === 'select') {
    r.expect(',');
    r.ws();
    let offset: string | undefined;
    if (type !== 'select') {
      const off = r.match(/offset\s*:\s*\d+/y);
      if (off) offset = off.replace(/\s+/g, '');
    }
    const branches: IcuComplex['branches'] = [];
    for (;;) {
      r.ws();
      if (r.c === '}') {
        r.i++;
        break;
      }
      const selector = r.match(/=-?\d+(\.\d+)?|[^\s{}]+/y);
      if (!selector) throw new IcuSyntaxError(`selector expected at ${r.i}`);
      r.ws();
      r.expect('{');
      const nodes = parseMessage(r, inPlural || type !== 'select', true);
      r.expect('}');
      branches.push({ selector, nodes });
    }
    if (!branches.length) throw new IcuSyntaxError(`${type} without branches`);
    return { type: 'complex', name, kind: type, offset, branches };
  }
  if (r.c === ',') {
    r.i++;
    skipStyle(r);
  }
  r.expect('}');
  return { type: 'arg', raw: r.s.slice(start, r.i) };
}

/** The message's nodes, or null when the text is not valid ICU MessageFormat. */
export function parseIcu(text: string): IcuNode[] | null {
  try {
    return parseMessage(new Reader(text), false, false);
  } catch (error) {
    if (error instanceof IcuSyntaxError) return null;
    throw error;
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

// ICU messages with plural/select arguments anywhere in the text, e.g.
//   Found {files, plural, one {%d file} other {%d files}} in {dirs, plural, ...}
// plural.ts handles whole-text plurals only; Apple's .stringsdict and String
// Catalogs put text around (and plurals inside) their plural variables, so
// they need this. Quoting follows plural.ts (`'` doubled, braces as '{' and
// '}'). Inside a plural branch an unquoted `#` is the plural's number (a
// `number` part) and a literal `#` is written quoted, `'#'`; elsewhere `#` is
// plain text. A single flat plural without a literal `#` is built byte for
// byte like toIcuPlural().
import { PLURAL_CATEGORIES } from './plural.js';

export type IcuPart =
  /** Literal text, unquoted. */
  | { type: 'text'; value: string }
  /** An argument we do not interpret (`{name}`, `{n, number}`), verbatim. */
  | { type: 'raw'; value: string }
  /** `#` in a plural branch: the plural's number. */
  | { type: 'number' }
  | IcuChoice;

export interface IcuChoice {
  type: 'choice';
  kind: 'plural' | 'select' | 'selectordinal';
  argument: string;
  offset?: number;
  /** Selector (`one`, `=0`, `iphone`, ...) -> message, in source order. */
  branches: { key: string; parts: IcuPart[] }[];
}

const MAX_DEPTH = 32;

/**
 * Parses an ICU message into parts. Returns null when the text is not a
 * well-formed message (unbalanced braces, a choice without branches, nesting
 * deeper than 32); callers then treat the text as plain text.
 */
export function parseIcuMessage(text: string): IcuPart[] | null {
  const p = new Parser(text);
  try {
    const parts = p.message(0, false);
    return p.i === text.length ? parts : null;
  } catch (e) {
    if (e === MALFORMED) return null;
    throw e;
  }
}

/** True when the parts contain at least one plural/select argument. */
export function hasChoice(parts: IcuPart[]): boolean {
  return parts.some((p) => p.type === 'choice');
}

/** Builds ICU source from parts (inverse of parseIcuMessage). */
export function buildIcuMessage(parts: IcuPart[], inPlural = false): string {
  let out = '';
  for (const part of parts) {
    if (part.type === 'text') out += quoteIcuText(part.value, inPlural);
    else if (part.type === 'raw') out += part.value;
    else if (part.type === 'number') out += '#';
    else {
      const branches = part.kind === 'select' ? part.branches : orderPluralBranches(part.branches);
      const offset = part.offset ? `offset:${part.offset} ` : '';
      const plural = part.kind !== 'select';
      out += `{${part.argument}, ${part.kind}, ${offset}${branches.map((b) => `${b.key} {${buildIcuMessage(b.parts, plural)}}`).join(' ')}}`;
    }
  }
  return out;
}

/** Literal text as ICU source (same quoting as plural.ts; `#` quoted inside a plural branch). */
export function quoteIcuText(text: string, inPlural = false): string {
  const special = inPlural ? /[{}#]/ : /[{}]/;
  let out = '';
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (!special.test(c)) {
      out += c === "'" ? "''" : c;
      i++;
      continue;
    }
    // A quoted run: special characters, and the apostrophes right after them
    // (as '' inside the run: a closing quote followed by '' would read as
    // one more apostrophe inside it).
    out += "'";
    while (i < text.length && (special.test(text[i]!) || text[i] === "'")) {
      out += text[i] === "'" ? "''" : text[i];
      i++;
    }
    out += "'";
  }
  return out;
}

/** Plain text of parts whose choices have already been replaced (raw parts verbatim, the number as `number`). */
export function plainText(parts: IcuPart[], choice: (c: IcuChoice) => string, number = '#'): string {
  let out = '';
  for (const part of parts) out += part.type === 'choice' ? choice(part) : part.type === 'number' ? number : part.value;
  return out;
}

/** Exact matches (`=0`) first, then CLDR categories in canonical order, as toIcuPlural orders them. */
function orderPluralBranches<T extends { key: string }>(branches: T[]): T[] {
  const rank = (k: string): number => (k.startsWith('=') ? -1 : PLURAL_CATEGORIES.indexOf(k as (typeof PLURAL_CATEGORIES)[number]));
  return branches
    .map((b, i) => ({ b, i }))
    .sort((x, y) => rank(x.b.key) - rank(y.b.key) || x.i - y.i)
    .map((x) => x.b);
}

const MALFORMED = Symbol('malformed ICU');

class Parser {
  i = 0;
  constructor(private readonly s: string) {}

  /** Reads parts until the end, or until the `}` closing a branch (not consumed). */
  message(depth: number, inBranch: boolean, inPlural = false): IcuPart[] {
    if (depth > MAX_DEPTH) throw MALFORMED;
    const parts: IcuPart[] = [];
    let text = '';
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === "'") {
        text += this.quoted();
      } else if (c === '{') {
        if (text) { parts.push({ type: 'text', value: text }); text = ''; }
        parts.push(this.argument(depth));
      } else if (c === '}') {
        if (!inBranch) throw MALFORMED;
        break;
      } else if (c === '#' && inPlural) {
        if (text) { parts.push({ type: 'text', value: text }); text = ''; }
        parts.push({ type: 'number' });
        this.i++;
      } else {
        text += c;
        this.i++;
      }
    }
    if (text) parts.push({ type: 'text', value: text });
    return parts;
  }

  /** An apostrophe: `''`, a quoted literal `'{...}'`, or a plain apostrophe. */
  private quoted(): string {
    const s = this.s;
    if (s[this.i + 1] === "'") { this.i += 2; return "'"; }
    if (!/[{}#|]/.test(s[this.i + 1] ?? '')) { this.i++; return "'"; }
    let out = '';
    let j = this.i + 1;
    while (j < s.length) {
      if (s[j] === "'") {
        if (s[j + 1] === "'") { out += "'"; j += 2; continue; }
        this.i = j + 1;
        return out;
      }
      out += s[j];
      j++;
    }
    // An unclosed quote runs to the end of the message (ICU's rule).
    this.i = s.length;
    return out;
  }

  private argument(depth: number): IcuPart {
    const s = this.s;
    const start = this.i;
    const head = /^\{\s*([^\s{},]+)\s*(?:,\s*(plural|selectordinal|select)\s*,)?/.exec(s.slice(start, start + 200));
    if (head?.[2]) {
      this.i = start + head[0].length;
      return this.choice(head[1]!, head[2] as IcuChoice['kind'], depth);
    }
    // Any other argument is kept verbatim: find its balanced closing brace.
    let level = 0;
    for (let j = start; j < s.length; j++) {
      if (s[j] === '{') level++;
      else if (s[j] === '}' && --level === 0) {
        this.i = j + 1;
        return { type: 'raw', value: s.slice(start, j + 1) };
      }
    }
    throw MALFORMED;
  }

  private choice(argument: string, kind: IcuChoice['kind'], depth: number): IcuChoice {
    const s = this.s;
    const node: IcuChoice = { type: 'choice', kind, argument, branches: [] };
    for (;;) {
      this.skipSpace();
      if (this.i >= s.length) throw MALFORMED;
      if (s[this.i] === '}') {
        this.i++;
        if (!node.branches.length) throw MALFORMED;
        return node;
      }
      const offset = /^offset:\s*(\d+)/.exec(s.slice(this.i, this.i + 30));
      if (offset && kind !== 'select') {
        node.offset = Number(offset[1]);
        this.i += offset[0].length;
        continue;
      }
      const sel = /^[^\s{}]+/.exec(s.slice(this.i, this.i + 200));
      if (!sel) throw MALFORMED;
      this.i += sel[0].length;
      this.skipSpace();
      if (s[this.i] !== '{') throw MALFORMED;
      this.i++;
      const parts = this.message(depth + 1, true, kind !== 'select');
      if (s[this.i] !== '}') throw MALFORMED;
      this.i++;
      node.branches.push({ key: sel[0], parts });
    }
  }

  private skipSpace(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }
}

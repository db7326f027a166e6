// Reads the translations out of a JavaScript locale module WITHOUT running it:
// a tokenizer and a small static evaluator for the shapes locale files use.
//
// Understood (at the top level of the module only):
//   export default <value>            module.exports = <value>     exports.x = <value>
//   export { name as default }
//   const|let|var name [: Type] = <value>, ...        name.a.b = <value>   name['a'] = <value>
// Values: object literals (identifier, string, number and ['string'] keys,
// trailing commas, comments, shorthand `{ name }`, `...spread` of a known
// object), arrays, strings ('…', "…", `…` without ${}), string concatenation
// ('a' + 'b'), numbers, true/false (imported as their text), null (no
// translation), references to names declared above (`module.exports = ru_RU`),
// Object.freeze(<value>), and TypeScript `as …` / `satisfies …` after a value.
// Everything else where a value is expected (functions, arrow functions, calls,
// templates with ${…}, other expressions, methods, computed names) is SKIPPED:
// the member is left out and listed in `skipped` with its line and the reason.
// Other statements (if, function declarations, window.X = …) are stepped over.
// The module's value must be an object literal, else FormatError.
//
// Comments directly above a member (own line, no blank line between) become its
// description: `// text` lines are joined with newlines, `/* … */` is trimmed.
// A comment after a value on the same line is not a description.
//
// Safety: no eval/Function/vm; nesting of literals is capped at 64; skipped code
// is stepped over with counters (no recursion), so any nesting there is fine.
//
// Why not a library parser (acorn, @babel/parser): both are recursive descent
// and refuse a module whose skipped code nests deeply (acorn: "Not enough
// stack space to parse input" at 100,000 parentheses inside a function or
// 10,000 nested template substitutions; @babel/parser: a stack overflow),
// where this reader steps over it and imports the literals; both also reject
// a whole file for one syntax error in code this reader steps over, and
// TypeScript needs @babel/parser's plugin or a third-party acorn plugin.
import { FormatError } from './model.js';
import { MAX_NESTING } from './nested-keys.js';

/** A translation value; `value` null means "no translation". */
export class JsLeaf {
  constructor(
    readonly value: string | null,
    readonly description?: string,
  ) {}
}
export type JsObject = Map<string, JsValue>;
export type JsArray = (JsValue | undefined)[];
export type JsValue = JsLeaf | JsObject | JsArray;

export interface SkippedValue {
  /** Where the value was, as written in the module (`ru_RU.pluralize`). */
  path: string;
  line: number;
  column: number;
  reason: string;
}

export interface JsModule {
  /** The value of `export default` or `module.exports` (see `exported`). */
  exported(prefer: 'default' | 'commonjs'): JsObject;
  skipped: SkippedValue[];
  /** Tokens in the file, a bound for how many values the module can hold. */
  tokenCount: number;
}

type TokenType = 'punct' | 'ident' | 'string' | 'template' | 'number' | 'regex' | 'eof';
interface Comment {
  text: string;
  block: boolean;
  start: number;
  end: number;
  /** Nothing but whitespace between the start of its line (or the file) and the comment. */
  ownLine: boolean;
}
interface Token {
  type: TokenType;
  value: string;
  start: number;
  /** A line break between the previous token and this one. */
  nl: boolean;
  comments: Comment[] | null;
}

const PUNCTUATORS = [
  '>>>=', '...', '===', '!==', '**=', '<<=', '>>=', '>>>', '&&=', '||=', '??=',
  '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**', '<<', '>>',
];
const SINGLE_PUNCTUATORS = '{}()[];,<>+-*/%&|^!~?:=.@#';
const REGEX_AFTER_WORDS = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
const IDENTIFIER = /[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*/uy;
const NUMBER = /(?:0[xXoObB][0-9a-fA-F_]+|\d[\d_]*(?:\.[\d_]*)?(?:[eE][+-]?[\d_]+)?|\.\d[\d_]*(?:[eE][+-]?[\d_]+)?)n?/y;
const REGEX_FLAGS = /[\p{ID_Continue}$]*/uy;
const isLineTerminator = (c: number) => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
const isSpace = (c: number) => c === 32 || c === 9 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff || (c > 127 && /\s/.test(String.fromCharCode(c)));
const OPERATOR_WORDS = new Set(['in', 'instanceof', 'as', 'satisfies']);
/** Longest chain `a.b.c` tried as an assignment target (bounds the work per statement). */
const MAX_CHAIN = 64;
/** Tokens looked at to describe a skipped statement-level value. */
const DESCRIBE_LIMIT = 1000;

class Source {
  private readonly lineStarts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 && text.charCodeAt(i + 1) === 10) continue;
      if (isLineTerminator(c)) this.lineStarts.push(i + 1);
    }
  }
  line(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
  position(offset: number): { line: number; column: number; offset: number } {
    const line = this.line(offset);
    return { line, column: offset - this.lineStarts[line - 1]! + 1, offset };
  }
  error(message: string, offset: number): FormatError {
    return new FormatError(message, this.position(offset));
  }
}

function tokenize(src: Source): Token[] {
  const s = src.text;
  const n = s.length;
  const tokens: Token[] = [];
  let i = 0;
  let nl = false;
  let comments: Comment[] | null = null;
  if (s.startsWith('#!')) while (i < n && !isLineTerminator(s.charCodeAt(i))) i++;
  const push = (type: TokenType, value: string, start: number) => {
    tokens.push({ type, value, start, nl, comments });
    nl = false;
    comments = null;
  };
  for (;;) {
    const c = s.charCodeAt(i);
    if (i >= n) {
      push('eof', '', n);
      return tokens;
    }
    if (isLineTerminator(c)) { nl = true; i++; continue; }
    if (isSpace(c)) { i++; continue; }
    if (c === 47 /* / */ && (s.charCodeAt(i + 1) === 47 || s.charCodeAt(i + 1) === 42)) {
      const block = s.charCodeAt(i + 1) === 42;
      let end: number;
      if (block) {
        end = s.indexOf('*/', i + 2);
        if (end < 0) throw src.error('Comment /* is not closed', i);
        end += 2;
      } else {
        end = i + 2;
        while (end < n && !isLineTerminator(s.charCodeAt(end))) end++;
      }
      const text = block ? s.slice(i + 2, end - 2) : s.slice(i + 2, end);
      (comments ??= []).push({ text, block, start: i, end, ownLine: nl || tokens.length === 0 });
      if (block && /[\n\r\u2028\u2029]/.test(text)) nl = true;
      i = end;
      continue;
    }
    const start = i;
    if (c === 39 || c === 34 /* ' " */) {
      const { value, end } = readQuoted(src, i);
      i = end;
      push('string', value, start);
      continue;
    }
    if (c === 96 /* ` */) {
      const { value, end } = readTemplate(src, i);
      i = end;
      push(value === null ? 'template' : 'string', value ?? '', start);
      continue;
    }
    if ((c >= 48 && c <= 57) || (c === 46 && s.charCodeAt(i + 1) >= 48 && s.charCodeAt(i + 1) <= 57)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(s)!;
      i += m[0].length;
      push('number', numberText(src, m[0], start), start);
      continue;
    }
    IDENTIFIER.lastIndex = i;
    const id = IDENTIFIER.exec(s);
    if (id) {
      i += id[0].length;
      push('ident', id[0], start);
      continue;
    }
    if (c === 47 && regexAllowed(tokens[tokens.length - 1])) {
      i = skipRegex(src, i);
      push('regex', '', start);
      continue;
    }
    const p = PUNCTUATORS.find((x) => s.startsWith(x, i)) ?? (SINGLE_PUNCTUATORS.includes(s[i]!) ? s[i]! : undefined);
    if (!p) throw src.error(`Unexpected character ${JSON.stringify(s[i])} in JavaScript`, i);
    i += p.length;
    push('punct', p, start);
  }
}

function regexAllowed(prev: Token | undefined): boolean {
  if (!prev) return true;
  if (prev.type === 'punct') return !(prev.value === ')' || prev.value === ']' || prev.value === '}');
  return prev.type === 'ident' && REGEX_AFTER_WORDS.has(prev.value);
}

function skipRegex(src: Source, start: number): number {
  const s = src.text;
  let inClass = false;
  for (let j = start + 1; ; j++) {
    const c = s.charCodeAt(j);
    if (j >= s.length || isLineTerminator(c)) throw src.error('Regular expression is not closed', start);
    if (c === 92 /* \ */) j++;
    else if (c === 91 /* [ */) inClass = true;
    else if (c === 93 /* ] */) inClass = false;
    else if (c === 47 && !inClass) {
      REGEX_FLAGS.lastIndex = j + 1;
      return j + 1 + REGEX_FLAGS.exec(s)![0].length;
    }
  }
}

function numberText(src: Source, raw: string, start: number): string {
  const clean = raw.replace(/_/g, '');
  if (clean.endsWith('n')) {
    try {
      return BigInt(clean.slice(0, -1)).toString();
    } catch {
      throw src.error(`Invalid number ${raw}`, start);
    }
  }
  const value = Number(clean);
  if (Number.isNaN(value)) throw src.error(`Invalid number ${raw}`, start);
  return String(value);
}

/** One escape sequence at `j` (the backslash): its text and the index after it. */
function readEscape(src: Source, j: number): [string, number] {
  const s = src.text;
  const e = s[j + 1];
  switch (e) {
    case undefined: throw src.error('String is not closed', j);
    case 'n': return ['\n', j + 2];
    case 't': return ['\t', j + 2];
    case 'r': return ['\r', j + 2];
    case 'b': return ['\b', j + 2];
    case 'f': return ['\f', j + 2];
    case 'v': return ['\v', j + 2];
    case '\r': return ['', s[j + 2] === '\n' ? j + 3 : j + 2];
    case '\n': case '\u2028': case '\u2029': return ['', j + 2];
    case 'x': {
      const hex = s.slice(j + 2, j + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw src.error('Invalid \\x escape', j);
      return [String.fromCharCode(parseInt(hex, 16)), j + 4];
    }
    case 'u': {
      if (s[j + 2] === '{') {
        const close = s.indexOf('}', j + 3);
        const hex = close < 0 ? '' : s.slice(j + 3, close);
        const code = /^[0-9a-fA-F]{1,6}$/.test(hex) ? parseInt(hex, 16) : -1;
        if (code < 0 || code > 0x10ffff) throw src.error('Invalid \\u{…} escape', j);
        return [String.fromCodePoint(code), close + 1];
      }
      const hex = s.slice(j + 2, j + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw src.error('Invalid \\u escape', j);
      return [String.fromCharCode(parseInt(hex, 16)), j + 6];
    }
    default:
      if (e === '0' && !/[0-9]/.test(s[j + 2] ?? '')) return ['\0', j + 2];
      if (e >= '0' && e <= '9') throw src.error('Octal escape sequences are not allowed in JavaScript modules', j);
      return [e, j + 2];
  }
}

function readQuoted(src: Source, start: number): { value: string; end: number } {
  const s = src.text;
  const quote = s.charCodeAt(start);
  let out = '';
  let seg = start + 1;
  for (let j = start + 1; ; ) {
    if (j >= s.length) throw src.error('String is not closed', start);
    const c = s.charCodeAt(j);
    if (c === quote) return { value: out + s.slice(seg, j), end: j + 1 };
    if (c === 92) {
      out += s.slice(seg, j);
      const [text, next] = readEscape(src, j);
      out += text;
      j = seg = next;
      continue;
    }
    if (c === 10 || c === 13) throw src.error('String is not closed before the end of the line', start);
    j++;
  }
}

/** A template literal: its text, or null when it has ${…} substitutions (stepped over). */
function readTemplate(src: Source, start: number): { value: string | null; end: number } {
  const s = src.text;
  let out = '';
  let seg = start + 1;
  let substituted = false;
  for (let j = start + 1; ; ) {
    if (j >= s.length) throw src.error('Template literal is not closed', start);
    const c = s.charCodeAt(j);
    if (c === 96) return { value: substituted ? null : out + s.slice(seg, j), end: j + 1 };
    if (c === 92) {
      out += s.slice(seg, j);
      const [text, next] = readEscape(src, j);
      out += text;
      j = seg = next;
    } else if (c === 36 && s.charCodeAt(j + 1) === 123) {
      substituted = true;
      j = seg = skipSubstitution(src, j + 2);
    } else if (c === 13) {
      // Template line ends are normalised to \n.
      out += s.slice(seg, j) + '\n';
      j = seg = s.charCodeAt(j + 1) === 10 ? j + 2 : j + 1;
    } else j++;
  }
}

/** Steps over the code of a ${…} (from after `${`) with a stack, returns the index after its `}`. */
function skipSubstitution(src: Source, from: number): number {
  const s = src.text;
  const TEXT = -1; // inside a nested template's text
  const stack: number[] = [0]; // brace depth of each open substitution, or TEXT
  let j = from;
  while (stack.length > 0) {
    if (j >= s.length) throw src.error('Template literal is not closed', from - 2);
    const c = s.charCodeAt(j);
    const top = stack.length - 1;
    if (stack[top] === TEXT) {
      if (c === 92) j += 2;
      else if (c === 96) { stack.pop(); j++; }
      else if (c === 36 && s.charCodeAt(j + 1) === 123) { stack.push(0); j += 2; }
      else j++;
      continue;
    }
    if (c === 39 || c === 34) j = readQuoted(src, j).end;
    else if (c === 96) { stack.push(TEXT); j++; }
    else if (c === 47 && s.charCodeAt(j + 1) === 47) { while (j < s.length && !isLineTerminator(s.charCodeAt(j))) j++; }
    else if (c === 47 && s.charCodeAt(j + 1) === 42) {
      const end = s.indexOf('*/', j + 2);
      if (end < 0) throw src.error('Comment /* is not closed', j);
      j = end + 2;
    } else if (c === 123) { stack[top]!++; j++; }
    else if (c === 125) {
      if (stack[top] === 0) stack.pop();
      else stack[top]!--;
      j++;
    } else j++;
  }
  return j;
}

function commentText(c: Comment): string {
  if (!c.block) return c.text.startsWith(' ') ? c.text.slice(1) : c.text;
  // /** JSDoc-style */ blocks: drop the leading `*` of each line.
  return c.text.replace(/^\*/, '').split(/\r\n|[\n\r\u2028\u2029]/).map((line) => line.replace(/^\s*\*? ?/, '')).join('\n').trim();
}

class ModuleReader {
  private readonly tokens: Token[];
  private p = 0;
  readonly skipped: SkippedValue[] = [];
  private readonly bindings = new Map<string, JsValue>();
  private readonly exportsObject: JsObject = new Map();
  private readonly moduleObject: JsObject = new Map([['exports', this.exportsObject]]);
  private defaultExport: { value: JsValue | null; at: number } | undefined;
  private moduleExportsAt: number | undefined;
  private copyBudget: number;

  constructor(private readonly src: Source) {
    this.tokens = tokenize(src);
    this.copyBudget = this.tokens.length * 8 + 1024;
    this.bindings.set('module', this.moduleObject);
    this.bindings.set('exports', this.exportsObject);
  }

  get tokenCount(): number {
    return this.tokens.length;
  }

  private peek(k = 0): Token {
    return this.tokens[Math.min(this.p + k, this.tokens.length - 1)]!;
  }
  private isPunct(t: Token, value: string): boolean {
    return t.type === 'punct' && t.value === value;
  }
  private isWord(t: Token, value: string): boolean {
    return t.type === 'ident' && t.value === value;
  }

  read(): void {
    let depth = 0;
    while (this.peek().type !== 'eof') {
      if (depth === 0 && this.atStatementStart() && this.statement()) continue;
      const t = this.tokens[this.p++]!;
      if (t.type !== 'punct') continue;
      if (t.value === '(' || t.value === '[' || t.value === '{') depth++;
      else if (t.value === ')' || t.value === ']' || t.value === '}') depth = Math.max(0, depth - 1);
    }
  }

  private atStatementStart(): boolean {
    if (this.p === 0 || this.peek().nl) return true;
    const prev = this.tokens[this.p - 1]!;
    return this.isPunct(prev, ';') || this.isPunct(prev, '}');
  }

  private statement(): boolean {
    const t = this.peek();
    if (t.type !== 'ident') return false;
    if (t.value === 'export') {
      const next = this.peek(1);
      if (this.isWord(next, 'default')) {
        this.p += 2;
        const at = this.peek().start;
        this.defaultExport = { value: this.value('statement', '', 1), at };
        return true;
      }
      if (next.type === 'ident' && ['const', 'let', 'var'].includes(next.value)) {
        this.p++;
        return this.declaration();
      }
      if (this.isPunct(next, '{')) return this.exportList();
      return false;
    }
    if (['const', 'let', 'var'].includes(t.value)) return this.declaration();
    return this.assignment();
  }

  private declaration(): boolean {
    const save = this.p;
    this.p++;
    for (;;) {
      const name = this.peek();
      if (name.type !== 'ident') { this.p = save; return false; }
      this.p++;
      if (this.isPunct(this.peek(), ':') && !this.skipTypeAnnotation()) { this.p = save; return false; }
      if (!this.isPunct(this.peek(), '=')) {
        this.bindings.delete(name.value);
      } else {
        this.p++;
        const value = this.value('statement', name.value, 1);
        if (value === null) { this.bindings.delete(name.value); return true; }
        this.bindings.set(name.value, value);
      }
      if (!(this.isPunct(this.peek(), ',') && this.peek(1).type === 'ident')) return true;
      this.p++;
    }
  }

  /** `export { name as default, … }` */
  private exportList(): boolean {
    for (let k = 2; k < 256; k++) {
      const t = this.peek(k);
      if (t.type === 'eof' || this.isPunct(t, '}')) return false;
      if (t.type === 'ident' && this.isWord(this.peek(k + 1), 'as') && this.isWord(this.peek(k + 2), 'default')) {
        this.defaultExport = { value: this.bindings.get(t.value) ?? null, at: t.start };
        if (!this.bindings.has(t.value)) this.report('export default', t, `a name that is not declared above (${t.value})`);
        this.p += k + 3;
        return true;
      }
    }
    return false;
  }

  /** `: Type` of a declaration, up to its `=`; false when there is none close by. */
  private skipTypeAnnotation(): boolean {
    let depth = 0;
    for (let k = 1; k < 256; k++) {
      const t = this.peek(k);
      if (t.type === 'eof') return false;
      if (t.type !== 'punct') continue;
      if ('([{<'.includes(t.value)) depth++;
      else if (')]}>'.includes(t.value)) depth--;
      else if (t.value === '>>' || t.value === '>>>') depth -= t.value.length;
      else if (depth === 0 && t.value === '=') { this.p += k; return true; }
      else if (depth === 0 && (t.value === ';' || t.value === ',')) return false;
    }
    return false;
  }

  /** `name.a['b'] = value` where `name` is known (module, exports, or declared above). */
  private assignment(): boolean {
    const save = this.p;
    const root = this.tokens[this.p++]!.value;
    const props: string[] = [];
    for (;;) {
      if (props.length > MAX_CHAIN) { this.p = save; return false; }
      if (this.isPunct(this.peek(), '.') && this.peek(1).type === 'ident') {
        props.push(this.peek(1).value);
        this.p += 2;
      } else if (this.isPunct(this.peek(), '[') && ['string', 'number'].includes(this.peek(1).type) && this.isPunct(this.peek(2), ']')) {
        props.push(this.peek(1).value);
        this.p += 3;
      } else break;
    }
    const target = this.bindings.get(root);
    if (!this.isPunct(this.peek(), '=') || target === undefined) { this.p = save; return false; }
    if (props.length === 0) {
      this.p++;
      const value = this.value('statement', root, 1);
      if (value === null) this.bindings.delete(root);
      else this.bindings.set(root, value);
      return true;
    }
    let obj: JsValue | undefined = target;
    for (const prop of props.slice(0, -1)) obj = obj instanceof Map ? obj.get(prop) : undefined;
    if (!(obj instanceof Map)) { this.p = save; return false; }
    this.p++;
    const last = props[props.length - 1]!;
    const at = this.peek().start;
    const value = this.value('statement', [root, ...props].join('.'), 1);
    if (root === 'module' && props.length === 1 && last === 'exports') this.moduleExportsAt = at;
    if (value === null) obj.delete(last);
    else obj.set(last, value);
    return true;
  }

  /**
   * A value where `ctx` says what may follow it: a member of a literal ends at
   * `,` or a closing bracket; a statement at `;`, a line break or the end.
   * Returns null for a value that is not understood: it is reported, and in a
   * member it is stepped over.
   */
  private value(ctx: 'member' | 'statement', path: string, depth: number): JsValue | null {
    const first = this.peek();
    const start = this.p;
    const v = this.primary(path, depth);
    if (v !== null && this.atValueEnd(ctx)) return v;
    const after = this.peek();
    if (v !== null && ctx === 'member' && ['ident', 'string', 'number'].includes(after.type) && !OPERATOR_WORDS.has(after.value)) {
      // Two values side by side: a missing comma, not an expression.
      throw this.src.error(`Expected "," after the value of ${JSON.stringify(path)}, found ${describeToken(after)}`, after.start);
    }
    if (!(v === null && this.isWord(first, 'undefined'))) {
      this.p = start;
      this.report(path, first, this.describe(ctx));
    } else {
      this.report(path, first, 'undefined');
    }
    if (ctx === 'member') this.skipExpression();
    return null;
  }

  private atValueEnd(ctx: 'member' | 'statement'): boolean {
    const t = this.peek();
    if (this.isWord(t, 'as') || this.isWord(t, 'satisfies')) {
      // A TypeScript type after the value: step over it.
      this.p++;
      if (ctx === 'member') this.skipExpression();
      else while (this.peek().type !== 'eof' && !this.isPunct(this.peek(), ';') && !this.peek().nl) this.p++;
      return true;
    }
    if (ctx === 'member') return t.type === 'punct' && (t.value === ',' || t.value === '}' || t.value === ']' || t.value === ')');
    return t.type === 'eof' || t.nl || this.isPunct(t, ';') || this.isPunct(t, '}');
  }

  private primary(path: string, depth: number): JsValue | null {
    const t = this.peek();
    switch (t.type) {
      case 'string': {
        this.p++;
        let text = t.value;
        // 'a' + 'b' (long texts split over lines)
        while (this.isPunct(this.peek(), '+') && (this.peek(1).type === 'string' || this.peek(1).type === 'number')) {
          text += this.peek(1).value;
          this.p += 2;
        }
        return new JsLeaf(text);
      }
      case 'number':
        this.p++;
        return new JsLeaf(t.value);
      case 'punct':
        if ((t.value === '-' || t.value === '+') && this.peek(1).type === 'number') {
          this.p += 2;
          const n = this.peek(-1).value;
          return new JsLeaf(t.value === '+' || n === '0' ? n : `-${n}`);
        }
        if (t.value === '{') return this.object(path, depth);
        if (t.value === '[') return this.array(path, depth);
        return null;
      case 'ident':
        if (t.value === 'true' || t.value === 'false') { this.p++; return new JsLeaf(t.value); }
        if (t.value === 'null') { this.p++; return new JsLeaf(null); }
        if (t.value === 'Object' && this.isPunct(this.peek(1), '.') && this.isWord(this.peek(2), 'freeze') && this.isPunct(this.peek(3), '(')) {
          if (depth > MAX_NESTING) throw this.src.error(`Values are nested deeper than ${MAX_NESTING} levels`, t.start);
          this.p += 4;
          const inner = this.value('member', path, depth + 1);
          if (!this.isPunct(this.peek(), ')')) return null;
          this.p++;
          return inner;
        }
        return this.reference();
      default:
        return null;
    }
  }

  /** `name` or `name.a.b` naming a value declared above; consumes nothing when it does not resolve. */
  private reference(): JsValue | null {
    let value: JsValue | undefined = this.bindings.get(this.peek().value);
    let k = 1;
    while (value !== undefined && this.isPunct(this.peek(k), '.') && this.peek(k + 1).type === 'ident') {
      value = value instanceof Map ? value.get(this.peek(k + 1).value) : undefined;
      k += 2;
    }
    if (value === undefined) return null;
    this.p += k;
    return value;
  }

  private object(path: string, depth: number): JsObject {
    const open = this.peek();
    if (depth > MAX_NESTING) throw this.src.error(`Objects and arrays are nested deeper than ${MAX_NESTING} levels`, open.start);
    this.p++;
    const obj: JsObject = new Map();
    for (;;) {
      const t = this.peek();
      if (this.isPunct(t, '}')) { this.p++; return obj; }
      if (t.type === 'eof') throw this.src.error('Object literal is not closed', open.start);
      if (this.isPunct(t, '...')) {
        this.p++;
        const spread = this.value('member', `${path}...`, depth + 1);
        if (spread instanceof Map) {
          // Each spread copies members: bounded like flatten, so `...a` repeated cannot cost quadratic time.
          this.copyBudget -= spread.size;
          if (this.copyBudget < 0) throw this.src.error('The file copies objects with ... too often', t.start);
          for (const [name, v] of spread) obj.set(name, v);
        }
        else if (spread !== null) this.report(`${path}...`, t, 'a spread of something that is not an object');
      } else {
        this.member(obj, path, depth);
      }
      const sep = this.peek();
      if (this.isPunct(sep, ',')) this.p++;
      else if (!this.isPunct(sep, '}')) throw this.src.error(`Expected "," or "}" in an object literal, found ${describeToken(sep)}`, sep.start);
    }
  }

  private member(obj: JsObject, path: string, depth: number): void {
    const keyToken = this.peek();
    const next = this.peek(1);
    let name: string;
    if (keyToken.type === 'ident' || keyToken.type === 'string' || keyToken.type === 'number') {
      const accessor = keyToken.type === 'ident' && ['get', 'set', 'async', 'static'].includes(keyToken.value) && ['ident', 'string', 'number'].includes(next.type);
      if (accessor || this.isPunct(next, '(')) return this.skipMember(path, accessor ? next.value : keyToken.value, keyToken, 'a method');
      name = keyToken.value;
      this.p++;
    } else if (this.isPunct(keyToken, '[') && (next.type === 'string' || next.type === 'number') && this.isPunct(this.peek(2), ']')) {
      name = next.value;
      this.p += 3;
    } else if (this.isPunct(keyToken, '[') || this.isPunct(keyToken, '*')) {
      return this.skipMember(path, '[…]', keyToken, this.isPunct(keyToken, '*') ? 'a method' : 'a computed property name');
    } else {
      throw this.src.error(`Expected a property name in an object literal, found ${describeToken(keyToken)}`, keyToken.start);
    }
    const childPath = path === '' ? name : `${path}.${name}`;
    const after = this.peek();
    let value: JsValue | null;
    if (this.isPunct(after, ':')) {
      this.p++;
      value = this.value('member', childPath, depth + 1);
    } else if (keyToken.type === 'ident' && (this.isPunct(after, ',') || this.isPunct(after, '}'))) {
      // Shorthand `{ name }`
      value = this.bindings.get(name) ?? null;
      if (value === null) this.report(childPath, keyToken, `a name that is not declared above (${name})`);
    } else {
      throw this.src.error(`Expected ":" after the property name ${JSON.stringify(name)}, found ${describeToken(after)}`, after.start);
    }
    if (value === null) obj.delete(name);
    else obj.set(name, this.described(value, keyToken));
  }

  private skipMember(path: string, name: string, at: Token, reason: string): void {
    this.report(path === '' ? name : `${path}.${name}`, at, reason);
    this.skipExpression();
  }

  private array(path: string, depth: number): JsArray {
    const open = this.peek();
    if (depth > MAX_NESTING) throw this.src.error(`Objects and arrays are nested deeper than ${MAX_NESTING} levels`, open.start);
    this.p++;
    const items: JsArray = [];
    for (;;) {
      const t = this.peek();
      if (this.isPunct(t, ']')) { this.p++; return items; }
      if (t.type === 'eof') throw this.src.error('Array literal is not closed', open.start);
      if (this.isPunct(t, ',')) { items.push(undefined); this.p++; continue; }
      const itemPath = `${path}[${items.length}]`;
      if (this.isPunct(t, '...')) {
        this.report(itemPath, t, 'a spread inside an array');
        this.p++;
        this.skipExpression();
        items.push(undefined);
      } else {
        const value = this.value('member', itemPath, depth + 1);
        items.push(value === null ? undefined : this.described(value, t));
      }
      const sep = this.peek();
      if (this.isPunct(sep, ',')) this.p++;
      else if (!this.isPunct(sep, ']')) throw this.src.error(`Expected "," or "]" in an array, found ${describeToken(sep)}`, sep.start);
    }
  }

  /** A leaf written right here gets the comments above `at` as its description (a copy, so shared leaves are untouched). */
  private described(value: JsValue, at: Token): JsValue {
    if (!(value instanceof JsLeaf)) return value;
    const description = this.descriptionAbove(at);
    return description === undefined ? value : new JsLeaf(value.value, description);
  }

  private descriptionAbove(at: Token): string | undefined {
    const comments = at.comments;
    if (!comments) return undefined;
    const texts: string[] = [];
    let nextLine = this.src.line(at.start);
    for (let i = comments.length - 1; i >= 0; i--) {
      const c = comments[i]!;
      if (!c.ownLine || this.src.line(c.end - 1) < nextLine - 1) break;
      texts.unshift(commentText(c));
      nextLine = this.src.line(c.start);
    }
    return texts.length ? texts.join('\n') : undefined;
  }

  /** Steps over an expression up to a `,` or a closing bracket at its own level (not consumed). */
  private skipExpression(): void {
    let depth = 0;
    for (;;) {
      const t = this.peek();
      if (t.type === 'eof') throw this.src.error('Unexpected end of the file inside an object or array literal', t.start);
      if (t.type === 'punct') {
        if (t.value === '(' || t.value === '[' || t.value === '{') depth++;
        else if (t.value === ')' || t.value === ']' || t.value === '}') {
          if (depth === 0) return;
          depth--;
        } else if (t.value === ',' && depth === 0) return;
      }
      this.p++;
    }
  }

  /** What the expression at the current token is, for the skipped list. */
  private describe(ctx: 'member' | 'statement'): string {
    let depth = 0;
    let call = false;
    let template = false;
    for (let k = 0; k < DESCRIBE_LIMIT; k++) {
      const t = this.peek(k);
      if (t.type === 'eof') break;
      if (k > 0 && depth === 0 && (ctx === 'statement' ? t.nl || this.isPunct(t, ';') : this.isPunct(t, ','))) break;
      if (this.isWord(t, 'function') || this.isWord(t, 'class') || this.isPunct(t, '=>')) return 'a function';
      if (t.type === 'template') template = true;
      if (t.type === 'punct') {
        if (t.value === '(' && k > 0 && this.peek(k - 1).type === 'ident') call = true;
        if ('([{'.includes(t.value)) depth++;
        else if (')]}'.includes(t.value)) {
          if (depth === 0) break;
          depth--;
        }
      }
    }
    if (template) return 'a template literal with ${…}';
    if (call) return 'a function call';
    if (this.peek().type === 'ident' && !this.bindings.has(this.peek().value)) return `a name that is not declared above (${this.peek().value})`;
    return 'an expression that is not a literal';
  }

  private report(path: string, at: Token, reason: string): void {
    const { line, column } = this.src.position(at.start);
    this.skipped.push({ path: path || 'export default', line, column, reason });
  }

  exported(prefer: 'default' | 'commonjs'): JsObject {
    const commonjs = this.moduleObject.has('exports') ? this.moduleObject.get('exports')! : null;
    const commonjsGiven = this.moduleExportsAt !== undefined || this.exportsObject.size > 0;
    const order = prefer === 'default' ? (['default', 'commonjs'] as const) : (['commonjs', 'default'] as const);
    for (const kind of order) {
      if (kind === 'default' && this.defaultExport) return this.requireObject(this.defaultExport.value, 'The default export', this.defaultExport.at);
      if (kind === 'commonjs' && commonjsGiven) return this.requireObject(commonjs, 'module.exports', this.moduleExportsAt ?? 0);
    }
    throw new FormatError('No `export default {…}` or `module.exports = {…}` found in the JavaScript file');
  }

  private requireObject(value: JsValue | null, what: string, at: number): JsObject {
    if (value instanceof Map) return value;
    const position = this.src.position(at);
    const skip = this.skipped.find((s) => s.line === position.line && s.column === position.column);
    const found = value === null ? (skip?.reason ?? 'a value that is not a literal') : value instanceof JsLeaf ? 'a single text' : 'an array';
    throw new FormatError(`${what} must be an object literal of translations, found ${found}`, position);
  }
}

function describeToken(t: Token): string {
  if (t.type === 'eof') return 'the end of the file';
  if (t.type === 'string') return 'a string';
  if (t.type === 'template') return 'a template literal';
  return JSON.stringify(t.value);
}

/** Tokenizes and evaluates a module's top-level statements (see the rules above). */
export function readJsModule(text: string): JsModule {
  const reader = new ModuleReader(new Source(text));
  reader.read();
  return { exported: (prefer) => reader.exported(prefer), skipped: reader.skipped, tokenCount: reader.tokenCount };
}

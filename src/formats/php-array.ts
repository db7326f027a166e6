// PHP array translation files (Laravel, CodeIgniter style):
//   <?php return ['key' => 'text', 'group' => ['nested' => 'text']];
//
// Import: a small tokenizer and recursive-descent parser, never PHP itself.
// Accepted: `<?php`, an optional `declare(strict_types=1);`, then
// `return <array>;` (optional `?>`). Arrays as `[...]` or `array(...)`, keys
// as strings or integers (items without a key get PHP's next integer index),
// values as strings, numbers, nested arrays, or a concatenation `'a' . 'b'` of
// literals. Single- and double-quoted strings follow PHP's escape rules; a
// double-quoted string with variable interpolation is refused. Comments `//`,
// `#`, `/* */` are skipped; a doc comment `/** ... */` directly before a
// non-array entry is its description (plain comments are often section
// headings, so they are not). Nested arrays become dotted keys. Laravel's pipe
// plurals ("one|many") are kept verbatim. Anything else (function calls,
// constants, variables, heredoc, true/false/null) is refused with its line and
// column. Single-language.
//
// Export: a flat `'a.b' => '...'` list; with WRITE_NESTED, nested arrays
// (nested-keys.ts). A key that is both a leaf and a parent (`a` and `a.b`)
// keeps the leaf at its level and the keys below it flat next to it:
// `'a' => 'x', 'a.b' => 'y'`, so nothing is lost; keys with an empty segment
// (`a..b`, `Done.`) stay flat at the top. `t[0]`-style keys (JSON arrays) keep
// their literal names, since PHP would read a list back as `t.0`. Nested files
// list keys in path order (nested-keys.ts, pathSortKey), flat ones in the
// export's sort. A file has no namespaces: when several namespaces share a
// key name, the key of the first namespace (code-point order) is written. Strings are single-quoted. With ESCAPE_NEW_LINES, newlines are
// written as the two characters \n.
// Descriptions with INCLUDE_DESCRIPTIONS as `/** ... */` doc comments
// (a `*/` inside is written `*\/`, and read back as `*/`).
import { defineFormat } from './define.js';
import { FormatError, type Bundle, type BundleKey, type FormatWriter, type ParseOptions, type SerializeOptions } from './model.js';
import { decodeText } from './text.js';
import type { NestedNode } from './nested-keys.js';
import { NestedStream } from './nested-stream.js';
import { nestedKeyOrder } from './object-literal-writer.js';
import { requireLanguageKey, singleLanguage } from './single-language.js';

const MAX_DEPTH = 64;

type TokenType = 'string' | 'number' | 'word' | 'punct' | 'doc' | 'end';
interface Token {
  type: TokenType;
  value: string;
  line: number;
  column: number;
  /** Doc comment text directly before this token (no blank line between). */
  doc?: string;
}

class Lexer {
  private i = 0;
  private line = 1;
  private lineStart = 0;

  constructor(private readonly src: string) {}

  private error(message: string, at = this.i): never {
    const line = this.src.slice(0, at).split('\n').length;
    const column = at - this.src.lastIndexOf('\n', at - 1);
    throw new FormatError(message, { line, column });
  }

  /** Skips `<?php` at the start. */
  openTag(): void {
    const m = /^\s*<\?php\b/.exec(this.src);
    if (!m) this.error('A PHP file must start with <?php', 0);
    this.advanceTo(m[0].length);
  }

  private advanceTo(j: number): void {
    for (; this.i < j; this.i++) {
      if (this.src.charCodeAt(this.i) === 10) { this.line++; this.lineStart = this.i + 1; }
    }
  }

  tokenize(): Token[] {
    const tokens: Token[] = [];
    let doc: string | undefined;
    const s = this.src;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === '\n') {
        // A blank line between a doc comment and the next token detaches it.
        if (doc !== undefined && /^\s*$/.test(s.slice(this.lineStart, this.i))) doc = undefined;
        this.advanceTo(this.i + 1);
        continue;
      }
      if (/\s/.test(c)) { this.i++; continue; }
      if (c === '#' || (c === '/' && s[this.i + 1] === '/')) {
        let j = this.i;
        while (j < s.length && s[j] !== '\n' && !(s[j] === '?' && s[j + 1] === '>')) j++;
        this.advanceTo(j);
        doc = undefined;
        continue;
      }
      if (c === '/' && s[this.i + 1] === '*') {
        const end = s.indexOf('*/', this.i + 2);
        if (end < 0) this.error('Unterminated comment');
        const body = s.slice(this.i, end + 2);
        doc = body.startsWith('/**') && body.length > 4 ? docText(body) : undefined;
        this.advanceTo(end + 2);
        continue;
      }
      const line = this.line;
      const column = this.i - this.lineStart + 1;
      const push = (type: TokenType, value: string, end: number) => {
        tokens.push({ type, value, line, column, ...(doc !== undefined ? { doc } : {}) });
        doc = undefined;
        this.advanceTo(end);
      };
      if (c === "'") { const [v, end] = this.singleQuoted(); push('string', v, end); continue; }
      if (c === '"') { const [v, end] = this.doubleQuoted(); push('string', v, end); continue; }
      if (c === '<' && s.startsWith('<<<', this.i)) this.error('Heredoc strings are not supported');
      const num = /^[+-]?(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(s.slice(this.i, this.i + 64));
      if (num && /\d/.test(c)) { push('number', num[0], this.i + num[0].length); continue; }
      const word = /^[A-Za-z_\\][A-Za-z0-9_\\]*/.exec(s.slice(this.i, this.i + 256));
      if (word) { push('word', word[0], this.i + word[0].length); continue; }
      const punct = /^(?:=>|\?>|[[\](),;.=-])/.exec(s.slice(this.i, this.i + 2));
      if (punct) {
        push('punct', punct[0], this.i + punct[0].length);
        if (punct[0] === '?>') break; // the rest is outside PHP
        continue;
      }
      this.error(`Unexpected character "${c}"`);
    }
    tokens.push({ type: 'end', value: '', line: this.line, column: this.i - this.lineStart + 1 });
    return tokens;
  }

  private singleQuoted(): [string, number] {
    const s = this.src;
    let out = '';
    for (let j = this.i + 1; j < s.length; j++) {
      const c = s[j]!;
      if (c === "'") return [out, j + 1];
      if (c === '\\' && (s[j + 1] === "'" || s[j + 1] === '\\')) { out += s[j + 1]; j++; continue; }
      out += c;
    }
    this.error('Unterminated string');
  }

  private doubleQuoted(): [string, number] {
    const s = this.src;
    let out = '';
    for (let j = this.i + 1; j < s.length; j++) {
      const c = s[j]!;
      if (c === '"') return [out, j + 1];
      if (c === '$' && /[A-Za-z_{]/.test(s[j + 1] ?? '')) this.error('Variables in double-quoted strings are not supported', j);
      if (c === '{' && s[j + 1] === '$') this.error('Variables in double-quoted strings are not supported', j);
      if (c !== '\\') { out += c; continue; }
      const e = s[j + 1];
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', v: '\v', e: '\x1b', f: '\f', '\\': '\\', $: '$', '"': '"' };
      if (e !== undefined && simple[e] !== undefined) { out += simple[e]; j++; continue; }
      const oct = /^[0-7]{1,3}/.exec(s.slice(j + 1, j + 4));
      if (oct) { out += String.fromCharCode(parseInt(oct[0], 8) & 0xff); j += oct[0].length; continue; }
      const hex = e === 'x' ? /^[0-9a-fA-F]{1,2}/.exec(s.slice(j + 2, j + 4)) : null;
      if (hex) { out += String.fromCharCode(parseInt(hex[0], 16)); j += 1 + hex[0].length; continue; }
      const uni = e === 'u' ? /^\{([0-9a-fA-F]{1,6})\}/.exec(s.slice(j + 2, j + 10)) : null;
      if (uni) {
        const cp = parseInt(uni[1]!, 16);
        if (cp > 0x10ffff) this.error('Invalid \\u{} escape', j);
        out += String.fromCodePoint(cp);
        j += 1 + uni[0].length;
        continue;
      }
      out += c; // PHP keeps an unknown escape as written
    }
    this.error('Unterminated string');
  }
}

/** The text of a `/** ... *\/` comment: without the markers and the leading ` * ` of each line. */
function docText(body: string): string | undefined {
  const inner = body.slice(3, -2);
  const lines = inner.split('\n').map((l, i) => (i === 0 ? l : l.replace(/^\s*\* ?/, '')));
  if (lines.length > 1 && lines[0]!.trim() === '') lines.shift();
  if (lines.length > 1 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const text = lines.map((l, i) => (lines.length === 1 || i === 0 ? l.trim() : l.replace(/\s+$/, ''))).join('\n').replace(/\*\\\//g, '*/');
  return text === '' ? undefined : text;
}

type PhpValue = { kind: 'scalar'; text: string; token: Token } | { kind: 'array'; entries: { key: string; value: PhpValue; token: Token }[] };

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token { return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)]!; }
  private next(): Token { const t = this.peek(); if (this.pos < this.tokens.length - 1) this.pos++; return t; }
  private fail(t: Token, message: string): never { throw new FormatError(message, { line: t.line, column: t.column }); }
  private expect(value: string): Token {
    const t = this.next();
    if (t.value !== value || (t.type !== 'punct' && t.type !== 'word')) this.fail(t, `Expected "${value}" but found ${describe(t)}`);
    return t;
  }

  file(): PhpValue {
    if (this.peek().type === 'word' && this.peek().value.toLowerCase() === 'declare') {
      this.next();
      this.expect('(');
      while (this.peek().value !== ')' && this.peek().type !== 'end') this.next();
      this.expect(')');
      this.expect(';');
    }
    const r = this.next();
    if (r.type !== 'word' || r.value.toLowerCase() !== 'return') this.fail(r, `Expected "return [...]" but found ${describe(r)}`);
    const value = this.value(0);
    if (value.kind !== 'array') this.fail(r, 'The file must return an array');
    const t = this.next();
    if (t.value !== ';' && t.type !== 'end' && t.value !== '?>') this.fail(t, `Expected ";" but found ${describe(t)}`);
    if (t.value === ';' && this.peek().value === '?>') this.next();
    const rest = this.peek();
    if (rest.type !== 'end' && rest.value !== '?>') this.fail(rest, `Unexpected ${describe(rest)} after the returned array`);
    return value;
  }

  private value(depth: number): PhpValue {
    if (depth > MAX_DEPTH) this.fail(this.peek(), `Arrays nested deeper than ${MAX_DEPTH} levels`);
    const t = this.peek();
    if (t.value === '[' && t.type === 'punct') return this.array(depth, ']');
    if (t.type === 'word' && t.value.toLowerCase() === 'array' && this.peek(1).value === '(') {
      this.next();
      return this.array(depth, ')');
    }
    let text = this.literal();
    while (this.peek().type === 'punct' && this.peek().value === '.') {
      this.next();
      text += this.literal();
    }
    return { kind: 'scalar', text, token: t };
  }

  private literal(): string {
    const t = this.next();
    if (t.type === 'string') return t.value;
    if (t.type === 'number') return t.value.startsWith('+') ? t.value.slice(1) : t.value;
    if (t.type === 'punct' && t.value === '-' && this.peek().type === 'number') return '-' + this.next().value;
    if (t.type === 'word' && this.peek().value === '(') this.fail(t, `Function calls are not supported (${t.value})`);
    this.fail(t, `Only string and number literals are supported, found ${describe(t)}`);
  }

  private array(depth: number, close: string): PhpValue {
    this.next(); // [ or (
    const entries: { key: string; value: PhpValue; token: Token }[] = [];
    let nextIndex = 0;
    while (!(this.peek().type === 'punct' && this.peek().value === close)) {
      const start = this.peek();
      if (start.type === 'end') this.fail(start, `Missing "${close}" at the end of the array`);
      let key: string;
      const first = this.value(depth + 1);
      if (this.peek().type === 'punct' && this.peek().value === '=>') {
        this.next();
        if (first.kind !== 'scalar') this.fail(start, 'An array cannot be a key');
        key = first.text;
        // PHP casts integer-like string keys to integers; the next index follows them.
        if (/^(0|-?[1-9]\d*)$/.test(key)) nextIndex = Math.max(nextIndex, Number(key) + 1);
        const value = this.value(depth + 1);
        entries.push({ key, value, token: start });
      } else {
        entries.push({ key: String(nextIndex++), value: first, token: start });
      }
      const sep = this.peek();
      if (sep.type === 'punct' && sep.value === ',') { this.next(); continue; }
      if (!(sep.type === 'punct' && sep.value === close)) this.fail(sep, `Expected "," or "${close}" but found ${describe(sep)}`);
    }
    this.next();
    return { kind: 'array', entries };
  }
}

function describe(t: Token): string {
  if (t.type === 'end') return 'the end of the file';
  if (t.type === 'string') return 'a string';
  return `"${t.value}"`;
}

async function parse(input: Buffer, options: ParseOptions): Promise<Bundle> {
  const language = requireLanguageKey(options, 'php-array');
  const lexer = new Lexer(decodeText(input));
  lexer.openTag();
  const root = new Parser(lexer.tokenize()).file();

  const keys: BundleKey[] = [];
  const seen = new Set<string>();
  const namespace = options.namespace ?? '';
  const walk = (value: PhpValue, path: string | null) => {
    if (value.kind !== 'array') return;
    // PHP keeps the last value of a duplicate key, at the first one's position.
    const last = new Map<string, (typeof value.entries)[number]>();
    for (const e of value.entries) last.set(e.key, e);
    for (const e of last.values()) {
      const key = path === null ? e.key : `${path}.${e.key}`;
      if (e.value.kind === 'array') { walk(e.value, key); continue; }
      if (seen.has(key)) throw new FormatError(`Key "${key}" is defined twice (once nested, once with dots)`, { line: e.token.line, column: e.token.column });
      seen.add(key);
      const k: BundleKey = { key, namespace, translations: { [language]: { text: e.value.text } } };
      if (e.token.doc !== undefined) k.description = e.token.doc;
      keys.push(k);
    }
  };
  walk(root, null);
  return { keys, languages: [{ key: language }] };
}

/** A single-quoted PHP string; a backslash is doubled only where PHP would read it as an escape. */
function quote(text: string): string {
  return `'${text.replace(/\\(?=[\\']|$)|'/g, (c) => '\\' + c)}'`;
}

function docComment(description: string, indent: string): string {
  const lines = description.replace(/\*\//g, '*\\/').split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l === '' ? '' : ' ' + l}`).join('\n')}\n${indent} */\n`;
}

/** A nested member at `depth` (0: the returned array) is indented one level more. */
const phpIndent = (depth: number) => '    '.repeat(depth + 1);

function phpWriter(options: SerializeOptions): FormatWriter {
  const language = singleLanguage(options, 'php-array');
  const escapeNewLines = options.options.has('ESCAPE_NEW_LINES');
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');
  const write = (name: string, node: NestedNode<BundleKey>, indent: string): string => {
    if (node.kind === 'leaf') {
      const k = node.value;
      const text = k.translations[language]?.text ?? '';
      const doc = withDescriptions && k.description ? docComment(k.description, indent) : '';
      return `${doc}${indent}${quote(name)} => ${quote(escapeNewLines ? text.replace(/\r?\n/g, '\\n') : text)},\n`;
    }
    // `t[0]`-style keys (from JSON): PHP would renumber a list as t.0, so the names stay literal.
    if (node.kind === 'array') return node.items.map((item, i) => write(`${name}[${i}]`, item, indent)).join('');
    return `${indent}${quote(name)} => [\n${node.entries.map(([n, child]) => write(n, child, indent + '    ')).join('')}${indent}],\n`;
  };
  const stream = new NestedStream<BundleKey>({
    member: (name, node, depth) => write(name, node, phpIndent(depth)),
    open: (name, depth) => `${phpIndent(depth)}${quote(name)} => [\n`,
    close: (depth) => `${phpIndent(depth)}],\n`,
  }, options.options.has('WRITE_NESTED'));
  let started = false;
  const head = () => (started ? '' : ((started = true), '<?php\n\nreturn [\n'));
  return {
    write(keys) {
      let out = head();
      for (const key of keys) out += stream.add(key.key, key);
      return out;
    },
    end: () => `${head()}${stream.end()}];\n`,
  };
}

export const phpArray = defineFormat({
  id: 'php-array',
  multiLanguage: false,
  namespaces: false,
  extension: 'php',
  contentType: 'application/x-httpd-php; charset=utf-8',
  keyOrder: nestedKeyOrder,
  parse,
  writer: phpWriter,
});

// PHP array translation files (Laravel, CodeIgniter style):
//   <?php return ['key' => 'text', 'group' => ['nested' => 'text']];
//
// Import: php-parser (glayzzle's PHP parser, never PHP itself) reads the
// file; a small static evaluator then accepts only literal data.
// Accepted: `<?php`, an optional `declare(strict_types=1);`, then
// `return <array>;` (optional `?>`, the rest after it being outside PHP).
// Arrays as `[...]` or `array(...)`, keys as strings or integers (items
// without a key get PHP's next integer index), values as strings, numbers
// (written as in the file; a leading `-` kept), nested arrays, or a
// concatenation `'a' . 'b'` of literals. Strings follow PHP's escape rules (the
// parser's). A double-quoted string with variable interpolation is refused.
// Comments `//`, `#`, `/* */` are skipped; a doc comment `/** ... */` directly
// before a non-array entry (no blank line, no other comment between) is its
// description (plain comments are often section headings, so they are not).
// Nested arrays become dotted keys. Laravel's pipe plurals ("one|many") are
// kept verbatim. Anything else (function calls, constants, variables,
// heredoc, true/false/null, other statements) is refused with its line and
// column. Before parsing, the token stream (php-parser's lexer) is checked:
// unterminated strings and comments, heredoc, and brackets nested deeper than
// 64 levels are refused there, so the recursive parser never sees a file that
// could exhaust its stack. Single-language.
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
import type { Engine } from 'php-parser';
import { lazyRequire } from '../lazy-module.js';
import { defineFormat } from './define.js';
import {
  FormatError,
  type Bundle,
  type BundleKey,
  type FormatWriter,
  type ParseOptions,
  type SerializeOptions,
} from './model.js';
import { decodeText } from './text.js';
import type { NestedNode } from './nested-keys.js';
import { NestedStream } from './nested-stream.js';
import { nestedKeyOrder } from './object-literal-writer.js';
import { requireLanguageKey, singleLanguage } from './single-language.js';

const MAX_DEPTH = 64;

// php-parser is loaded when a PHP file is first read (src/lazy-module.ts).
const phpParser = lazyRequire<{ Engine: typeof Engine }>('php-parser');
let phpEngine: Engine | undefined;
const engine = (): Engine =>
  (phpEngine ??= new (phpParser().Engine)({
    parser: { extractDoc: true, php8: true, suppressErrors: false },
    ast: { withPositions: true },
    lexer: { short_tags: false },
  }));

/** The parts of php-parser's AST the evaluator reads. */
interface PhpNode {
  kind: string;
  loc: { start: { line: number; column: number; offset: number }; end: { offset: number } };
  leadingComments?: { kind: string; value: string; offset: number }[];
  [field: string]: unknown;
}

type PhpValue = { kind: 'scalar'; text: string } | { kind: 'array'; entries: PhpEntry[] };
interface PhpEntry {
  key: string;
  value: PhpValue;
  node: PhpNode;
  doc?: string;
}

function fail(message: string, node: { loc: PhpNode['loc'] } | { line: number; column: number }): never {
  const at = 'loc' in node ? { line: node.loc.start.line, column: node.loc.start.column + 1 } : node;
  throw new FormatError(message, at);
}

/**
 * The lexer's pass over the file: refuses what the parser would misreport
 * (unterminated strings and comments), heredoc, and nesting deep enough to
 * matter, each at its line and column.
 */
function checkTokens(src: string): void {
  let tokens: ReturnType<Engine['tokenGetAll']>;
  try {
    tokens = engine().tokenGetAll(src);
  } catch (e) {
    throw lexerFailure(e);
  }
  let line = 1;
  let lineStart = 0;
  let offset = 0;
  let depth = 0;
  let openQuote: { line: number; column: number } | null = null;
  for (const token of tokens) {
    const [name, text] = typeof token === 'string' ? [token, token] : [token[0]!, token[1]!];
    const at = { line, column: offset - lineStart + 1 };
    if (name === 'T_CONSTANT_ENCAPSED_STRING' && (text.length < 2 || text[text.length - 1] !== text[0]))
      fail('Unterminated string', at);
    if (
      (name === 'T_COMMENT' || name === 'T_DOC_COMMENT') &&
      text.startsWith('/*') &&
      (text.length < 4 || !text.endsWith('*/'))
    )
      fail('Unterminated comment', at);
    if (name === 'T_START_HEREDOC') fail('Heredoc strings are not supported', at);
    if (name === '"') openQuote = openQuote ? null : at;
    if (!openQuote) {
      if (name === '[' || name === '(') {
        if (++depth > MAX_DEPTH + 1) fail(`Arrays nested deeper than ${MAX_DEPTH} levels`, at);
      } else if (name === ']' || name === ')') depth--;
    }
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
      line++;
      lineStart = offset + i + 1;
    }
    offset += text.length;
  }
  if (openQuote) fail('Unterminated string', openQuote);
}

/**
 * php-parser's lexer throws plain Errors ('Bad terminal sequence "\0" at line
 * 10 (offset 230)' for a character PHP has no token for): a FormatError at
 * that line.
 */
function lexerFailure(e: unknown): FormatError {
  const message = e instanceof Error ? e.message : String(e);
  const line = /at line (\d+)/.exec(message)?.[1];
  const detail = message.replace(/ at line \d+ \(offset \d+\)$/, '').replace(/"\0"/, '"\\0" (a NUL character)');
  return new FormatError(`PHP syntax error: ${detail}`, line ? { line: Number(line) } : undefined);
}

function parseProgram(src: string): PhpNode[] {
  try {
    return (engine().parseCode(src, 'input.php') as unknown as { children: PhpNode[] }).children;
  } catch (e) {
    const err = e as { message?: string; lineNumber?: number; columnNumber?: number };
    if (typeof err.lineNumber !== 'number') throw lexerFailure(e);
    const at = { line: err.lineNumber, column: (err.columnNumber ?? 0) + 1 };
    const detail = (err.message ?? '').replace(/^Parse Error : /, '').replace(/ on line \d+$/, '');
    // "syntax error, unexpected 'c' (T_CONSTANT_ENCAPSED_STRING), expecting ']'"
    const expecting = /^syntax error, (?:unexpected (.+?)(?: \(T_\w+\))?, )?expecting '([\])])'$/.exec(detail);
    if (expecting) fail(`Expected "," or "${expecting[2]}" but found ${expecting[1] ?? 'the end of the file'}`, at);
    fail(`PHP syntax error: ${detail}`, at);
  }
}

/** The evaluator: the returned array of a file that holds only literal data. */
function evaluateFile(src: string, children: PhpNode[]): PhpValue {
  let i = 0;
  if (children[i]?.kind === 'declare') i++;
  const ret = children[i];
  if (!ret || ret.kind !== 'return') {
    if (!ret) fail('Expected "return [...]" but found the end of the file', { line: 1, column: 1 });
    fail(`Expected "return [...]" but found ${describe(ret, src)}`, ret);
  }
  const expr = ret.expr as PhpNode | null;
  if (!expr) fail('The file must return an array', ret);
  const value = evaluate(src, expr, 0);
  if (value.kind !== 'array') fail('The file must return an array', ret);
  for (const rest of children.slice(i + 1)) {
    // Text after `?>` is outside PHP.
    if (rest.kind !== 'inline') fail(`Unexpected ${describe(rest, src)} after the returned array`, rest);
  }
  return value;
}

function describe(node: PhpNode, src: string): string {
  return `"${src.slice(node.loc.start.offset, Math.min(node.loc.end.offset, node.loc.start.offset + 20)).split(/[\s(;]/)[0]}"`;
}

function evaluate(src: string, node: PhpNode, depth: number): PhpValue {
  if (depth > MAX_DEPTH) fail(`Arrays nested deeper than ${MAX_DEPTH} levels`, node);
  if (node.kind === 'array') return { kind: 'array', entries: entries(src, node, depth) };
  return { kind: 'scalar', text: literal(src, node) };
}

function literal(src: string, node: PhpNode): string {
  switch (node.kind) {
    case 'string':
      return node.value as string;
    case 'number':
      return node.value as string;
    case 'unary': {
      const what = node.what as PhpNode;
      if (node.type === '-' && what.kind === 'number') return `-${what.value as string}`;
      break;
    }
    case 'bin':
      if (node.type === '.') return literal(src, node.left as PhpNode) + literal(src, node.right as PhpNode);
      break;
    case 'encapsed': {
      const variable = (node.value as { kind: string; expression: PhpNode }[]).find(
        (p) => p.expression.kind !== 'string',
      );
      if (node.type === 'string')
        fail('Variables in double-quoted strings are not supported', variable?.expression ?? node);
      break;
    }
    case 'call': {
      const what = node.what as PhpNode;
      fail(`Function calls are not supported (${describe(what, src).slice(1, -1)})`, node);
    }
  }
  fail(`Only string and number literals are supported, found ${describe(node, src)}`, node);
}

function entries(src: string, array: PhpNode, depth: number): PhpEntry[] {
  const out: PhpEntry[] = [];
  let nextIndex = 0;
  for (const item of array.items as (PhpNode | null)[]) {
    if (!item) fail('Empty array items are not supported', array);
    const entry = item.kind === 'entry' ? item : null;
    if (entry && (entry.byRef || entry.unpack)) fail('References and unpacking are not supported', entry);
    const valueNode = entry ? (entry.value as PhpNode) : item;
    const keyNode = entry ? (entry.key as PhpNode | null) : null;
    let key: string;
    if (keyNode) {
      if (keyNode.kind === 'array') fail('An array cannot be a key', keyNode);
      key = literal(src, keyNode);
      // PHP casts integer-like string keys to integers; the next index follows them.
      if (/^(0|-?[1-9]\d*)$/.test(key)) nextIndex = Math.max(nextIndex, Number(key) + 1);
    } else key = String(nextIndex++);
    const value = evaluate(src, valueNode, depth + 1);
    const doc = docBefore(src, item);
    out.push({ key, value, node: item, ...(doc !== undefined ? { doc } : {}) });
  }
  return out;
}

/** The description of an entry: a doc comment right before it (no blank line, no other comment between). */
function docBefore(src: string, item: PhpNode): string | undefined {
  const last = item.leadingComments?.[item.leadingComments.length - 1];
  if (!last || last.kind !== 'commentblock' || !last.value.startsWith('/**') || last.value.length <= 4)
    return undefined;
  const between = src.slice(last.offset + last.value.length, item.loc.start.offset);
  if (/\n[ \t\r]*\n/.test(between) || between.trim() !== '') return undefined;
  return docText(last.value);
}

/** The text of a `/** ... *\/` comment: without the markers and the leading ` * ` of each line. */
function docText(body: string): string | undefined {
  const inner = body.slice(3, -2);
  const lines = inner.split('\n').map((l, i) => (i === 0 ? l : l.replace(/^\s*\* ?/, '')));
  if (lines.length > 1 && lines[0]!.trim() === '') lines.shift();
  if (lines.length > 1 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const text = lines
    .map((l, i) => (lines.length === 1 || i === 0 ? l.trim() : l.replace(/\s+$/, '')))
    .join('\n')
    .replace(/\*\\\//g, '*/');
  return text === '' ? undefined : text;
}

async function parse(input: Buffer, options: ParseOptions): Promise<Bundle> {
  const language = requireLanguageKey(options, 'php-array');
  // Trailing white space means nothing in a data file, and php-parser's lexer
  // loops forever on white space at the very end of an unclosed attribute
  // (`'a' => #[` then a newline: found by the fuzzer), so it never gets any.
  const src = decodeText(input).trimEnd();
  if (!/^\s*<\?php\b/.test(src)) fail('A PHP file must start with <?php', { line: 1, column: 1 });
  checkTokens(src);
  const root = evaluateFile(src, parseProgram(src));

  const keys: BundleKey[] = [];
  const seen = new Set<string>();
  const namespace = options.namespace ?? '';
  const walk = (value: PhpValue, path: string | null) => {
    if (value.kind !== 'array') return;
    // PHP keeps the last value of a duplicate key, at the first one's position.
    const last = new Map<string, PhpEntry>();
    for (const e of value.entries) last.set(e.key, e);
    for (const e of last.values()) {
      const key = path === null ? e.key : `${path}.${e.key}`;
      if (e.value.kind === 'array') {
        walk(e.value, key);
        continue;
      }
      if (seen.has(key)) fail(`Key "${key}" is defined twice (once nested, once with dots)`, e.node);
      seen.add(key);
      const k: BundleKey = { key, namespace, translations: { [language]: { text: e.value.text } } };
      if (e.doc !== undefined) k.description = e.doc;
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
  const stream = new NestedStream<BundleKey>(
    {
      member: (name, node, depth) => write(name, node, phpIndent(depth)),
      open: (name, depth) => `${phpIndent(depth)}${quote(name)} => [\n`,
      close: (depth) => `${phpIndent(depth)}],\n`,
    },
    options.options.has('WRITE_NESTED'),
  );
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

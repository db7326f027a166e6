// Java .properties files (java.util.Properties.load rules).
//
// Import: ISO-8859-1 with \uXXXX escapes, but a file that is valid UTF-8 is
// read as UTF-8 (Java 9+ resource bundles are UTF-8). Comment lines (`#` or
// `!`) directly before a key, with no blank line between, become its
// description (one leading space after the comment mark is dropped; \uXXXX in
// comments is decoded, as Properties.store writes them). A later duplicate key
// replaces the earlier value, as in Java. Single-language.
//
// Export: ASCII only (every other character as \uXXXX), so the file is valid
// ISO-8859-1 and UTF-8 at once. `key=value`; spaces, `=`, `:`, `#`, `!` and
// backslashes in keys are escaped; a leading space of a value is escaped;
// newlines are always written as \n. Descriptions with INCLUDE_DESCRIPTIONS as
// `# ` comment lines. A key without a translation is written with an empty value.
// A file has no namespaces: when several namespaces share a key name, one is
// written (the export engine hands over one key per name). No header or
// footer: the file is its keys' lines, written page by page.
import { defineFormat } from './define.js';
import { entryWriter } from './entry-writer.js';
import { FormatError, type Bundle, type BundleKey, type FileFormat, type FormatWriter, type ParseOptions, type SerializeOptions } from './model.js';
import { decodeText } from './text.js';
import { requireLanguageKey, singleLanguage } from './single-language.js';

const WHITESPACE = new Set([' ', '\t', '\f']);

interface LogicalLine {
  text: string;
  line: number;
  /** Where each piece of `text` came from, for error columns: [offset in text, line, column]. */
  starts: [number, number, number][];
}

function trailingBackslashes(s: string): number {
  let n = 0;
  for (let i = s.length - 1; i >= 0 && s[i] === '\\'; i--) n++;
  return n;
}

function endsWithOddBackslashes(s: string): boolean {
  return trailingBackslashes(s) % 2 === 1;
}

function unescape(s: string, where: (offset: number) => { line: number; column: number }): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\') { out += c; continue; }
    const e = s[++i];
    if (e === undefined) break;
    if (e === 'u') {
      const hex = s.slice(i + 1, i + 5);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new FormatError('Malformed \\uXXXX escape', where(i - 1));
      out += String.fromCharCode(parseInt(hex, 16));
      i += 4;
    } else out += e === 't' ? '\t' : e === 'n' ? '\n' : e === 'r' ? '\r' : e === 'f' ? '\f' : e;
  }
  return out;
}

function commentText(line: string): string {
  // Comments are not escapes-aware in Java; only \uXXXX is decoded, as store() writes it.
  return line.slice(1).replace(/^ /, '').replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

async function parse(input: Buffer, options: ParseOptions): Promise<Bundle> {
  const language = requireLanguageKey(options, 'java-properties');
  const text = decodeText(input, { fallback: 'latin1' });
  const natural = text.split(/\r\n|\r|\n/);

  const byKey = new Map<string, BundleKey>();
  let comments: string[] = [];
  for (let i = 0; i < natural.length; i++) {
    const first = natural[i]!;
    let start = 0;
    while (start < first.length && WHITESPACE.has(first[start]!)) start++;
    if (start === first.length) { comments = []; continue; }
    if (first[start] === '#' || first[start] === '!') { comments.push(commentText(first.slice(start))); continue; }

    // The physical lines of a logical line are collected, then joined once:
    // appending to the string and looking at its end on every line made a
    // file of many continued lines cost quadratic time (found by the fuzzer).
    const pieces = [first.slice(start)];
    const starts: LogicalLine['starts'] = [[0, i + 1, start + 1]];
    let length = pieces[0]!.length;
    // The backslashes that end the text joined so far.
    let trailing = trailingBackslashes(pieces[0]!);
    while (trailing % 2 === 1 && i + 1 < natural.length) {
      pieces[pieces.length - 1] = pieces[pieces.length - 1]!.slice(0, -1);
      length--;
      trailing--;
      const next = natural[++i]!;
      let s = 0;
      while (s < next.length && WHITESPACE.has(next[s]!)) s++;
      const piece = next.slice(s);
      starts.push([length, i + 1, s + 1]);
      pieces.push(piece);
      length += piece.length;
      const own = trailingBackslashes(piece);
      trailing = own === piece.length ? trailing + own : own;
    }
    const logical: LogicalLine = { text: pieces.join(''), line: starts[0]![1], starts };
    if (endsWithOddBackslashes(logical.text)) logical.text = logical.text.slice(0, -1);

    const where = (offset: number) => {
      let piece = logical.starts[0]!;
      for (const s of logical.starts) if (s[0] <= offset) piece = s;
      return { line: piece[1], column: piece[2] + offset - piece[0] };
    };
    const { key, value, valueOffset } = splitKeyValue(logical.text);
    const k = unescape(key, where);
    if (k === '') throw new FormatError('Empty key', { line: logical.line, column: 1 });
    const v = unescape(value, (o) => where(valueOffset + o));
    const entry: BundleKey = { key: k, namespace: options.namespace ?? '', translations: { [language]: { text: v } } };
    if (comments.length) entry.description = comments.join('\n');
    byKey.delete(k);
    byKey.set(k, entry);
    comments = [];
  }
  return { keys: [...byKey.values()], languages: [{ key: language }] };
}

/** Key up to the first unescaped `=`, `:` or whitespace; then optional whitespace, one separator, whitespace. */
function splitKeyValue(line: string): { key: string; value: string; valueOffset: number } {
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '\\') { i += 2; continue; }
    if (c === '=' || c === ':' || WHITESPACE.has(c)) break;
    i++;
  }
  const key = line.slice(0, Math.min(i, line.length));
  while (i < line.length && WHITESPACE.has(line[i]!)) i++;
  if (line[i] === '=' || line[i] === ':') i++;
  while (i < line.length && WHITESPACE.has(line[i]!)) i++;
  return { key, value: line.slice(i), valueOffset: i };
}

function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  if (c === '\\') return '\\\\';
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  if (c === '\f') return '\\f';
  if (code < 0x20 || code > 0x7e) return '\\u' + code.toString(16).toUpperCase().padStart(4, '0');
  return c;
}

function escapeKey(key: string): string {
  return key.replace(/[^\x21-\x7e]|[\\=:#!]/g, (c) => (c === ' ' || c === '=' || c === ':' || c === '#' || c === '!' ? '\\' + c : escapeChar(c)));
}

function escapeValue(value: string): string {
  const escaped = value.replace(/[^\x20-\x7e]|\\/g, escapeChar);
  return escaped.startsWith(' ') ? '\\' + escaped : escaped;
}

function escapeComment(line: string): string {
  return line.replace(/[^\x20-\x7e]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0'));
}

function writer(options: SerializeOptions): FormatWriter {
  const language = singleLanguage(options, 'java-properties');
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');
  const entry = (k: BundleKey): string => {
    let out = '';
    if (withDescriptions && k.description) {
      for (const l of k.description.split('\n')) out += l === '' ? '#\n' : `# ${escapeComment(l)}\n`;
    }
    return `${out}${escapeKey(k.key)}=${escapeValue(k.translations[language]?.text ?? '')}\n`;
  };
  // Every character is escaped to ASCII, so the text chunks (written as UTF-8) are ISO-8859-1 too.
  return entryWriter({ entries: (keys) => keys.map(entry).join('') });
}

export const javaProperties: FileFormat = defineFormat({
  id: 'java-properties',
  multiLanguage: false,
  namespaces: false,
  extension: 'properties',
  contentType: 'text/x-java-properties; charset=ISO-8859-1',
  parse,
  writer,
});

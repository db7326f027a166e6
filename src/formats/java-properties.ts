// Java .properties files (java.util.Properties.load rules).
//
// Import: ISO-8859-1 with \uXXXX escapes, but a file that is valid UTF-8 is
// read as UTF-8 (Java 9+ resource bundles are UTF-8). Comment lines (`#` or
// `!`) directly before a key, with no blank line between, become its
// description (one leading space after the comment mark is dropped; \uXXXX in
// comments is decoded, as Properties.store writes them). A later duplicate key
// replaces the earlier value, as in Java. Single-language. Files are read as
// a stream (readProperties below), by parse() and parseStream() alike.
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
import {
  FormatError,
  type Bundle,
  type BundleKey,
  type FileFormat,
  type FormatWriter,
  type OpenFile,
  type ParseOptions,
  type SerializeOptions,
} from './model.js';
import { detached, latin1Fallback, readLines, type LineReader } from './text-stream.js';
import { requireLanguageKey, singleLanguage } from './single-language.js';

const WHITESPACE = new Set([' ', '\t', '\f']);

/** Where each piece of a logical line came from, for error columns: [offset in its text, line, column]. */
type PieceStarts = [number, number, number][];

function trailingBackslashes(s: string): number {
  let n = 0;
  for (let i = s.length - 1; i >= 0 && s[i] === '\\'; i--) n++;
  return n;
}

function unescape(s: string, where: (offset: number) => { line: number; column: number }): string {
  // Runs of plain characters are copied whole: a text built character by character is a chain of as many string pieces.
  let out = '';
  let from = 0;
  for (let i = s.indexOf('\\'); i >= 0; i = s.indexOf('\\', from)) {
    out += s.slice(from, i);
    const e = s[i + 1];
    if (e === undefined) {
      from = s.length;
      break;
    }
    if (e === 'u') {
      const hex = s.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new FormatError('Malformed \\uXXXX escape', where(i));
      out += String.fromCharCode(parseInt(hex, 16));
      from = i + 6;
    } else {
      out += e === 't' ? '\t' : e === 'n' ? '\n' : e === 'r' ? '\r' : e === 'f' ? '\f' : e;
      from = i + 2;
    }
  }
  return out + s.slice(from);
}

function commentText(line: string): string {
  // Comments are not escapes-aware in Java; only \uXXXX is decoded, as store() writes it.
  return line
    .slice(1)
    .replace(/^ /, '')
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** A key of the file: its logical line's key and value, the comment lines before it. */
interface Entry {
  key: string;
  value: string;
  description?: string;
}

/**
 * Reads a file line by line (physical lines, as split at \r\n, \r or \n) and
 * hands each logical line over as an Entry. It holds the comment lines before
 * a key and the pieces of a logical line still being continued.
 */
class PropertiesReader implements LineReader {
  private line = 0;
  private comments: string[] = [];
  /**
   * The logical line being read: its physical lines' pieces, joined once at
   * its end (appending to a string and looking at its end on every line made
   * a file of many continued lines cost quadratic time; found by the fuzzer),
   * its length and the backslashes that end it.
   */
  private open: { pieces: string[]; starts: PieceStarts; length: number; trailing: number } | undefined;

  constructor(private readonly entry: (entry: Entry) => void) {}

  add(physical: string): void {
    const line = ++this.line;
    let start = 0;
    while (start < physical.length && WHITESPACE.has(physical[start]!)) start++;
    const piece = physical.slice(start);
    const open = this.open;
    if (open) {
      // A continuation line is taken whole, blank or starting with # or !, its leading whitespace dropped.
      open.starts.push([open.length, line, start + 1]);
      open.pieces.push(piece);
      open.length += piece.length;
      const own = trailingBackslashes(piece);
      open.trailing = own === piece.length ? open.trailing + own : own;
    } else if (start === physical.length) {
      this.comments = [];
      return;
    } else if (piece[0] === '#' || piece[0] === '!') {
      this.comments.push(commentText(piece));
      return;
    } else {
      this.open = {
        pieces: [piece],
        starts: [[0, line, start + 1]],
        length: piece.length,
        trailing: trailingBackslashes(piece),
      };
    }
    const logical = this.open!;
    if (logical.trailing % 2 === 0) return this.finish();
    // An odd backslash at the end continues the line on the next one; at the end of the file it is dropped.
    const last = logical.pieces.length - 1;
    logical.pieces[last] = logical.pieces[last]!.slice(0, -1);
    logical.length--;
    logical.trailing--;
  }

  /** The end of the file: a line still continued ends here. */
  end(): void {
    if (this.open) this.finish();
  }

  private finish(): void {
    const { pieces, starts } = this.open!;
    this.open = undefined;
    const text = pieces.join('');
    const where = (offset: number) => {
      let piece = starts[0]!;
      for (const s of starts) if (s[0] <= offset) piece = s;
      return { line: piece[1], column: piece[2] + offset - piece[0] };
    };
    const { key, value, valueOffset } = splitKeyValue(text);
    const k = unescape(key, where);
    if (k === '') throw new FormatError('Empty key', { line: starts[0]![1], column: 1 });
    const v = unescape(value, (o) => where(valueOffset + o));
    const entry: Entry = { key: k, value: v };
    if (this.comments.length) entry.description = this.comments.join('\n');
    this.comments = [];
    this.entry(entry);
  }
}

/** The entries of a file, a batch per piece of text read. */
const entries = (texts: AsyncIterable<string>) => readLines<Entry>(texts, (entry) => new PropertiesReader(entry));

/** Key -> how many times it is given again after its first line. */
async function givenAgain(texts: AsyncIterable<string>): Promise<Map<string, number>> {
  const again = new Map<string, number>();
  const seen = new Set<string>();
  for await (const batch of entries(texts)) {
    for (const { key } of batch) {
      if (!seen.has(key)) seen.add(detached(key));
      else again.set(detached(key), (again.get(key) ?? 0) + 1);
    }
  }
  return again;
}

/**
 * A file in chunks of `chunkCells` keys (a whole file: unbounded, one chunk),
 * in three passes: the encoding (latin1Fallback); every rule, to find the keys
 * given more than once (only their names are held, then only those given
 * again); then the keys, each where it is last given, with that value and
 * comment, as the whole-file reading gave them (a later duplicate replaces the
 * earlier). A broken file fails before the first chunk.
 */
async function* readProperties(open: OpenFile, options: ParseOptions, chunkCells: number): AsyncGenerator<Bundle> {
  const language = requireLanguageKey(options, 'java-properties');
  const texts = await latin1Fallback(open);
  const again = await givenAgain(texts());
  const namespace = options.namespace ?? '';
  let chunk: Bundle = { keys: [], languages: [{ key: language }] };
  for await (const batch of entries(texts())) {
    for (const { key, value, description } of batch) {
      const later = again.get(key);
      if (later) {
        if (later === 1) again.delete(key);
        else again.set(key, later - 1);
        continue;
      }
      const entry: BundleKey = { key, namespace, translations: { [language]: { text: value } } };
      if (description !== undefined) entry.description = description;
      chunk.keys.push(entry);
      if (chunk.keys.length >= chunkCells) {
        yield chunk;
        chunk = { keys: [], languages: [] };
      }
    }
  }
  yield chunk;
}

/** Key up to the first unescaped `=`, `:` or whitespace; then optional whitespace, one separator, whitespace. */
function splitKeyValue(line: string): { key: string; value: string; valueOffset: number } {
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
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
  return key.replace(/[^\x21-\x7e]|[\\=:#!]/g, (c) =>
    c === ' ' || c === '=' || c === ':' || c === '#' || c === '!' ? '\\' + c : escapeChar(c),
  );
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
  parseStream: readProperties,
  writer,
});

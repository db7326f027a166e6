// gettext PO / POT files.
//
// Import (read as a stream, by parse() and parseStream() alike: readPo below):
// - msgctxt is the namespace, msgid the key, msgstr the text. The header entry
//   (empty msgid, no msgctxt) is not a key; its Language and Plural-Forms are read.
// - msgid_plural + msgstr[n] become an ICU plural. Index n is mapped to a CLDR
//   category through the file's Plural-Forms expression (see gettext-plural.ts).
//   ICU needs `other`; when the language's gettext forms do not include it
//   (Russian: one/few/many) `other` gets the last form's text.
//   A plural entry whose msgstr[n] are all empty (a POT) imports as ''.
//   The number is `%d` in msgstr[n] and `#` in ICU: the first integer
//   placeholder of a form (`%d`, `%i`, `%ld`, `%u`, `%2$d`...) reads as `#`,
//   `#` is written `%d` (`%N$d` when the form has positional placeholders),
//   a literal `%` is `%%` in a form (see plural.ts).
// - Translator comments (`# ...`) -> description; extracted comments (`#. ...`,
//   written by developers in the source code) -> codeDescription. References
//   (`#:`), previous strings (`#|`) and other flags are not kept; obsolete
//   entries (`#~`) are not keys.
// - `#, fuzzy` -> NOT_REVIEWED; otherwise REVIEWED when a msgstr is non-empty.
//   An empty msgstr imports as an empty translation (a POT gives keys with '' texts).
//
// Export (streamed: the header depends only on the options, then one entry per key):
// - A header with Language (language key, '-' written as '_' as gettext expects)
//   and the standard Plural-Forms of the language.
// - msgid is always the key (so a round trip keeps keys). For plurals,
//   msgid_plural is the `other` form of the exported language (the key when
//   that is empty) and msgstr[n] the form of the category mapped to index n.
//   A key that is plural in another language of the bundle is written with
//   msgid_plural and empty msgstr[n] when this language has no plural for it.
// - msgctxt for a non-empty namespace, unless the file is the export of that
//   one namespace (SerializeOptions.namespace).
// - Descriptions with INCLUDE_DESCRIPTIONS (`#` and `#.`).
// - `#, fuzzy` is never written: NOT_REVIEWED is the state of every new
//   translation, and fuzzy entries are left out of compiled catalogs.
// Reading and writing are this module's own, not a library's: gettext-parser,
// the most used, loses data a user would notice and no mapping can restore
// from its output (the order of a file that mixes contexts, escapes such as
// \101 and \x41), accepts malformed input silently, and writes control
// characters raw (what was compared: docs/benchmarks.md, "Figures behind
// constants in the code"). The writer here escapes them and streams page by
// page (FormatWriter).
// Note: `msgfmt -c` rejects an entry whose msgid and msgstr do not both begin
// and end with a newline; a key and its translation that differ so are still
// written as they are (valid PO, only that check complains).
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
import { GETTEXT_NUMBER, isPluralKey, pluralFromPlatform, pluralToPlatform, type PluralCategory } from './plural.js';
import { decodeStream, detached, firstBytes, readLines, readToEnd, type LineReader } from './text-stream.js';
import { singleLanguage } from './single-language.js';
import { indexCategories, parsePluralFormsHeader, pluralFormsHeaderFor } from './gettext-plural.js';

interface PoEntry {
  line: number;
  translator: string[];
  extracted: string[];
  flags: string[];
  msgctxt?: string;
  msgid?: string;
  msgidPlural?: string;
  msgstr: string[];
  /** Plain `msgstr` (not indexed) was seen. */
  plainMsgstr: boolean;
}

type Field = 'msgctxt' | 'msgid' | 'msgid_plural' | 'msgstr';

function newEntry(line: number): PoEntry {
  return { line, translator: [], extracted: [], flags: [], msgstr: [], plainMsgstr: false };
}

/**
 * Reads PO text line by line (lines end at \n, a \r before it is dropped)
 * and hands over its entries (header included, obsolete entries excluded) as
 * each is complete. It holds the entry being read.
 */
class PoReader implements LineReader {
  private lineNo = 0;
  private entry = newEntry(1);
  private last: { field: Field; index: number } | null = null;

  constructor(private readonly onEntry: (entry: PoEntry) => void) {}

  private started(): boolean {
    return this.entry.msgctxt !== undefined || this.entry.msgid !== undefined;
  }

  private complete(): boolean {
    return this.entry.msgstr.length > 0;
  }

  private finish(line: number): void {
    const entry = this.entry;
    if (this.started()) {
      if (!this.complete()) throw new FormatError(`Entry "${entry.msgid ?? ''}" has no msgstr`, { line: entry.line });
      this.onEntry(entry);
    }
    this.entry = newEntry(line);
    this.last = null;
  }

  /** The end of the text: the last entry ends. */
  end(): void {
    this.finish(this.lineNo);
  }

  add(text: string): void {
    const lineNo = ++this.lineNo;
    const entry = this.entry;
    const raw = text.endsWith('\r') ? text.slice(0, -1) : text;
    const line = raw.trim();
    const column = raw.length - raw.trimStart().length + 1;
    if (line === '') return;

    if (line.startsWith('#')) {
      if (this.complete()) this.finish(lineNo);
      else if (this.started())
        throw new FormatError('Comment inside an entry (msgstr missing before it)', { line: lineNo, column });
      const kind = line[1];
      if (kind === '~') {
        // Obsolete entry: its comments were collected for nothing.
        this.entry = newEntry(lineNo);
      } else if (kind === '.') this.entry.extracted.push(line.slice(2).replace(/^ /, ''));
      else if (kind === ',')
        this.entry.flags.push(
          ...line
            .slice(2)
            .split(',')
            .map((f) => f.trim())
            .filter(Boolean),
        );
      else if (kind === ':' || kind === '|') {
        /* references and previous strings are not kept */
      } else this.entry.translator.push(raw.trimStart().slice(1).replace(/^ /, ''));
      return;
    }

    const kw = /^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?(?=\s|")\s*/.exec(line);
    if (kw) {
      const field = kw[1] as Field;
      const index = kw[2] !== undefined ? Number(kw[2]) : -1;
      if ((field === 'msgctxt' || field === 'msgid') && this.complete()) this.finish(lineNo);
      const e = this.entry;
      if (!this.started()) e.line = lineNo;
      if (index >= 0 && field !== 'msgstr')
        throw new FormatError(`${field} cannot have an index`, { line: lineNo, column });
      const value = parseQuoted(line.slice(kw[0].length), lineNo, column + kw[0].length);
      switch (field) {
        case 'msgctxt':
          if (this.started()) throw new FormatError('msgctxt must come before msgid', { line: lineNo, column });
          e.msgctxt = value;
          break;
        case 'msgid':
          if (e.msgid !== undefined) throw new FormatError('Second msgid in one entry', { line: lineNo, column });
          e.msgid = value;
          break;
        case 'msgid_plural':
          if (e.msgid === undefined || e.msgidPlural !== undefined || this.complete())
            throw new FormatError('msgid_plural must follow msgid', { line: lineNo, column });
          e.msgidPlural = value;
          break;
        case 'msgstr':
          if (e.msgid === undefined) throw new FormatError('msgstr without msgid', { line: lineNo, column });
          if (e.msgidPlural !== undefined) {
            if (index !== e.msgstr.length)
              throw new FormatError(
                index < 0 ? 'A plural entry needs msgstr[0], msgstr[1], ...' : `Expected msgstr[${e.msgstr.length}]`,
                { line: lineNo, column },
              );
          } else if (index >= 0 || e.plainMsgstr) {
            throw new FormatError(index >= 0 ? 'msgstr[n] without msgid_plural' : 'Second msgstr in one entry', {
              line: lineNo,
              column,
            });
          } else e.plainMsgstr = true;
          e.msgstr.push(value);
          break;
      }
      this.last = { field, index: field === 'msgstr' ? e.msgstr.length - 1 : -1 };
      return;
    }

    if (line.startsWith('"')) {
      if (!this.last) throw new FormatError('String without a keyword before it', { line: lineNo, column });
      const value = parseQuoted(line, lineNo, column);
      const l = this.last;
      if (l.field === 'msgctxt') entry.msgctxt += value;
      else if (l.field === 'msgid') entry.msgid += value;
      else if (l.field === 'msgid_plural') entry.msgidPlural += value;
      else entry.msgstr[l.index] += value;
      return;
    }
    throw new FormatError(`Unexpected text "${line.slice(0, 20)}"`, { line: lineNo, column });
  }
}

/** The entries of PO text, a batch per piece of text read. */
const poEntries = (texts: AsyncIterable<string>) => readLines<PoEntry>(texts, (entry) => new PoReader(entry), /\n/g);

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
  '?': '?',
};

/** Parses one C string literal `"..."` that makes up the rest of a line. */
function parseQuoted(s: string, line: number, column: number): string {
  if (s[0] !== '"') throw new FormatError('Expected a quoted string', { line, column });
  let out = '';
  let i = 1;
  while (i < s.length) {
    // A run of plain characters is copied whole: a text built character by character is a chain of as many string pieces.
    let plain = i;
    while (plain < s.length && s[plain] !== '"' && s[plain] !== '\\') plain++;
    if (plain > i) {
      out += s.slice(i, plain);
      i = plain;
      continue;
    }
    const c = s[i]!;
    if (c === '"') {
      if (s.slice(i + 1).trim() !== '')
        throw new FormatError('Unexpected text after the closing quote', { line, column: column + i + 1 });
      return out;
    }
    const e = s[i + 1];
    if (e === undefined) break;
    if (SIMPLE_ESCAPES[e] !== undefined) {
      out += SIMPLE_ESCAPES[e];
      i += 2;
      continue;
    }
    const oct = /^[0-7]{1,3}/.exec(s.slice(i + 1, i + 4));
    if (oct) {
      out += String.fromCharCode(parseInt(oct[0], 8));
      i += 1 + oct[0].length;
      continue;
    }
    const hex = e === 'x' ? /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 2, i + 4)) : null;
    if (hex) {
      out += String.fromCharCode(parseInt(hex[0], 16));
      i += 2 + hex[0].length;
      continue;
    }
    throw new FormatError(`Invalid escape sequence \\${e}`, { line, column: column + i });
  }
  throw new FormatError('Unterminated string', { line, column });
}

function parseHeader(msgstr: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of msgstr.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return fields;
}

/**
 * How the file is decoded, settled by a first pass as decodeText would: UTF-8
 * (or UTF-16 by its BOM); if not, a legacy charset the file declares (e.g.
 * ISO-8859-2), checked whole. Returns the reader of each later pass.
 */
async function poTexts(open: OpenFile): Promise<() => AsyncIterable<string>> {
  try {
    await readToEnd(decodeStream(open()));
    return () => decodeStream(open());
  } catch (e) {
    // Not UTF-8: honour a declared legacy charset (e.g. ISO-8859-2) if there is one.
    const declared = /charset\s*=\s*([\w.:-]+)/i.exec((await firstBytes(open(), 4096)).toString('latin1'))?.[1];
    if (!declared || /^utf-?8$/i.test(declared)) throw e;
    const decode = (input: AsyncIterable<Buffer>) => decodeCharset(input, declared);
    await readToEnd(decode(open()));
    return () => decode(open());
  }
}

async function* decodeCharset(input: AsyncIterable<Buffer>, charset: string): AsyncGenerator<string> {
  const invalid = () => new FormatError(`The file is not valid in its declared charset ${charset}`);
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw invalid();
  }
  const decode = (bytes?: Buffer) => {
    try {
      return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    } catch {
      throw invalid();
    }
  };
  for await (const piece of input) yield decode(piece);
  yield decode();
}

/**
 * A PO file in chunks of `chunkCells` keys (a whole file: unbounded, one
 * chunk). First passes settle what holds for the whole file and give its
 * errors in the order a whole-file reading does: the decoding (poTexts), then
 * every entry, for its syntax errors and the header entry, wherever it stands
 * (its Language and Plural-Forms apply to every entry). The last pass hands
 * the keys over as they come; an empty msgid or a message given twice fails
 * where it stands.
 */
async function* readPo(open: OpenFile, options: ParseOptions, chunkCells: number): AsyncGenerator<Bundle> {
  const texts = await poTexts(open);
  let headerEntry: PoEntry | undefined;
  for await (const batch of poEntries(texts())) headerEntry ??= batch.find(isHeader);
  const header = headerEntry ? parseHeader(headerEntry.msgstr[0] ?? '') : new Map<string, string>();
  const language = options.languageKey || header.get('language');
  if (!language) throw new FormatError('The language of the PO file is unknown: give languageKey or a Language header');
  const pluralHeader = parsePluralFormsHeader(header.get('plural-forms') ?? '');
  // The index -> category mapping evaluates the expression for many numbers: once per form count.
  const mappings = new Map<number, (PluralCategory | null)[]>();
  const categoriesFor = (count: number) => {
    let cats = mappings.get(count);
    if (!cats) {
      // The header's expression applies when it agrees with the entry's number of forms.
      cats = indexCategories(
        pluralHeader && pluralHeader.nplurals === count ? pluralHeader : { nplurals: count, expression: null },
        language,
      );
      mappings.set(count, cats);
    }
    return cats;
  };

  let chunk: Bundle = { keys: [], languages: [{ key: language }] };
  const seen = new Set<string>();
  let headerPassed = false;
  for await (const batch of poEntries(texts())) {
    for (const e of batch) {
      // The first header entry is the header; another is an entry with an empty msgid.
      if (!headerPassed && isHeader(e)) {
        headerPassed = true;
        continue;
      }
      const key = e.msgid!;
      if (key === '') throw new FormatError('An entry with an empty msgid is not a key', { line: e.line });
      const namespace = e.msgctxt ?? options.namespace ?? '';
      const id = `${namespace}\u0000${key}`;
      if (seen.has(id))
        throw new FormatError(
          `Duplicate message "${key}"${e.msgctxt !== undefined ? ` in context "${e.msgctxt}"` : ''}`,
          { line: e.line },
        );
      seen.add(detached(id));

      const text = e.msgidPlural !== undefined ? pluralText(e.msgstr, categoriesFor(e.msgstr.length)) : e.msgstr[0]!;
      const fuzzy = e.flags.includes('fuzzy');
      const k: BundleKey = {
        key,
        namespace,
        translations: {
          [language]: fuzzy
            ? { text, reviewStatus: 'NOT_REVIEWED' }
            : e.msgstr.some((s) => s !== '')
              ? { text, reviewStatus: 'REVIEWED' }
              : { text },
        },
      };
      if (e.translator.length) k.description = e.translator.join('\n');
      if (e.extracted.length) k.codeDescription = e.extracted.join('\n');
      chunk.keys.push(k);
      if (chunk.keys.length >= chunkCells) {
        yield chunk;
        chunk = { keys: [], languages: [] };
      }
    }
  }
  yield chunk;
}

const isHeader = (e: PoEntry) => e.msgid === '' && e.msgctxt === undefined;

function pluralText(msgstr: string[], cats: (PluralCategory | null)[]): string {
  if (msgstr.every((s) => s === '')) return '';
  const result: Record<string, string> = {};
  cats.forEach((cat, i) => {
    if (cat) result[cat] = msgstr[i]!;
  });
  if (result.other === undefined) result.other = msgstr[msgstr.length - 1]!;
  return pluralFromPlatform(result, GETTEXT_NUMBER);
}

// ---- Writer ----

function quote(text: string): string {
  return (
    '"' +
    text.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
      switch (c) {
        case '\\':
          return '\\\\';
        case '"':
          return '\\"';
        case '\n':
          return '\\n';
        case '\t':
          return '\\t';
        case '\r':
          return '\\r';
        case '\x07':
          return '\\a';
        case '\b':
          return '\\b';
        case '\f':
          return '\\f';
        case '\v':
          return '\\v';
        default:
          return '\\' + c.charCodeAt(0).toString(8).padStart(3, '0');
      }
    }) +
    '"'
  );
}

/** `keyword "text"`, or split after each newline when the text has several lines. */
function field(keyword: string, text: string): string {
  const nl = text.indexOf('\n');
  if (nl < 0 || nl === text.length - 1) return `${keyword} ${quote(text)}\n`;
  const parts = text.split(/(?<=\n)/);
  return `${keyword} ""\n${parts.map((p) => quote(p)).join('\n')}\n`;
}

function comments(prefix: string, text: string | undefined): string {
  if (!text) return '';
  return text
    .split('\n')
    .map((l) => (l === '' ? `${prefix}\n` : `${prefix} ${l}\n`))
    .join('');
}

function revisionDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}+0000`;
}

function writer(options: SerializeOptions): FormatWriter {
  const language = singleLanguage(options, 'po-pot');
  const pluralHeader = pluralFormsHeaderFor(language);
  const cats = indexCategories(parsePluralFormsHeader(pluralHeader)!, language);
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');
  const revised = options.revisedAt ?? new Date();

  const header = (): string => {
    const lines = [
      'Project-Id-Version: \n',
      `PO-Revision-Date: ${revisionDate(revised)}\n`,
      'Last-Translator: \n',
      'Language-Team: \n',
      'MIME-Version: 1.0\n',
      'Content-Type: text/plain; charset=UTF-8\n',
      'Content-Transfer-Encoding: 8bit\n',
      `Language: ${language.replace(/-/g, '_')}\n`,
      `Plural-Forms: ${pluralHeader}\n`,
    ];
    return `msgid ""\nmsgstr ""\n${lines.map(quote).join('\n')}\n`;
  };

  const entry = (k: BundleKey): string => {
    let out = '\n';
    if (withDescriptions) out += comments('#', k.description) + comments('#.', k.codeDescription);
    if (k.namespace && k.namespace !== options.namespace) out += field('msgctxt', k.namespace);
    out += field('msgid', k.key);
    const text = k.translations[language]?.text ?? '';
    const forms = pluralToPlatform(text, GETTEXT_NUMBER)?.forms ?? (text === '' && isPluralKey(k) ? {} : null);
    if (forms) {
      const own = text === '' ? {} : forms;
      out += field('msgid_plural', own.other || k.key);
      cats.forEach((cat, i) => {
        out += field(`msgstr[${i}]`, (cat && own[cat]) ?? own.other ?? '');
      });
    } else {
      out += field('msgstr', text);
    }
    return out;
  };

  return entryWriter({ header, entries: (keys) => keys.map(entry).join('') });
}

export const poPot: FileFormat = defineFormat({
  id: 'po-pot',
  multiLanguage: false,
  // msgctxt carries the namespace.
  namespaces: true,
  extension: 'po',
  contentType: 'text/x-gettext-translation; charset=utf-8',
  parseStream: readPo,
  writer,
});

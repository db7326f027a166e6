// Apple .strings files (old-style plist "strings" syntax):
//   /* comment */
//   "key" = "value";
// Keys and values are quoted strings or unquoted words ([A-Za-z0-9_$+/:.-]);
// `"key";` alone means the value equals the key. Escapes: \" \' \\ \n \t \r
// \a \b \f \v, \U1234 / \u1234, octal \012.
//
// Conventions:
// - Description: the last comment before an entry, when nothing but
//   whitespace without a blank line separates them (a comment followed by a
//   blank line is a header or section comment). Consecutive `//` lines form one
//   comment. Exported with INCLUDE_DESCRIPTIONS as `/* ... */`.
// - A key repeated in the file: the last value wins (as on Apple platforms).
// - Export is UTF-8 (Apple accepts it) with newlines, tabs and CRs escaped,
//   one entry per key as the keys come (no header or footer).
// - A key without a translation in the exported language is left out, so the
//   app falls back to its development language instead of showing "".
// - Plurals cannot be expressed in .strings: their ICU text is written as is.
// - No namespaces: a key name several namespaces share is written once (the
//   export engine hands over one key per name, see FileFormat.namespaces).
import { defineFormat } from './define.js';
import { entryWriter } from './entry-writer.js';
import type { Bundle, BundleKey, FileFormat, FormatWriter, ParseOptions, SerializeOptions } from './model.js';
import { FormatError } from './model.js';
import { decodeText } from './text.js';

export const localizableStrings: FileFormat = defineFormat({
  id: 'localizable-strings',
  multiLanguage: false,
  namespaces: false,
  extension: 'strings',
  contentType: 'text/plain; charset=utf-8',
  parse: async (input, options) => parseStrings(input, options),
  writer: stringsWriter,
});

interface Entry {
  key: string;
  value: string;
  comment?: string;
}

function parseStrings(input: Buffer, options: ParseOptions): Bundle {
  const language = options.languageKey;
  if (!language) throw new FormatError('localizable-strings files need a languageKey');
  const text = decodeText(input, { sniffUtf16: true });
  const byKey = new Map<string, BundleKey>();
  for (const entry of new StringsReader(text).entries()) {
    const existing = byKey.get(entry.key);
    const key: BundleKey = existing ?? { key: entry.key, namespace: options.namespace ?? '', translations: {} };
    key.translations[language] = { text: entry.value };
    if (entry.comment !== undefined) key.description = entry.comment;
    byKey.set(entry.key, key);
  }
  return { keys: [...byKey.values()], languages: [{ key: language }] };
}

const UNQUOTED = /[A-Za-z0-9_$+/:.-]/;

class StringsReader {
  private i = 0;
  /** Last comment seen and where it ended, for the description rule. */
  private comment: { text: string; end: number; line: boolean } | undefined;
  /** False between the end of an entry and the next newline: comments there trail that entry. */
  private newlineSinceEntry = true;

  constructor(private readonly s: string) {}

  *entries(): Generator<Entry> {
    for (;;) {
      this.skip();
      if (this.i >= this.s.length) return;
      const c = this.comment;
      const comment = c && !/\n[ \t\r]*\n/.test(this.s.slice(c.end, this.i)) ? c.text : undefined;
      this.comment = undefined;
      const key = this.word('key');
      this.skip();
      let value = key;
      if (this.s[this.i] !== ';') {
        this.expect('=', `"=" after the key ${JSON.stringify(key)}`);
        this.skip();
        value = this.word('value');
        this.skip();
      }
      this.expect(';', `";" after the value of ${JSON.stringify(key)}`);
      this.comment = undefined;
      this.newlineSinceEntry = false;
      yield { key, value, comment };
    }
  }

  /** Skips whitespace and comments, remembering the last comment. */
  private skip(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === '\n') this.newlineSinceEntry = true;
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\uFEFF') {
        this.i++;
        continue;
      }
      if (c !== '/' || (s[this.i + 1] !== '*' && s[this.i + 1] !== '/')) return;
      const block = s[this.i + 1] === '*';
      const close = block ? s.indexOf('*/', this.i + 2) : s.indexOf('\n', this.i);
      if (block && close < 0) this.fail('comment is not closed', this.i);
      const end = block ? close + 2 : close < 0 ? s.length : close;
      const text = s.slice(this.i + 2, block ? close : end).trim();
      // A comment on the line where an entry ends describes that entry's line, not the next entry.
      const prev = this.comment;
      if (!this.newlineSinceEntry) this.comment = undefined;
      else if (!block && prev?.line && /^\r?\n[ \t]*$/.test(s.slice(prev.end, this.i)))
        this.comment = { text: `${prev.text}\n${text}`, end, line: true };
      else this.comment = { text, end, line: !block };
      this.i = end;
    }
  }

  private word(what: string): string {
    const s = this.s;
    if (this.i >= s.length) this.fail(`unexpected end of file, expected a ${what}`, this.i);
    if (s[this.i] === '"') return this.quoted();
    const start = this.i;
    while (this.i < s.length && UNQUOTED.test(s[this.i]!)) this.i++;
    if (this.i === start) this.fail(`expected a ${what}, found ${JSON.stringify(s[this.i])}`, this.i);
    return s.slice(start, this.i);
  }

  private quoted(): string {
    const s = this.s;
    const start = this.i;
    this.i++;
    let out = '';
    let chunk = this.i;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === '"') {
        out += s.slice(chunk, this.i);
        this.i++;
        return out;
      }
      if (c !== '\\') {
        this.i++;
        continue;
      }
      out += s.slice(chunk, this.i);
      const e = s[this.i + 1];
      this.i += 2;
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'a':
          out += '\x07';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'v':
          out += '\v';
          break;
        case 'u':
        case 'U': {
          const hex = /^[0-9a-fA-F]{1,4}/.exec(s.slice(this.i, this.i + 4))?.[0];
          if (!hex) this.fail(`invalid \\${e} escape`, this.i - 2);
          out += String.fromCharCode(parseInt(hex!, 16));
          this.i += hex!.length;
          break;
        }
        case undefined:
          this.fail('string is not closed', start);
          break;
        default:
          if (e >= '0' && e <= '7') {
            const oct = /^[0-7]{1,3}/.exec(s.slice(this.i - 1, this.i + 2))![0];
            out += String.fromCharCode(parseInt(oct, 8));
            this.i += oct.length - 1;
          } else out += e; // \" \' \\ and unknown escapes: the character itself
      }
      chunk = this.i;
    }
    return this.fail('string is not closed', start);
  }

  private expect(c: string, what: string): void {
    if (this.s[this.i] !== c) {
      const found = this.i >= this.s.length ? 'end of file' : JSON.stringify(this.s[this.i]);
      this.fail(`expected ${what}, found ${found}`, this.i);
    }
    this.i++;
  }

  private fail(message: string, offset: number): never {
    let line = 1;
    let lineStart = 0;
    for (let j = this.s.indexOf('\n'); j >= 0 && j < offset; j = this.s.indexOf('\n', j + 1)) {
      line++;
      lineStart = j + 1;
    }
    throw new FormatError(`Invalid .strings file: ${message}`, { line, column: offset - lineStart + 1, offset });
  }
}

function stringsWriter(options: SerializeOptions): FormatWriter {
  const language = options.languages[0]?.key;
  if (!language) throw new FormatError('localizable-strings export needs one language');
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');
  // Entries are separated by a blank line: every entry but the file's first starts with one.
  let first = true;
  const entry = (key: BundleKey): string => {
    const t = key.translations[language];
    if (!t) return '';
    let block = first ? '' : '\n';
    first = false;
    if (withDescriptions && key.description) block += `/* ${key.description.replace(/\*\//g, '* /')} */\n`;
    return `${block}"${escapeStrings(key.key)}" = "${escapeStrings(t.text)}";\n`;
  };
  return entryWriter({ entries: (keys) => keys.map(entry).join('') });
}

export function escapeStrings(s: string): string {
  return s.replace(/[\\"\n\r\t]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\${c}`));
}

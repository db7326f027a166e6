// What an uploaded file plainly is, from its first bytes, so that an import
// in another format is refused with a message naming both ("The file looks
// like JSON, not java-properties") instead of parsed into junk: a JSON file
// read as Java properties gave one key per line (`{`, `"title": "Home",`), and
// as CSV a misleading "key must have at most 500 characters".
//
// Only telltale shapes count: a zip container, binary bytes, a JSON document,
// an XML document, PHP, a JavaScript module, a gettext catalog, Apple
// "key" = "text"; lines, a YAML document (`---`, or a nested mapping),
// `key=value` lines, a table of commas or tabs. A text that shows none of
// them (plain lines, `key: value` lines, which are both YAML and Java
// properties) is left to the chosen format's parser, which refuses it with
// the line of the problem or reads it. docs/import-export.md lists the
// ambiguous pairs.
//
// Each registered format says which kinds it reads (registry.ts: reads).

export type ContentKind =
  | 'zip'
  | 'binary'
  | 'json'
  | 'string-catalog'
  | 'project-backup'
  | 'arb'
  | 'xml'
  | 'php'
  | 'javascript'
  | 'po'
  | 'strings'
  | 'yaml'
  | 'properties'
  | 'csv'
  | 'tsv';

/** The kinds as the refusal names them. */
export const CONTENT_KIND_NAMES: Record<ContentKind, string> = {
  zip: 'a zip container (an Excel workbook or an archive)',
  binary: 'binary data',
  json: 'JSON',
  'string-catalog': 'an Apple String Catalog (.xcstrings)',
  'project-backup': 'a project backup (project-backup-json)',
  arb: 'a Flutter ARB file (@@locale, @key metadata)',
  xml: 'XML',
  php: 'PHP',
  javascript: 'a JavaScript module',
  po: 'a gettext PO file',
  strings: 'Apple .strings ("key" = "text";)',
  yaml: 'YAML',
  properties: 'Java properties (key=value lines)',
  csv: 'CSV (a table of commas)',
  tsv: 'TSV (a table of tabs)',
};

/** How much of a file is looked at. */
export const SNIFF_BYTES = 64 * 1024;

/** The file's first SNIFF_BYTES as text: by its BOM, UTF-16 by its zeros, else UTF-8 (bad bytes replaced: only shapes matter). */
function headText(head: Uint8Array): string {
  const b = head.subarray(0, SNIFF_BYTES);
  if (b[0] === 0xff && b[1] === 0xfe) return new TextDecoder('utf-16le').decode(b.subarray(2));
  if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(b.subarray(2));
  if (b.length >= 4 && b[0] !== 0 && b[1] === 0 && b[2] !== 0 && b[3] === 0)
    return new TextDecoder('utf-16le').decode(b);
  if (b.length >= 4 && b[0] === 0 && b[1] !== 0 && b[2] === 0 && b[3] !== 0)
    return new TextDecoder('utf-16be').decode(b);
  // A UTF-8 character cut at the end of the head is not a sign of anything.
  return new TextDecoder('utf-8')
    .decode(b)
    .replace(/^\uFEFF/, '')
    .replace(/\uFFFD$/, '');
}

/**
 * Many NULs or control characters other than whitespace: not a text file. A
 * few in a text file are its texts' problem, which the import names with
 * the key (a NUL cannot be stored).
 */
function looksBinary(text: string): boolean {
  const controls = text.match(/[\0-\x08\x0e-\x1a\x1c-\x1f\x7f]/g)?.length ?? 0;
  return controls > 8 && controls > text.length / 100;
}

/** The text without leading whitespace and comments of the C family (JavaScript, Apple .strings). */
function withoutLeadingComments(text: string): string {
  let rest = text.trimStart();
  for (;;) {
    if (rest.startsWith('/*')) {
      const end = rest.indexOf('*/');
      if (end < 0) return '';
      rest = rest.slice(end + 2).trimStart();
    } else if (rest.startsWith('//')) {
      const end = rest.indexOf('\n');
      if (end < 0) return '';
      rest = rest.slice(end + 1).trimStart();
    } else {
      return rest;
    }
  }
}

/** Fields of a CSV line (quotes respected); a quoted field over several lines counts as the end of the line. */
function fieldCount(line: string, separator: string): number {
  let fields = 1;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === separator && !quoted) fields++;
  }
  return fields;
}

/** Lines that say something: no blank lines, no comment lines of `#`/`!` (properties, YAML, PO). */
function significantLines(text: string): string[] {
  // The last line may be cut by the end of the head.
  const lines = text.split(/\r\n|\r|\n/);
  if (text.length >= SNIFF_BYTES / 2) lines.pop();
  return lines.filter((l) => l.trim() !== '' && !/^\s*[#!]/.test(l));
}

const YAML_MAPPING_OPENER = /^([^\s#'"-][^:]*|"[^"]*"|'[^']*'):\s*(#.*)?$/;
const INDENTED_YAML_ENTRY = /^\s+(?:- |[^\s#:][^:]*:(?:\s|$))/;
/** `key=value` (the first separator is `=`): Java properties, and nothing else here. */
const PROPERTIES_LINE = /^\s*(?:\\.|[^\s=:\\])(?:\\.|[^=:\\])*?=/;
/** `key: value`, `key value`: Java properties too, and YAML. */
const COLON_LINE = /^\s*(?:\\.|[^\s=:\\])+\s*:/;

function sniffLines(text: string): ContentKind | undefined {
  const lines = significantLines(text).slice(0, 200);
  if (lines.length === 0) return undefined;
  if (lines.some((l) => /^msgid\s+"/.test(l)) && lines.some((l) => /^msgstr(?:\[\d+\])?\s+"/.test(l))) return 'po';
  const first = lines[0]!;
  if (/^(?:---|%YAML)(?:\s|$)/.test(first)) return 'yaml';
  // A mapping opened on one line and continued indented on the next (`en:` then `  hello: Hello`).
  for (let i = 0; i + 1 < lines.length; i++) {
    if (YAML_MAPPING_OPENER.test(lines[i]!) && INDENTED_YAML_ENTRY.test(lines[i + 1]!)) return 'yaml';
  }
  // Tables: every line (at least two) of the same number of fields, two or more.
  for (const [separator, kind] of [
    ['\t', 'tsv'],
    [',', 'csv'],
    [';', 'csv'],
  ] as const) {
    const counts = lines.slice(0, 50).map((l) => fieldCount(l, separator));
    if (
      lines.length >= 2 &&
      counts[0]! >= 2 &&
      counts.every((c) => c === counts[0]) &&
      !lines.every((l) => PROPERTIES_LINE.test(l) || COLON_LINE.test(l))
    )
      return kind;
  }
  // Properties: every line a `key=value` or `key: value` line, or the continuation of one; `=` in at least half.
  let equals = 0;
  let continued = false;
  for (const line of lines) {
    const continuation = continued;
    continued = /(?:^|[^\\])(?:\\\\)*\\$/.test(line);
    if (continuation) continue;
    if (PROPERTIES_LINE.test(line)) equals++;
    else if (!COLON_LINE.test(line)) return undefined;
  }
  return equals > 0 && equals * 2 >= lines.length ? 'properties' : undefined;
}

/**
 * JSON documents of a shape only one format gives (its first member, as the
 * format's writers put it first): read as plain keys to texts, their
 * structure becomes junk keys (`sourceLanguage`, `@appName.description`).
 */
function sniffJson(start: string): ContentKind {
  if (/^\{\s*"sourceLanguage"\s*:\s*"[^"]*"\s*,\s*"strings"\s*:/.test(start)) return 'string-catalog';
  if (/^\{\s*"format"\s*:\s*"(?:project-backup-json|simplelocalize-json)"/.test(start)) return 'project-backup';
  if (/^\{\s*"@@locale"\s*:/.test(start) || /^\s*"@[^@"][^"]*"\s*:\s*\{/m.test(start)) return 'arb';
  return 'json';
}

/** The kind of content a file plainly holds, or undefined when nothing tells. */
export function sniffContent(head: Uint8Array): ContentKind | undefined {
  if (
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    (head[2] === 0x03 || head[2] === 0x05) &&
    (head[3] === 0x04 || head[3] === 0x06)
  )
    return 'zip';
  const text = headText(head);
  if (looksBinary(text)) return 'binary';
  const start = text.trimStart();
  if (/^<\?php\b/i.test(start)) return 'php';
  if (/^<(?:\?xml|!DOCTYPE|!--|[A-Za-z_])/.test(start)) return 'xml';
  if (/^\{\s*(?:"|\}|$)/.test(start) || /^\[\s*(?:[{["\]\d-]|true|false|null|$)/.test(start)) return sniffJson(start);
  const code = withoutLeadingComments(text);
  if (
    /^(?:export\s+default|module\.exports|exports\.|(?:const|let|var)\s+[\w$]+\s*=|import\s|['"]use strict['"])/.test(
      code,
    )
  )
    return 'javascript';
  if (/^"(?:[^"\\\n]|\\.)*"\s*=\s*"/.test(code)) return 'strings';
  return sniffLines(text);
}

/**
 * The refusal of a file whose content is plainly of a kind the format does
 * not read, or undefined when the format may read it.
 */
export function contentMismatch(head: Uint8Array, formatId: string, reads: readonly ContentKind[]): string | undefined {
  const kind = sniffContent(head);
  if (kind === undefined || reads.includes(kind)) return undefined;
  return `The file looks like ${CONTENT_KIND_NAMES[kind]}, not ${formatId}: choose the uploadFormat of the file`;
}

// Android string values: what aapt2 makes of the XML content of a <string>,
// <item> (plurals, string-array), and how to write a text back so aapt2 reads
// the same text again.
//
// Reading follows aapt2's StringBuilder::AppendText:
//   - outside double quotes, a run of ASCII whitespace becomes one space, and
//     such a space at the very start or end of the value is dropped, unless
//     the value contains an unescaped `"` anywhere (aapt2's observed output);
//   - an unescaped `"` opens/closes a quoted run (whitespace kept as written)
//     and is not part of the text;
//   - `\n`, `\t`, `\uXXXX` are a newline, a tab and that code unit; any other
//     escaped character (`\'`, `\"`, `\\`, `\@`, `\?`, ...) is the character
//     itself;
//   - an element boundary (inline markup) ends a quoted run;
//   - CDATA content goes through the same processing (aapt2 sees it as text).
//   Unescaped apostrophes, which aapt2 refuses, are kept as they are.
//
// Stored text:
//   - a value made of text only is stored as plain text (no XML escaping);
//   - a value with CDATA and no real markup is stored as its text, without
//     the wrapper (Android escapes resolved, nothing XML-escaped):
//       <string name="y"><![CDATA[<b>%d</b>]]></string>      ->  <b>%d</b>
//       <string name="z">Skipped: <![CDATA[<b>%d</b>]]></string> -> Skipped: <b>%d</b>
//     CDATA means something else to Android than real markup (literal tags
//     for Html.fromHtml versus styled text), so the reader reports it
//     (`cdata`) and android.ts tags the key `cdata=true`; the writer then
//     writes each text of the key as one CDATA section (encodeAndroidCdata).
//   - a value with inline markup (<b>, <xliff:g>, <annotation>...) is stored
//     as an XML fragment: the elements (and CDATA sections, when mixed with
//     elements) as written, text XML-escaped, Android escapes already
//     resolved. E.g.
//       <string name="x">Tom &amp; <b>Jerry\'s</b></string>  ->  Tom &amp; <b>Jerry's</b>
//   - plain text that would itself read as markup (see markupNodes; e.g. the
//     file says `from&lt;br /&gt;Google`) is stored XML-escaped
//     (`from&lt;br /&gt;Google`), so that it is written back as text.
// Writing: a text that parses as an XML fragment containing an element, a
// CDATA section or an entity reference is written as markup; any other text is
// written as plain text.
import { cdata, escapeXmlAttribute, escapeXmlText, parseXml, type XmlElement, type XmlNode } from './xml-safe.js';

/** Reads the content of a string-like element into the stored text (see above). */
export function decodeAndroidValue(children: XmlNode[]): string {
  return readAndroidValue(children).text;
}

/** The stored text, and whether it came from CDATA (no real markup around it). */
export function readAndroidValue(children: XmlNode[]): { text: string; cdata: boolean } {
  const hasElement = children.some((c) => c.type === 'element');
  const hasCdata = children.some((c) => c.type === 'cdata');
  const reader = new AaptReader();
  if (!hasElement) {
    // aapt2 reads CDATA content like text: one run through the same rules.
    let raw = '';
    for (const c of children) if (c.type === 'text' || c.type === 'cdata') raw += c.value;
    const r = reader.append(raw);
    const text = reader.sawQuote ? r.value : trimCollapsed(r.value, r.lead, r.trail);
    if (hasCdata) return { text, cdata: true };
    // Plain text that would read as markup on export (`a&lt;br/&gt;b` in the
    // file gives `a<br/>b`) is stored XML-escaped, so export writes it back
    // as text, not as a real element.
    return { text: markupNodes(text) ? escapeXmlText(text) : text, cdata: false };
  }
  const processed = new Map<XmlNode, string>();
  const leadCollapsed = new Set<XmlNode>();
  const trailCollapsed = new Set<XmlNode>();
  const walk = (nodes: XmlNode[]): void => {
    for (const n of nodes) {
      if (n.type === 'text' || n.type === 'cdata') {
        const r = reader.append(n.value);
        processed.set(n, r.value);
        if (r.lead) leadCollapsed.add(n);
        if (r.trail) trailCollapsed.add(n);
      } else if (n.type === 'element') {
        reader.reset();
        walk(n.children);
        reader.reset();
      }
    }
  };
  walk(children);
  const top = children.filter((c) => c.type !== 'comment');
  const first = top[0];
  const last = top[top.length - 1];
  if (!reader.sawQuote) {
    if (first && leadCollapsed.has(first)) processed.set(first, processed.get(first)!.slice(1));
    if (last && trailCollapsed.has(last)) processed.set(last, processed.get(last)!.slice(0, -1));
  }
  return { text: writeFragment(children, processed), cdata: false };
}

function writeFragment(nodes: XmlNode[], processed: Map<XmlNode, string>): string {
  let out = '';
  for (const n of nodes) {
    if (n.type === 'text') out += escapeXmlText(processed.get(n) ?? '');
    else if (n.type === 'cdata') out += cdata(processed.get(n) ?? '');
    else if (n.type === 'element')
      out += openTag(n) + (n.children.length ? `${writeFragment(n.children, processed)}</${n.name}>` : '');
  }
  return out;
}

function openTag(el: XmlElement): string {
  let tag = `<${el.name}`;
  for (const [k, v] of Object.entries(el.attributes)) tag += ` ${k}="${escapeXmlAttribute(v)}"`;
  return tag + (el.children.length ? '>' : '/>');
}

function trimCollapsed(value: string, lead: boolean, trail: boolean): string {
  let v = value;
  if (lead) v = v.slice(1);
  if (trail && v.length) v = v.slice(0, -1);
  return v;
}

/** aapt2's text state: quoted run and "last character was a collapsed space". */
class AaptReader {
  private quote = false;
  private lastSpace = false;
  /** An unescaped `"` was seen anywhere in the value. */
  sawQuote = false;

  reset(): void {
    this.quote = false;
    this.lastSpace = false;
  }

  /** Processes one text run; `lead`/`trail`: the value starts/ends with a collapsed space. */
  append(raw: string): { value: string; lead: boolean; trail: boolean } {
    let out = '';
    let lead = false;
    let trail = false;
    for (let i = 0; i < raw.length; i++) {
      const c = raw[i]!;
      if (!this.quote && isAsciiSpace(c)) {
        if (!this.lastSpace) {
          if (out.length === 0) lead = true;
          out += ' ';
          trail = true;
          this.lastSpace = true;
        }
        continue;
      }
      this.lastSpace = false;
      if (c === '\\') {
        if (i + 1 >= raw.length) continue; // a lone trailing backslash is dropped, as aapt2 does
        const e = raw[++i]!;
        if (e === 'n') out += '\n';
        else if (e === 't') out += '\t';
        else if (e === 'u') {
          const hex = raw.slice(i + 1, i + 5);
          if (/^[0-9A-Fa-f]{4}$/.test(hex)) {
            out += String.fromCharCode(parseInt(hex, 16));
            i += 4;
          } else {
            out += '\\u'; // aapt2 refuses a bad \u escape; we keep it literally
          }
        } else out += e;
        trail = false;
      } else if (c === '"') {
        this.quote = !this.quote;
        this.sawQuote = true;
      } else {
        out += c;
        trail = false;
      }
    }
    return { value: out, lead, trail };
  }
}

function isAsciiSpace(c: string): boolean {
  return c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\v' || c === '\f';
}

// --- Writing ---------------------------------------------------------------

/**
 * The text as one CDATA section (a key read from CDATA): tags stay literal
 * text for Html.fromHtml. Android escapes still apply inside CDATA. A text
 * that is itself an XML fragment with CDATA (stored before CDATA lost its
 * wrapper) is written as markup.
 */
export function encodeAndroidCdata(text: string): string {
  if (text.includes('<![CDATA[')) return encodeAndroidValue(text);
  return cdata(escapeRun(text, { first: true, leadSensitive: true, trailSensitive: true }));
}

/**
 * Characters that make a text more than its own XML content: Android escapes
 * and quoting (escapeRun), XML escapes and markup (`&`, `<`, `>`), and what
 * XML cannot carry (cleanXmlChars); a leading `@`, `?`, `#` or space and a
 * trailing space are checked apart.
 */
const NOT_PLAIN = /[\\"'&<>\u0000-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/**
 * True when a text is written exactly as it is (most texts are): the export
 * then skips the escaping passes and the markup check, each a scan of the
 * text, once per text of the file.
 */
export function isPlainAndroidText(text: string): boolean {
  if (text === '') return true;
  const first = text.charCodeAt(0);
  // @ ? # and a space at the start, a space at the end: see escapeRun.
  if (first === 0x40 || first === 0x3f || first === 0x23 || first === 0x20 || text.charCodeAt(text.length - 1) === 0x20)
    return false;
  // Two spaces are quoted (escapeRun); a separate test keeps the class a plain scan.
  return !NOT_PLAIN.test(text) && !text.includes('  ');
}

/** XML content for a `<string>`/`<item>` element that aapt2 reads back as `text`. */
export function encodeAndroidValue(text: string): string {
  if (isPlainAndroidText(text)) return text;
  const nodes = markupNodes(text);
  if (!nodes) return escapeXmlText(escapeRun(text, { first: true, leadSensitive: true, trailSensitive: true }));
  const top = nodes.filter((n) => n.type !== 'comment');
  return writeMarkup(top, true);
}

function writeMarkup(nodes: XmlNode[], topLevel: boolean): string {
  const list = nodes.filter((n) => n.type !== 'comment');
  let out = '';
  list.forEach((n, i) => {
    if (n.type === 'text' || n.type === 'cdata') {
      const prev = list[i - 1];
      const next = list[i + 1];
      const ctx = {
        first: topLevel && i === 0,
        leadSensitive: (topLevel && i === 0) || prev?.type === 'text' || prev?.type === 'cdata',
        trailSensitive: (topLevel && i === list.length - 1) || next?.type === 'text' || next?.type === 'cdata',
      };
      const escaped = escapeRun(n.value, ctx);
      out += n.type === 'text' ? escapeXmlText(escaped) : cdata(escaped);
    } else if (n.type === 'element') {
      out += openTag(n) + (n.children.length ? `${writeMarkup(n.children, false)}</${n.name}>` : '');
    }
  });
  return out;
}

/** `&amp;`, `&#38;`, `&#x26;`, `&name;`: without one of these or a `<`, a text is plain (a bare `&` often is). */
const ENTITY_REFERENCE = /&(?:[A-Za-z_:][\w.:-]*|#[0-9]+|#x[0-9A-Fa-f]+);/;

/**
 * The nodes of a stored text that is markup, else null. Markup: a well-formed
 * XML fragment with an element, a CDATA section or an entity reference.
 */
function markupNodes(text: string): XmlNode[] | null {
  if (!text.includes('<') && !ENTITY_REFERENCE.test(text)) return null;
  try {
    const nodes = parseXml(`<r>${text}</r>`).root.children;
    return text.includes('&') || nodes.some((n) => n.type === 'element' || n.type === 'cdata') ? nodes : null;
  } catch {
    return null;
  }
}

/** Namespace prefixes used by the inline markup of a stored text (to declare them on <resources>). */
export function markupPrefixes(text: string): string[] {
  if (isPlainAndroidText(text)) return [];
  const nodes = markupNodes(text);
  if (!nodes) return [];
  const found = new Set<string>();
  const visit = (list: XmlNode[]): void => {
    for (const n of list) {
      if (n.type !== 'element') continue;
      const p = n.name.split(':');
      if (p.length === 2) found.add(p[0]!);
      for (const a of Object.keys(n.attributes)) {
        const q = a.split(':');
        if (q.length === 2 && q[0] !== 'xml' && q[0] !== 'xmlns') found.add(q[0]!);
      }
      visit(n.children);
    }
  };
  visit(nodes);
  return [...found];
}

// Resource references stay unescaped (thunderbird's <item>@string/setting_language_system</item>);
// any other leading @ or ? is escaped so it stays literal text, and so is a
// leading # (aapt takes a plural item starting with # for a color).
const REFERENCE = /^(@\+?([\w.]+:)?[\w.-]+\/[\w.-]+|@null|@empty|\?([\w.]+:)?(attr\/)?[\w.-]+)$/;

const RUN_ESCAPES = /[\\"'\n\t\r\v\f]/g;
const RUN_ESCAPE: Record<string, string> = {
  '\\': '\\\\',
  '"': '\\"',
  "'": "\\'",
  '\n': '\\n',
  '\t': '\\t',
  '\r': '\\u000d',
  '\v': '\\u000b',
  '\f': '\\u000c',
};

/** Module-level: a callback created per call costs more than the escaping (one call per text). */
const runEscape = (c: string) => RUN_ESCAPE[c]!;

function escapeRun(value: string, ctx: { first: boolean; leadSensitive: boolean; trailSensitive: boolean }): string {
  let s = value.replace(RUN_ESCAPES, runEscape);
  if (
    ctx.first &&
    /^[@?]/.test(value) &&
    !(REFERENCE.test(value) && (value.includes('/') || value.includes(':') || value === '@null' || value === '@empty'))
  ) {
    s = '\\' + s;
  } else if (ctx.first && value.startsWith('#')) {
    // aapt reads a <plurals> item that starts with # as a color ("Color value not valid").
    s = '\\' + s;
  }
  const quote =
    value.includes('  ') || (ctx.leadSensitive && value.startsWith(' ')) || (ctx.trailSensitive && value.endsWith(' '));
  return quote ? `"${s}"` : s;
}

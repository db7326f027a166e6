// The one place that parses XML for every XML-based format (Android, Qt .ts,
// .resx, XLIFF, stringsdict, ...). It wraps fast-xml-parser and makes it safe
// for hostile uploads.
//
// API (kept stable; other format modules import it):
//
//   parseXml(input: Buffer | string, limits?: XmlLimits): XmlDocument
//     Decodes bytes (BOM, UTF-16, strict UTF-8; latin1 only when the XML
//     declaration says ISO-8859-1/windows-1252), checks well-formedness, and
//     returns an ordered tree. Throws only FormatError (with line/column when
//     known) for bad input.
//   parseXmlSplit(input, names, limits?): XmlDocument & { entries() }
//     The same checks on the whole document, but the elements named are cut
//     out of the tree and parsed one at a time as entries() reaches them
//     (large files of many records: TBX concept entries).
//   XmlDocument  { root: XmlElement; prolog: XmlNode[] }  (prolog = comments before the root)
//   XmlNode      = XmlElement | XmlText | XmlCData | XmlComment
//   XmlElement   { type: 'element'; name; attributes; children; line; column }
//                Entity and character references are already decoded in
//                text and attribute values. Whitespace-only text is kept.
//   childElements(el, name?)  direct child elements (optionally by name)
//   firstChild(el, name)      first direct child element with that name
//   textContent(node)         text + CDATA of a node and its descendants
//   serializeNodes(nodes)     XML source for nodes (e.g. an element's inner XML)
//   escapeXmlText(s), escapeXmlAttribute(s), cdata(s)   writer helpers for serializers
//   xmlLineColumn(text, offset)               1-based line/column of an offset
//   doctypeEntities(declaration, limits?)     a DOCTYPE's internal entities, for the
//                                             streaming reader (xml-stream.ts)
//
// Safety rules:
//   - DOCTYPE: the internal subset is read here, not by the library. External
//     entities (SYSTEM/PUBLIC), unparsed entities (NDATA) and parameter
//     entities (%) are refused. An external DTD *subset* named on the DOCTYPE
//     line (XLIFF 1.1 files carry one) is ignored, never fetched.
//   - Internal entities (Android projects declare a few) are expanded, with
//     bounded count, bounded expansion per entity, a bounded total per
//     document, and recursion detected: a billion-laughs file is refused
//     before anything is expanded beyond the per-entity bound.
//   - Entity values that contain markup are refused (we would otherwise have to
//     re-parse them as XML).
//   - Nesting depth is capped (64 by default).
import type { X2jOptions } from 'fast-xml-parser';
import { lazyRequire } from '../lazy-module.js';

// Loaded on first use: the service starts without it until an XML file is read (docs/architecture.md, "Memory").
const xmlParser = lazyRequire<typeof import('fast-xml-parser')>('fast-xml-parser');
import { FormatError } from './model.js';
import { decodeText } from './text.js';
import { lineColumn } from './text.js';

export interface XmlElement {
  type: 'element';
  name: string;
  /** Attribute name (with prefix, e.g. `xml:space`) -> decoded value. */
  attributes: Record<string, string>;
  children: XmlNode[];
  /** 1-based position of the start tag in the decoded text. */
  line: number;
  column: number;
}
export interface XmlText {
  type: 'text';
  value: string;
}
export interface XmlCData {
  type: 'cdata';
  value: string;
}
export interface XmlComment {
  type: 'comment';
  value: string;
}
export type XmlNode = XmlElement | XmlText | XmlCData | XmlComment;

export interface XmlDocument {
  root: XmlElement;
  /** Comments that precede the root element. */
  prolog: XmlNode[];
}

export interface XmlLimits {
  /** Maximum element nesting depth. */
  maxDepth?: number;
  /** Maximum number of internal entities declared in the DOCTYPE. */
  maxEntities?: number;
  /** Maximum length of one entity's fully expanded value. */
  maxEntityLength?: number;
  /** Maximum number of characters produced by entity references in the whole document. */
  maxTotalExpansion?: number;
}

export const DEFAULT_LIMITS: Required<XmlLimits> = {
  maxDepth: 64,
  maxEntities: 256,
  maxEntityLength: 16_384,
  maxTotalExpansion: 2_000_000,
};

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NAME = /^[A-Za-z_:\u00C0-\uFFFF][\w.:\-\u00B7\u00C0-\uFFFF]*$/;

export function parseXml(input: Buffer | string, limits: XmlLimits = {}): XmlDocument {
  const lim = { ...DEFAULT_LIMITS, ...limits };
  const { body, entities } = checkedBody(input, lim);
  const decoder = new BoundedEntityDecoder(entities, lim.maxTotalExpansion);
  return toDocument(parseChecked(body, decoder, lim.maxDepth - 1, lim.maxDepth), body);
}

/**
 * The internal entities of a DOCTYPE, fully expanded, by the rules above
 * (external, unparsed and parameter entities refused, markup refused,
 * expansion bounded): for a streaming reader that is handed the declaration
 * as text (`declaration`: what follows `<!DOCTYPE` up to its closing `>`).
 */
export function doctypeEntities(declaration: string, limits: XmlLimits = {}): Map<string, string> {
  return readDoctype(`<!DOCTYPE${declaration}>`, 0, { ...DEFAULT_LIMITS, ...limits }).entities;
}

/** The header of a document (decoded, characters and DOCTYPE checked, well-formed), ready for the library. */
function checkedBody(
  input: Buffer | string,
  lim: Required<XmlLimits>,
): { body: string; entities: Map<string, string> } {
  const text = typeof input === 'string' ? input : decodeXmlBytes(input);
  refuseInvalidChars(text);
  const { text: body, entities } = readPrologAndDoctype(text, lim);
  const { XMLValidator } = xmlParser();
  let syntax: ReturnType<typeof XMLValidator.validate>;
  try {
    syntax = XMLValidator.validate(forValidator(body), { allowBooleanAttributes: false });
  } catch (e) {
    throw new FormatError(`Malformed XML: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (syntax !== true) {
    throw new FormatError(`Malformed XML: ${syntax.err.msg}`, { line: syntax.err.line, column: syntax.err.col });
  }
  return { body, entities };
}

/** The library's ordered tree of well-formed XML, entity references through `decoder`, nesting below the root capped. */
function parseChecked(body: string, decoder: BoundedEntityDecoder, maxNestedTags: number, maxDepth: number): unknown[] {
  const options: X2jOptions = {
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    trimValues: false,
    parseTagValue: false,
    parseAttributeValue: false,
    commentPropName: '#comment',
    cdataPropName: '#cdata',
    captureMetaData: true,
    maxNestedTags, // the library counts from the root's children
    processEntities: true,
    entityDecoder: decoder,
  };
  try {
    return new (xmlParser().XMLParser)(options).parse(body) as unknown[];
  } catch (e) {
    if (e instanceof FormatError) throw e;
    const message = e instanceof Error ? e.message : String(e);
    const undefinedEntity = /^Undefined entity &(.*);$/.exec(message);
    if (undefinedEntity) {
      const at = body.indexOf(`&${undefinedEntity[1]};`);
      throw new FormatError(
        `Malformed XML: reference to undefined entity &${undefinedEntity[1]};`,
        at >= 0 ? xmlLineColumn(body, at) : undefined,
      );
    }
    if (/nest/i.test(message)) throw new FormatError(`XML nesting is deeper than ${maxDepth} levels`);
    throw new FormatError(`Malformed XML: ${message}`);
  }
}

/** An element parsed on its own by parseXmlSplit, with where it was. */
export interface SplitEntry {
  element: XmlElement;
  /** The name of its parent element. */
  parent: string;
}

export interface SplitXmlDocument extends XmlDocument {
  /**
   * The elements left out of the tree, in document order, each parsed when
   * reached (line and column count from the element's start). Call once.
   */
  entries(): Generator<SplitEntry>;
}

/**
 * parseXml for large files of many like records (TBX concept entries): the
 * document is checked whole as parseXml does (decoding, characters, DOCTYPE,
 * well-formedness: none of it builds a tree), then the elements named in
 * `names` are cut out. The returned tree is the rest of the document; each
 * cut-out element is parsed only when `entries()` reaches it, so at most one
 * of them is held as a tree at a time. The limits are those of the whole
 * document: nesting counts the element's ancestors, entity expansion is one
 * budget across all parts.
 */
export function parseXmlSplit(
  input: Buffer | string,
  names: readonly string[],
  limits: XmlLimits = {},
): SplitXmlDocument {
  const lim = { ...DEFAULT_LIMITS, ...limits };
  const { body, entities } = checkedBody(input, lim);
  const ranges: { start: number; end: number; parent: string; depth: number }[] = [];
  const stack: string[] = [];
  let rest = '';
  let last = 0;
  let i = body.indexOf('<');
  while (i >= 0) {
    const next = skipMarkup(body, i);
    if (next !== undefined) {
      i = body.indexOf('<', next);
      continue;
    }
    const close = tagEnd(body, i);
    if (body[i + 1] === '/') {
      stack.pop();
    } else {
      const name = /^[^\s/>]+/.exec(body.slice(i + 1, i + 200))?.[0] ?? '';
      const selfClosing = body[close - 1] === '/';
      if (names.includes(name)) {
        const end = selfClosing ? close + 1 : elementEnd(body, close + 1);
        ranges.push({ start: i, end, parent: stack.at(-1) ?? '', depth: stack.length });
        rest += body.slice(last, i);
        last = end;
        i = body.indexOf('<', end);
        continue;
      }
      if (!selfClosing) stack.push(name);
    }
    i = body.indexOf('<', close + 1);
  }
  rest += body.slice(last);
  // One budget for the whole document: the decoder is shared and not reset between the parts.
  const decoder = new BoundedEntityDecoder(entities, lim.maxTotalExpansion, true);
  const document = toDocument(parseChecked(rest, decoder, lim.maxDepth - 1, lim.maxDepth), rest);
  return {
    ...document,
    *entries() {
      for (const range of ranges) {
        if (range.depth >= lim.maxDepth) throw new FormatError(`XML nesting is deeper than ${lim.maxDepth} levels`);
        const slice = body.slice(range.start, range.end);
        yield {
          element: toDocument(parseChecked(slice, decoder, lim.maxDepth - 1 - range.depth, lim.maxDepth), slice).root,
          parent: range.parent,
        };
      }
    },
  };
}

/** After a comment, CDATA section, processing instruction or declaration starting at `i`: the offset after it (undefined: a tag starts there). */
function skipMarkup(text: string, i: number): number | undefined {
  if (text.startsWith('<!--', i)) return text.indexOf('-->', i + 4) + 3;
  if (text.startsWith('<![CDATA[', i)) return text.indexOf(']]>', i + 9) + 3;
  if (text.startsWith('<?', i)) return text.indexOf('?>', i + 2) + 2;
  if (text.startsWith('<!', i)) return text.indexOf('>', i + 2) + 1;
  return undefined;
}

/** The offset of the `>` closing the tag that starts at `i`, past quoted attribute values. */
function tagEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '"' || c === "'") j = text.indexOf(c, j + 1);
    else if (c === '>') return j;
    if (j < 0) break;
  }
  throw new FormatError('Malformed XML: a tag is not closed', xmlLineColumn(text, i));
}

/** The offset after the end tag of the element whose start tag ends before `from` (the document is well-formed). */
function elementEnd(text: string, from: number): number {
  let depth = 0;
  let i = text.indexOf('<', from);
  while (i >= 0) {
    const next = skipMarkup(text, i);
    if (next !== undefined) {
      i = text.indexOf('<', next);
      continue;
    }
    const close = tagEnd(text, i);
    if (text[i + 1] === '/') {
      if (depth === 0) return close + 1;
      depth--;
    } else if (text[close - 1] !== '/') depth++;
    i = text.indexOf('<', close + 1);
  }
  throw new FormatError('Malformed XML: an element is not closed', xmlLineColumn(text, from));
}

/**
 * XML 1.0 has no place for C0 controls other than tab and line breaks, for
 * U+FFFE/U+FFFF or for lone surrogates: a file carrying them raw is not
 * well-formed. fast-xml-parser lets them through, and the writers (which
 * cannot write them either) would turn them into U+FFFD, so an import and an
 * export would change the text: they are refused here, with their position.
 */
function refuseInvalidChars(text: string): void {
  const match = INVALID_XML_CHARS_ONE.exec(text);
  if (!match) return;
  const code = match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  throw new FormatError(
    `Malformed XML: the character U+${code} is not allowed in XML`,
    xmlLineColumn(text, match.index),
  );
}

/**
 * fast-xml-parser's validator only accepts entity names of up to 20 ASCII word
 * characters (real Android files use longer ones, e.g. &TERMUX_STYLING_APP_NAME;).
 * Named references are swapped for same-length valid ones in the copy given
 * to the validator, so reported columns stay right; the parser resolves the
 * real names.
 */
function forValidator(body: string): string {
  if (!body.includes('&')) return body;
  return body.replace(/&[^\s&;<>"'#][^\s&;<>"']*;/g, (m) =>
    m.length === 3 ? '&x;' : m.length === 4 ? '&lt;' : `&amp;${' '.repeat(m.length - 5)}`,
  );
}

/** Decodes XML bytes; latin1 only when the declaration names a single-byte encoding. */
function decodeXmlBytes(input: Buffer): string {
  const head = input.subarray(0, 200).toString('latin1');
  const declared = /^<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/.exec(head)?.[1]?.toLowerCase();
  const singleByte =
    declared != null && /^(iso-8859-1|iso8859-1|latin-?1|windows-1252|cp1252|us-ascii)$/.test(declared);
  return decodeText(input, singleByte ? { fallback: 'latin1' } : {});
}

// --- DOCTYPE handling ------------------------------------------------------

/**
 * Walks the text once: finds the DOCTYPE before the root, reads its internal
 * subset, blanks it out (spaces, newlines kept so line numbers stay right) and
 * refuses any DOCTYPE after the root (fast-xml-parser would read one anywhere).
 */
function readPrologAndDoctype(text: string, lim: Required<XmlLimits>): { text: string; entities: Map<string, string> } {
  let entities = new Map<string, string>();
  let out = text;
  let rootSeen = false;
  let doctypeSeen = false;
  let i = text.indexOf('<');
  while (i >= 0 && i < text.length) {
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) throw new FormatError('Malformed XML: comment is not closed', xmlLineColumn(text, i));
      i = text.indexOf('<', end + 3);
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9);
      if (end < 0) throw new FormatError('Malformed XML: CDATA section is not closed', xmlLineColumn(text, i));
      i = text.indexOf('<', end + 3);
    } else if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) throw new FormatError('Malformed XML: processing instruction is not closed', xmlLineColumn(text, i));
      i = text.indexOf('<', end + 2);
    } else if (text.startsWith('<!', i) && text.slice(i + 2, i + 9).toUpperCase() === 'DOCTYPE') {
      if (rootSeen || doctypeSeen)
        throw new FormatError(
          'Malformed XML: DOCTYPE is only allowed once, before the root element',
          xmlLineColumn(text, i),
        );
      doctypeSeen = true;
      const { end, entities: declared } = readDoctype(text, i, lim);
      entities = declared;
      out = out.slice(0, i) + text.slice(i, end).replace(/[^\n]/g, ' ') + out.slice(end);
      i = text.indexOf('<', end);
    } else if (text.startsWith('<!', i)) {
      throw new FormatError('Malformed XML: unexpected "<!" declaration', xmlLineColumn(text, i));
    } else {
      rootSeen = true;
      i = text.indexOf('<', i + 1);
    }
  }
  return { text: out, entities };
}

function readDoctype(
  text: string,
  start: number,
  lim: Required<XmlLimits>,
): { end: number; entities: Map<string, string> } {
  const raw = new Map<string, string>();
  let i = start + 9;
  // Header: name and an optional external subset id (ignored, never fetched).
  while (i < text.length && text[i] !== '[' && text[i] !== '>') {
    const q = text[i];
    if (q === '"' || q === "'") {
      const close = text.indexOf(q, i + 1);
      if (close < 0) break;
      i = close + 1;
    } else i++;
  }
  if (text[i] === '[') {
    i++;
    for (;;) {
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (i >= text.length) throw new FormatError('Malformed XML: DOCTYPE is not closed', xmlLineColumn(text, start));
      if (text[i] === ']') {
        i++;
        break;
      }
      if (text[i] === '%')
        throw new FormatError('Parameter entity references are not allowed in XML uploads', xmlLineColumn(text, i));
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        if (end < 0) throw new FormatError('Malformed XML: comment is not closed', xmlLineColumn(text, i));
        i = end + 3;
        continue;
      }
      if (text.startsWith('<?', i)) {
        const end = text.indexOf('?>', i + 2);
        if (end < 0)
          throw new FormatError('Malformed XML: processing instruction is not closed', xmlLineColumn(text, i));
        i = end + 2;
        continue;
      }
      if (text.startsWith('<!ENTITY', i)) {
        i = readEntityDecl(text, i, raw, lim);
        continue;
      }
      if (text.startsWith('<!ELEMENT', i) || text.startsWith('<!ATTLIST', i) || text.startsWith('<!NOTATION', i)) {
        i = skipDecl(text, i);
        continue;
      }
      throw new FormatError('Malformed XML: unexpected content in DOCTYPE', xmlLineColumn(text, i));
    }
  }
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (text[i] !== '>') throw new FormatError('Malformed XML: DOCTYPE is not closed', xmlLineColumn(text, start));
  return { end: i + 1, entities: expandEntities(raw, lim, xmlLineColumn(text, start)) };
}

/** Skips `<!ELEMENT ...>` etc., honouring quoted literals. */
function skipDecl(text: string, i: number): number {
  for (let j = i + 2; j < text.length; j++) {
    const c = text[j];
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, j + 1);
      if (close < 0) break;
      j = close;
    } else if (c === '>') return j + 1;
  }
  throw new FormatError('Malformed XML: DOCTYPE declaration is not closed', xmlLineColumn(text, i));
}

function readEntityDecl(text: string, start: number, out: Map<string, string>, lim: Required<XmlLimits>): number {
  const where = xmlLineColumn(text, start);
  let i = start + 8;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  ws();
  if (text[i] === '%') throw new FormatError('Parameter entities are not allowed in XML uploads', where);
  const nameStart = i;
  while (i < text.length && !/[\s"'>]/.test(text[i]!)) i++;
  const name = text.slice(nameStart, i);
  if (!NAME.test(name)) throw new FormatError(`Malformed XML: invalid entity name "${name}"`, where);
  ws();
  const keyword = text.slice(i, i + 6).toUpperCase();
  if (keyword === 'SYSTEM' || keyword === 'PUBLIC') {
    throw new FormatError(`External entity "${name}" is not allowed in XML uploads`, where);
  }
  const q = text[i];
  if (q !== '"' && q !== "'") throw new FormatError(`Malformed XML: entity "${name}" has no quoted value`, where);
  const close = text.indexOf(q, i + 1);
  if (close < 0) throw new FormatError(`Malformed XML: value of entity "${name}" is not closed`, where);
  const value = text.slice(i + 1, close);
  i = close + 1;
  ws();
  if (text.slice(i, i + 5).toUpperCase() === 'NDATA')
    throw new FormatError(`Unparsed entity "${name}" is not allowed in XML uploads`, where);
  if (text[i] !== '>') throw new FormatError(`Malformed XML: entity declaration "${name}" is not closed`, where);
  if (value.includes('%')) {
    // A '%' is only a problem when it is a parameter entity reference.
    if (/%[A-Za-z_:][\w.:-]*;/.test(value))
      throw new FormatError(`Parameter entity references are not allowed in XML uploads (entity "${name}")`, where);
  }
  if (value.includes('<')) throw new FormatError(`Entity "${name}" contains markup, which is not supported`, where);
  // XML: the first declaration of an entity is binding; later ones are ignored.
  if (!out.has(name)) {
    if (out.size >= lim.maxEntities)
      throw new FormatError(`Too many entities declared (more than ${lim.maxEntities})`, where);
    out.set(name, value);
  }
  return i + 1;
}

/** Fully expands each entity, bounded in length, with recursion detection. */
function expandEntities(
  raw: Map<string, string>,
  lim: Required<XmlLimits>,
  where: { line: number; column: number },
): Map<string, string> {
  const done = new Map<string, string>();
  const active = new Set<string>();
  const expand = (name: string): string => {
    const cached = done.get(name);
    if (cached !== undefined) return cached;
    if (active.has(name)) throw new FormatError(`Entity "${name}" refers to itself`, where);
    const value = raw.get(name)!;
    active.add(name);
    let out = '';
    let last = 0;
    for (const m of value.matchAll(/&(#x[0-9A-Fa-f]+|#[0-9]+|[^\s&;]+);/g)) {
      out += value.slice(last, m.index);
      last = m.index + m[0].length;
      const ref = m[1]!;
      if (ref.startsWith('#')) out += charRef(ref);
      else if (PREDEFINED[ref] !== undefined) out += PREDEFINED[ref];
      else if (raw.has(ref)) out += expand(ref);
      else throw new FormatError(`Entity "${name}" refers to undefined entity &${ref};`, where);
      if (out.length > lim.maxEntityLength)
        throw new FormatError(`Entity "${name}" expands to more than ${lim.maxEntityLength} characters`, where);
    }
    out += value.slice(last);
    if (out.length > lim.maxEntityLength)
      throw new FormatError(`Entity "${name}" expands to more than ${lim.maxEntityLength} characters`, where);
    active.delete(name);
    done.set(name, out);
    return out;
  };
  for (const name of raw.keys()) expand(name);
  return done;
}

function charRef(ref: string): string {
  const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
  const allowed =
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff);
  if (!allowed) throw new Error(`Invalid character reference &${ref};`);
  return String.fromCodePoint(code);
}

/**
 * The decoder fast-xml-parser calls for text and attribute values: XML's five
 * predefined entities, numeric character references (the library leaves those
 * alone unless HTML entities are enabled), and our pre-expanded internal
 * entities, with a per-document budget on the characters entities produce.
 */
class BoundedEntityDecoder {
  private expanded = 0;
  /** `shared`: one budget across several parses (parseXmlSplit's parts), so the library's reset at each parse keeps the count. */
  constructor(
    private readonly entities: Map<string, string>,
    private readonly budget: number,
    private readonly shared = false,
  ) {}
  reset(): void {
    if (!this.shared) this.expanded = 0;
  }
  setXmlVersion(): void {}
  setExternalEntities(): void {}
  addInputEntities(): void {
    // Never reached: the DOCTYPE is blanked out before the library sees it.
    throw new FormatError('Unexpected DOCTYPE');
  }
  decode(text: string): string {
    if (!text.includes('&')) return text;
    return text.replace(/&([^&;\s]*);?/g, (whole, ref: string) => {
      if (!whole.endsWith(';')) throw new Error(`Malformed entity reference "${whole}"`);
      if (ref.startsWith('#')) return charRef(ref);
      const predefined = PREDEFINED[ref];
      if (predefined !== undefined) return predefined;
      const value = this.entities.get(ref);
      if (value === undefined) throw new Error(`Undefined entity &${ref};`);
      this.expanded += value.length;
      if (this.expanded > this.budget)
        throw new FormatError(`Entity references expand to more than ${this.budget} characters`);
      return value;
    });
  }
}

// --- Tree conversion ---------------------------------------------------------

/** The symbol under which the parser keeps an element's position. */
let meta: symbol | undefined;
const metaSymbol = () => (meta ??= xmlParser().XMLParser.getMetaDataSymbol() as unknown as symbol);

function toDocument(raw: unknown[], text: string): XmlDocument {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const position = (offset: number): { line: number; column: number } => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - lineStarts[lo]! + 1 };
  };
  const prolog: XmlNode[] = [];
  let root: XmlElement | undefined;
  for (const node of convertNodes(raw, position)) {
    if (node.type === 'element') root = node;
    else if (!root && node.type === 'comment') prolog.push(node);
  }
  if (!root) throw new FormatError('Malformed XML: no root element');
  return { root, prolog };
}

function convertNodes(raw: unknown[], position: (offset: number) => { line: number; column: number }): XmlNode[] {
  const out: XmlNode[] = [];
  for (const item of raw as Record<string, unknown>[]) {
    for (const key of Object.keys(item)) {
      if (key === ':@') continue;
      const value = item[key];
      if (key === '#text') {
        out.push({ type: 'text', value: String(value) });
      } else if (key === '#cdata' || key === '#comment') {
        // The parser's text nodes hold strings (or a number it read from one).
        // eslint-disable-next-line @typescript-eslint/no-base-to-string
        const inner = (value as Record<string, unknown>[]).map((v) => String(v['#text'] ?? '')).join('');
        out.push({ type: key === '#cdata' ? 'cdata' : 'comment', value: inner });
      } else if (key.startsWith('?')) {
        // XML declaration and processing instructions carry no translation data.
      } else {
        const attrs = (item[':@'] ?? {}) as Record<string, unknown>;
        const attributes: Record<string, string> = Object.create(null) as Record<string, string>;
        for (const [name, v] of Object.entries(attrs)) attributes[name] = String(v);
        const meta = (item as Record<symbol, { startIndex?: number } | undefined>)[metaSymbol()];
        const { line, column } = position(meta?.startIndex ?? 0);
        out.push({
          type: 'element',
          name: key,
          attributes,
          children: convertNodes(value as unknown[], position),
          line,
          column,
        });
      }
    }
  }
  return out;
}

// --- Tree helpers -----------------------------------------------------------------

export function childElements(el: XmlElement, name?: string): XmlElement[] {
  return el.children.filter((c): c is XmlElement => c.type === 'element' && (name === undefined || c.name === name));
}

export function firstChild(el: XmlElement, name: string): XmlElement | undefined {
  return el.children.find((c): c is XmlElement => c.type === 'element' && c.name === name);
}

/** Text and CDATA of a node and its descendants, comments excluded. */
export function textContent(node: XmlNode): string {
  if (node.type === 'text' || node.type === 'cdata') return node.value;
  if (node.type === 'comment') return '';
  let out = '';
  for (const c of node.children) out += textContent(c);
  return out;
}

/** XML source for nodes: `serializeNodes(el.children)` is the element's inner XML. */
export function serializeNodes(nodes: XmlNode[]): string {
  let out = '';
  for (const n of nodes) {
    if (n.type === 'text') out += escapeXmlText(n.value);
    else if (n.type === 'cdata') out += cdata(n.value);
    else if (n.type === 'comment') out += `<!--${n.value.replace(/--/g, '- -')}-->`;
    else {
      out += `<${n.name}`;
      for (const [k, v] of Object.entries(n.attributes)) out += ` ${k}="${escapeXmlAttribute(v)}"`;
      out += n.children.length ? `>${serializeNodes(n.children)}</${n.name}>` : '/>';
    }
  }
  return out;
}

/** A CDATA section; `]]>` inside the text is split across two sections. */
export function cdata(text: string): string {
  return `<![CDATA[${cleanXmlChars(text).replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}

// Characters XML 1.0 cannot carry at all (even as references) become U+FFFD,
// visibly, instead of producing a file no XML parser accepts.
// Lone surrogates are not characters at all and get the same treatment.
const INVALID_XML_CHARS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const INVALID_XML_CHARS_ONE = new RegExp(INVALID_XML_CHARS.source);

function cleanXmlChars(s: string): string {
  return s.replace(INVALID_XML_CHARS, '\uFFFD');
}

// The replacements are module-level functions: writers call these once per
// text, and a callback created per call costs more than the escaping itself.
const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
const ATTRIBUTE_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '"': '&quot;', '\t': '&#9;', '\n': '&#10;' };
const textEscape = (c: string) => TEXT_ESCAPES[c]!;
// Most texts and names need neither escaping nor cleaning: one scan tells, instead of two replace passes.
// A superset of what the passes change (every control character, every surrogate).
const NEEDS_TEXT_ESCAPE = /[&<>\u0000-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const NEEDS_ATTRIBUTE_ESCAPE = /[&<>"\u0000-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const attributeEscape = (c: string) => ATTRIBUTE_ESCAPES[c]!;

/**
 * Escapes element text: `&`, `<`, `>` (the last so `]]>` never appears), and a
 * carriage return as `&#13;` (a literal one would be read back as a newline).
 */
export function escapeXmlText(s: string): string {
  return NEEDS_TEXT_ESCAPE.test(s) ? cleanXmlChars(s).replace(/[&<>\r]/g, textEscape) : s;
}

/** Escapes a double-quoted attribute value; tabs and newlines become references so they survive attribute normalisation. */
export function escapeXmlAttribute(s: string): string {
  return NEEDS_ATTRIBUTE_ESCAPE.test(s) ? cleanXmlChars(s).replace(/[&<>"\t\n\r]/g, attributeEscape) : s;
}

/** 1-based line and column of a character offset (the shared text helper). */
export const xmlLineColumn = lineColumn;

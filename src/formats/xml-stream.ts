// XML read as a stream, for uploads of many like records (TMX units, TBX
// concept entries): the bytes are decoded as they come, parsed by saxes (a
// conformant SAX parser: well-formedness and XML characters checked), and
// only the records are built as trees (xml-safe.ts's XmlElement), one at a
// time, so what is held is a piece of the file and the record being read,
// never the file. The hostile-file rules are xml-safe.ts's:
//   - DOCTYPE: the internal subset is read by xml-safe.ts (external,
//     unparsed and parameter entities refused; internal entities expanded
//     with bounded count and length, recursion detected); an external DTD
//     named on the DOCTYPE line is never fetched.
//   - Entity references: one budget for the characters they produce in the
//     whole document.
//   - Nesting depth capped (64 by default).
// And one a stream needs: a time budget for reading the file (parse-clock.ts).
import type { SaxesParser, SaxesTagPlain } from 'saxes';
import { lazyRequire } from '../lazy-module.js';
import { FormatError, type OpenFile } from './model.js';
import type { ParseClock } from './parse-clock.js';
import { decodeStream } from './text-stream.js';
import { DEFAULT_LIMITS, doctypeEntities, type XmlElement, type XmlLimits, type XmlNode } from './xml-safe.js';

// Loaded on first use, as fast-xml-parser is (docs/architecture.md, "Memory").
const saxes = lazyRequire<typeof import('saxes')>('saxes');

const DECLARED = /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/;

/**
 * The text of an XML file as it streams in: a BOM says UTF-8 or UTF-16;
 * otherwise strict UTF-8, unless the XML declaration names a single-byte
 * encoding (windows-1252, windows-1254, ISO-8859-x...): then the file is read
 * in that encoding, or as UTF-8 when its bytes are valid UTF-8 throughout
 * (a first pass over the file tells; files labelled Latin-1 are often UTF-8).
 */
export async function decodeXmlStream(open: OpenFile): Promise<() => AsyncIterable<string>> {
  let head = Buffer.alloc(0);
  for await (const piece of open()) {
    head = Buffer.concat([head, piece]);
    if (head.length >= 256) break;
  }
  const unicode = () => decodeStream(open());
  if (
    (head[0] === 0xef && head[1] === 0xbb) ||
    (head[0] === 0xff && head[1] === 0xfe) ||
    (head[0] === 0xfe && head[1] === 0xff)
  )
    return unicode;
  const declared = DECLARED.exec(head.subarray(0, 256).toString('latin1'))?.[1]?.toLowerCase();
  if (!declared || /^utf-?(8|16)/.test(declared) || /^(us-)?ascii$/.test(declared)) return unicode;
  let encoding: string;
  try {
    encoding = new TextDecoder(declared).encoding;
  } catch {
    throw new FormatError(`The file declares the encoding ${declared.slice(0, 40)}, which this service does not read`);
  }
  if (encoding === 'utf-8' || encoding.startsWith('utf-16')) return unicode;
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let valid = true;
  try {
    for await (const piece of open()) utf8.decode(piece, { stream: true });
    utf8.decode();
  } catch {
    valid = false;
  }
  if (valid) return unicode;
  return async function* () {
    const decoder = new TextDecoder(encoding, { fatal: true });
    const decode = (piece?: Buffer) => {
      try {
        return piece ? decoder.decode(piece, { stream: true }) : decoder.decode();
      } catch {
        throw new FormatError(`The file is not valid ${declared.slice(0, 40)} text`);
      }
    };
    for await (const piece of open()) yield decode(piece);
    yield decode();
  };
}

export interface XmlStreamLimits extends XmlLimits {
  /** Elements outside records opened at a depth below this (0: the root) are reported. */
  outline?: number;
}

/** What the stream reports, in document order. */
export type XmlStreamItem =
  /** An element outside the records, near the root (attributes only: children are not kept). */
  | { kind: 'open'; element: XmlElement; parent: string }
  /** A record, whole; `depth`: how many elements hold it (0: it is the root). */
  | { kind: 'record'; element: XmlElement; parent: string; depth: number };

/**
 * The records (elements named in `names`, outermost only) of an XML text
 * and the elements of its outline, as they are read. Any fault of the text
 * (malformed, too deep, an entity refused, over time) is a FormatError with
 * its line and column.
 */
export async function* readXmlStream(
  texts: AsyncIterable<string>,
  names: readonly string[],
  limits: XmlStreamLimits & { clock: ParseClock },
): AsyncGenerator<XmlStreamItem> {
  const lim = { ...DEFAULT_LIMITS, ...limits };
  const outline = limits.outline ?? 1;
  const parser: SaxesParser = new (saxes().SaxesParser)({ position: true });
  const out: XmlStreamItem[] = [];
  /** Names of the open elements, the root first. */
  const open: string[] = [];
  /** The record being built: its open elements, the record first. */
  const building: XmlElement[] = [];
  let recordParent = '';
  let recordDepth = 0;
  let rootSeen = false;
  let expanded = 0;
  // saxes looks entity references up in this table: the five predefined
  // ones, and those a DOCTYPE declares, counted against the budget. Any other
  // name (a plain object's inherited ones, constructor..., included) is refused.
  const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
  const entities = (declared: Map<string, string>): Record<string, string> =>
    new Proxy(PREDEFINED, {
      get(predefined, name) {
        if (typeof name !== 'string') return undefined;
        if (Object.hasOwn(predefined, name)) return predefined[name];
        const value = declared.get(name);
        if (value === undefined)
          throw new FormatError(`Malformed XML: reference to undefined entity &${name.slice(0, 60)};`, where());
        expanded += value.length;
        if (expanded > lim.maxTotalExpansion)
          throw new FormatError(`Entity references expand to more than ${lim.maxTotalExpansion} characters`, where());
        return value;
      },
    });
  parser.ENTITIES = entities(new Map());
  const where = () => ({ line: parser.line, column: parser.column });
  parser.on('doctype', (declaration) => {
    try {
      parser.ENTITIES = entities(doctypeEntities(declaration, lim));
    } catch (error) {
      // Positions in the declaration alone are not the file's: the DOCTYPE's end is given instead.
      if (error instanceof FormatError)
        throw new FormatError(error.message.replace(/ \(line \d+(, column \d+)?\)$/, ''), where());
      throw error;
    }
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const parent = open.at(-1) ?? '';
    open.push(tag.name);
    if (open.length > lim.maxDepth) throw new FormatError(`XML nesting is deeper than ${lim.maxDepth} levels`, where());
    rootSeen = true;
    const attributes = Object.create(null) as Record<string, string>;
    for (const [name, value] of Object.entries(tag.attributes)) attributes[name] = value as string;
    const element: XmlElement = { type: 'element', name: tag.name, attributes, children: [], ...where() };
    if (building.length) {
      building.at(-1)!.children.push(element);
      building.push(element);
    } else if (names.includes(tag.name)) {
      building.push(element);
      recordParent = parent;
      recordDepth = open.length - 1;
    } else if (open.length <= outline) {
      out.push({ kind: 'open', element, parent });
    }
  });
  parser.on('closetag', () => {
    open.pop();
    const element = building.pop();
    if (element && !building.length) out.push({ kind: 'record', element, parent: recordParent, depth: recordDepth });
  });
  const add = (node: XmlNode) => {
    const into = building.at(-1)?.children;
    if (!into) return;
    const last = into.at(-1);
    if (node.type === 'text' && last?.type === 'text') last.value += node.value;
    else into.push(node);
  };
  parser.on('text', (value) => add({ type: 'text', value }));
  parser.on('cdata', (value) => add({ type: 'cdata', value }));
  parser.on('comment', (value) => add({ type: 'comment', value }));
  const write = (text: string | null) => {
    try {
      if (text === null) parser.close();
      else parser.write(text);
    } catch (error) {
      if (error instanceof FormatError) throw error;
      if (error instanceof RangeError) throw new FormatError('XML nesting is too deep', where());
      // saxes prefixes its messages with the position ("3:14: unexpected close tag.").
      const message = (error instanceof Error ? error.message : String(error)).replace(/^\d+:\d+: /, '');
      throw new FormatError(`Malformed XML: ${message.replace(/\.$/, '')}`, where());
    }
  };
  for await (const text of texts) {
    limits.clock.check();
    write(text);
    limits.clock.check();
    yield* out;
    out.length = 0;
  }
  write(null);
  if (!rootSeen) throw new FormatError('Malformed XML: no root element');
  yield* out;
}

// TMX 1.4b (translation memory exchange): read into (source, target) pairs
// with their notes and properties, and written back. Reading streams through
// the hostile-file-safe XML reader (xml-stream.ts: encodings, DOCTYPE without
// external entities, bounded entity expansion, nesting depth, a time budget),
// one unit held at a time, pairs handed over in batches. A segment with
// inline codes (<bpt>, <ept>, <ph>, <it>, <hi>, <sub>) keeps its inner XML
// for the way back; its plain text (the codes' native text included, as a
// translator sees it) is what the memory matches.
import {
  childElements,
  escapeXmlAttribute,
  escapeXmlText,
  firstChild,
  serializeNodes,
  textContent,
  type XmlElement,
} from './xml-safe.js';
import { decodeXmlStream, readXmlStream } from './xml-stream.js';
import { ParseClock } from './parse-clock.js';
import { FormatError, type OpenFile } from './model.js';
import { inMemory } from './text-stream.js';

export interface TmxProperty {
  type: string;
  value: string;
  lang?: string;
}

export interface TmxPair {
  tuid: string;
  sourceLanguage: string;
  targetLanguage: string;
  source: string;
  target: string;
  /** Inner XML of the <seg>s when they hold inline codes (written back as is). */
  sourceXml?: string;
  targetXml?: string;
  /** The unit's notes, then the target variant's. */
  notes: string[];
  properties: TmxProperty[];
  changedAt: Date | null;
  changedBy: string;
}

export interface TmxFile {
  srclang: string;
  pairs: TmxPair[];
  /** Units skipped: no source variant, or no other language. */
  skipped: number;
}

/** Language codes as the memory stores them: lower case, `_` as `-`. */
export function tmxLanguage(code: string): string {
  return code.trim().toLowerCase().replace(/_/g, '-');
}

/** TMX dates: YYYYMMDDThhmmssZ (the standard), or ISO 8601 as some tools write. */
export function tmxDate(value: string | undefined): Date | null {
  if (!value) return null;
  const compact = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  const date = compact
    ? new Date(Date.UTC(+compact[1]!, +compact[2]! - 1, +compact[3]!, +compact[4]!, +compact[5]!, +compact[6]!))
    : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function formatDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

const INLINE = new Set(['bpt', 'ept', 'ph', 'it', 'hi', 'sub', 'ut']);

function segOf(tuv: XmlElement): { text: string; xml?: string } {
  const seg = firstChild(tuv, 'seg');
  if (!seg) throw new FormatError('a <tuv> without <seg>', { line: tuv.line, column: tuv.column });
  const inline = seg.children.some((c) => c.type === 'element' && INLINE.has(c.name));
  return { text: textContent(seg), ...(inline && { xml: serializeNodes(seg.children) }) };
}

const notesOf = (el: XmlElement) => childElements(el, 'note').map((n) => textContent(n));
const propsOf = (el: XmlElement): TmxProperty[] =>
  childElements(el, 'prop').map((p) => ({
    type: p.attributes.type ?? '',
    value: textContent(p),
    ...(p.attributes['xml:lang'] && { lang: p.attributes['xml:lang'] }),
  }));
const langOf = (tuv: XmlElement) => tuv.attributes['xml:lang'] ?? tuv.attributes.lang ?? '';

export interface TmxLimits {
  maxPairs: number;
  /** The time budget for reading the file (ParseClock: the batches' writing not counted). */
  maxSeconds?: number;
  /** Pairs handed over at a time (the last batch may be smaller). */
  batch?: number;
}

export interface TmxSummary {
  srclang: string;
  pairs: number;
  skipped: number;
}

/**
 * Reads a TMX file as a stream into pairs (each unit's source variant with
 * each other variant), handing them to `onBatch` a batch at a time; what is
 * held is one batch and the unit being read. Faults are FormatErrors, found
 * wherever they are in the file: a caller that writes batches as they come
 * must undo them (a transaction) when one is thrown.
 */
export async function readTmx(
  open: OpenFile,
  limits: TmxLimits,
  onBatch: (pairs: TmxPair[]) => Promise<void>,
): Promise<TmxSummary> {
  const clock = new ParseClock(limits.maxSeconds ?? 120);
  const size = limits.batch ?? 5_000;
  const texts = await decodeXmlStream(open);
  let root = false;
  let header: XmlElement | undefined;
  let body = false;
  let srclang = '';
  const batch: TmxPair[] = [];
  let pairs = 0;
  let skipped = 0;
  // <tmx> holds <header> then <body>; the units are the body's children.
  for await (const item of readXmlStream(texts(), ['tu'], { clock, outline: 2 })) {
    if (item.kind === 'open') {
      if (!root) {
        if (item.element.name !== 'tmx')
          throw new FormatError(`not a TMX file: the root element is <${item.element.name}>`);
        root = true;
      } else if (item.parent === 'tmx' && item.element.name === 'header' && !header) {
        if (body) throw new FormatError('a TMX file needs <header> before <body>');
        header = item.element;
        srclang = header.attributes.srclang ?? '';
      } else if (item.parent === 'tmx' && item.element.name === 'body') {
        if (!header) throw new FormatError('a TMX file needs <header> and <body>');
        body = true;
      }
      continue;
    }
    if (item.depth === 0) throw new FormatError(`not a TMX file: the root element is <${item.element.name}>`);
    if (item.depth !== 2 || item.parent !== 'body') continue;
    const unit = unitPairs(item.element, srclang);
    if (!unit) {
      skipped++;
      continue;
    }
    pairs += unit.length;
    if (pairs > limits.maxPairs) throw new FormatError(`more than ${limits.maxPairs} translation pairs in one file`);
    batch.push(...unit);
    while (batch.length >= size) {
      const full = batch.splice(0, size);
      await clock.paused(() => onBatch(full));
    }
  }
  if (!header || !body) throw new FormatError('a TMX file needs <header> and <body>');
  if (batch.length) await clock.paused(() => onBatch(batch));
  return { srclang, pairs, skipped };
}

/** A unit's pairs: its source variant with each other variant (undefined: no source variant, or no other language). */
function unitPairs(tu: XmlElement, srclang: string): TmxPair[] | undefined {
  const variants = childElements(tu, 'tuv');
  const unitSource = tu.attributes.srclang ?? srclang;
  const source =
    unitSource && unitSource !== '*all*'
      ? variants.find((v) => tmxLanguage(langOf(v)) === tmxLanguage(unitSource))
      : variants[0];
  const targets = variants.filter((v) => v !== source && langOf(v));
  if (!source || !langOf(source) || !targets.length) return undefined;
  const src = segOf(source);
  return targets.map((tuv) => {
    const tgt = segOf(tuv);
    const changed =
      tuv.attributes.changedate ??
      tu.attributes.changedate ??
      tuv.attributes.creationdate ??
      tu.attributes.creationdate;
    return {
      tuid: tu.attributes.tuid ?? '',
      sourceLanguage: tmxLanguage(langOf(source)),
      targetLanguage: tmxLanguage(langOf(tuv)),
      source: src.text,
      target: tgt.text,
      ...(src.xml !== undefined && { sourceXml: src.xml }),
      ...(tgt.xml !== undefined && { targetXml: tgt.xml }),
      notes: [...notesOf(tu), ...notesOf(tuv)],
      properties: [...propsOf(tu), ...propsOf(tuv)],
      changedAt: tmxDate(changed),
      changedBy:
        tuv.attributes.changeid ??
        tu.attributes.changeid ??
        tuv.attributes.creationid ??
        tu.attributes.creationid ??
        '',
    };
  });
}

/** A whole TMX file in memory read into its pairs (readTmx, collected: for small files and tests). */
export async function parseTmx(input: Buffer, limits: TmxLimits): Promise<TmxFile> {
  const pairs: TmxPair[] = [];
  const { srclang, skipped } = await readTmx(inMemory(input), limits, async (batch) => {
    pairs.push(...batch);
  });
  return { srclang, pairs, skipped };
}

/** Writes TMX 1.4b, one <tu> per pair, chunk by chunk (`write` may be a stream's). */
export async function writeTmx(
  pairs: AsyncIterable<TmxPair[]>,
  srclang: string,
  write: (chunk: string) => void | Promise<void>,
): Promise<void> {
  await write(
    `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  <header creationtool="localization-service" creationtoolversion="1" segtype="sentence" o-tmf="localization-service" adminlang="en" srclang="${escapeXmlAttribute(srclang || '*all*')}" datatype="plaintext"/>\n  <body>\n`,
  );
  for await (const chunk of pairs) {
    let out = '';
    for (const p of chunk) {
      const attrs = `${p.tuid ? ` tuid="${escapeXmlAttribute(p.tuid)}"` : ''} srclang="${escapeXmlAttribute(p.sourceLanguage)}"${p.changedAt ? ` changedate="${formatDate(p.changedAt)}"` : ''}${p.changedBy ? ` changeid="${escapeXmlAttribute(p.changedBy)}"` : ''}`;
      out += `    <tu${attrs}>\n`;
      for (const n of p.notes) out += `      <note>${escapeXmlText(n)}</note>\n`;
      for (const pr of p.properties)
        out += `      <prop type="${escapeXmlAttribute(pr.type)}"${pr.lang ? ` xml:lang="${escapeXmlAttribute(pr.lang)}"` : ''}>${escapeXmlText(pr.value)}</prop>\n`;
      out += `      <tuv xml:lang="${escapeXmlAttribute(p.sourceLanguage)}"><seg>${p.sourceXml ?? escapeXmlText(p.source)}</seg></tuv>\n`;
      out += `      <tuv xml:lang="${escapeXmlAttribute(p.targetLanguage)}"><seg>${p.targetXml ?? escapeXmlText(p.target)}</seg></tuv>\n`;
      out += '    </tu>\n';
    }
    await write(out);
  }
  await write('  </body>\n</tmx>\n');
}

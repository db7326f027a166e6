// TMX 1.4b (translation memory exchange): read into (source, target) pairs
// with their notes and properties, and written back. Parsing goes through the
// hostile-file-safe XML reader (xml-safe.ts: encodings, DOCTYPE without
// external entities, bounded entity expansion, nesting depth). A segment with
// inline codes (<bpt>, <ept>, <ph>, <it>, <hi>, <sub>) keeps its inner XML
// for the way back; its plain text (the codes' native text included, as a
// translator sees it) is what the memory matches.
import {
  childElements,
  escapeXmlAttribute,
  escapeXmlText,
  firstChild,
  parseXml,
  serializeNodes,
  textContent,
  type XmlElement,
} from './xml-safe.js';
import { FormatError } from './model.js';

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

/** Reads a TMX file into pairs: each unit's source variant with each other variant. */
export function parseTmx(input: Buffer, limits: { maxPairs: number }): TmxFile {
  const doc = parseXml(input);
  if (doc.root.name !== 'tmx') throw new FormatError(`not a TMX file: the root element is <${doc.root.name}>`);
  const header = firstChild(doc.root, 'header');
  const body = firstChild(doc.root, 'body');
  if (!header || !body) throw new FormatError('a TMX file needs <header> and <body>');
  const srclang = header.attributes.srclang ?? '';
  const pairs: TmxPair[] = [];
  let skipped = 0;
  for (const tu of childElements(body, 'tu')) {
    const variants = childElements(tu, 'tuv');
    const unitSource = tu.attributes.srclang ?? srclang;
    const source =
      unitSource && unitSource !== '*all*'
        ? variants.find((v) => tmxLanguage(langOf(v)) === tmxLanguage(unitSource))
        : variants[0];
    const targets = variants.filter((v) => v !== source && langOf(v));
    if (!source || !langOf(source) || !targets.length) {
      skipped++;
      continue;
    }
    const src = segOf(source);
    for (const tuv of targets) {
      const tgt = segOf(tuv);
      const changed =
        tuv.attributes.changedate ??
        tu.attributes.changedate ??
        tuv.attributes.creationdate ??
        tu.attributes.creationdate;
      pairs.push({
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
      });
      if (pairs.length > limits.maxPairs)
        throw new FormatError(`more than ${limits.maxPairs} translation pairs in one file`);
    }
  }
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

// TBX (ISO 30042) termbases in and out of a glossary (docs/glossary.md).
// Reads TBX v2 (`<martif>`: TBX-Basic, TBX-Default, the LISA 2008 files) and
// TBX v3 core (`<tbx>`: conceptEntry / langSec / termSec) as a stream, one
// concept entry at a time, through the hostile-file-safe streaming XML reader
// (src/formats/xml-stream.ts: entities bounded, no external DTD, depth capped,
// a time budget). Writes TBX-Basic v2, which every tool we know reads.
//
// Mapping: a concept entry gives a term for each term of its source-language
// section (the glossary's source language, compared by base language); the
// first term of each other language section is that language's translation
// (a second section of the same language, as in the Medtronic sample, adds
// nothing). Entry- or source-level `descrip type="definition"` is the
// description; `termNote type="partOfSpeech"` the part of speech;
// `administrativeStatus` deprecatedTerm / supersededTerm marks a forbidden
// term; `termType` abbreviation / acronym / shortForm an abbreviation. Two
// flags TBX has no data category for are written as our own termNote types,
// `x-doNotTranslate` and `x-caseSensitive` (other tools ignore them).
import { FormatError, type OpenFile } from '../formats/model.js';
import { inMemory } from '../formats/text-stream.js';
import { childElements, escapeXmlAttribute, escapeXmlText, textContent, type XmlElement } from '../formats/xml-safe.js';
import { decodeXmlStream, readXmlStream } from '../formats/xml-stream.js';
import { ParseClock } from '../formats/parse-clock.js';
import type { TermInput } from './terms.js';
import type { GlossaryTermFields } from './term-fields.js';

export interface ParsedGlossary {
  /** The file's own language (martif/tbx xml:lang), if it names one. */
  language: string | null;
  terms: TermInput[];
  /** Concept entries without a term in the source language. */
  skipped: number;
}

const lang = (el: XmlElement) => el.attributes['xml:lang'] ?? el.attributes.lang ?? '';
const base = (code: string) => code.split(/[-_]/)[0]!.toLowerCase();
const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

function descendants(el: XmlElement, names: string[]): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of childElements(el)) {
    if (names.includes(child.name)) out.push(child);
    else if (child.name.endsWith('Grp')) out.push(...descendants(child, names));
  }
  return out;
}

/** The value of the first data category of a type among an element's children (and their groups). */
function category(el: XmlElement, element: string, type: string): string {
  const found = descendants(el, [element]).find((d) => d.attributes.type === type);
  return found ? clean(textContent(found)) : '';
}

interface FileTerm {
  term: string;
  node: XmlElement;
}

/** The terms of a language section: tig, ntig/termGrp (v2) or termSec (v3). */
function termsOf(section: XmlElement): FileTerm[] {
  const out: FileTerm[] = [];
  for (const holder of childElements(section)) {
    if (!['tig', 'ntig', 'termSec'].includes(holder.name)) continue;
    const term = descendants(holder, ['term'])[0];
    const text = term ? clean(textContent(term)) : '';
    if (text) out.push({ term: text, node: holder });
  }
  return out;
}

const FORBIDDEN_STATUS = /^(deprecatedTerm|supersededTerm)(-admn-sts)?$/i;
const ABBREVIATION_TYPE = /^(abbreviation|acronym|shortForm|initialism)$/i;

const ENTRIES = ['termEntry', 'conceptEntry'];

export interface TbxLimits {
  maxTerms: number;
  /** The time budget for reading the file (ParseClock: the batches' writing not counted). */
  maxSeconds?: number;
  /** Terms handed over at a time (the last batch may be smaller). */
  batch?: number;
}

export interface TbxSummary {
  /** The file's own language (martif/tbx xml:lang), if it names one. */
  language: string | null;
  terms: number;
  /** Concept entries without a term in the source language. */
  skipped: number;
}

/**
 * Reads a TBX file as a stream, one concept entry held at a time, handing
 * its terms to `onBatch` a batch at a time. Faults are FormatErrors, found
 * wherever they are in the file: a caller that writes batches as they come
 * must undo them (a transaction) when one is thrown.
 */
export async function readTbx(
  open: OpenFile,
  sourceLanguage: string,
  limits: TbxLimits,
  onBatch: (terms: TermInput[]) => Promise<void>,
): Promise<TbxSummary> {
  const clock = new ParseClock(limits.maxSeconds ?? 120);
  const size = limits.batch ?? 2_000;
  const texts = await decodeXmlStream(open);
  let root: XmlElement | undefined;
  let text = false;
  let body = false;
  let source = '';
  const batch: TermInput[] = [];
  let count = 0;
  let skipped = 0;
  // <martif>/<tbx> holds <text><body>, whose children are the concept entries.
  for await (const item of readXmlStream(texts(), ENTRIES, { clock, outline: 3, maxDepth: 32 })) {
    if (item.kind === 'open') {
      const { element, parent } = item;
      if (!root) {
        if (element.name !== 'martif' && element.name !== 'tbx') throw notTbx(element.name);
        root = element;
        source = base(sourceLanguage || lang(root) || 'en');
      } else if (element.name === 'text' && parent === root.name) text = true;
      else if (element.name === 'body' && parent === 'text' && text) body = true;
      continue;
    }
    if (item.depth === 0) throw notTbx(item.element.name);
    // Concept entries are the body's children (entries elsewhere are not terms).
    if (item.parent !== 'body') continue;
    const terms = entryTerms(item.element, source);
    if (!terms) {
      skipped++;
      continue;
    }
    count += terms.length;
    if (count > limits.maxTerms) throw new FormatError(`The file has more than ${limits.maxTerms} terms`);
    batch.push(...terms);
    while (batch.length >= size) {
      const full = batch.splice(0, size);
      await clock.paused(() => onBatch(full));
    }
  }
  if (!body) throw new FormatError('Not a TBX file: no <text><body>');
  if (batch.length) await clock.paused(() => onBatch(batch));
  return { language: (root && lang(root)) || null, terms: count, skipped };
}

const notTbx = (name: string) =>
  new FormatError(`Not a TBX file: the root element is <${name}>, not <martif> (TBX v2) or <tbx> (TBX v3)`);

/** A concept entry's terms: one for each term of its source-language section (undefined: it has none). */
function entryTerms(entry: XmlElement, source: string): TermInput[] | undefined {
  const sections = childElements(entry).filter((c) => c.name === 'langSet' || c.name === 'langSec');
  const sourceSections = sections.filter((s) => base(lang(s)) === source);
  const sourceTerms = sourceSections.flatMap(termsOf);
  if (!sourceTerms.length) return undefined;
  const translations: { language: string; text: string }[] = [];
  for (const s of sections) {
    const language = lang(s);
    if (!language || base(language) === source || translations.some((t) => t.language === language)) continue;
    const first = termsOf(s)[0];
    if (first) translations.push({ language, text: first.term });
  }
  const definition =
    category(entry, 'descrip', 'definition') ||
    sourceSections.map((s) => category(s, 'descrip', 'definition')).find(Boolean) ||
    '';
  return sourceTerms.map(({ term, node }) => {
    const note = (type: string) => category(node, 'termNote', type);
    return {
      term,
      description: definition,
      partOfSpeech: note('partOfSpeech'),
      forbidden: FORBIDDEN_STATUS.test(note('administrativeStatus')),
      abbreviation: ABBREVIATION_TYPE.test(note('termType')),
      doNotTranslate: /^(yes|true|1)$/i.test(note('x-doNotTranslate')),
      caseSensitive: /^(yes|true|1)$/i.test(note('x-caseSensitive')),
      translations,
    };
  });
}

/** A whole TBX file in memory read into its terms (readTbx, collected: for small files and tests). */
export async function parseTbx(input: Buffer, sourceLanguage: string, limits: TbxLimits): Promise<ParsedGlossary> {
  const terms: TermInput[] = [];
  const { language, skipped } = await readTbx(inMemory(input), sourceLanguage, limits, async (batch) => {
    terms.push(...batch);
  });
  return { language, terms, skipped };
}

export interface ExportTerm extends GlossaryTermFields {
  translations: { language: string; text: string }[];
}

/** TBX-Basic (v2) for a glossary's terms, chunk by chunk. */
export async function writeTbx(
  title: string,
  sourceLanguage: string,
  chunks: AsyncIterable<ExportTerm[]>,
  write: (chunk: string) => void | Promise<void>,
): Promise<void> {
  const source = sourceLanguage || 'en';
  await write(`<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX-Basic" xml:lang="${escapeXmlAttribute(source)}">
  <martifHeader>
    <fileDesc><titleStmt><title>${escapeXmlText(title)}</title></titleStmt><sourceDesc><p>localization-service glossary</p></sourceDesc></fileDesc>
    <encodingDesc><p type="XCSURI">TBXBasicXCSV02.xcs</p></encodingDesc>
  </martifHeader>
  <text>
    <body>
`);
  for await (const terms of chunks) {
    let out = '';
    for (const t of terms) {
      const notes = [
        t.partOfSpeech && `<termNote type="partOfSpeech">${escapeXmlText(t.partOfSpeech)}</termNote>`,
        t.forbidden && '<termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote>',
        t.abbreviation && '<termNote type="termType">abbreviation</termNote>',
        t.doNotTranslate && '<termNote type="x-doNotTranslate">yes</termNote>',
        t.caseSensitive && '<termNote type="x-caseSensitive">yes</termNote>',
      ]
        .filter(Boolean)
        .join('');
      out += `      <termEntry id="t${t.id}">\n`;
      if (t.description) out += `        <descrip type="definition">${escapeXmlText(t.description)}</descrip>\n`;
      out += `        <langSet xml:lang="${escapeXmlAttribute(source)}"><tig><term>${escapeXmlText(t.term)}</term>${notes}</tig></langSet>\n`;
      for (const tr of t.translations)
        out += `        <langSet xml:lang="${escapeXmlAttribute(tr.language)}"><tig><term>${escapeXmlText(tr.text)}</term></tig></langSet>\n`;
      out += '      </termEntry>\n';
    }
    await write(out);
  }
  await write('    </body>\n  </text>\n</martif>\n');
}

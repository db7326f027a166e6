// TBX (ISO 30042) termbases in and out of a glossary (docs/glossary.md).
// Reads TBX v2 (`<martif>`: TBX-Basic, TBX-Default, the LISA 2008 files) and
// TBX v3 core (`<tbx>`: conceptEntry / langSec / termSec), through the
// project's one hostile-file-safe XML reader (src/formats/xml-safe.ts:
// entities bounded, no external DTD, depth capped). Writes TBX-Basic v2,
// which every tool we know reads.
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
import { FormatError } from '../formats/model.js';
import {
  childElements,
  escapeXmlAttribute,
  escapeXmlText,
  parseXmlSplit,
  textContent,
  type XmlElement,
} from '../formats/xml-safe.js';
import type { TermInput } from './terms.js';
import type { GlossaryTermFields } from './term-fields.js';

export interface ParsedGlossary {
  /** The file's own language (martif/tbx xml:lang), if it names one. */
  language: string | null;
  terms: TermInput[];
  /** Concept entries without a term in the source language. */
  skipped: number;
}

const DECLARED = /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/;

/** Bytes to text: UTF-8/16 (BOM) as the XML reader does, or the single-byte encoding the declaration names (windows-1254, ISO-8859-9...). */
function decode(input: Buffer): Buffer | string {
  const declared = DECLARED.exec(input.subarray(0, 200).toString('latin1'))?.[1]?.toLowerCase();
  if (!declared || /^utf-?(8|16)/.test(declared) || /^(us-)?ascii$/.test(declared)) return input;
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared, { fatal: true });
  } catch {
    throw new FormatError(`The file declares the encoding ${declared.slice(0, 40)}, which this service does not read`);
  }
  if (decoder.encoding === 'utf-8' || decoder.encoding.startsWith('utf-16')) return input;
  return decoder.decode(input);
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

export function parseTbx(input: Buffer, sourceLanguage: string, limits: { maxTerms: number }): ParsedGlossary {
  // The concept entries are parsed one at a time: a 20 MB file as one tree took about 35 times its size in memory.
  const doc = parseXmlSplit(decode(input), ENTRIES, { maxDepth: 32 });
  const root = doc.root;
  if (root.name !== 'martif' && root.name !== 'tbx')
    throw new FormatError(
      `Not a TBX file: the root element is <${root.name}>, not <martif> (TBX v2) or <tbx> (TBX v3)`,
    );
  const text = childElements(root, 'text')[0];
  const body = text && childElements(text, 'body')[0];
  if (!body) throw new FormatError('Not a TBX file: no <text><body>');
  const fileLanguage = lang(root) || null;
  const source = base(sourceLanguage || fileLanguage || 'en');
  const terms: TermInput[] = [];
  let skipped = 0;
  for (const { element: entry, parent } of doc.entries()) {
    // Concept entries are the body's children (as in the tree: entries elsewhere are not terms).
    if (parent !== 'body') continue;
    const sections = childElements(entry).filter((c) => c.name === 'langSet' || c.name === 'langSec');
    const sourceSections = sections.filter((s) => base(lang(s)) === source);
    const sourceTerms = sourceSections.flatMap(termsOf);
    if (!sourceTerms.length) {
      skipped++;
      continue;
    }
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
    for (const { term, node } of sourceTerms) {
      const note = (type: string) => category(node, 'termNote', type);
      terms.push({
        term,
        description: definition,
        partOfSpeech: note('partOfSpeech'),
        forbidden: FORBIDDEN_STATUS.test(note('administrativeStatus')),
        abbreviation: ABBREVIATION_TYPE.test(note('termType')),
        doNotTranslate: /^(yes|true|1)$/i.test(note('x-doNotTranslate')),
        caseSensitive: /^(yes|true|1)$/i.test(note('x-caseSensitive')),
        translations,
      });
      if (terms.length > limits.maxTerms) throw new FormatError(`The file has more than ${limits.maxTerms} terms`);
    }
  }
  return { language: fileLanguage, terms, skipped };
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

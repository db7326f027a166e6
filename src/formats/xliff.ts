// XLIFF 1.2 and 2.0: bilingual files (a source and a target language).
//
// Import (the version is read from the file, so either identifier accepts both):
// - Key: 1.2 <trans-unit resname> or else id; 2.0 <unit name> or else id.
// - <source> -> translation of the source language (skipped when empty),
//   <target> -> translation of the target language (the request's
//   languageKey overrides the file's target-language / trgLang).
// - Text: an element with inline markup (<g>, <ph>, <pc>, <mrk>, ...) keeps its
//   inner XML as is (entities such as &amp; included); plain text is decoded.
//   2.0 segments and ignorables of a unit are joined.
// - Review status: 1.2 approved="yes"/"no" first, else state final/signed-off
//   -> REVIEWED; 2.0 segment state reviewed/final -> REVIEWED; any other state
//   -> NOT_REVIEWED; no state -> none. The source text has none.
// - <note>s -> description (non-empty notes joined with newlines).
// - Namespaces: only groups marked as such, the way our export writes them —
//   1.2 <group resname="ns" restype="x-namespace">, 2.0 <group name="ns"
//   type="l10n:namespace">. <file original> and other groups describe where
//   strings come from (a .resx, a .psd, another .xlf) and are not namespaces;
//   their keys get the request's namespace.
// Export:
// - Source language = first of `languages`, target = second (none: source only).
// - REVIEWED -> 1.2 state="final" approved="yes" / 2.0 state="final";
//   NOT_REVIEWED -> state="translated"; no status -> no state.
// - A missing target translation -> no <target> (XLIFF's "untranslated"); a
//   missing source translation -> empty <source/> (it is required).
// - Text that is well-formed inline XLIFF markup is written as markup, any
//   other text escaped, so imported markup round-trips and `a < b` stays text.
// - One <file> per namespace, namespaces in code-point order ('' first), the
//   keys of a namespace other than '' inside its marked group; an export
//   without keys has one empty <file>. The writer gets the keys grouped by
//   namespace and streams them.
// - Unit ids need only be unique in their <file>, where key names are unique,
//   so the writer keeps no list of ids: 1.2 id = the key; 2.0 id = the key
//   when it is an NMTOKEN not of the form u<digits>, else a numbered u<n>
//   (groups get one too) with name = the key.
import { defineFormat } from './define.js';
import type {
  Bundle,
  BundleKey,
  BundleLanguage,
  FileFormat,
  FormatWriter,
  ParseOptions,
  ReviewStatus,
  SerializeOptions,
} from './model.js';
import { FormatError } from './model.js';
import { linesWriter, NamespaceRuns } from './entry-writer.js';
import {
  childElements,
  escapeXmlAttribute,
  escapeXmlText,
  parseXml,
  serializeNodes,
  textContent,
  type XmlElement,
} from './xml-safe.js';

/** Where an element starts, for error messages. */
const at = (el: XmlElement): { line: number; column: number } => ({ line: el.line, column: el.column });

type Version = '1.2' | '2.0';

function xliffFormat(id: string, version: Version): FileFormat {
  return defineFormat({
    id,
    multiLanguage: true,
    namespaces: true, // groups marked as namespaces
    extension: 'xlf',
    contentType: 'application/xliff+xml; charset=utf-8',
    keyOrder: () => 'namespace',
    parse: async (input, options) => parseXliff(input, options),
    writer: version === '1.2' ? writer12 : writer20,
  });
}

/** Upload identifier `xliff-1.2`. */
export const xliff12 = xliffFormat('xliff-1.2', '1.2');
/** Download identifier `xliff12` (same format). */
export const xliff12Export = xliffFormat('xliff12', '1.2');
/** Upload identifier `xliff-2.0`. */
export const xliff20 = xliffFormat('xliff-2.0', '2.0');
/** Download identifier `xliff20` (same format). */
export const xliff20Export = xliffFormat('xliff20', '2.0');

const NS_RESTYPE = 'x-namespace';
const NS_TYPE = 'l10n:namespace';

// --- Reading --------------------------------------------------------------------

const local = (name: string): string => name.slice(name.indexOf(':') + 1);
const children = (el: XmlElement, name: string): XmlElement[] =>
  childElements(el).filter((c) => local(c.name) === name);
const child = (el: XmlElement, name: string): XmlElement | undefined =>
  childElements(el).find((c) => local(c.name) === name);

class Collector {
  private readonly keys = new Map<string, BundleKey>();
  private readonly languages = new Map<string, BundleLanguage>();

  constructor(private readonly options: ParseOptions) {}

  language(key: string, isDefault: boolean): void {
    if (!this.languages.has(key)) this.languages.set(key, isDefault ? { key, isDefault } : { key });
  }

  unit(
    el: XmlElement,
    namespace: string | undefined,
    name: string,
    u: { source: string; target?: string; status?: ReviewStatus; notes: string[] },
    src: string,
    tgt: string | undefined,
  ): void {
    const ns = namespace ?? this.options.namespace ?? '';
    const id = `${ns}\u0000${name}`;
    const key = this.keys.get(id) ?? { key: name, namespace: ns, translations: {} };
    if (u.source !== '') key.translations[src] = { text: u.source };
    if (u.target !== undefined) {
      if (!tgt)
        throw new FormatError(
          `The file has no target language for the <target> of "${name}": give a languageKey`,
          at(el),
        );
      key.translations[tgt] = u.status ? { text: u.target, reviewStatus: u.status } : { text: u.target };
    }
    if (u.notes.length) key.description = u.notes.join('\n');
    this.keys.set(id, key);
  }

  bundle(): Bundle {
    return { keys: [...this.keys.values()], languages: [...this.languages.values()] };
  }
}

function parseXliff(input: Buffer, options: ParseOptions): Bundle {
  const { root } = parseXml(input);
  if (local(root.name) !== 'xliff')
    throw new FormatError(`Not an XLIFF file: the root element is <${root.name}>`, at(root));
  const version = root.attributes.version ?? '';
  const v2 = version.startsWith('2') || (!version && (root.attributes.xmlns ?? '').includes(':2.'));
  const collector = new Collector(options);
  if (v2) read20(root, collector, options);
  else read12(root, collector, options);
  return collector.bundle();
}

/** Inner XML when the element has inline markup, else its decoded text. */
function content(el: XmlElement | undefined): string {
  if (!el) return '';
  return el.children.some((c) => c.type === 'element') ? serializeNodes(el.children) : textContent(el);
}

function notesOf(notes: XmlElement[]): string[] {
  return notes.map((n) => textContent(n)).filter((t) => t.trim() !== '');
}

/** How a version names its units and marks the group that carries a namespace. */
interface Layout {
  unit: string;
  namespaceOf(group: XmlElement): string | undefined;
}

const V12: Layout = {
  unit: 'trans-unit',
  namespaceOf: (g) => (g.attributes.restype === NS_RESTYPE ? g.attributes.resname : undefined),
};
const V20: Layout = {
  unit: 'unit',
  namespaceOf: (g) => (g.attributes.type === NS_TYPE ? g.attributes.name : undefined),
};

/** Calls `onUnit` for every unit below `el`, with the namespace of its nearest marked group. */
function walkUnits(
  el: XmlElement,
  ns: string | undefined,
  layout: Layout,
  onUnit: (unit: XmlElement, ns: string | undefined) => void,
): void {
  for (const c of childElements(el)) {
    const name = local(c.name);
    if (name === 'group') walkUnits(c, layout.namespaceOf(c) ?? ns, layout, onUnit);
    else if (name === layout.unit) onUnit(c, ns);
  }
}

function read12(root: XmlElement, collector: Collector, options: ParseOptions): void {
  for (const file of children(root, 'file')) {
    const src = file.attributes['source-language'];
    if (!src) throw new FormatError('<file> has no source-language', at(file));
    const tgt = options.languageKey ?? file.attributes['target-language'];
    collector.language(src, true);
    if (tgt) collector.language(tgt, false);
    const body = child(file, 'body');
    if (!body) continue;
    walkUnits(body, undefined, V12, (c, ns) => {
      const key = c.attributes.resname || c.attributes.id;
      if (!key) throw new FormatError('<trans-unit> has neither id nor resname', at(c));
      const target = child(c, 'target');
      const state = target?.attributes.state;
      const approved = c.attributes.approved;
      // An explicit approved attribute wins over the state.
      const status: ReviewStatus | undefined =
        approved === 'yes'
          ? 'REVIEWED'
          : approved === 'no'
            ? 'NOT_REVIEWED'
            : state === 'final' || state === 'signed-off'
              ? 'REVIEWED'
              : state
                ? 'NOT_REVIEWED'
                : undefined;
      collector.unit(
        c,
        ns,
        key,
        {
          source: content(child(c, 'source')),
          target: target ? content(target) : undefined,
          status,
          notes: notesOf(children(c, 'note')),
        },
        src,
        tgt,
      );
    });
  }
}

function read20(root: XmlElement, collector: Collector, options: ParseOptions): void {
  const src = root.attributes.srcLang;
  if (!src) throw new FormatError('<xliff> has no srcLang', at(root));
  const tgt = options.languageKey ?? root.attributes.trgLang;
  collector.language(src, true);
  if (tgt) collector.language(tgt, false);
  const readUnit = (c: XmlElement, ns: string | undefined): void => {
    const key = c.attributes.name || c.attributes.id;
    if (!key) throw new FormatError('<unit> has neither id nor name', at(c));
    let source = '';
    let target: string | undefined;
    let state: string | undefined;
    for (const seg of childElements(c)) {
      const kind = local(seg.name);
      if (kind !== 'segment' && kind !== 'ignorable') continue;
      source += content(child(seg, 'source'));
      const t = child(seg, 'target');
      if (t) target = (target ?? '') + content(t);
      state ??= kind === 'segment' ? seg.attributes.state : undefined;
    }
    const status: ReviewStatus | undefined =
      state === 'reviewed' || state === 'final' ? 'REVIEWED' : state ? 'NOT_REVIEWED' : undefined;
    const notes = child(c, 'notes');
    collector.unit(
      c,
      ns,
      key,
      { source, target, status, notes: notes ? notesOf(children(notes, 'note')) : [] },
      src,
      tgt,
    );
  };
  for (const file of children(root, 'file')) walkUnits(file, undefined, V20, readUnit);
}

// --- Writing --------------------------------------------------------------------

const INLINE_12 = new Set(['g', 'x', 'bx', 'ex', 'bpt', 'ept', 'ph', 'it', 'sub', 'mrk']);
const INLINE_20 = new Set(['cp', 'ph', 'pc', 'sc', 'ec', 'mrk', 'sm', 'em']);

/** Escaped text, or the text itself when it is well-formed inline markup of that XLIFF version. */
function inline(text: string, version: Version): string {
  const allowed = version === '1.2' ? INLINE_12 : INLINE_20;
  // Cheap test first: any tag that is not an inline element means plain text.
  const tags = text.includes('<') ? [...text.matchAll(/<\/?([^\s/>]*)/g)].map((m) => m[1]!) : [];
  if (tags.length && tags.every((t) => allowed.has(t))) {
    try {
      const { root } = parseXml(`<x>${text}</x>`, { maxDepth: 16, maxEntities: 0 });
      const ok = (el: XmlElement): boolean => childElements(el).every((c) => allowed.has(c.name) && ok(c));
      if (ok(root)) return text;
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
    }
  }
  return escapeXmlText(text);
}

/** Needs xml:space="preserve": leading/trailing whitespace, runs of spaces, newlines, tabs. */
function needsPreserve(...texts: (string | undefined)[]): boolean {
  return texts.some((t) => t !== undefined && /^\s|\s$|\s\s|[\n\t\r]/.test(t));
}

function languagesOf(options: SerializeOptions, format: string): { src: string; tgt?: string } {
  const src = options.languages[0]?.key;
  if (!src) throw new FormatError(`${format} export needs at least one language`);
  return { src, tgt: options.languages[1]?.key };
}

/** The parts of a version's document; `open`/`close` wrap one namespace's <file>. */
interface Document {
  header: string[];
  open(namespace: string, out: string[]): void;
  close(namespace: string, out: string[]): void;
  unit(key: BundleKey, out: string[]): void;
  footer: string[];
}

/**
 * Streams a document: one <file> per namespace (keys come grouped by
 * namespace, keyOrder 'namespace'), one empty <file> when there is no key
 * (XLIFF requires one). Holds the current namespace only.
 */
function documentWriter(doc: Document): FormatWriter {
  const files = new NamespaceRuns(doc.open, doc.close);
  return linesWriter(doc.header, {
    write(keys, out) {
      for (const key of keys) {
        files.enter(key.namespace, out);
        doc.unit(key, out);
      }
    },
    end(out) {
      if (!files.finish(out)) {
        doc.open('', out);
        doc.close('', out);
      }
      out.push(...doc.footer);
    },
  });
}

/** Indentation of a unit: one level deeper inside a namespace group. */
const unitIndent = (key: BundleKey, base: string): string => (key.namespace ? `${base}  ` : base);

function reviewState(status: ReviewStatus | undefined): string {
  return status === 'REVIEWED' ? ' state="final"' : status === 'NOT_REVIEWED' ? ' state="translated"' : '';
}

function writer12(options: SerializeOptions): FormatWriter {
  const { src, tgt } = languagesOf(options, 'xliff12');
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');
  const languages = `source-language="${escapeXmlAttribute(src)}"${tgt ? ` target-language="${escapeXmlAttribute(tgt)}"` : ''}`;
  return documentWriter({
    header: [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">',
    ],
    open(namespace, out) {
      out.push(`  <file ${languages} datatype="plaintext" original="messages">`, '    <body>');
      if (namespace) out.push(`      <group resname="${escapeXmlAttribute(namespace)}" restype="${NS_RESTYPE}">`);
    },
    close(namespace, out) {
      if (namespace) out.push('      </group>');
      out.push('    </body>', '  </file>');
    },
    unit(key, out) {
      // The id is the key: names are unique in a namespace, and a namespace has its own <file>.
      const indent = unitIndent(key, '      ');
      const source = key.translations[src]?.text ?? '';
      const target = tgt ? key.translations[tgt] : undefined;
      const status = target?.reviewStatus;
      let attrs = ` id="${escapeXmlAttribute(key.key)}"`;
      if (status === 'REVIEWED') attrs += ' approved="yes"';
      if (needsPreserve(source, target?.text)) attrs += ' xml:space="preserve"';
      out.push(`${indent}<trans-unit${attrs}>`, `${indent}  <source>${inline(source, '1.2')}</source>`);
      if (target) out.push(`${indent}  <target${reviewState(status)}>${inline(target.text, '1.2')}</target>`);
      if (withDescriptions && key.description) out.push(`${indent}  <note>${escapeXmlText(key.description)}</note>`);
      out.push(`${indent}</trans-unit>`);
    },
    footer: ['</xliff>'],
  });
}

const NMTOKEN = /^[\u0300-\u036F\p{L}\p{N}._:\-\u00B7\u203F\u2040]+$/u;
/** Ids this writer numbers itself; a key of this form gets a numbered id too, so they never clash. */
const NUMBERED_ID = /^u\d+$/;

function writer20(options: SerializeOptions): FormatWriter {
  const { src, tgt } = languagesOf(options, 'xliff20');
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');
  let files = 0;
  let numbered = 0;
  const nextId = (): string => `u${++numbered}`;
  return documentWriter({
    header: [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="${escapeXmlAttribute(src)}"${tgt ? ` trgLang="${escapeXmlAttribute(tgt)}"` : ''}>`,
    ],
    open(namespace, out) {
      out.push(`  <file id="f${++files}">`);
      if (namespace) out.push(`    <group id="${nextId()}" name="${escapeXmlAttribute(namespace)}" type="${NS_TYPE}">`);
    },
    close(namespace, out) {
      if (namespace) out.push('    </group>');
      out.push('  </file>');
    },
    unit(key, out) {
      // Unique in the <file>: keys are unique in a namespace, numbered ids never look like a key used as id.
      const id = NMTOKEN.test(key.key) && !NUMBERED_ID.test(key.key) ? key.key : nextId();
      const indent = unitIndent(key, '    ');
      const source = key.translations[src]?.text ?? '';
      const target = tgt ? key.translations[tgt] : undefined;
      let attrs = ` id="${escapeXmlAttribute(id)}"`;
      if (id !== key.key) attrs += ` name="${escapeXmlAttribute(key.key)}"`;
      if (needsPreserve(source, target?.text)) attrs += ' xml:space="preserve"';
      out.push(`${indent}<unit${attrs}>`);
      if (withDescriptions && key.description)
        out.push(
          `${indent}  <notes>`,
          `${indent}    <note>${escapeXmlText(key.description)}</note>`,
          `${indent}  </notes>`,
        );
      out.push(
        `${indent}  <segment${reviewState(target?.reviewStatus)}>`,
        `${indent}    <source>${inline(source, '2.0')}</source>`,
      );
      if (target) out.push(`${indent}    <target>${inline(target.text, '2.0')}</target>`);
      out.push(`${indent}  </segment>`, `${indent}</unit>`);
    },
    footer: ['</xliff>'],
  });
}

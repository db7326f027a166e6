// Qt Linguist .ts files (`qt-linguist`). A single-language format: the
// language is the import's languageKey, else the file's <TS language="..">.
//
// Conventions:
//   - <context><name> is the namespace; <message><source> is the key. Export
//     writes one <context> per namespace, in code-point order ('' first): the
//     writer gets the keys grouped by namespace and streams them.
//   - Review status. Review is the team's workflow in this service, not the
//     app's: `lrelease -nounfinished` drops unfinished messages from the app,
//     so export marks only an EMPTY translation `type="unfinished"`; every
//     non-empty text is finished, REVIEWED and NOT_REVIEWED alike. Review
//     status therefore does not round-trip through the file: import gives a
//     finished translation no review status (the service keeps its own,
//     NOT_REVIEWED for a new one), and a non-empty `type="unfinished"` one
//     (a translator's "not done yet" in Linguist) NOT_REVIEWED.
//     type="vanished" / "obsolete" (message gone from the code) -> the key is
//     marked deprecated (obsolete = unfinished: NOT_REVIEWED); export writes
//     a deprecated key `vanished`, or `obsolete` when its translation is empty.
//     An empty translation is "not translated": the key is imported without one.
//   - numerus="yes": the <numerusform>s become an ICU plural. Form i is the
//     CLDR category of Qt's i-th form for the language (qt-numerus.ts: French
//     has two, one and other, where CLDR adds many; Latvian's first form is
//     one, CLDR's first category zero), and where none of Qt's forms is
//     `other` (Russian's third is `many`; CLDR's `other` is for fractions)
//     the last one is, which ICU needs and falls back to. Export writes one
//     form per Qt form, a category the text lacks getting its `other` text.
//     For a language Qt has no rules for, the forms follow the CLDR
//     categories, the last always `other`, and export writes them up to the
//     last one present, `other` last. Exact `=N` branches have no Qt form and
//     are not written. The number is `%n` in a numerus
//     form (Qt substitutes only %n) and `#` in ICU, both ways; a literal `#`
//     is ICU `'#'`, a `%` needs no escaping (see plural.ts).
//   - <comment> is Qt's disambiguation, part of the message's identity: it is
//     kept in the key's codeDescription and written back as <comment>.
//     The description is <comment> and <extracomment> joined by a newline;
//     <extracomment> is written back with INCLUDE_DESCRIPTIONS.
//     Two messages of one context with the same source and different
//     disambiguations get keys `source` and `source [comment]`; export strips
//     the ` [comment]` suffix again.
//   - <translatorcomment>, <location>, <oldsource>, <userdata> are not imported.
//     Length variants: the first <lengthvariant> is the text.
//   - <byte value="x1b"/> (Qt's way to carry control characters) is decoded,
//     and written back for characters XML cannot carry.
//   - A key without translation is exported as an empty unfinished
//     translation, as lupdate does (numerus when another language's text of
//     the key is plural or the source contains %n).
import { defineFormat } from './define.js';
import {
  FormatError,
  type Bundle,
  type BundleKey,
  type BundleTranslation,
  type FileFormat,
  type FormatWriter,
  type ParseOptions,
  type SerializeOptions,
} from './model.js';
import { qtNumerusCategories } from './qt-numerus.js';
import {
  isPluralKey,
  pluralCategories,
  pluralFromPlatform,
  pluralToPlatform,
  QT_NUMBER,
  type PluralCategory,
} from './plural.js';
import { linesWriter, NamespaceRuns } from './entry-writer.js';
import { singleLanguage } from './single-language.js';
import { childElements, escapeXmlAttribute, escapeXmlText, firstChild, parseXml, type XmlElement } from './xml-safe.js';

const ID = 'qt-linguist';

async function parseQt(input: Buffer, options: ParseOptions): Promise<Bundle> {
  const { root } = parseXml(input);
  if (root.name !== 'TS')
    throw new FormatError(`Not a Qt Linguist file: the root element is <${root.name}>, expected <TS>`, {
      line: root.line,
      column: root.column,
    });
  const language = options.languageKey?.trim() || root.attributes.language?.trim();
  if (!language) throw new FormatError('The Qt Linguist file has no language attribute: a languageKey is required');
  const forms = numerusFormsOf(language);
  const keys: BundleKey[] = [];
  const seen = new Set<string>();

  for (const context of childElements(root, 'context')) {
    const contextName = textOf(firstChild(context, 'name'));
    const namespace = contextName || options.namespace || '';
    for (const message of childElements(context, 'message')) {
      const sourceEl = firstChild(message, 'source');
      if (!sourceEl)
        throw new FormatError('<message> without <source>', { line: message.line, column: message.column });
      const source = textOf(sourceEl);
      const disambiguation = textOf(firstChild(message, 'comment'));
      const extra = textOf(firstChild(message, 'extracomment'));
      let key = source;
      if (seen.has(`${namespace}\u0000${key}`)) key = `${source} [${disambiguation}]`;
      if (seen.has(`${namespace}\u0000${key}`)) continue; // the same message twice
      seen.add(`${namespace}\u0000${key}`);

      const translationEl = firstChild(message, 'translation');
      const type = translationEl?.attributes.type;
      const text = translationEl
        ? translationText(translationEl, message.attributes.numerus === 'yes', forms)
        : undefined;
      const status = type === 'unfinished' || type === 'obsolete' ? 'NOT_REVIEWED' : undefined;
      const description = [disambiguation, extra].filter(Boolean).join('\n');
      keys.push({
        key,
        namespace,
        ...(description ? { description } : {}),
        ...(disambiguation ? { codeDescription: disambiguation } : {}),
        ...(type === 'vanished' || type === 'obsolete' ? { deprecated: true } : {}),
        translations: text === undefined ? {} : { [language]: status ? { text, reviewStatus: status } : { text } },
      });
    }
  }
  return { keys, languages: [{ key: language }] };
}

/** The CLDR category of each numerus form of a language: Qt's forms where Qt has rules for it, else CLDR's categories. */
interface NumerusForms {
  categories: PluralCategory[];
  /** Whether they are Qt's (one per form lrelease keeps), not CLDR's. */
  qt: boolean;
}

function numerusFormsOf(language: string): NumerusForms {
  const qt = qtNumerusCategories(language);
  return qt ? { categories: qt, qt: true } : { categories: pluralCategories(language), qt: false };
}

function translationText(el: XmlElement, numerus: boolean, { categories }: NumerusForms): string | undefined {
  if (!numerus) {
    const text = variantText(el);
    return text === '' ? undefined : text;
  }
  const forms = childElements(el, 'numerusform').map(variantText);
  if (forms.every((f) => f === '')) return undefined;
  // Qt's last form is its catch-all: `other` where no form of the language is (ICU needs one).
  const byIndex = categories.includes('other') ? categories : [...categories.slice(0, -1), 'other' as const];
  const icu: Record<string, string> = {};
  forms.forEach((form, i) => {
    // A file with fewer forms than the language has: its last form is the catch-all.
    const category = i === forms.length - 1 && forms.length < byIndex.length ? 'other' : byIndex[i];
    if (category && icu[category] === undefined) icu[category] = form;
  });
  return pluralFromPlatform(icu, QT_NUMBER);
}

/** Text of a translation or numerus form; the first length variant when there are several. */
function variantText(el: XmlElement): string {
  const variant = el.attributes.variants === 'yes' ? firstChild(el, 'lengthvariant') : undefined;
  return textOf(variant ?? el);
}

/** Text content, with Qt's <byte value="..."/> elements decoded. */
function textOf(el: XmlElement | undefined): string {
  if (!el) return '';
  let out = '';
  for (const c of el.children) {
    if (c.type === 'text' || c.type === 'cdata') out += c.value;
    else if (c.type === 'element' && c.name === 'byte') {
      const v = c.attributes.value ?? '';
      const code = /^x[0-9a-f]+$/i.test(v) ? parseInt(v.slice(1), 16) : /^\d+$/.test(v) ? parseInt(v, 10) : NaN;
      if (Number.isNaN(code) || code > 0x10ffff)
        throw new FormatError(`Invalid <byte value="${v}">`, { line: c.line, column: c.column });
      out += String.fromCodePoint(code);
    }
  }
  return out;
}

// --- Export --------------------------------------------------------------------

/**
 * Writes a .ts file. Keys come grouped by namespace (keyOrder 'namespace'),
 * so a <context> is opened when the namespace changes and closed at the next
 * change or at the end: only the current context's name is held between pages.
 */
function qtWriter(options: SerializeOptions): FormatWriter {
  const language = singleLanguage(options, ID);
  const languageForms = numerusFormsOf(language);
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');
  const escapeNewLines = options.options.has('ESCAPE_NEW_LINES');
  const value = (s: string): string => qtText(escapeNewLines ? s.replace(/\n/g, '\\n') : s);
  const contexts = new NamespaceRuns(
    (name, out) => out.push('<context>', `    <name>${qtText(name)}</name>`),
    (_name, out) => out.push('</context>'),
  );

  const message = (key: BundleKey, out: string[]): void => {
    const translation: BundleTranslation | undefined = key.translations[language];
    const text = translation?.text;
    const plural = text !== undefined ? pluralToPlatform(text, QT_NUMBER) : null;
    const numerus = plural !== null || (text === undefined && untranslatedIsNumerus(key));
    const disambiguation = key.codeDescription || undefined;
    const suffix = disambiguation ? ` [${disambiguation}]` : '';
    const source = suffix && key.key.endsWith(suffix) ? key.key.slice(0, -suffix.length) : key.key;
    const extra = extraComment(key.description, disambiguation);

    out.push(numerus ? '    <message numerus="yes">' : '    <message>');
    out.push(`        <source>${qtText(source)}</source>`);
    if (disambiguation) out.push(`        <comment>${qtText(disambiguation)}</comment>`);
    if (withDescriptions && extra) out.push(`        <extracomment>${qtText(extra)}</extracomment>`);
    const typeAttr = translationType(key, translation);
    if (!numerus) {
      out.push(`        <translation${typeAttr}>${value(text ?? '')}</translation>`);
    } else {
      const forms = plural ? numerusForms(plural.forms, languageForms) : languageForms.categories.map(() => '');
      out.push(`        <translation${typeAttr}>`);
      for (const form of forms) out.push(`            <numerusform>${value(form)}</numerusform>`);
      out.push('        </translation>');
    }
    out.push('    </message>');
  };

  const header = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<!DOCTYPE TS>',
    `<TS version="2.1" language="${escapeXmlAttribute(language)}">`,
  ];
  return linesWriter(header, {
    write(keys, out) {
      for (const key of keys) {
        contexts.enter(key.namespace, out);
        message(key, out);
      }
    },
    end(out) {
      contexts.finish(out);
      out.push('</TS>');
    },
  });
}

/**
 * An untranslated message is numerus when the key is a plural in another
 * language, or when the source uses %n (Qt only fills %n in tr() calls given
 * a count, which lupdate marks numerus="yes").
 */
function untranslatedIsNumerus(key: BundleKey): boolean {
  return key.key.includes('%n') || isPluralKey(key);
}

/** Only an empty translation is unfinished (see the header: review status is not written). */
function translationType(key: BundleKey, translation: BundleTranslation | undefined): string {
  const unfinished = !translation || translation.text === '';
  if (key.deprecated) return unfinished ? ' type="obsolete"' : ' type="vanished"';
  return unfinished ? ' type="unfinished"' : '';
}

/** The <extracomment>: the description without the disambiguation line that import put first. */
function extraComment(description: string | undefined, disambiguation: string | undefined): string | undefined {
  if (!description) return undefined;
  if (!disambiguation) return description;
  if (description === disambiguation) return undefined;
  return description.startsWith(`${disambiguation}\n`) ? description.slice(disambiguation.length + 1) : description;
}

/**
 * The numerus forms of a plural: one per Qt form (a category the text lacks
 * gets its `other` text); for a language Qt has no rules for, CLDR order up
 * to the last category present, then `other`.
 */
function numerusForms(forms: Record<string, string>, { categories, qt }: NumerusForms): string[] {
  const other = forms.other ?? '';
  if (qt) return categories.map((c) => forms[c] ?? other);
  const inner = categories.filter((c) => c !== 'other');
  let last = -1;
  inner.forEach((c, i) => {
    if (forms[c] !== undefined) last = i;
  });
  return [...inner.slice(0, last + 1).map((c) => forms[c] ?? other), other];
}

// XML cannot carry most control characters, even as references; Qt writes them as <byte/>.
const BYTE_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

function qtText(s: string): string {
  let out = '';
  let last = 0;
  for (const m of s.matchAll(BYTE_CHARS)) {
    out += escapeXmlText(s.slice(last, m.index)) + `<byte value="x${m[0].charCodeAt(0).toString(16)}"/>`;
    last = m.index + 1;
  }
  return out + escapeXmlText(s.slice(last));
}

export const qtLinguist: FileFormat = defineFormat({
  id: ID,
  multiLanguage: false,
  namespaces: true, // <context>
  extension: 'ts',
  contentType: 'application/xml; charset=utf-8',
  keyOrder: () => 'namespace',
  parse: parseQt,
  writer: qtWriter,
});

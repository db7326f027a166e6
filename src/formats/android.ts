// Android resource files (res/values*/strings.xml). One format, three contract
// identifiers: `android`, `android-strings`, `android-xml`.
//
// Conventions (what a user sees after import):
//   - <string name="k">                 -> key `k`
//   - <plurals name="k"><item quantity> -> key `k`, ICU plural text; a
//     <plurals> without an `other` item gets `other` = its last item (Android
//     falls back to `other`). Exact ICU branches (`=0`) have no Android form
//     and are not written.
//   - <string-array name="k"><item>...  -> keys `k[0]`, `k[1]`, ...; export
//     regroups every `name[N]` key into one <string-array name="name"> written
//     where its first item appears, items in index order (an untranslated
//     item is written empty so the positions stay right).
//   - translatable="false" / formatted="false" -> key tags `translatable=false`
//     / `formatted=false`, written back as attributes on export.
//   - The XML comment right before an element (nothing but whitespace, and no
//     blank line, in between) is the key's description; INCLUDE_DESCRIPTIONS
//     writes it back (a `--` inside becomes `- -`, which XML comments need).
//   - Values: see android-text.ts (escapes, quotes, whitespace, inline markup, CDATA).
//   - Other resource types (dimen, color, integer-array, ...) are skipped, and
//     other attributes (tools:*, product, Smartling's instruction) are not kept.
//   - ESCAPE_NEW_LINES changes nothing: Android values always carry newlines as \n.
//   - Duplicate names: the first one wins (later ones are e.g. product variants).
//   - Export omits keys without a translation in the language: Android then
//     falls back to the default values/ file, where an empty string would show
//     an empty label.
import { FormatError, type Bundle, type BundleKey, type FileFormat, type ParseOptions, type SerializeOptions } from './model.js';
import { PLURAL_CATEGORIES, parseIcuPlural, toIcuPlural, type PluralCategory } from './plural.js';
import { decodeAndroidValue, encodeAndroidValue, markupPrefixes } from './android-text.js';
import { keysForFile, requireLanguageKey, singleLanguage } from './single-language.js';
import { escapeXmlAttribute, parseXml, type XmlElement } from './xml-safe.js';

const FLAG_ATTRIBUTES = ['translatable', 'formatted'] as const;
const ARRAY_KEY = /^(.+)\[(\d+)\]$/;

const KNOWN_NAMESPACES: Record<string, string> = {
  xliff: 'urn:oasis:names:tc:xliff:document:1.2',
  tools: 'http://schemas.android.com/tools',
  android: 'http://schemas.android.com/apk/res/android',
  app: 'http://schemas.android.com/apk/res-auto',
};

async function parseAndroid(input: Buffer, options: ParseOptions, formatId: string): Promise<Bundle> {
  const language = requireLanguageKey(options, formatId);
  const namespace = options.namespace ?? '';
  const { root } = parseXml(input);
  if (root.name !== 'resources') {
    throw new FormatError(`Not an Android resource file: the root element is <${root.name}>, expected <resources>`, { line: root.line, column: root.column });
  }
  const keys: BundleKey[] = [];
  const seen = new Set<string>();
  const add = (key: string, text: string | undefined, el: XmlElement, description: string | undefined): void => {
    if (seen.has(key)) return;
    seen.add(key);
    const tags = FLAG_ATTRIBUTES.filter((a) => el.attributes[a] === 'false').map((a) => `${a}=false`);
    keys.push({
      key,
      namespace,
      ...(description ? { description } : {}),
      ...(tags.length ? { tags } : {}),
      translations: text === undefined ? {} : { [language]: { text } },
    });
  };

  forEachDescribed(root, (el, description) => {
    const name = el.attributes.name;
    if (el.name !== 'string' && el.name !== 'plurals' && el.name !== 'string-array') return;
    if (!name) throw new FormatError(`<${el.name}> without a name attribute`, { line: el.line, column: el.column });
    if (el.name === 'string') {
      add(name, decodeAndroidValue(el.children), el, description);
    } else if (el.name === 'plurals') {
      add(name, pluralText(el), el, description);
    } else {
      let index = 0;
      forEachDescribed(el, (item, itemDescription) => {
        if (item.name !== 'item') return;
        add(`${name}[${index++}]`, decodeAndroidValue(item.children), el, itemDescription ?? description);
      });
    }
  });
  return { keys, languages: [{ key: language }] };
}

/** Calls `fn` for each child element with the comment right before it (no blank line in between). */
function forEachDescribed(parent: XmlElement, fn: (el: XmlElement, description: string | undefined) => void): void {
  let comment: string | undefined;
  for (const node of parent.children) {
    if (node.type === 'comment') comment = node.value.trim() || undefined;
    else if (node.type === 'text') {
      if (/\n[^\S\n]*\n/.test(node.value) || node.value.trim() !== '') comment = undefined;
    } else if (node.type === 'element') {
      fn(node, comment);
      comment = undefined;
    }
  }
}

function pluralText(el: XmlElement): string | undefined {
  const forms: Record<string, string> = {};
  let last: string | undefined;
  for (const item of el.children) {
    if (item.type !== 'element' || item.name !== 'item') continue;
    const quantity = item.attributes.quantity ?? '';
    if (!(PLURAL_CATEGORIES as readonly string[]).includes(quantity)) {
      throw new FormatError(`<plurals name="${el.attributes.name}">: invalid quantity "${quantity}" (expected one of ${PLURAL_CATEGORIES.join(', ')})`, { line: item.line, column: item.column });
    }
    last = decodeAndroidValue(item.children);
    if (forms[quantity] === undefined) forms[quantity] = last;
  }
  if (last === undefined) return undefined;
  if (forms.other === undefined) forms.other = last;
  return toIcuPlural(forms);
}

// --- Export --------------------------------------------------------------------

type Entry =
  | { kind: 'single'; key: BundleKey }
  | { kind: 'array'; name: string; items: { index: number; key: BundleKey }[] };

async function serializeAndroid(bundle: Bundle, options: SerializeOptions, formatId: string): Promise<Buffer> {
  const language = singleLanguage(options, formatId);
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');
  const entries: Entry[] = [];
  const arrays = new Map<string, Extract<Entry, { kind: 'array' }>>();
  for (const key of keysForFile(bundle, options)) {
    const m = ARRAY_KEY.exec(key.key);
    if (!m) {
      entries.push({ kind: 'single', key });
      continue;
    }
    let entry = arrays.get(m[1]!);
    if (!entry) {
      entry = { kind: 'array', name: m[1]!, items: [] };
      arrays.set(m[1]!, entry);
      entries.push(entry);
    }
    entry.items.push({ index: Number(m[2]), key });
  }

  const body: string[] = [];
  const prefixes = new Set<string>();
  const written = new Set<string>();
  const textOf = (k: BundleKey): string | undefined => k.translations[language]?.text;
  const note = (k: BundleKey, indent: string): void => {
    if (withDescriptions && k.description?.trim()) body.push(`${indent}${xmlComment(k.description)}`);
  };
  const use = (text: string): string => {
    for (const p of markupPrefixes(text)) prefixes.add(p);
    return encodeAndroidValue(text);
  };

  for (const entry of entries) {
    if (entry.kind === 'single') {
      const text = textOf(entry.key);
      if (text === undefined) continue;
      const plural = parseIcuPlural(text);
      const type = plural ? 'plurals' : 'string';
      if (written.has(`${type}:${entry.key.key}`)) continue;
      written.add(`${type}:${entry.key.key}`);
      note(entry.key, '    ');
      const attrs = `name="${escapeXmlAttribute(entry.key.key)}"${flagAttributes(entry.key)}`;
      if (!plural) {
        body.push(`    <string ${attrs}>${use(text)}</string>`);
      } else {
        body.push(`    <plurals ${attrs}>`);
        for (const category of PLURAL_CATEGORIES) {
          const form = plural.forms[category as PluralCategory];
          if (form !== undefined) body.push(`        <item quantity="${category}">${use(form)}</item>`);
        }
        body.push('    </plurals>');
      }
    } else {
      const items = [...entry.items].sort((a, b) => a.index - b.index);
      if (!items.some((i) => textOf(i.key) !== undefined) || written.has(`array:${entry.name}`)) continue;
      written.add(`array:${entry.name}`);
      const head = items[0]!.key;
      note(head, '    ');
      body.push(`    <string-array name="${escapeXmlAttribute(entry.name)}"${flagAttributes(head)}>`);
      let previousIndex: number | undefined;
      for (const { index, key } of items) {
        if (index === previousIndex) continue; // `a[01]` and `a[1]` name the same position
        previousIndex = index;
        if (key !== head && key.description !== head.description) note(key, '        ');
        body.push(`        <item>${use(textOf(key) ?? '')}</item>`);
      }
      body.push('    </string-array>');
    }
  }

  const xmlns = [...prefixes].sort().map((p) => ` xmlns:${p}="${escapeXmlAttribute(KNOWN_NAMESPACES[p] ?? `urn:x-android-markup:${p}`)}"`).join('');
  const xml = ['<?xml version="1.0" encoding="utf-8"?>', `<resources${xmlns}>`, ...body, '</resources>', ''].join('\n');
  return Buffer.from(xml, 'utf8');
}

function flagAttributes(key: BundleKey): string {
  return FLAG_ATTRIBUTES.filter((a) => key.tags?.includes(`${a}=false`)).map((a) => ` ${a}="false"`).join('');
}

/** An XML comment for a description; `--` cannot appear inside a comment. */
function xmlComment(text: string): string {
  return `<!-- ${text.trim().replace(/--/g, '- -')} -->`;
}

function androidFormat(id: string): FileFormat {
  return {
    id,
    multiLanguage: false,
    extension: 'xml',
    contentType: 'application/xml; charset=utf-8',
    parse: (input, options) => parseAndroid(input, options, id),
    serialize: (bundle, options) => serializeAndroid(bundle, options, id),
  };
}

export const android: FileFormat = androidFormat('android');
export const androidStrings: FileFormat = androidFormat('android-strings');
export const androidXml: FileFormat = androidFormat('android-xml');

// Android resource files (res/values*/strings.xml). One format, three contract
// identifiers: `android`, `android-strings`, `android-xml`.
//
// Conventions (what a user sees after import):
//   - <string name="k">                 -> key `k`
//   - <plurals name="k"><item quantity> -> key `k`, ICU plural text; a
//     <plurals> without an `other` item gets `other` = its last item (Android
//     falls back to `other`). Exact ICU branches (`=0`) have no Android form
//     and are not written. The number is `%d` in an item and `#` in ICU: the
//     first `%d`/`%1$d` of an item reads as `#`, `#` is written as `%d`, a
//     literal `%` is `%%` in an item (getQuantityString formats every item);
//     see plural.ts for the whole mapping.
//   - <string-array name="k"><item>...  -> keys `k[0]`, `k[1]`, ...; export
//     regroups every `name[N]` key into one <string-array name="name">, items
//     in index order (an untranslated item is written empty so the positions
//     stay right). The items of an array can come on any page of a streamed
//     export, so the arrays are written after the strings and plurals, in the
//     order their first item came (the writer holds only the array items).
//   - translatable="false" / formatted="false" -> key tags `translatable=false`
//     / `formatted=false`, written back as attributes on export.
//   - The XML comment right before an element (nothing but whitespace, and no
//     blank line, in between) is the key's description; INCLUDE_DESCRIPTIONS
//     writes it back (a `--` inside becomes `- -`, which XML comments need).
//   - Values: see android-text.ts (escapes, quotes, whitespace, inline markup, CDATA).
//     A value given as CDATA (and no real markup) is stored without the
//     wrapper, and its key tagged `cdata=true`; export writes every text of
//     such a key as CDATA, so literal HTML stays literal for Html.fromHtml.
//     A namespace prefix used by inline markup (`<xliff:g>`) is declared on
//     the resource element that uses it (<string>, <plurals>, <string-array>),
//     not on <resources>: a streamed export writes <resources> before it has
//     seen the texts. aapt2 resolves prefixes by their URI wherever declared.
//   - Other resource types (dimen, color, integer-array, ...) are skipped, and
//     other attributes (tools:*, product, Smartling's instruction) are not kept.
//   - ESCAPE_NEW_LINES changes nothing: Android values always carry newlines as \n.
//   - Duplicate names: the first one wins (later ones are e.g. product variants).
//     Export gets one key per name (the format has no namespaces).
//   - Export omits keys without a translation in the language: Android then
//     falls back to the default values/ file, where an empty string would show
//     an empty label.
import { defineFormat } from './define.js';
import {
  FormatError,
  type Bundle,
  type BundleKey,
  type FileFormat,
  type FormatWriter,
  type ParseOptions,
  type SerializeOptions,
} from './model.js';
import {
  ANDROID_NUMBER,
  PLURAL_CATEGORIES,
  pluralFromPlatform,
  pluralToPlatform,
  type PluralCategory,
} from './plural.js';
import {
  encodeAndroidCdata,
  encodeAndroidValue,
  isPlainAndroidText,
  markupPrefixes,
  readAndroidValue,
} from './android-text.js';
import { linesWriter } from './entry-writer.js';
import { requireLanguageKey, singleLanguage } from './single-language.js';
import { escapeXmlAttribute, parseXml, type XmlElement } from './xml-safe.js';

const FLAG_ATTRIBUTES = ['translatable', 'formatted'] as const;
/** A key whose values came as CDATA: written back as CDATA (see android-text.ts). */
const CDATA_TAG = 'cdata=true';
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
    throw new FormatError(`Not an Android resource file: the root element is <${root.name}>, expected <resources>`, {
      line: root.line,
      column: root.column,
    });
  }
  const keys: BundleKey[] = [];
  const seen = new Set<string>();
  const add = (
    key: string,
    value: { text: string; cdata: boolean } | undefined,
    el: XmlElement,
    description: string | undefined,
  ): void => {
    if (seen.has(key)) return;
    seen.add(key);
    const text = value?.text;
    const tags = FLAG_ATTRIBUTES.filter((a) => el.attributes[a] === 'false').map((a) => `${a}=false`);
    if (value?.cdata) tags.push(CDATA_TAG);
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
      add(name, readAndroidValue(el.children), el, description);
    } else if (el.name === 'plurals') {
      add(name, pluralText(el), el, description);
    } else {
      let index = 0;
      forEachDescribed(el, (item, itemDescription) => {
        if (item.name !== 'item') return;
        add(`${name}[${index++}]`, readAndroidValue(item.children), el, itemDescription ?? description);
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

function pluralText(el: XmlElement): { text: string; cdata: boolean } | undefined {
  const forms: Record<string, string> = {};
  let last: string | undefined;
  let cdata = false;
  for (const item of el.children) {
    if (item.type !== 'element' || item.name !== 'item') continue;
    const quantity = item.attributes.quantity ?? '';
    if (!(PLURAL_CATEGORIES as readonly string[]).includes(quantity)) {
      throw new FormatError(
        `<plurals name="${el.attributes.name}">: invalid quantity "${quantity}" (expected one of ${PLURAL_CATEGORIES.join(', ')})`,
        { line: item.line, column: item.column },
      );
    }
    const value = readAndroidValue(item.children);
    last = value.text;
    cdata ||= value.cdata;
    if (forms[quantity] === undefined) forms[quantity] = last;
  }
  if (last === undefined) return undefined;
  if (forms.other === undefined) forms.other = last;
  return { text: pluralFromPlatform(forms, ANDROID_NUMBER), cdata };
}

// --- Export --------------------------------------------------------------------

/** An item of a <string-array>, held until end(): what writing it needs, nothing more. */
interface ArrayItem {
  index: number;
  text: string | undefined;
  description: string | undefined;
  flags: string;
  cdata: boolean;
}

/**
 * Writes strings.xml. <string> and <plurals> are written as their keys come.
 * The items of a <string-array> (keys `name[i]`) may come on any page in any
 * order, so they alone are held, and the arrays are written at the end, in
 * the order their first item came.
 */
function androidWriter(options: SerializeOptions, formatId: string): FormatWriter {
  const language = singleLanguage(options, formatId);
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');
  const arrays = new Map<string, ArrayItem[]>();
  const note = (description: string | undefined, indent: string, out: string[]): void => {
    if (withDescriptions && description?.trim()) out.push(`${indent}${xmlComment(description)}`);
  };

  const resource = (key: BundleKey, out: string[]): void => {
    const text = key.translations[language]?.text;
    if (text === undefined) return;
    const plural = pluralToPlatform(text, ANDROID_NUMBER);
    note(key.description, '    ', out);
    const name = `name="${escapeXmlAttribute(key.key)}"${flagAttributes(key)}`;
    const asCdata = isCdata(key);
    if (!plural) {
      // Most texts: written as they are, without values()'s arrays (one line per text of the file).
      if (!asCdata && isPlainAndroidText(text)) {
        out.push(`    <string ${name}>${text}</string>`);
        return;
      }
      const value = values([text], asCdata);
      out.push(`    <string ${name}${value.xmlns}>${value.xml[0]}</string>`);
      return;
    }
    const categories = PLURAL_CATEGORIES.filter((c) => plural.forms[c as PluralCategory] !== undefined);
    const forms = values(
      categories.map((c) => plural.forms[c as PluralCategory]!),
      asCdata,
    );
    out.push(`    <plurals ${name}${forms.xmlns}>`);
    categories.forEach((category, i) => out.push(`        <item quantity="${category}">${forms.xml[i]}</item>`));
    out.push('    </plurals>');
  };

  const stringArray = (name: string, held: ArrayItem[], out: string[]): void => {
    if (!held.some((i) => i.text !== undefined)) return;
    // Sorting is stable: of two items with one index (`a[01]`, `a[1]`) the first come stays first and is the one written.
    const items = held.sort((a, b) => a.index - b.index).filter((item, i, all) => item.index !== all[i - 1]?.index);
    const head = items[0]!;
    const value = values(
      items.map((i) => i.text ?? ''),
      items.map((i) => i.cdata),
    );
    note(head.description, '    ', out);
    out.push(`    <string-array name="${escapeXmlAttribute(name)}"${head.flags}${value.xmlns}>`);
    items.forEach((item, i) => {
      if (item !== head && item.description !== head.description) note(item.description, '        ', out);
      out.push(`        <item>${value.xml[i]}</item>`);
    });
    out.push('    </string-array>');
  };

  return linesWriter(['<?xml version="1.0" encoding="utf-8"?>', '<resources>'], {
    write(keys, out) {
      for (const key of keys) {
        const m = key.key.endsWith(']') ? ARRAY_KEY.exec(key.key) : null;
        if (!m) {
          resource(key, out);
          continue;
        }
        let items = arrays.get(m[1]!);
        if (!items) arrays.set(m[1]!, (items = []));
        items.push({
          index: Number(m[2]),
          text: key.translations[language]?.text,
          description: key.description,
          flags: flagAttributes(key),
          cdata: isCdata(key),
        });
      }
    },
    end(out) {
      for (const [name, items] of arrays) stringArray(name, items, out);
      arrays.clear();
      out.push('</resources>');
    },
  });
}

/**
 * The XML of the values of one resource element, and the declarations of the
 * namespace prefixes their markup uses (`<xliff:g>`), for that element's
 * start tag: a writer that streams cannot know them when it writes <resources>.
 * Written with loops: it runs once per text, and callbacks created per call
 * cost more than the work.
 */
function values(texts: string[], cdata: boolean | boolean[]): { xml: string[]; xmlns: string } {
  const xml: string[] = [];
  let prefixes: Set<string> | undefined;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!;
    const asCdata = (Array.isArray(cdata) ? cdata[i]! : cdata) && !text.includes('<![CDATA[');
    if (!asCdata && isPlainAndroidText(text)) {
      xml.push(text);
      continue;
    }
    if (!asCdata) for (const prefix of markupPrefixes(text)) (prefixes ??= new Set()).add(prefix);
    xml.push(asCdata && text !== '' ? encodeAndroidCdata(text) : encodeAndroidValue(text));
  }
  let xmlns = '';
  if (prefixes)
    for (const p of [...prefixes].sort())
      xmlns += ` xmlns:${p}="${escapeXmlAttribute(KNOWN_NAMESPACES[p] ?? `urn:x-android-markup:${p}`)}"`;
  return { xml, xmlns };
}

function isCdata(key: BundleKey): boolean {
  return key.tags?.includes(CDATA_TAG) ?? false;
}

function flagAttributes(key: BundleKey): string {
  if (!key.tags?.length) return '';
  let out = '';
  for (const a of FLAG_ATTRIBUTES) if (key.tags.includes(`${a}=false`)) out += ` ${a}="false"`;
  return out;
}

/** An XML comment for a description; `--` cannot appear inside a comment. */
function xmlComment(text: string): string {
  return `<!-- ${text.trim().replace(/--/g, '- -')} -->`;
}

function androidFormat(id: string): FileFormat {
  return defineFormat({
    id,
    multiLanguage: false,
    // Namespaces are not in the file: import gives its keys the request's namespace.
    namespaces: false,
    extension: 'xml',
    contentType: 'application/xml; charset=utf-8',
    parse: (input, options) => parseAndroid(input, options, id),
    writer: (options) => androidWriter(options, id),
  });
}

export const android: FileFormat = androidFormat('android');
export const androidStrings: FileFormat = androidFormat('android-strings');
export const androidXml: FileFormat = androidFormat('android-xml');

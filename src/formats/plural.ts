// Plural texts are stored as ICU MessageFormat plural messages:
//   {count, plural, one {# file} other {# files}}
// Each platform format converts its own plural structure (Android <plurals>,
// gettext msgstr[n], .stringsdict, Qt numerus forms, xcstrings variations)
// to and from this one representation, and its number placeholder to and
// from ICU's `#` with the one mapping at the end of this module
// (pluralToPlatform / pluralFromPlatform). Other placeholders (%s, %1$s,
// {name}) stay as they are; ICU's special characters inside a branch are
// quoted with apostrophes.
//
// toIcuPlural / parseIcuPlural build and read a plural from forms taken as
// they are (`#` in a form is the number); ICU-native formats use them.

import { PLURAL_CATEGORIES } from './icu-message.js';
import type { BundleKey } from './model.js';

export { PLURAL_CATEGORIES };
export type PluralCategory = (typeof PLURAL_CATEGORIES)[number];
export type PluralForms = Partial<Record<PluralCategory, string>> & { other?: string };

export interface IcuPlural {
  /** The argument name, `count` when created by a parser. */
  argument: string;
  /** Category (or exact match such as `=0`) -> branch text, unquoted. */
  forms: Record<string, string>;
}

/** CLDR plural categories of a language, in canonical order (always ending with `other`). */
export function pluralCategories(language: string): PluralCategory[] {
  let categories: string[];
  try {
    categories = new Intl.PluralRules(language.replace(/_/g, '-')).resolvedOptions().pluralCategories;
  } catch {
    categories = ['one', 'other'];
  }
  return PLURAL_CATEGORIES.filter((c) => categories.includes(c));
}

/** gettext/Qt order their forms by index; CLDR's order is the usual mapping. */
export function categoryForIndex(language: string, index: number): PluralCategory {
  const cats = pluralCategories(language);
  return cats[Math.min(index, cats.length - 1)] ?? 'other';
}

function quoteBranch(text: string): string {
  return quoteIcuText(text);
}

/** Builds `{count, plural, one {...} other {...}}` from forms, in canonical order. */
export function toIcuPlural(forms: Record<string, string>, argument = 'count'): string {
  const keys = Object.keys(forms);
  const ordered = [...keys.filter((k) => k.startsWith('=')), ...PLURAL_CATEGORIES.filter((c) => keys.includes(c))];
  const branches = ordered.map((k) => `${k} {${quoteBranch(forms[k] ?? '')}}`);
  return `{${argument}, plural, ${branches.join(' ')}}`;
}

const PLURAL_SELECTOR = /^(?:=\d+|zero|one|two|few|many|other)$/;

/**
 * Parses a whole-text ICU plural message (read by icu-message.ts). Returns
 * null when the text is not exactly one plural message (plain text, select,
 * text around the plural, a selector that is not a CLDR category or `=N`,
 * no `other`). Branch texts are unquoted; `#` (the number) stays `#`, and
 * arguments and nested plurals/selects are ICU source. An offset is dropped.
 */
export function parseIcuPlural(text: string): IcuPlural | null {
  return readWholePlural(text)?.plural ?? null;
}

/**
 * Whether a key is a plural message, for a file that has no text of it: one
 * of its texts in the file is a plural (a file of several languages), or one
 * in a language the export read but left out of the file (pluralElsewhere).
 * An untranslated PO entry keeps msgid_plural with it, a Qt message numerus,
 * so that a translator fills in every form.
 */
export function isPluralKey(key: BundleKey): boolean {
  return key.pluralElsewhere === true || Object.values(key.translations).some((t) => parseIcuPlural(t.text) !== null);
}

/** parseIcuPlural, with the parts it was read from (one parse for both). */
function readWholePlural(text: string): { plural: IcuPlural; parts: IcuPart[] } | null {
  // Most texts do not start with `{`: the first character tells without running the regex (once per exported text).
  if (text.charCodeAt(0) !== 0x7b || !/^\{\s*[A-Za-z0-9_]+\s*,\s*plural\s*,/.test(text)) return null;
  const parts = parseIcuMessage(text);
  const choice = parts?.[0];
  if (!choice || choice.type !== 'choice' || choice.kind !== 'plural') return null;
  if (parts!.slice(1).some((p) => p.type !== 'text' || p.value.trim() !== '')) return null;
  const forms: Record<string, string> = {};
  for (const b of choice.branches) {
    if (!PLURAL_SELECTOR.test(b.key)) return null;
    forms[b.key] = b.parts
      .map((p) => (p.type === 'number' ? '#' : p.type === 'choice' ? buildIcuMessage([p]) : p.value))
      .join('');
  }
  return forms.other !== undefined ? { plural: { argument: choice.argument, forms }, parts: parts! } : null;
}

/** Returns the forms of a plural text, or null for plain text. */
export function pluralForms(text: string): Record<string, string> | null {
  return parseIcuPlural(text)?.forms ?? null;
}

// --- The number placeholder of a plural branch, per platform -------------------
//
// ICU writes the plural's number as `#` inside a branch; platforms use their
// own placeholder. One mapping for every platform format:
//
//   platform          `#` is written as        read back as `#`
//   Android <plurals> %d (%N$d, see below)     the first %d or %N$d of a branch
//                     (a leading # is escaped \# by android-text.ts: aapt takes
//                     an item starting with # for a color)
//   gettext msgstr[n] %d                       the first %d, %i, %ld, %lu, %u, %2$d, ...
//   Qt numerusform    %n                       %n (Qt substitutes only %n)
//   Apple (stringsdict variables, xcstrings plural variations)
//                     %lld (what Xcode writes for an Int; a .stringsdict
//                     variable written with NSStringFormatValueTypeKey `d`
//                     gets %d)                 the first %d, %i, %u, %ld, %lld, %lu, %llu, %qd, %zd
//                                              (non-positional: %1$d stays, another argument)
//
// "The first ... and every other occurrence of that same token": a branch
// `%1$d of %1$d` reads `# of #`; a second, different number placeholder
// (`%2$d`) stays as written. Android's aapt refuses two non-positional
// placeholders in one text, so there `#` is written `%N$d` (N the lowest
// position the branch's other placeholders leave free) when the branch has
// positional placeholders or uses `#` twice: `%1$s has #` -> `%1$s has %2$d`.
// An imported `%1$d` therefore comes back as `%d` when alone in its branch:
// the same value for Android. ICU-native formats (JSON, ARB, XLIFF, YAML...)
// keep `#` as it is; they do not use this.
//
// Literal characters, so that export then import gives back the same ICU text:
//   - a literal `#` in a branch is ICU `'#'`; platforms write it as a plain `#`
//     (none of them gives `#` a meaning), and import quotes it again;
//   - printf platforms (all but Qt) format plural texts, so a literal `%` is
//     `%%` there. In the stored ICU text a `%` that starts a printf conversion
//     (`%s`, `%1$s`, `%.2f`, `%@`) is that placeholder, kept verbatim both ways;
//     `%%` is kept as `%%`, and any other `%` is a literal percent sign
//     written as `%%`. Import writes a platform `%%` back as a lone `%`
//     unless the characters after it would then read as a conversion
//     (`%%d` stays `%%d`).
//   - a named ICU argument in a branch (`{name}`, `{count}`, `{n, number}`)
//     is written as it is and read back as an argument; a nested plural or
//     select stays ICU text both ways. Other braces are literal (quoted in
//     ICU); a literal `{word}` therefore reads back as an argument.
//   - a printf count placeholder already in the stored ICU text (`%d` where
//     `#` was meant, e.g. from a JSON import) is written as it is and reads
//     back as `#`: the stored text is normalized, not lost.
import { buildIcuMessage, parseIcuMessage, quoteIcuText, type IcuPart } from './icu-embedded.js';

export interface NumberPlaceholder {
  /** What the ICU number `#` is written as. */
  number: string;
  /** The platform tokens that can stand for the number; sticky (`y`), tried at a `%`. */
  count: RegExp;
  /** printf semantics: `%%` is a literal percent sign and texts are formatted. */
  printf: boolean;
  /**
   * Android: aapt refuses several non-positional placeholders in one text, so
   * a branch whose number appears twice, or that has positional placeholders
   * (`%1$s`), gets the number as `%N$d`, N the lowest position not taken.
   */
  positional?: boolean;
}

export const ANDROID_NUMBER: NumberPlaceholder = {
  number: '%d',
  count: /%(?:\d+\$)?d/y,
  printf: true,
  positional: true,
};
export const GETTEXT_NUMBER: NumberPlaceholder = {
  number: '%d',
  count: /%(?:\d+\$)?(?:hh|h|ll|l|j|z|t)?[diu]/y,
  printf: true,
  positional: true,
};
export const QT_NUMBER: NumberPlaceholder = { number: '%n', count: /%n/y, printf: false };
export const APPLE_NUMBER: NumberPlaceholder = { number: '%lld', count: /%(?:hh|h|ll|l|q|j|z|t)?[diu]/y, printf: true };

/** Apple with the number written as `%<type>` (a .stringsdict variable's NSStringFormatValueTypeKey). */
export function appleNumber(type: string | undefined): NumberPlaceholder {
  return type && /^(?:hh|h|ll|l|q|j|z|t)?[diu]$/.test(type) ? { ...APPLE_NUMBER, number: `%${type}` } : APPLE_NUMBER;
}

/** A printf conversion other than `%%`, at a `%` (Java's and Apple's conversions included). */
const CONVERSION = /%(?:\d+\$)?[-+0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|q|j|z|t|L)?[diouxXfFeEgGaAcCsSpn@bBhH]/y;

function matchAt(re: RegExp, text: string, i: number): string | null {
  re.lastIndex = i;
  const m = re.exec(text);
  return m ? m[0] : null;
}

/** A named ICU argument in platform text: `{name}`, `{n, number}`, `{d, date, short}`. */
const NAMED_ARGUMENT = /\{\s*[A-Za-z_][\w]*\s*(?:,[^{}]*)?\}/y;

/**
 * An ICU argument starting at `i` in platform text, verbatim: a named one
 * (`{name}`), or a nested plural/select (`{kind, select, a {A} other {B}}`)
 * that parses as one ICU argument. Null for any other brace.
 */
function icuArgumentAt(text: string, i: number): string | null {
  const simple = matchAt(NAMED_ARGUMENT, text, i);
  if (simple) return simple;
  if (!/^\{\s*[A-Za-z_]\w*\s*,/.test(text.slice(i, i + 200))) return null;
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    if (text[j] === '{') depth++;
    else if (text[j] === '}' && --depth === 0) {
      const candidate = text.slice(i, j + 1);
      const parts = parseIcuMessage(candidate);
      return parts?.length === 1 && parts[0]!.type === 'choice' ? candidate : null;
    }
  }
  return null;
}

/** The ICU parts of one plural branch read from platform text (see above). */
export function branchFromPlatform(text: string, spec: NumberPlaceholder, state: { count?: string } = {}): IcuPart[] {
  const parts: IcuPart[] = [];
  let literal = '';
  const flush = (): void => {
    if (literal) parts.push({ type: 'text', value: literal });
    literal = '';
  };
  // The count token: the first number placeholder of the branch (outside `%%`).
  if (state.count === undefined) {
    for (let i = text.indexOf('%'); i >= 0 && i < text.length; i = text.indexOf('%', i)) {
      if (spec.printf && text[i + 1] === '%') {
        i += 2;
        continue;
      }
      const count = matchAt(spec.count, text, i);
      if (count) {
        state.count = count;
        break;
      }
      i += (spec.printf && matchAt(CONVERSION, text, i)?.length) || 1;
    }
  }
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '%') {
      if (spec.printf && text[i + 1] === '%') {
        literal += matchAt(CONVERSION, text, i + 1) ? '%%' : '%';
        i += 2;
        continue;
      }
      if (state.count && text.startsWith(state.count, i)) {
        flush();
        parts.push({ type: 'number' });
        i += state.count.length;
        continue;
      }
      const conversion = spec.printf ? matchAt(CONVERSION, text, i) : null;
      literal += conversion ?? '%';
      i += conversion?.length ?? 1;
      continue;
    }
    if (c === '{') {
      const arg = icuArgumentAt(text, i);
      if (arg) {
        flush();
        parts.push({ type: 'raw', value: arg });
        i += arg.length;
        continue;
      }
    }
    literal += c;
    i++;
  }
  flush();
  return parts;
}

/** Platform text of one ICU plural branch; nested plurals/selects go through `choice` (ICU text by default). */
export function branchToPlatform(
  parts: IcuPart[],
  spec: NumberPlaceholder,
  choice: (c: Extract<IcuPart, { type: 'choice' }>) => string = (c) => buildIcuMessage([c]),
): string {
  const number = spec.positional ? positionalNumber(parts, spec.number) : spec.number;
  let out = '';
  for (const part of parts) {
    if (part.type === 'number') out += number;
    else if (part.type === 'raw') out += part.value;
    else if (part.type === 'choice') out += choice(part);
    else out += spec.printf ? escapePercent(part.value) : part.value;
  }
  return out;
}

/** `%d`, or `%N$d` when the branch has positional placeholders or more than one number. */
function positionalNumber(parts: IcuPart[], number: string): string {
  const taken = new Set<number>();
  let numbers = 0;
  for (const part of parts) {
    if (part.type === 'number') numbers++;
    else if (part.type === 'text')
      for (const m of part.value.matchAll(/%%|%(\d+)\$/g)) if (m[1]) taken.add(Number(m[1]));
  }
  if (!taken.size && numbers < 2) return number;
  let n = 1;
  while (taken.has(n)) n++;
  return `%${n}$${number.slice(1)}`;
}

/** A literal `%` becomes `%%`; conversions and `%%` stay. */
function escapePercent(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const p = text.indexOf('%', i);
    if (p < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, p);
    if (text[p + 1] === '%') {
      out += '%%';
      i = p + 2;
      continue;
    }
    const conversion = matchAt(CONVERSION, text, p);
    out += conversion ?? '%%';
    i = p + (conversion?.length ?? 1);
  }
  return out;
}

/**
 * A whole-text ICU plural with each branch in platform text (`#` -> the
 * platform's number, literals unescaped): what a platform format writes.
 * Null when the text is not exactly one plural.
 */
export function pluralToPlatform(text: string, spec: NumberPlaceholder): IcuPlural | null {
  const read = readWholePlural(text);
  if (!read) return null;
  const { plural, parts } = read;
  const only = parts.length === 1 && parts[0]!.type === 'choice' && parts[0].kind === 'plural' ? parts[0] : null;
  if (!only) return plural; // whitespace after the plural: the branches as written
  const forms: Record<string, string> = {};
  for (const b of only.branches) if (forms[b.key] === undefined) forms[b.key] = branchToPlatform(b.parts, spec);
  return { argument: only.argument, forms };
}

/** The ICU plural text of platform forms (category -> platform text): what a platform format reads. */
export function pluralFromPlatform(forms: Record<string, string>, spec: NumberPlaceholder, argument = 'count'): string {
  const branches = Object.entries(forms).map(([key, text]) => ({ key, parts: branchFromPlatform(text, spec) }));
  return buildIcuMessage([{ type: 'choice', kind: 'plural', argument, branches }]);
}

/**
 * The parts of a plural branch whose text parts are still platform text
 * (Apple's variables expanded in place): the text parts read as ICU, the
 * count found once for the whole branch.
 */
export function branchPartsFromPlatform(parts: IcuPart[], spec: NumberPlaceholder): IcuPart[] {
  const state: { count?: string } = {};
  return parts.flatMap((p) => (p.type === 'text' ? branchFromPlatform(p.value, spec, state) : [p]));
}

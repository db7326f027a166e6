// Plural texts are stored as ICU MessageFormat plural messages:
//   {count, plural, one {%d file} other {%d files}}
// Each platform format converts its own plural structure (Android <plurals>,
// gettext msgstr[n], .stringsdict, Qt numerus forms, xcstrings variations)
// to and from this one representation. Branch texts are kept verbatim
// (platform placeholders such as %d stay as they are); ICU's special
// characters inside a branch are quoted with apostrophes.

export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
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
  return text.replace(/'/g, "''").replace(/[{}]/g, (c) => `'${c}'`);
}

/** Builds `{count, plural, one {...} other {...}}` from forms, in canonical order. */
export function toIcuPlural(forms: Record<string, string>, argument = 'count'): string {
  const keys = Object.keys(forms);
  const ordered = [
    ...keys.filter((k) => k.startsWith('=')),
    ...PLURAL_CATEGORIES.filter((c) => keys.includes(c)),
  ];
  const branches = ordered.map((k) => `${k} {${quoteBranch(forms[k] ?? '')}}`);
  return `{${argument}, plural, ${branches.join(' ')}}`;
}

/**
 * Parses a whole-text ICU plural message. Returns null when the text is not
 * exactly one plural message (plain text, select, or text around the plural).
 */
export function parseIcuPlural(text: string): IcuPlural | null {
  const head = /^\{\s*([A-Za-z0-9_]+)\s*,\s*plural\s*,/.exec(text);
  if (!head) return null;
  let i = head[0].length;
  const forms: Record<string, string> = {};
  const n = text.length;
  while (i < n) {
    while (i < n && /\s/.test(text[i]!)) i++;
    if (text[i] === '}') {
      if (text.slice(i + 1).trim() !== '') return null;
      return Object.keys(forms).length && forms.other !== undefined ? { argument: head[1]!, forms } : null;
    }
    const sel = /^(=\d+|zero|one|two|few|many|other|offset:\d+)/.exec(text.slice(i));
    if (!sel) return null;
    i += sel[0].length;
    if (sel[0].startsWith('offset:')) continue;
    while (i < n && /\s/.test(text[i]!)) i++;
    if (text[i] !== '{') return null;
    i++;
    let depth = 1;
    let out = '';
    while (i < n && depth > 0) {
      const c = text[i]!;
      if (c === "'") {
        if (text[i + 1] === "'") { out += "'"; i += 2; continue; }
        const close = text.indexOf("'", i + 1);
        if (close > i + 1 && /[{}#|]/.test(text[i + 1]!)) { out += text.slice(i + 1, close); i = close + 1; continue; }
        out += c; i++; continue;
      }
      if (c === '{') depth++;
      if (c === '}') { depth--; if (depth === 0) { i++; break; } }
      out += c;
      i++;
    }
    if (depth !== 0) return null;
    forms[sel[0]] = out;
  }
  return null;
}

/** Returns the forms of a plural text, or null for plain text. */
export function pluralForms(text: string): Record<string, string> | null {
  return parseIcuPlural(text)?.forms ?? null;
}

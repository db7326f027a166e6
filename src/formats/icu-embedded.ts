// ICU messages with plural/select arguments anywhere in the text, e.g.
//   Found {files, plural, one {%d file} other {%d files}} in {dirs, plural, ...}
// plural.ts handles whole-text plurals only; Apple's .stringsdict and String
// Catalogs put text around (and plurals inside) their plural variables, so
// they need this. Quoting follows plural.ts (`'` doubled, braces as '{' and
// '}'). Inside a plural branch an unquoted `#` is the plural's number (a
// `number` part) and a literal `#` is written quoted, `'#'`; elsewhere `#` is
// plain text. A single flat plural without a literal `#` is built byte for
// byte like toIcuPlural().
// Reading is icu-message.ts (the one ICU reader); this module builds messages.
import { PLURAL_CATEGORIES, type IcuChoice, type IcuPart } from './icu-message.js';

export { parseIcuMessage, type IcuChoice, type IcuPart } from './icu-message.js';

/** True when the parts contain at least one plural/select argument. */
export function hasChoice(parts: IcuPart[]): boolean {
  return parts.some((p) => p.type === 'choice');
}

/** Builds ICU source from parts (inverse of parseIcuMessage). */
export function buildIcuMessage(parts: IcuPart[], inPlural = false): string {
  let out = '';
  for (const part of parts) {
    if (part.type === 'text') out += quoteIcuText(part.value, inPlural);
    else if (part.type === 'raw') out += part.value;
    else if (part.type === 'number') out += '#';
    else {
      const branches = part.kind === 'select' ? part.branches : orderPluralBranches(part.branches);
      const offset = part.offset ? `offset:${part.offset} ` : '';
      const plural = part.kind !== 'select';
      out += `{${part.argument}, ${part.kind}, ${offset}${branches.map((b) => `${b.key} {${buildIcuMessage(b.parts, plural)}}`).join(' ')}}`;
    }
  }
  return out;
}

/** Literal text as ICU source (same quoting as plural.ts; `#` quoted inside a plural branch). */
export function quoteIcuText(text: string, inPlural = false): string {
  const special = inPlural ? /[{}#]/ : /[{}]/;
  let out = '';
  for (let i = 0; i < text.length;) {
    const c = text[i]!;
    if (!special.test(c)) {
      out += c === "'" ? "''" : c;
      i++;
      continue;
    }
    // A quoted run: special characters, and the apostrophes right after them
    // (as '' inside the run: a closing quote followed by '' would read as
    // one more apostrophe inside it).
    out += "'";
    while (i < text.length && (special.test(text[i]!) || text[i] === "'")) {
      out += text[i] === "'" ? "''" : text[i];
      i++;
    }
    out += "'";
  }
  return out;
}

/** Plain text of parts whose choices have already been replaced (raw parts verbatim, the number as `number`). */
export function plainText(parts: IcuPart[], choice: (c: IcuChoice) => string, number = '#'): string {
  let out = '';
  for (const part of parts) out += part.type === 'choice' ? choice(part) : part.type === 'number' ? number : part.value;
  return out;
}

/** Exact matches (`=0`) first, then CLDR categories in canonical order, as toIcuPlural orders them. */
function orderPluralBranches<T extends { key: string }>(branches: T[]): T[] {
  const rank = (k: string): number =>
    k.startsWith('=') ? -1 : PLURAL_CATEGORIES.indexOf(k as (typeof PLURAL_CATEGORIES)[number]);
  return branches
    .map((b, i) => ({ b, i }))
    .sort((x, y) => rank(x.b.key) - rank(y.b.key) || x.i - y.i)
    .map((x) => x.b);
}

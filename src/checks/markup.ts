// Markup of a text: HTML/XML tags with their attributes, character entities,
// Markdown links, strong emphasis and code spans. Read from the prose of a
// text (placeholders blanked, src/checks/placeholders.ts), so that Ruby's
// `%<x>d` or an ICU argument is never taken for a tag.

export interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attributes: Map<string, string>;
  start: number;
  end: number;
}

// Names are letters (HTML, XML) or numbers (react-i18next's <0>…</0>).
const TAG = /<(\/)?([A-Za-z][\w:.-]*|\d+)((?:\s+[^\s=<>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>'"]+))?)*)\s*(\/)?>/g;
const ATTRIBUTE = /([^\s=>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>'"]+)))?/g;

export const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Attributes whose value is text for people, translated with the rest. */
const TRANSLATABLE_ATTRIBUTES = new Set([
  'alt',
  'title',
  'aria-label',
  'aria-description',
  'placeholder',
  'label',
  'summary',
]);

export function readTags(prose: string): Tag[] {
  const tags: Tag[] = [];
  if (!prose.includes('<')) return tags;
  for (const m of prose.matchAll(TAG)) {
    const attributes = new Map<string, string>();
    for (const a of (m[3] ?? '').matchAll(ATTRIBUTE)) attributes.set(a[1]!.toLowerCase(), a[2] ?? a[3] ?? a[4] ?? '');
    tags.push({
      name: m[2]!.toLowerCase(),
      closing: !!m[1],
      selfClosing: !!m[4],
      attributes,
      start: m.index,
      end: m.index + m[0].length,
    });
  }
  return tags;
}

export const tagLabel = (tag: Tag) => `<${tag.closing ? '/' : ''}${tag.name}${tag.selfClosing ? '/' : ''}>`;

/** The first tag that breaks the nesting (an end tag without its start, or a start tag never ended), or null. */
export function unbalancedTag(tags: Tag[]): Tag | null {
  const open: Tag[] = [];
  for (const tag of tags) {
    if (tag.selfClosing || (!tag.closing && VOID_ELEMENTS.has(tag.name))) continue;
    if (!tag.closing) open.push(tag);
    else if (open.length && open[open.length - 1]!.name === tag.name) open.pop();
    else if (!VOID_ELEMENTS.has(tag.name)) return tag;
  }
  return open[0] ?? null;
}

/** Attributes of a tag that must not change (links, classes, ids), as a comparable text. */
export function fixedAttributes(tag: Tag): string {
  return [...tag.attributes]
    .filter(([name]) => !TRANSLATABLE_ATTRIBUTES.has(name))
    .map(([n, v]) => `${n}=${v}`)
    .sort()
    .join(' ');
}

// The named character references of HTML in common use; an unknown name is a typo or an invention.
const ENTITIES = new Set(
  `amp lt gt quot apos nbsp ensp emsp thinsp zwnj zwj lrm rlm shy hellip mdash ndash minus
  copy reg trade laquo raquo lsaquo rsaquo lsquo rsquo sbquo ldquo rdquo bdquo bull middot deg plusmn times divide
  frac12 frac14 frac34 sup1 sup2 sup3 micro para sect cent pound yen euro curren iexcl iquest larr rarr uarr darr harr
  lArr rArr hArr crarr le ge ne asymp infin sum prod radic check cross hearts spades clubs diams star dagger Dagger
  permil prime Prime oline frasl circ tilde acute cedil uml macr ordf ordm not brvbar
  Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde
  Ograve Oacute Ocirc Otilde Ouml Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml
  aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml
  oslash ugrave uacute ucirc uuml yacute thorn yuml OElig oelig Scaron scaron Yuml fnof alpha beta gamma delta pi
  sigma omega Alpha Beta Gamma Delta Pi Sigma Omega lambda mu theta NewLine Tab`.split(/\s+/),
);

export interface EntityProblem {
  raw: string;
  start: number;
  end: number;
  reason: 'unknown' | 'invalid-number' | 'unterminated';
}

/** Character references that are not valid: unknown names, numbers beyond Unicode, a known name without `;`. */
export function entityProblems(prose: string, lookForUnterminated: boolean): EntityProblem[] {
  const problems: EntityProblem[] = [];
  if (!prose.includes('&')) return problems;
  for (const m of prose.matchAll(/&(#[xX][0-9A-Fa-f]+|#\d+|[A-Za-z][A-Za-z0-9]*)(;?)/g)) {
    const ref = m[1]!;
    const start = m.index;
    const end = start + m[0].length;
    if (ref.startsWith('#')) {
      if (!m[2]) continue;
      const code = /^#[xX]/.test(ref) ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff))
        problems.push({ raw: m[0], start, end, reason: 'invalid-number' });
    } else if (m[2]) {
      if (!ENTITIES.has(ref)) problems.push({ raw: m[0], start, end, reason: 'unknown' });
    } else if (lookForUnterminated && ENTITIES.has(ref) && !/[A-Za-z0-9]/.test(prose[end] ?? '')) {
      problems.push({ raw: m[0], start, end, reason: 'unterminated' });
    }
  }
  return problems;
}

export function hasEntity(prose: string): boolean {
  return prose.includes('&') && /&(#[xX][0-9A-Fa-f]+|#\d+|[A-Za-z][A-Za-z0-9]*);/.test(prose);
}

export interface MarkdownParts {
  /** Link targets `[text](url)`, in order. */
  links: string[];
  /** Strong emphasis markers (`**`, `__`), counted. */
  strong: number;
  /** Code spans, their content (not translated). */
  code: string[];
}

export function readMarkdown(prose: string): MarkdownParts {
  const links = [...prose.matchAll(/\[[^\]\n]*\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const strong = (prose.match(/\*\*|__(?=\S)|(?<=\S)__/g) ?? []).length;
  const code = [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  return { links, strong, code };
}

// Readings of a text as prose: end punctuation by language, brackets and
// quotes, repeated words, URLs, e-mail addresses, numbers, invisible
// characters, scripts. Each reads the prose of a text (placeholders blanked).

/** The language part of a tag: `pt-BR` → `pt`, `zh_Hant` → `zh`. */
export const baseLanguage = (tag: string) => tag.toLowerCase().split(/[-_]/)[0]!;

export type EndMark = 'stop' | 'question' | 'exclamation' | 'colon' | 'ellipsis' | 'semicolon' | 'none';

// Each script's marks for the same sentence ends: Latin, CJK full width, Arabic, Devanagari, Armenian, Greek,
// Ethiopic, Myanmar, Tibetan.
const MARKS: Record<string, EndMark> = {
  '.': 'stop',
  '。': 'stop',
  '．': 'stop',
  '।': 'stop',
  '۔': 'stop',
  '։': 'stop',
  '።': 'stop',
  '။': 'stop',
  '༎': 'stop',
  '؎': 'stop',
  '٫': 'stop',
  '?': 'question',
  '？': 'question',
  '؟': 'question',
  '՞': 'question',
  ';': 'semicolon',
  '!': 'exclamation',
  '！': 'exclamation',
  '՜': 'exclamation',
  ':': 'colon',
  '：': 'colon',
  '፥': 'colon',
  '…': 'ellipsis',
  '⋯': 'ellipsis',
  '；': 'semicolon',
  '؛': 'semicolon',
};

// Languages whose sentences need no final stop (Thai, Lao, Khmer, Burmese in UI text) or write it as a space.
const NO_FINAL_STOP = new Set(['th', 'lo', 'km', 'my', 'bo']);

/** The sentence-end mark of a text, ignoring closing quotes, brackets and space after it. */
export function endMark(text: string, language: string): { mark: EndMark; index: number } {
  let i = text.length - 1;
  // A placeholder at the end (blanked, NUL) ends the sentence: "Last updated: %s" has no end mark.
  while (i >= 0 && /[\s"'”’»)\]›」』）*_]/.test(text[i]!)) i--;
  if (i < 0) return { mark: 'none', index: -1 };
  const ch = text[i]!;
  if (ch === '.' && text.slice(i - 2, i + 1) === '...') return { mark: 'ellipsis', index: i - 2 };
  // Greek writes the question mark as `;`.
  if (ch === ';' && baseLanguage(language) === 'el') return { mark: 'question', index: i };
  return { mark: MARKS[ch] ?? 'none', index: i };
}

/** Whether a language may drop or change a mark where the source has one. */
export function endMarkOptional(mark: EndMark, language: string): boolean {
  const base = baseLanguage(language);
  if (mark === 'stop' && NO_FINAL_STOP.has(base)) return true;
  // Chinese and Japanese UI text often ends a sentence with no mark or with a full-width one.
  if ((mark === 'stop' || mark === 'colon') && (base === 'zh' || base === 'ja' || base === 'ko')) return true;
  return false;
}

// Brackets and quotes that come in pairs (a balanced source should stay balanced).
const PAIRS: [string, string][] = [
  ['(', ')'],
  ['[', ']'],
  ['{', '}'],
  ['«', '»'],
  ['（', '）'],
  ['「', '」'],
  ['『', '』'],
  ['【', '】'],
  ['《', '》'],
];

const PAIRED = /[()[\]{}«»（）「」『』【】《》"„“”‟]/;

/** The first pair whose counts differ, or null. */
export function unbalancedPair(prose: string): { open: string; close: string; opened: number; closed: number } | null {
  // One scan for any of them first: most texts have none.
  if (!PAIRED.test(prose)) return null;
  for (const [open, close] of PAIRS) {
    let opened = 0;
    let closed = 0;
    for (const ch of prose) {
      if (ch === open) opened++;
      else if (ch === close) closed++;
    }
    if (opened !== closed) return { open, close, opened, closed };
  }
  // Straight double quotes come in twos; typographic ones too, whatever the language's pairing („“ “” ”” «»).
  const straight = (prose.match(/"/g) ?? []).length;
  if (straight % 2) return { open: '"', close: '"', opened: straight, closed: 0 };
  const curly = (prose.match(/[„“”‟]/g) ?? []).length;
  if (curly % 2) return { open: '“', close: '”', opened: curly, closed: 0 };
  return null;
}

// Words some languages legitimately double ("nous nous", "vous vous", "que que" no; reduplication: "pelan-pelan").
const DOUBLED_OK = new Set([
  'nous',
  'vous',
  'ha',
  'bye',
  'no',
  'very',
  'so',
  'da',
  'la',
  'na',
  'pa',
  'ne',
  'go',
  'sehr',
  'ja',
]);

/** Consecutive repeated words ("the the"), with where the second one is. */
export function repeatedWords(prose: string): { word: string; start: number; end: number }[] {
  const found: { word: string; start: number; end: number }[] = [];
  for (const m of prose.matchAll(/(?<![\p{L}\p{N}])(\p{L}{2,})[ \t]+(\1)(?![\p{L}\p{N}])/giu)) {
    const word = m[1]!.toLowerCase();
    if (DOUBLED_OK.has(word) || m[1] !== m[2]) continue;
    const start = m.index + m[0].length - m[2]!.length;
    found.push({ word: m[1]!, start, end: start + m[2]!.length });
  }
  return found;
}

export const URL =
  /\b(?:https?|ftp):\/\/[^\s<>"'`)\]}]+[^\s<>"'`)\]}.,;:!?]|\bwww\.[a-z0-9-]+\.[^\s<>"'`)\]}]*[^\s<>"'`)\]}.,;:!?]/gi;
export const EMAIL = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g;

const MAYBE_URL = /:\/\/|www\./i;

export function urls(prose: string): string[] {
  // Every URL holds :// or starts with www.
  if (!MAYBE_URL.test(prose)) return [];
  return prose.match(URL) ?? [];
}

export function emails(prose: string): string[] {
  if (!prose.includes('@')) return [];
  return prose.replace(URL, ' ').match(EMAIL) ?? [];
}

const DIGIT_ZEROS = [
  0x0660, 0x06f0, 0x0966, 0x09e6, 0x0a66, 0x0ae6, 0x0b66, 0x0be6, 0x0c66, 0x0ce6, 0x0d66, 0x0e50, 0x0ed0, 0x0f20,
  0x1040, 0xff10,
];

/** The text with the other scripts' digits written as ASCII digits (Arabic-Indic ٣ is 3). */
export function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (d) => {
    const code = d.codePointAt(0)!;
    for (const zero of DIGIT_ZEROS) if (code >= zero && code <= zero + 9) return String(code - zero);
    return d;
  });
}

/**
 * The numbers of a prose text, as their digits: grouping and decimal
 * separators differ by language (1,000.5 is 1.000,5 and 1 000,5), so they
 * are dropped; other scripts' digits count as theirs.
 */
export function numbers(prose: string): string[] {
  if (!/\p{Nd}/u.test(prose)) return [];
  const text = asciiDigits(prose)
    .replace(URL, ' ')
    .replace(EMAIL, ' ')
    .replace(/<[^<>]*>/g, ' ');
  return [
    ...text.matchAll(/(?<![\p{L}\d])\d+(?:[.,\u00a0\u202f\u2009\u066b\u066c' ]\d{1,3}(?!\d))*(?![\p{L}\d])/gu),
  ].map((m) => m[0].replace(/\D/g, ''));
}

// Zero-width and bidi control characters: invisible, they break search, comparison and display.
const INVISIBLE = /[\u200d\u200b\u2060\ufeff\u202a-\u202e\u2066-\u2069\u200c\u200e\u200f\u00ad]/g;
// Scripts that join or shape with ZWJ/ZWNJ, and right-to-left languages that need LRM/RLM.
const JOINING = new Set([
  'fa',
  'ur',
  'ps',
  'ku',
  'ckb',
  'sd',
  'ug',
  'hi',
  'bn',
  'mr',
  'ne',
  'si',
  'ml',
  'ta',
  'te',
  'kn',
  'gu',
  'pa',
  'or',
  'as',
  'sa',
  'my',
  'km',
  'ar',
]);
const RTL = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'ckb', 'sd', 'ug', 'yi', 'dv', 'ku']);

export function invisibleCharacters(text: string, language: string): { char: string; index: number }[] {
  const base = baseLanguage(language);
  const found: { char: string; index: number }[] = [];
  for (const m of text.matchAll(INVISIBLE)) {
    const ch = m[0];
    if ((ch === '\u200c' || ch === '\u200d') && JOINING.has(base)) continue;
    // ZWJ joins emoji sequences (👩‍💻).
    if (ch === '\u200d' && /\p{Extended_Pictographic}/u.test(text.slice(Math.max(0, m.index - 2), m.index + 3)))
      continue;
    if ((ch === '\u200e' || ch === '\u200f') && RTL.has(base)) continue;
    if (ch === '\u00ad') continue; // a soft hyphen is a hyphenation hint, visible when used
    found.push({ char: ch, index: m.index });
  }
  return found;
}

export const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Words mixing Latin, Cyrillic and Greek letters (a Cyrillic "а" in a Latin word): look-alikes typed by mistake. */
export function mixedScriptWords(prose: string): { word: string; start: number; end: number }[] {
  const found: { word: string; start: number; end: number }[] = [];
  // A word can mix scripts only where the whole text has two of them.
  if (
    Number(/\p{Script=Latin}/u.test(prose)) +
      Number(/\p{Script=Cyrillic}/u.test(prose)) +
      Number(/\p{Script=Greek}/u.test(prose)) <
    2
  )
    return found;
  for (const m of prose.matchAll(/\p{L}+/gu)) {
    const word = m[0];
    const latin = /\p{Script=Latin}/u.test(word);
    const cyrillic = /\p{Script=Cyrillic}/u.test(word);
    const greek = /\p{Script=Greek}/u.test(word);
    if (Number(latin) + Number(cyrillic) + Number(greek) > 1)
      found.push({ word, start: m.index, end: m.index + word.length });
  }
  return found;
}

/** Whether a text has something to translate: letters outside placeholders, markup and URLs. */
export function hasWords(prose: string): boolean {
  const letters =
    prose
      .replace(/<[^>]*>/g, ' ')
      .replace(URL, ' ')
      .replace(EMAIL, ' ')
      .match(/\p{L}/gu) ?? [];
  return letters.length >= 2;
}

/** Characters as people count them (code points; the limit is enforced on char_length in PostgreSQL). */
export const length = (text: string) => [...text].length;

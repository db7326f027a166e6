// What a translation memory compares: a text with its placeholders, numbers,
// tags and whitespace normalised away, and the tokens it had, so that a match
// differing only in those can have them substituted back (a stored "You have
// 3 items" answers "You have 12 items" with its target's 3 replaced by 12).
export type TokenKind = 'tag' | 'placeholder' | 'number';

export interface Token {
  kind: TokenKind;
  value: string;
}

export interface Normalised {
  /** The text with each token as one marker character of its kind and whitespace collapsed. */
  text: string;
  /** The tokens in the order they occur. */
  tokens: Token[];
}

/** One marker per kind, from the private use area, so that the edit distance counts a token as one character. */
export const MARKER: Record<TokenKind, string> = { tag: '\uE001', placeholder: '\uE002', number: '\uE003' };

// Order matters: a tag or placeholder may contain digits.
const TOKEN = new RegExp(
  [
    String.raw`(?<tag></?[A-Za-z][\w:.-]*(?:\s[^<>]*)?/?>)`,
    // {{name}}, {name} and simple ICU arguments, ${name}, %s %d %1$s %.2f, %(name)s, %@
    String.raw`(?<placeholder>\{\{[^{}]*\}\}|\{[^{}]*\}|\$\{[^{}]*\}|%(?:\(\w+\))?(?:\d+\$)?[-+ 0#]*\d*(?:\.\d+)?[sdifuxXeEgGcp@])`,
    String.raw`(?<number>\d+(?:[.,]\d+)*)`,
  ].join('|'),
  'gu',
);

export function normalise(text: string): Normalised {
  const tokens: Token[] = [];
  const replaced = text.replace(TOKEN, (...args) => {
    const groups = args.at(-1) as Record<TokenKind, string | undefined>;
    const kind: TokenKind =
      groups.tag !== undefined ? 'tag' : groups.placeholder !== undefined ? 'placeholder' : 'number';
    tokens.push({ kind, value: args[0] as string });
    return MARKER[kind];
  });
  return { text: replaced.replace(/\s+/gu, ' ').trim(), tokens };
}

/** Tokens of a target text with their positions, to substitute them. */
function tokensAt(text: string): { kind: TokenKind; value: string; index: number }[] {
  const found = [];
  for (const m of text.matchAll(TOKEN)) {
    const g = m.groups as Record<TokenKind, string | undefined>;
    found.push({
      kind: (g.tag !== undefined ? 'tag' : g.placeholder !== undefined ? 'placeholder' : 'number') as TokenKind,
      value: m[0],
      index: m.index!,
    });
  }
  return found;
}

export interface Substitution {
  kind: TokenKind;
  from: string;
  to: string;
}

/**
 * The target of a match with the tokens its source has and the query has not
 * replaced by the query's: tokens pair up by kind in order (the n-th number
 * of the source with the n-th number of the query). `complete` is false when
 * a differing token could not be carried over (the target does not contain
 * it, or one source token would become two different ones).
 */
export function substitute(
  query: Normalised,
  source: Normalised,
  target: string,
): { text: string; substitutions: Substitution[]; complete: boolean } {
  const mapping = new Map<string, string>();
  const substitutions: Substitution[] = [];
  let complete = true;
  for (const kind of ['tag', 'placeholder', 'number'] as const) {
    const q = query.tokens.filter((t) => t.kind === kind);
    const s = source.tokens.filter((t) => t.kind === kind);
    if (q.length !== s.length) complete = false;
    for (let i = 0; i < Math.min(q.length, s.length); i++) {
      const from = s[i]!.value;
      const to = q[i]!.value;
      const known = mapping.get(from);
      if (known !== undefined && known !== to) complete = false;
      if (known !== undefined || from === to) {
        if (known === undefined) mapping.set(from, to);
        continue;
      }
      mapping.set(from, to);
      substitutions.push({ kind, from, to });
    }
  }
  if (!substitutions.length) return { text: target, substitutions, complete };
  const present = tokensAt(target);
  let out = '';
  let at = 0;
  const used = new Set<string>();
  for (const t of present) {
    const to = mapping.get(t.value);
    if (to === undefined || to === t.value) continue;
    out += target.slice(at, t.index) + to;
    at = t.index + t.value.length;
    used.add(t.value);
  }
  out += target.slice(at);
  if (substitutions.some((s) => !used.has(s.from))) complete = false;
  return { text: out, substitutions, complete };
}

/** Rows of editDistance, kept between calls. */
let previousRow = new Uint32Array(64);
let currentRow = new Uint32Array(64);

/** Levenshtein distance over code points, two rows: the definition of the score (scorerFor computes the same faster). */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  if (!x.length) return y.length;
  if (!y.length) return x.length;
  if (previousRow.length <= y.length) {
    previousRow = new Uint32Array(y.length * 2);
    currentRow = new Uint32Array(y.length * 2);
  }
  let prev = previousRow;
  let cur = currentRow;
  for (let j = 0; j <= y.length; j++) prev[j] = j;
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    const xi = x[i - 1];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (xi === y[j - 1] ? 0 : 1));
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length]!;
}
/** 0–100: one minus the edit distance over the longer length, on normalised texts. */
export function similarityScore(a: string, b: string): number {
  const longest = Math.max([...a].length, [...b].length);
  if (!longest) return 100;
  return Math.floor((100 * (longest - editDistance(a, b))) / longest);
}

/**
 * similarityScore(query, text) for many texts against one query (a lookup
 * scores up to a thousand candidates), by Myers' bit-parallel edit distance
 * (G. Myers, J. ACM 46(3), 1999, in blocks of 32 rows as H. Hyyrö, 2003,
 * gives it): the query's rows are the bits of 32-bit words, and each
 * character of the text advances all of them by a dozen word operations,
 * where the dynamic programme computes each cell. Over code points: an
 * astral character is one. A 40-character query against 1,000 texts of the
 * length window: 2.2 ms against 12.4 ms for the banded dynamic programme it
 * replaced (docs/translation-memory.md, "Measured").
 */
export function scorerFor(query: string): (text: string) => number {
  const codes = Array.from(query, (c) => c.codePointAt(0)!);
  const m = codes.length;
  const blocks = Math.max(1, Math.ceil(m / 32));
  // Per character of the query, per block: the bits of the rows it stands at.
  const peq = new Map<number, Int32Array>();
  codes.forEach((c, i) => {
    let masks = peq.get(c);
    if (!masks) peq.set(c, (masks = new Int32Array(blocks)));
    masks[i >> 5]! |= 1 << (i & 31);
  });
  const none = new Int32Array(blocks);
  // The last row's bit in the last block.
  const lastBit = (m - 1) & 31;
  // Vertical differences of each block's rows in the current column: +1 (pv) or -1 (mv) from the row above, else 0.
  const pv = new Int32Array(blocks);
  const mv = new Int32Array(blocks);
  return (text: string) => {
    pv.fill(-1);
    mv.fill(0);
    // The distance of the whole query to the text's prefix read so far (the last row of the current column).
    let distance = m;
    let length = 0;
    for (let k = 0; k < text.length; k++) {
      let c = text.charCodeAt(k);
      if (c >= 0xd800 && c < 0xdc00 && k + 1 < text.length) {
        const low = text.charCodeAt(k + 1);
        if (low >= 0xdc00 && low < 0xe000) {
          c = ((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
          k++;
        }
      }
      length++;
      const eqs = peq.get(c) ?? none;
      // The horizontal difference entering a block's first row: +1 for the first block (row 0 is the prefix's length).
      let hp = 1;
      let hm = 0;
      for (let b = 0; b < blocks; b++) {
        const p = pv[b]!;
        const n = mv[b]!;
        const eq = eqs[b]!;
        const xv = eq | n;
        const e = eq | hm;
        // A sum of two 32-bit values: ^ takes it modulo 2^32, as the carry out of the word would be lost in C.
        const xh = (((e & p) + p) ^ p) | e;
        let ph = n | ~(xh | p);
        let mh = p & xh;
        const bit = b === blocks - 1 ? lastBit : 31;
        const hpOut = (ph >>> bit) & 1;
        const hmOut = (mh >>> bit) & 1;
        ph = (ph << 1) | hp;
        mh = (mh << 1) | hm;
        pv[b] = mh | ~(xv | ph);
        mv[b] = ph & xv;
        hp = hpOut;
        hm = hmOut;
      }
      distance += hp - hm;
    }
    if (!m) distance = length;
    const longest = Math.max(m, length);
    if (!longest) return 100;
    return Math.floor((100 * (longest - distance)) / longest);
  };
}

/** Code points of a normalised text: what similarityScore's lengths count (memory_length in SQL, the migration 20261129190000_memory_sources). */
export function normalisedLength(text: string): number {
  return [...normalise(text).text].length;
}

/** The largest length a window reports when it has no upper bound (PostgreSQL's integer maximum). */
export const UNBOUNDED = 2_147_483_647;

/**
 * The normalised lengths a stored text can have and still score at least
 * `minScore` against a query of normalised length `length`. The edit distance
 * is at least the difference of the lengths, so a score is at most
 * floor(100 · shorter / longer); it reaches minScore (at least its ceiling:
 * scores are whole) only if 100 · shorter ≥ minScore · longer. Both ends are
 * inclusive. Exact and substituted matches have the query's own length.
 */
export function lengthWindow(length: number, minScore: number): { min: number; max: number } {
  const m = Math.ceil(minScore);
  if (m <= 0) return { min: 0, max: UNBOUNDED };
  return { min: Math.ceil((m * length) / 100), max: Math.min(UNBOUNDED, Math.floor((100 * length) / m)) };
}

/** The words of a normalised text: runs of letters and digits, lower case (markers and punctuation separate them). */
export function wordsOf(normalised: string): string[] {
  return normalised.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The word terms of a normalised text with their weights, as the migration 20261130010000_memory_terms's
 * memory_terms() makes them on PostgreSQL: each word (1), two words one after the other (3), two words with one
 * between them (2: what is left of "a b c" when b is replaced). A term repeated keeps its highest weight.
 */
export function wordTerms(normalised: string): Map<string, number> {
  const w = wordsOf(normalised);
  const terms = new Map<string, number>();
  const add = (term: string, weight: number) => terms.set(term, Math.max(weight, terms.get(term) ?? 0));
  for (let i = 0; i < w.length; i++) {
    add(w[i]!, 1);
    if (i + 1 < w.length) add(`${w[i]} ${w[i + 1]}`, 3);
    if (i + 2 < w.length) add(`${w[i]} _ ${w[i + 2]}`, 2);
  }
  return terms;
}

/** The words of a text for trigram candidates: letters and digits, lower case, tokens dropped. */
export function trigrams(text: string): Set<string> {
  return trigramsOf(normalise(text).text);
}

/** trigrams() of a text normalise() already gave. */
export function trigramsOf(normalised: string): Set<string> {
  const grams = new Set<string>();
  for (const word of wordsOf(normalised)) {
    const padded = `  ${word} `;
    const chars = [...padded];
    for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars[i]! + chars[i + 1]! + chars[i + 2]!);
  }
  return grams;
}

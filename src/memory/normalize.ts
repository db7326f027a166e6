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

/** Levenshtein distance over code points, two rows. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  if (!x.length) return y.length;
  if (!y.length) return x.length;
  let prev = new Uint32Array(y.length + 1);
  let cur = new Uint32Array(y.length + 1);
  for (let j = 0; j <= y.length; j++) prev[j] = j;
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
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

/** The words of a normalised text for trigram candidates: letters and digits, lower case, tokens dropped. */
export function trigrams(text: string): Set<string> {
  const grams = new Set<string>();
  for (const word of normalise(text)
    .text.toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? []) {
    const padded = `  ${word} `;
    const chars = [...padded];
    for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars[i]! + chars[i + 1]! + chars[i + 2]!);
  }
  return grams;
}

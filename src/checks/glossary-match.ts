// Finding glossary terms in a text (docs/glossary.md). Pure: no database here
// (src/glossary/matches.ts loads a project's glossaries and caches the
// compiled matcher); the quality check (src/checks/glossary.ts) uses it too.
//
// How a term is found:
//   - Text and term are split into words with Intl.Segmenter (granularity
//     "word", the text's language), so matches fall on word boundaries in
//     every script, including those written without spaces (Japanese,
//     Chinese, Thai), and "cat" is never found inside "concatenate".
//   - A multi-word term matches the same words in a row; what lies between the
//     words (spaces, a hyphen, an apostrophe) is not compared.
//   - Case-insensitive (Unicode lower case of NFC text), unless the term is
//     case-sensitive. Abbreviations and case-sensitive terms match only their
//     exact words.
//   - The prefix rule, for plurals and simple inflections: a word of the text
//     matches a word of the term when it starts with the term's word and adds
//     at most 3 letters (file → files, index → indexes, click → clicked,
//     Datei → Dateien), provided the term's word has at least 3 letters; or
//     when it starts with all but the last letter of a term's word of at least
//     4 letters and adds at most 3 (entry → entries, make → making). For
//     words of scripts without spaces (Han, Hiragana, Katakana) the segmenter
//     already separates okurigana and particles, so the rule applies from one
//     character on and adds at most 2. This is deliberately crude — no
//     dictionary, no stemming per language — and errs on the side of finding
//     a term: a match that is not one costs a translator a glance, a missed
//     forbidden term costs a wrong release. ("cat" does match "cater".)

export interface MatchableTerm {
  id: number;
  term: string;
  caseSensitive: boolean;
  abbreviation: boolean;
}

export interface TermOccurrence<T extends MatchableTerm = MatchableTerm> {
  term: T;
  /** UTF-16 offsets of the occurrence in the text, end excluded. */
  start: number;
  end: number;
  /** The text as written there. */
  text: string;
}

interface Word {
  /** As written (NFC). */
  raw: string;
  /** Lower case. */
  folded: string;
  start: number;
  end: number;
}

interface TermWord extends Word {
  /** Written in a script without spaces (the prefix rule differs): decided once, at compile time. */
  noSpace: boolean;
}

interface Compiled<T> {
  term: T;
  words: TermWord[];
  /** Exact words only (case-sensitive, abbreviation). */
  exact: boolean;
  /** The last lookup that listed it (findTerms' de-duplication). */
  mark: number;
}

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(locale: string): Intl.Segmenter {
  let found = segmenters.get(locale);
  if (!found) {
    let safe: string;
    try {
      safe = Intl.getCanonicalLocales(locale.replace(/_/g, '-'))[0] ?? 'und';
    } catch {
      safe = 'und';
    }
    found = new Intl.Segmenter(safe, { granularity: 'word' });
    segmenters.set(locale, found);
  }
  return found;
}

/** The words of a text (letters and numbers; punctuation and spaces are not words). */
export function words(text: string, locale = 'und'): Word[] {
  const out: Word[] = [];
  for (const s of segmenter(locale).segment(text)) {
    if (!s.isWordLike) continue;
    // ASCII is already NFC: skip the normalisation (most words of most texts).
    const raw = ASCII.test(s.segment) ? s.segment : s.segment.normalize('NFC');
    out.push({ raw, folded: raw.toLowerCase(), start: s.index, end: s.index + s.segment.length });
  }
  return out;
}

const ASCII = /^[\x00-\x7f]*$/;

/** Lookup numbers for findTerms' de-duplication; unique per word looked up, across matchers and calls (synchronous). */
let marks = 0;

const NO_SPACE_SCRIPT =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Whether a word of the text is a form of a term's word (see the prefix rule above). */
function sameWord(text: Word, term: TermWord, exact: boolean, caseSensitive: boolean): boolean {
  const t = caseSensitive ? text.raw : text.folded;
  const w = caseSensitive ? term.raw : term.folded;
  if (t === w) return true;
  if (exact) return false;
  const extra = t.length - w.length;
  if (term.noSpace) return extra > 0 && extra <= 2 && t.startsWith(w);
  if (extra > 0 && extra <= 3 && w.length >= 3 && t.startsWith(w) && /^\p{L}+$/u.test(t.slice(w.length))) return true;
  if (w.length >= 4) {
    const stem = w.slice(0, -1);
    const rest = t.length - stem.length;
    if (rest > 0 && rest <= 3 && t.startsWith(stem) && /^\p{L}+$/u.test(t.slice(stem.length))) return true;
  }
  return false;
}

export interface Matcher<T extends MatchableTerm> {
  /**
   * Terms by the folded first word, and by that word without its last letter (the
   * stem rule), in one map: a word's candidates are the union of both, so one
   * lookup per cut form of the word instead of two.
   */
  readonly byForm: Map<string, Compiled<T>[]>;
  /** Bit n set: some key of byForm has n characters (n < 31); cut forms of other lengths are not looked up. */
  readonly formLengths: number;
  readonly size: number;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Whether byForm may hold a key of this length. */
function mayHold(lengths: number, length: number): boolean {
  return length >= 31 || (lengths & (1 << length)) !== 0;
}

/** Compiles terms (in the glossary's source language) for repeated matching. */
export function compileMatcher<T extends MatchableTerm>(terms: readonly T[], locale = 'und'): Matcher<T> {
  const byForm = new Map<string, Compiled<T>[]>();
  let formLengths = 0;
  const add = (key: string, compiled: Compiled<T>) => {
    push(byForm, key, compiled);
    if (key.length < 31) formLengths |= 1 << key.length;
  };
  let size = 0;
  for (const term of terms) {
    const ws = words(term.term, locale).map((w) => ({ ...w, noSpace: NO_SPACE_SCRIPT.test(w.folded) }));
    if (!ws.length) continue;
    const compiled: Compiled<T> = { term, words: ws, exact: term.caseSensitive || term.abbreviation, mark: 0 };
    const first = ws[0]!.folded;
    add(first, compiled);
    if (!compiled.exact && first.length >= 4 && !NO_SPACE_SCRIPT.test(first)) add(first.slice(0, -1), compiled);
    size++;
  }
  return { byForm, formLengths, size };
}

/**
 * Every occurrence of a term in the text, in text order; where two terms
 * overlap, the longer one wins ("translation memory" over "translation").
 * Each term is reported at each place it occurs.
 */
export function findTerms<T extends MatchableTerm>(
  matcher: Matcher<T>,
  text: string,
  locale = 'und',
): TermOccurrence<T>[] {
  if (!matcher.size || !text) return [];
  const ws = words(text, locale);
  const found: TermOccurrence<T>[] = [];
  // Candidates of one word: the terms indexed under the word itself and under its
  // shorter forms the prefix rule allows (up to 3 letters cut). A term can be
  // indexed under two of those keys (its first word and that word's stem), so a
  // repeat is skipped by a mark on the term (cheaper than a Set per word).
  const candidates: Compiled<T>[] = [];
  const { byForm, formLengths } = matcher;
  for (let i = 0; i < ws.length; i++) {
    candidates.length = 0;
    const mark = ++marks;
    const folded = ws[i]!.folded;
    for (let cut = 0; cut <= 3 && folded.length - cut >= 1; cut++) {
      if (!mayHold(formLengths, folded.length - cut)) continue;
      const list = byForm.get(cut === 0 ? folded : folded.slice(0, -cut));
      if (list)
        for (const c of list)
          if (c.mark !== mark) {
            c.mark = mark;
            candidates.push(c);
          }
    }
    for (const c of candidates) {
      if (i + c.words.length > ws.length) continue;
      let all = true;
      for (let j = 0; j < c.words.length && all; j++)
        all = sameWord(ws[i + j]!, c.words[j]!, c.exact, c.term.caseSensitive);
      if (!all) continue;
      const start = ws[i]!.start;
      const end = ws[i + c.words.length - 1]!.end;
      // In text order as found (i only grows); at one start, longest first, ties kept in
      // candidate order: what a stable sort by (start, longest) gives, without the sort.
      let at = found.length;
      while (at > 0 && found[at - 1]!.start === start && found[at - 1]!.end < end) at--;
      found.splice(at, 0, { term: c.term, start, end, text: text.slice(start, end) });
    }
  }
  // Drop what a longer occurrence covers.
  const kept: TermOccurrence<T>[] = [];
  let coveredTo = -1;
  let coveredFrom = -1;
  for (const o of found) {
    if (o.start >= coveredFrom && o.end <= coveredTo && !(o.start === coveredFrom && o.end === coveredTo)) continue;
    kept.push(o);
    if (o.end > coveredTo) {
      coveredFrom = o.start;
      coveredTo = o.end;
    }
  }
  return kept;
}

/** Whether `needle` occurs in the text as whole words (with the same inflection rule), e.g. a required translation in a target text. */
export function containsTerm(
  text: string,
  needle: string,
  locale: string,
  options: { caseSensitive?: boolean; exact?: boolean } = {},
): TermOccurrence | null {
  const matcher = compileMatcher(
    [{ id: 0, term: needle, caseSensitive: options.caseSensitive ?? false, abbreviation: options.exact ?? false }],
    locale,
  );
  return findTerms(matcher, text, locale)[0] ?? null;
}

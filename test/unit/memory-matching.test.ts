// Translation-memory matching: normalisation of placeholders, numbers, tags
// and whitespace, their substitution into a suggestion, the score, and the
// ranking (src/memory/normalize.ts, src/memory/suggest.ts).
import { describe, expect, it } from 'vitest';
import {
  editDistance,
  lengthWindow,
  normalise,
  scorerFor,
  similarityScore,
  substitute,
  trigrams,
  UNBOUNDED,
} from '../../src/memory/normalize.js';
import { rank, type Suggestion } from '../../src/memory/suggest.js';

describe('normalise', () => {
  it('turns placeholders, numbers and tags into one marker each and collapses whitespace', () => {
    const a = normalise('  You have {count}  new <b>messages</b> since 12.5 %s ');
    const b = normalise('You have {n} new <strong>messages</strong> since 3 %d');
    expect(a.text).toBe(b.text);
    expect(a.tokens.map((t) => [t.kind, t.value])).toEqual([
      ['placeholder', '{count}'],
      ['tag', '<b>'],
      ['tag', '</b>'],
      ['number', '12.5'],
      ['placeholder', '%s'],
    ]);
    expect(normalise('Hello {{name}}, ${total} and %1$s').tokens.map((t) => t.value)).toEqual([
      '{{name}}',
      '${total}',
      '%1$s',
    ]);
  });
});

describe('substitute', () => {
  it('carries the query’s numbers and placeholders into the stored translation, wherever the translation puts them', () => {
    const query = normalise('Delete 12 files from {folder}?');
    const stored = normalise('Delete 3 files from {dir}?');
    const out = substitute(query, stored, '{dir}: 3 Dateien löschen?');
    expect(out).toEqual({
      text: '{folder}: 12 Dateien löschen?',
      complete: true,
      substitutions: [
        { kind: 'placeholder', from: '{dir}', to: '{folder}' },
        { kind: 'number', from: '3', to: '12' },
      ],
    });
  });

  it('keeps the translation’s tags and replaces differing ones pairwise', () => {
    const out = substitute(
      normalise('Click <a href="/x">here</a>'),
      normalise('Click <a href="/y">here</a>'),
      'Klicken Sie <a href="/y">hier</a>',
    );
    expect(out.text).toBe('Klicken Sie <a href="/x">hier</a>');
    expect(out.complete).toBe(true);
  });

  it('says when a differing token is not in the translation (a number written as a word)', () => {
    const out = substitute(normalise('1 item'), normalise('2 items'), 'zwei Elemente');
    expect(out.complete).toBe(false);
    expect(out.text).toBe('zwei Elemente');
  });

  it('does not chain swapped placeholders', () => {
    const out = substitute(normalise('{b} before {a}'), normalise('{a} before {b}'), '{b} nach {a}');
    expect(out.text).toBe('{a} nach {b}');
  });
});

describe('score', () => {
  it('is 100 minus the edit distance share of the longer text', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(similarityScore('kitten', 'sitting')).toBe(57);
    expect(similarityScore('same', 'same')).toBe(100);
    expect(similarityScore('Straße', 'Strasse')).toBe(71);
  });

  it('editDistance gives the same answer whatever the lengths of the calls before it (its rows are reused)', () => {
    const long = 'x'.repeat(300);
    expect(editDistance(long, `${long}yz`)).toBe(2);
    expect(editDistance('ab', 'ba')).toBe(2);
    expect(editDistance(long, 'x')).toBe(299);
  });

  it('scorerFor gives similarityScore for texts of any length, astral characters one each', () => {
    // Myers' algorithm keeps the query's rows in 32-bit words: queries of up to 150 characters cross 1 to 5 words.
    // ġ (U+0121) shares its low byte with ! (U+0021); 😀 and 𝒳 are two UTF-16 units, one code point.
    const alphabet = ['a', 'b', 'c', ' ', '!', 'ġ', 'ä', '😀', '𝒳', '\uE003'];
    let seed = 11;
    const random = (n: number) => (seed = (seed * 48_271) % 2_147_483_647) % n;
    const text = (max: number) => Array.from({ length: random(max) }, () => alphabet[random(alphabet.length)]).join('');
    for (let i = 0; i < 2_000; i++) {
      const longest = i % 5 ? 40 : 150;
      const a = text(longest);
      const score = scorerFor(a);
      // Unrelated texts, and the query with an edit or two (the close matches a lookup keeps).
      const edited = `${a.slice(0, random(a.length + 1))}${text(3)}${a.slice(random(a.length + 1))}`;
      for (const b of [text(longest), edited, a, '']) expect(score(b), `${a} / ${b}`).toBe(similarityScore(a, b));
    }
    expect(scorerFor('')('')).toBe(100);
    expect(scorerFor('')('abc')).toBe(0);
    expect(scorerFor('kitten')('sitting')).toBe(57);
  });

  it('trigrams are of words, lower case, without tokens', () => {
    expect([...trigrams('Go {x} 42')].sort()).toEqual(['  g', ' go', 'go '].sort());
  });
});

describe('lengthWindow', () => {
  it('bounds the lengths that can reach the minimum score, both ends inclusive', () => {
    expect(lengthWindow(17, 50)).toEqual({ min: 9, max: 34 });
    expect(lengthWindow(17, 80)).toEqual({ min: 14, max: 21 });
    expect(lengthWindow(10, 100)).toEqual({ min: 10, max: 10 });
    // Scores are whole: 80.5 asks for 81.
    expect(lengthWindow(17, 80.5)).toEqual(lengthWindow(17, 81));
    expect(lengthWindow(17, 0)).toEqual({ min: 0, max: UNBOUNDED });
  });

  it('never leaves out a text that reaches the score (every pair of a few thousand)', () => {
    let seed = 11;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const word = () => 'abcde'.slice(0, 1 + next(5));
    const texts = Array.from({ length: 120 }, () => Array.from({ length: 1 + next(8) }, word).join(' '));
    let inside = 0;
    const missed: string[] = [];
    // Each pair's score once, and one expect at the end (100,000 of them ran past the timeout on a loaded machine).
    for (const a of texts)
      for (const b of texts) {
        const score = similarityScore(a, b);
        const length = [...b].length;
        for (const minScore of [1, 30, 50, 67, 80, 99, 100]) {
          const { min, max } = lengthWindow([...a].length, minScore);
          if (score >= minScore && !(length >= min && length <= max)) missed.push(`${a} / ${b} / ${minScore}`);
          if (length >= min && length <= max) inside++;
        }
      }
    expect(missed).toEqual([]);
    expect(inside).toBeGreaterThan(0);
  });
});

describe('rank', () => {
  const suggestion = (score: number, exact: boolean, sameKey: boolean, at: number, reviewed = false): Suggestion => ({
    score,
    exact,
    sameKey,
    text: '',
    source: '',
    target: `${score}-${exact}-${sameKey}-${at}`,
    substitutions: [],
    origin: {
      kind: 'PROJECT',
      projectId: 1,
      projectName: '',
      keyId: 1,
      key: '',
      namespace: '',
      languageId: 1,
      language: 'de',
      memoryId: null,
      memoryName: null,
      segmentId: null,
      lastEditedAt: new Date(at),
      lastEditedBy: null,
      reviewed,
    },
  });
  it('puts an exact match of the same key first, then exact ones, then substituted 100 % ones, then by score', () => {
    const list = rank([
      suggestion(80, false, true, 5),
      suggestion(100, false, true, 9),
      suggestion(100, true, false, 9),
      suggestion(100, true, true, 1),
      suggestion(95, false, false, 9),
    ]);
    expect(list.map((s) => s.origin && `${s.score}-${s.exact}-${s.sameKey}`)).toEqual([
      '100-true-true',
      '100-true-false',
      '100-false-true',
      '95-false-false',
      '80-false-true',
    ]);
  });
});

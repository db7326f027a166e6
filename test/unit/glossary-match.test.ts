// Glossary term matching (src/checks/glossary-match.ts): word boundaries in English,
// German and Japanese, case rules, multi-word terms, the plural/inflection
// prefix rule and where it stops; and 5,000 terms at once (its time is
// measured by `npm run bench -- --only glossary`, not here).
import { describe, expect, it } from 'vitest';
import { compileMatcher, containsTerm, findTerms, type MatchableTerm } from '../../src/checks/glossary-match.js';
import { translationFor } from '../../src/glossary/matches.js';

let nextId = 1;
const term = (text: string, flags: Partial<MatchableTerm> = {}): MatchableTerm => ({
  id: nextId++,
  term: text,
  caseSensitive: false,
  abbreviation: false,
  ...flags,
});
const found = (terms: MatchableTerm[], text: string, locale = 'en') =>
  findTerms(compileMatcher(terms, locale), text, locale).map((o) => o.text);

describe('word boundaries', () => {
  it('finds whole words only, never inside another word (English)', () => {
    const cat = term('cat');
    expect(found([cat], 'The cat sat; concatenate, bobcat, cat-like.')).toEqual(['cat', 'cat']);
    expect(found([term('file')], 'Profile and the refiled form')).toEqual([]);
  });

  it('is case-insensitive unless the term is case-sensitive', () => {
    expect(found([term('cloud')], 'CLOUD, Cloud and cloud')).toEqual(['CLOUD', 'Cloud', 'cloud']);
    expect(found([term('Apple', { caseSensitive: true })], 'apple APPLE Apple Apples')).toEqual(['Apple']);
  });

  it('matches multi-word terms across spaces and hyphens, longest first', () => {
    const memory = term('translation memory');
    const translation = term('translation');
    expect(found([translation, memory], 'Open the translation memory, then the translation.')).toEqual([
      'translation memory',
      'translation',
    ]);
    expect(found([term('sign in')], 'Sign-in fails; please sign  in again')).toEqual(['Sign-in', 'sign  in']);
    expect(found([memory], 'translation of memory')).toEqual([]);
  });

  it('German: compounds are one word; plurals and case endings by the prefix rule', () => {
    expect(found([term('Datei')], 'Die Dateien und der Dateiname', 'de')).toEqual(['Dateien']);
    expect(found([term('Konto')], 'Kontos, Kontoauszug', 'de')).toEqual(['Kontos']);
    expect(found([term('Straße')], 'STRASSE und Straßen', 'de')).toEqual(['Straßen']);
  });

  it('Japanese: words found by the segmenter in text without spaces, not inside other words', () => {
    expect(found([term('設定')], 'アカウントの設定を変更します', 'ja')).toEqual(['設定']);
    expect(found([term('翻訳メモリ')], '翻訳メモリを使う', 'ja')).toEqual(['翻訳メモリ']);
    // ファイル (file) inside プロファイル (profile) is not the word.
    expect(found([term('ファイル')], 'プロファイルを開く', 'ja')).toEqual([]);
    expect(found([term('ファイル')], 'ファイルを開く', 'ja')).toEqual(['ファイル']);
  });
});

describe('the prefix rule (plurals and inflections)', () => {
  it('allows up to 3 added letters on words of 3 letters or more, and the y/e stem', () => {
    expect(found([term('file')], 'files filed filing')).toEqual(['files', 'filed', 'filing']);
    expect(found([term('index')], 'indexes indices')).toEqual(['indexes']);
    expect(found([term('entry')], 'entries')).toEqual(['entries']);
    expect(found([term('user setting')], 'users settings')).toEqual(['users settings']);
  });

  it('does not stretch short words or add more than 3 letters, nor apply to abbreviations', () => {
    expect(found([term('go')], 'goes gone go')).toEqual(['go']);
    expect(found([term('file')], 'filesystem')).toEqual([]);
    expect(found([term('API', { abbreviation: true })], 'APIs api API')).toEqual(['api', 'API']);
  });

  it('known false positive of a crude rule: a word that merely starts with the term', () => {
    // Documented in match.ts: the rule errs towards finding a term.
    expect(found([term('cat')], 'cater')).toEqual(['cater']);
  });
});

describe('translations and helpers', () => {
  it('picks the translation of the language, its base language, or the term when not translated', () => {
    const t = { term: 'Acme', doNotTranslate: false, translations: { de: 'Akme', 'pt-BR': 'Ácme' } };
    expect(translationFor(t, 'de-CH')).toBe('Akme');
    expect(translationFor(t, 'pt_BR')).toBe('Ácme');
    expect(translationFor(t, 'pt')).toBe('Ácme');
    expect(translationFor(t, 'fr')).toBeNull();
    expect(translationFor({ ...t, doNotTranslate: true }, 'fr')).toBe('Acme');
  });

  it('containsTerm finds a required translation as words', () => {
    expect(containsTerm('Die Dateien wurden gelöscht', 'Datei', 'de')?.text).toBe('Dateien');
    expect(containsTerm('Dateiname', 'Datei', 'de')).toBeNull();
  });
});

describe('a termbase of 5,000 terms', () => {
  it('finds every term of dense texts and the few of prose', () => {
    // 5,000 distinct terms: one to three pseudo-words each, as a real termbase.
    const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'pe', 'da', 'gu', 'fi'];
    const word = (n: number) =>
      syllables[n % 12]! + syllables[Math.floor(n / 12) % 12]! + syllables[Math.floor(n / 144) % 12]!;
    const terms = Array.from({ length: 5000 }, (_, i) =>
      term(
        i % 3 === 0 ? `${word(i)} ${word(i + 7)}` : i % 3 === 1 ? word(i) : `${word(i)} ${word(i * 3)} ${word(i + 1)}`,
      ),
    );
    const matcher = compileMatcher(terms, 'en');
    const texts = Array.from({ length: 200 }, (_, i) =>
      Array.from({ length: 30 }, (_, j) => word(i * 31 + j * 17))
        .join(' ')
        .slice(0, 200),
    );
    const prose = Array.from({ length: 200 }, (_, i) =>
      `Select the files you want to share (${i}), then press Send: the ${word(i * 5)} of each one is kept with its folder and its history.`.slice(
        0,
        200,
      ),
    );
    const count = (list: string[]) => list.reduce((n, text) => n + findTerms(matcher, text, 'en').length, 0);
    const denseHits = count(texts);
    const hits = denseHits + count(prose);
    expect(denseHits).toBeGreaterThan(0);
    expect(hits - denseHits).toBeGreaterThan(prose.length / 2);
  });
});

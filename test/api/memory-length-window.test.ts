// The translation memory reads candidates only among stored texts whose
// normalised length can reach the asked minimum score (lengthWindow of
// src/memory/normalize.ts): on PostgreSQL through "MemorySource" and its GiST
// index led by the length that SQL computes (memory_length, migration
// 20261129190000_memory_sources), on PGlite in the in-process index. A text
// just inside the window is suggested with the score the edit distance gives,
// one just outside is not, and the list is what scoring every stored text
// gives, in the same order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { normalise, normalisedLength, similarityScore } from '../../src/memory/normalize.js';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let api: ProjectApi;

const QUERY = 'Saving everything'; // 17 characters: minScore 50 → lengths 9–34, minScore 80 → lengths 14–21
// Each stored source with its German text; the comment is its normalised length and its score against QUERY.
const SOURCES = [
  'Saving everything', // 17, 100
  'Saving ev', // 9, 52: the lowest length minScore 50 admits
  'Saving e', // 8, 47: just below it
  'Saving everything in this folder!!', // 34, 50: the highest length minScore 50 admits
  'Saving everything in this folder!!!', // 35, 48: just above it
  'Saving everyth', // 14, 82: the lowest length minScore 80 admits
  'Saving everyt', // 13, 76: just below it
  'Saving everything now', // 21, 80: the highest length minScore 80 admits
  'Saving everything now!', // 22, 77: just above it
];

beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account(), 'Length window');
  expect((await api.post('/api/v1/languages', { key: 'de' })).status).toBe(200);
  const content = SOURCES.flatMap((text, i) => [
    { key: `k${i}`, language: 'en', text },
    { key: `k${i}`, language: 'de', text: `Übersetzung ${i}` },
  ]);
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
});
afterAll(() => service.close());

const SUGGEST = `query($sourceText: String, $targetLanguage: String!, $minScore: Int, $limit: Int) {
  memorySuggestions(sourceText: $sourceText, targetLanguage: $targetLanguage, minScore: $minScore, limit: $limit) {
    suggestions { score source origin { key } }
  }
}`;

const SUGGEST_TEXT = `query($sourceText: String, $targetLanguage: String!, $minScore: Int) {
  memorySuggestions(sourceText: $sourceText, targetLanguage: $targetLanguage, minScore: $minScore) {
    suggestions { score text }
  }
}`;

async function suggest(minScore: number): Promise<{ score: number; source: string }[]> {
  const out = await api.gql(SUGGEST, { sourceText: QUERY, targetLanguage: 'de', minScore, limit: 50 });
  expect(out.errors).toBeUndefined();
  return (out.data.memorySuggestions.suggestions as { score: number; source: string }[]).map((s) => ({
    score: s.score,
    source: s.source,
  }));
}

/** Every stored text scored the way the lookup scores its candidates, best first. */
function exhaustive(minScore: number): { score: number; source: string }[] {
  const query = normalise(QUERY).text;
  return SOURCES.map((source) => ({
    source,
    score: source === QUERY ? 100 : Math.min(99, similarityScore(query, normalise(source).text)),
  }))
    .filter((s) => s.score >= minScore)
    .sort((a, b) => b.score - a.score);
}

describe('the length window of memory suggestions', () => {
  it('holds the texts the comments say, at the lengths they say', () => {
    expect(SOURCES.map(normalisedLength)).toEqual([17, 9, 8, 34, 35, 14, 13, 21, 22]);
    expect(exhaustive(0).map((s) => s.score)).toEqual([100, 82, 80, 77, 76, 52, 50, 48, 47]);
  });

  it('suggests a text at either end of the window and none beyond it, at minScore 50', async () => {
    const found = await suggest(50);
    expect(found).toEqual(exhaustive(50));
    expect(found.map((s) => s.source)).toEqual(
      expect.arrayContaining(['Saving ev', 'Saving everything in this folder!!']),
    );
    expect(found.map((s) => s.source)).not.toContain('Saving e');
    expect(found.map((s) => s.source)).not.toContain('Saving everything in this folder!!!');
  });

  it('narrows with the minimum score: at 80 the texts of 14 and 21 characters are in, 13 and 22 out', async () => {
    expect(await suggest(80)).toEqual([
      { score: 100, source: 'Saving everything' },
      { score: 82, source: 'Saving everyth' },
      { score: 80, source: 'Saving everything now' },
    ]);
    expect(await suggest(80)).toEqual(exhaustive(80));
  });

  it('follows another default language: the new one’s texts are the sources at once', async () => {
    const other = await projectApi(service, await service.account(), 'Length window, default');
    for (const key of ['de', 'fr']) expect((await other.post('/api/v1/languages', { key })).status).toBe(200);
    const content = [
      { key: 'a', language: 'en', text: 'Open the settings' },
      { key: 'a', language: 'de', text: 'Einstellungen öffnen' },
      { key: 'a', language: 'fr', text: 'Ouvrir les réglages' },
    ];
    expect((await other.post('/api/v1/translations', { content })).status).toBe(200);
    expect(
      (await other.gql(SUGGEST, { sourceText: 'Open the settings', targetLanguage: 'fr' })).errors,
    ).toBeUndefined();
    // The default language is deleted: the next one becomes the default, and its texts the sources, with no other write.
    expect((await other.delete('/api/v1/languages/en')).status).toBe(200);
    const out = await other.gql(SUGGEST, { sourceText: 'Einstellungen öffnen', targetLanguage: 'fr' });
    expect(out.errors).toBeUndefined();
    expect(out.data.memorySuggestions.suggestions).toEqual([
      { score: 100, source: 'Einstellungen öffnen', origin: { key: 'a' } },
    ]);
  });
});

describe('the targets read best first', () => {
  // The candidates' targets are read `limit` keys at a time, best first: keys without a text in the target
  // language are passed over and the next ones read, until the best `limit` with one are known.
  it('gives the best keys that have a translation, past better ones that have none', async () => {
    const some = await projectApi(service, await service.account(), 'Length window, best first');
    expect((await some.post('/api/v1/languages', { key: 'de' })).status).toBe(200);
    const query = 'Open the folder now';
    const untranslated = [
      'Open the folder now!',
      'Open the folder now?',
      'Open the folders now',
      'Open the folder, now',
    ];
    const translated = [
      'Open this folder',
      'Open a folder now',
      'Close the folder now',
      'Open the folder',
      'Open the box now',
    ];
    const content = [
      ...untranslated.map((text, i) => ({ key: `u${i}`, language: 'en', text })),
      ...translated.flatMap((text, i) => [
        { key: `t${i}`, language: 'en', text },
        { key: `t${i}`, language: 'de', text: `Übersetzung ${i}` },
      ]),
    ];
    expect((await some.post('/api/v1/translations', { content })).status).toBe(200);
    const scores = translated
      .map((source) => ({ source, score: similarityScore(normalise(query).text, normalise(source).text) }))
      .sort((a, b) => b.score - a.score);
    // The untranslated texts are closer than any translated one: the first read finds no target.
    const worstUntranslated = Math.min(...untranslated.map((t) => similarityScore(query, t)));
    expect(worstUntranslated).toBeGreaterThan(scores[0]!.score);
    expect(new Set(scores.slice(0, 3).map((s) => s.score)).size).toBe(3);
    const out = await some.gql(SUGGEST, { sourceText: query, targetLanguage: 'de', minScore: 50, limit: 2 });
    expect(out.errors).toBeUndefined();
    expect(out.data.memorySuggestions.suggestions.map((s: { score: number; source: string }) => s)).toEqual(
      scores.slice(0, 2).map((s) => ({ ...s, origin: { key: `t${translated.indexOf(s.source)}` } })),
    );
  });
});

describe('the minimum score of 100', () => {
  // The lookup drops a candidate scoring under minScore before working out its substitution, except a text equal to
  // the query once normalised: it scores 100 when its tokens carry over into the translation (pre-translation's
  // default), 99 when one cannot.
  it('keeps a text differing only in a placeholder or a number, substituted, and not one whose token cannot be carried over', async () => {
    const exact = await projectApi(service, await service.account(), 'Length window, 100 %');
    expect((await exact.post('/api/v1/languages', { key: 'de' })).status).toBe(200);
    const content = [
      ['farewell', 'Goodbye {name}', 'Auf Wiedersehen, {name}'],
      ['delete', 'Delete 12 files', '12 Dateien löschen'],
      ['welcome', 'Welcome {name}', 'Willkommen'],
    ].flatMap(([key, en, de]) => [
      { key, language: 'en', text: en },
      { key, language: 'de', text: de },
    ]);
    expect((await exact.post('/api/v1/translations', { content })).status).toBe(200);
    const at = async (sourceText: string, minScore: number) => {
      const out = await exact.gql(SUGGEST_TEXT, { sourceText, targetLanguage: 'de', minScore });
      expect(out.errors).toBeUndefined();
      return out.data.memorySuggestions.suggestions;
    };
    expect(await at('Goodbye {user}', 100)).toEqual([{ score: 100, text: 'Auf Wiedersehen, {user}' }]);
    expect(await at('Delete 5 files', 100)).toEqual([{ score: 100, text: '5 Dateien löschen' }]);
    // The target has no {name} to become {user}: 99, under 100.
    expect(await at('Welcome {user}', 100)).toEqual([]);
    expect(await at('Welcome {user}', 99)).toEqual([{ score: 99, text: 'Willkommen' }]);
  });
});

describe('memory_length (SQL) and normalisedLength (JavaScript)', () => {
  it('agree on texts mixing tags, placeholders, numbers and every kind of whitespace', async () => {
    const pieces = [
      '{',
      '}',
      '{{',
      '}}',
      '$',
      '${',
      '%',
      '%s',
      '%1$s',
      '%(name)s',
      '%-5.2f',
      '%@',
      '% d',
      '%.',
      '(',
      ')',
      '<',
      '>',
      '/',
      '</',
      '<b>',
      '<a href="x">',
      '<br/>',
      '< b>',
      '<1>',
      '12',
      '3.5',
      '1,000',
      '1.',
      ',5',
      ' ',
      '  ',
      '\t',
      '\n',
      '\u00a0',
      '\u3000',
      '\u2009',
      '\ufeff',
      '\u200b',
      '\u1680',
      '\u2028',
      'a',
      'Z',
      '_',
      ':',
      '-',
      '.',
      'é',
      '日本',
      '😀',
      '٣',
      '１２',
      'x:y',
      '#',
      '+',
      '0',
    ];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const texts = ['  You have {count}  new <b>messages</b> since 12.5 %s ', 'Hello {{name}}, ${total} and %1$s'];
    for (let i = 0; i < 3000; i++) {
      let text = '';
      for (let j = 1 + next(12); j > 0; j--) text += pieces[next(pieces.length)];
      texts.push(text);
    }
    const rows = await service.db.prisma.$queryRaw<{ length: number }[]>(Prisma.sql`/* test:memory-length */
      SELECT memory_length(t) AS length FROM unnest(${texts}::text[]) WITH ORDINALITY AS u(t, o) ORDER BY o`);
    const differing = texts.filter((text, i) => rows[i]!.length !== normalisedLength(text));
    expect(differing).toEqual([]);
  });
});

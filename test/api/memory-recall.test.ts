// Recall of memory suggestions when many stored texts share the query's
// trigrams: candidates come from the source texts' words and word pairs
// ("MemoryTerm" on PostgreSQL, the in-process index on PGlite), so a text
// differing from the query by one word is found even when thousands of others
// (here every order of the query's words: the same trigrams, a trigram
// similarity of 1) are more trigram-similar than it is and would fill any
// candidate limit ranked by trigrams. The suggestions are what scoring every
// stored text by edit distance gives. A query whose words are all misspelt
// shares no word: it is looked up by trigrams.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalise, similarityScore } from '../../src/memory/normalize.js';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let api: ProjectApi;

// 40 characters, seven words.
const QUERY = 'Please check your network before to sync';
// The query with one word replaced: 95 against it.
const CLOSE = 'Please check your network before we sync';
/** More reorderings of the query's words than any trigram-ranked candidate limit (1,000 on PostgreSQL, 2,000 on PGlite). */
const REORDERED = 2_100;

/** Orders of the query's words other than its own, a fixed pseudo-random draw. */
function reorderings(count: number): string[] {
  const words = QUERY.split(' ');
  const seen = new Set([QUERY, CLOSE]);
  let seed = 7;
  const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  while (seen.size < count + 2) {
    const shuffled = [...words];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    seen.add(shuffled.join(' '));
  }
  return [...seen].slice(2);
}

const SOURCES = [CLOSE, ...reorderings(REORDERED), 'Save all changes'];

beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account(), 'Recall');
  expect((await api.post('/api/v1/languages', { key: 'de' })).status).toBe(200);
  const content = SOURCES.flatMap((text, i) => [
    { key: `k${i}`, language: 'en', text },
    { key: `k${i}`, language: 'de', text: `Übersetzung ${i}` },
  ]);
  for (let i = 0; i < content.length; i += 1_000)
    expect((await api.post('/api/v1/translations', { content: content.slice(i, i + 1_000) })).status).toBe(200);
}, 120_000);
afterAll(() => service.close());

const SUGGEST = `query($sourceText: String, $targetLanguage: String!, $minScore: Int, $limit: Int) {
  memorySuggestions(sourceText: $sourceText, targetLanguage: $targetLanguage, minScore: $minScore, limit: $limit) {
    suggestions { score source }
  }
}`;

async function suggest(sourceText: string, limit = 10): Promise<{ score: number; source: string }[]> {
  const out = await api.gql(SUGGEST, { sourceText, targetLanguage: 'de', minScore: 50, limit });
  expect(out.errors).toBeUndefined();
  return out.data.memorySuggestions.suggestions;
}

describe('recall of memory suggestions', () => {
  it('finds a text differing by one word from a 40-character query past thousands sharing all its trigrams', async () => {
    expect(QUERY).toHaveLength(40);
    const found = await suggest(QUERY);
    expect(found[0]).toEqual({ score: 95, source: CLOSE });
    // The best ten by edit distance over every stored text: the same scores.
    const query = normalise(QUERY).text;
    const best = SOURCES.map((s) => similarityScore(query, normalise(s).text))
      .filter((s) => s >= 50)
      .sort((a, b) => b - a)
      .slice(0, 10);
    expect(best).toHaveLength(10);
    expect(found.map((s) => s.score)).toEqual(best);
  });

  it('finds a text whose words the query all misspells, by its trigrams', async () => {
    expect(await suggest('Sav al chnges')).toEqual([
      { score: similarityScore('Sav al chnges', 'Save all changes'), source: 'Save all changes' },
    ]);
  });
});

// The memory's word index on PostgreSQL ("MemoryTerm") is brought current off
// the write path (docs/translation-memory.md, "Keeping the terms current"): a
// write queues its keys, the updater (src/memory/term-updater.ts) catches up
// later. Here the updater sleeps (MEMORY_TERMS_POLL_MS) and rounds are run by
// hand: a lookup right after a write finds the new text although its terms
// are not in the index yet, and after the rounds the index holds exactly the
// current texts' terms, whatever was inserted, changed and deleted in between.
// On PGlite (an in-process index, no queue) the lookups must give the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { catchUpMemoryTerms, MemoryTermUpdater } from '../../src/memory/term-updater.js';
import { normalise, similarityScore } from '../../src/memory/normalize.js';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let api: ProjectApi;
const postgres = () => service.db.kind === 'postgres';

const QUERY = 'Please check your network before to sync';
/** In the index before the write below: the term path finds it, so the lookup does not fall back to trigrams. */
const INDEXED = 'Please check your network before we sync';
/** Written right before the lookup. */
const WRITTEN = 'Please check the network before you sync';

beforeAll(async () => {
  service = await startTestService({ env: { MEMORY_TERMS_POLL_MS: '3600000' } });
  api = await projectApi(service, await service.account(), 'Term queue');
  expect((await api.post('/api/v1/languages', { key: 'de' })).status).toBe(200);
}, 60_000);
afterAll(() => service.close());

type Cell = { key: string; language: string; text: string };
/** New keys (POST adds), or texts replaced (PATCH sets). */
async function write(content: Cell[], replace = false): Promise<void> {
  const res = replace
    ? await api.patch('/api/v1/translations', { content })
    : await api.post('/api/v1/translations', { content });
  expect(res.status).toBe(200);
}

/** What a stored text scores against a query (an edit distance under 100). */
const scoreOf = (query: string, source: string) => ({
  score: Math.min(99, similarityScore(normalise(query).text, normalise(source).text)),
  source,
});

async function suggest(sourceText: string): Promise<{ score: number; source: string }[]> {
  const out = await api.gql(
    `query($sourceText: String, $targetLanguage: String!) {
      memorySuggestions(sourceText: $sourceText, targetLanguage: $targetLanguage, minScore: 50) { suggestions { score source } }
    }`,
    { sourceText, targetLanguage: 'de' },
  );
  expect(out.errors).toBeUndefined();
  return out.data.memorySuggestions.suggestions;
}

async function queued(): Promise<number> {
  const [row] = await service.db.prisma.$queryRaw<{ n: number }[]>(
    Prisma.sql`SELECT count(*)::int AS n FROM "MemoryTermQueue"`,
  );
  return row!.n;
}

/** Rounds until the queue is empty (small batches: several rounds, keys split between them). */
async function catchUp(): Promise<void> {
  while ((await catchUpMemoryTerms(2, service.db.prisma)) > 0);
  expect(await queued()).toBe(0);
}

/** The index's rows that are not the current texts' terms, and the current texts' terms missing from it. */
async function indexDrift(): Promise<{ stale: number; missing: number }> {
  const [row] = await service.db.prisma.$queryRaw<{ stale: number; missing: number }[]>(Prisma.sql`
    WITH current AS (SELECT m.term, s."languageId", s.length, s."keyId" FROM "MemorySource" s, memory_terms(s.text) m),
    held AS (SELECT term, "languageId", length, "keyId" FROM "MemoryTerm")
    SELECT (SELECT count(*)::int FROM (SELECT * FROM held EXCEPT SELECT * FROM current) x) AS stale,
           (SELECT count(*)::int FROM (SELECT * FROM current EXCEPT SELECT * FROM held) x) AS missing`);
  return row!;
}

describe('the memory word index brought current off the write path', () => {
  it('finds a text right after its write, before its terms are indexed', async () => {
    await write([
      { key: 'indexed', language: 'en', text: INDEXED },
      { key: 'indexed', language: 'de', text: 'Prüfe das Netz, bevor wir synchronisieren' },
      { key: 'other', language: 'en', text: 'Save all changes' },
      { key: 'other', language: 'de', text: 'Alle Änderungen speichern' },
    ]);
    if (postgres()) await catchUp();
    await write([
      { key: 'written', language: 'en', text: WRITTEN },
      { key: 'written', language: 'de', text: 'Prüfe das Netz, bevor du synchronisierst' },
    ]);
    // The new key waits in the queue: its terms are not in the index.
    if (postgres()) expect(await queued()).toBeGreaterThan(0);
    expect(await suggest(QUERY)).toEqual([scoreOf(QUERY, INDEXED), scoreOf(QUERY, WRITTEN)]);
    expect(await suggest(WRITTEN)).toEqual([{ score: 100, source: WRITTEN }, scoreOf(WRITTEN, INDEXED)]);
  });

  it('reads the current text of a key queued after a change, and indexes exactly the current texts', async () => {
    // Changed, deleted, and inserted, then changed again, all before the updater's next round.
    await write([{ key: 'indexed', language: 'en', text: 'Open the payment settings of your team' }], true);
    expect((await api.delete('/api/v1/translation-keys/bulk', { translationKeys: [{ key: 'other' }] })).status).toBe(
      200,
    );
    await write([{ key: 'third', language: 'en', text: 'Please check your network before sync' }]);
    await write([{ key: 'third', language: 'en', text: 'Please check your network before a sync' }], true);
    await write([{ key: 'third', language: 'de', text: 'Prüfe das Netz vor dem Abgleich' }]);
    const expected = [scoreOf(QUERY, 'Please check your network before a sync'), scoreOf(QUERY, WRITTEN)];
    expect(await suggest(QUERY)).toEqual(expected);
    if (!postgres()) return;
    expect(await queued()).toBeGreaterThan(0);
    await catchUp();
    expect(await indexDrift()).toEqual({ stale: 0, missing: 0 });
    expect(await suggest(QUERY)).toEqual(expected);
  });
  it("keeps a key's source from its default language's text only: another language's write queues nothing", async () => {
    const source = async () => {
      const [row] = await service.db.prisma.$queryRaw<{ text: string }[]>(Prisma.sql`
        SELECT m.text FROM "MemorySource" m JOIN "TranslationKey" k ON k.id = m."keyId" WHERE k.key = 'settings'`);
      return row?.text;
    };
    await write([
      { key: 'settings', language: 'en', text: 'Open the settings' },
      { key: 'settings', language: 'de', text: 'Einstellungen öffnen' },
    ]);
    if (postgres()) await catchUp();
    // Another language's text alone (the triggers return at once): no source changes, nothing is queued.
    await write([{ key: 'settings', language: 'de', text: 'Die Einstellungen öffnen' }], true);
    if (postgres()) {
      expect(await queued()).toBe(0);
      expect(await source()).toBe('Open the settings');
    }
    // Both languages in one statement: the default language's text is the new source.
    await write(
      [
        { key: 'settings', language: 'de', text: 'Die Einstellungen jetzt öffnen' },
        { key: 'settings', language: 'en', text: 'Open the settings now' },
      ],
      true,
    );
    if (postgres()) {
      expect(await queued()).toBeGreaterThan(0);
      expect(await source()).toBe('Open the settings now');
      await catchUp();
      expect(await indexDrift()).toEqual({ stale: 0, missing: 0 });
    }
    expect((await suggest('Open the settings now'))[0]).toEqual({ score: 100, source: 'Open the settings now' });
  });

  it('runs its next round at once only after a full batch; the rest waits for the poll', async () => {
    if (!postgres()) return;
    await catchUp();
    const keys = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ key: `${prefix}${i}`, language: 'en', text: `Paced text number ${i}` }));
    // Five entries, batches of two: 2, 2, then 1 (not full), all before the poll's hour.
    await write(keys('paced', 5));
    expect(await queued()).toBe(5);
    const updater = new MemoryTermUpdater({ batch: 2, pollMs: 3_600_000 });
    updater.start();
    try {
      await expect.poll(queued, { timeout: 10_000, interval: 20 }).toBe(0);
      // A round after the partial one would have come at once.
      await new Promise((r) => setTimeout(r, 300));
      expect(updater.rounds).toBe(3);
      // A write now waits for the poll.
      await write(keys('later', 1));
      await new Promise((r) => setTimeout(r, 300));
      expect(await queued()).toBe(1);
      expect(updater.rounds).toBe(3);
    } finally {
      await updater.stop();
    }
    await catchUp();
    expect(await indexDrift()).toEqual({ stale: 0, missing: 0 });
  });
});

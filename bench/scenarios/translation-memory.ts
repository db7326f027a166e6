// Translation memory (#35): what keeping it current costs an import, and how
// fast suggestions are at scale.
//   - Import: 10,000 keys × 10 languages by the import's domain function
//     (bench/lib/import-direct.ts), with the memory kept current against the
//     same import without. On PGlite the write gate notes the keys for the
//     in-process index, which was built before (off: the gate's
//     `writtenKeyNotes` part left out); on PostgreSQL the triggers of
//     "MemorySource" write the default-language texts (off: the triggers
//     disabled for that import). Alternated, median of three.
//   - Write (PostgreSQL): 10,000 new source texts inserted into "MemorySource"
//     of a memory grown to 2,000,000 pairs (below), in a transaction rolled
//     back, with the word index's maintenance (its queue trigger: the terms
//     are brought current by the updater afterwards) against the same insert
//     with that trigger disabled: the database's cost of the MemorySource
//     insert alone. The note gives what bringing the 10,000 texts' terms
//     current costs (one updater round, in the same transaction), what the
//     write cost when that ran in the writing statement. Alternated, median
//     of five.
//   - Lookups: one project grown to SEGMENTS (source, target) pairs — keys
//     in 10 languages, texts of 1–12 words from a vocabulary, written straight
//     in SQL — then suggestions for queries of 5, 15 and 40 characters, each
//     a stored source text of that length with one word replaced (a single
//     word: one letter), so each has matches, p95 per length. Baseline, in
//     the same run, the database's own part: on PostgreSQL, for a query of two
//     words or more, the same postings of "MemoryTerm" read from its primary
//     key alone and as many source texts by primary key, nothing ranked; for a
//     one-word query, pg_trgm's own `%` and `<->` on the GiST index of
//     "MemorySource" (nothing joined); on PGlite the lookup's statement by
//     hand for the same candidates (the rows read by id). With
//     BENCH_KEEP_DATABASE=<name> the seeded project is kept and found again by
//     the next run (TM_PARTS=lookups), instead of seeding 2,000,000 pairs.
import { readFileSync } from 'node:fs';
import { Prisma } from '../../src/generated/prisma/client.js';
import type { BenchService } from '../lib/service.js';
import { LANGUAGES, multiLanguageJson } from '../lib/data.js';
import { percentile, timed } from '../lib/report.js';
import type { Figure } from '../lib/types.js';
import { currentIndex } from '../../src/memory/ngram-index.js';
import { lengthWindow, normalise, normalisedLength, wordsOf } from '../../src/memory/normalize.js';
import { noteSourceTextsReplaced } from '../../src/content/written-keys.js';
import { ALL_PARTS } from '../../src/content/translations/gate.js';
import { importDirect } from '../lib/import-direct.js';
import { CANDIDATES, PER_TERM, suggest } from '../../src/memory/suggest.js';
import { arrayLiteral } from '../../src/db/array-literal.js';
import { catchUpMemoryTerms } from '../../src/memory/term-updater.js';

/** Whether the lookup reads a query's candidates from its words (two or more) rather than its trigrams. */
const byWords = (q: string) => wordsOf(normalise(q).text).length >= 2;

/** The load average over the last minute (the machine is shared: every figure notes it). */
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;

/** The gate without its notes to the memory. */
const NO_NOTES = { ...ALL_PARTS, writtenKeyNotes: false };
/** The triggers that keep "MemorySource" current on PostgreSQL (migration 20261129190000_memory_sources). */
const MEMORY_TRIGGERS = ['Translation_memory_inserted', 'Translation_memory_updated', 'Translation_memory_deleted'];
const KEYS = 10_000;
const RUNS = 3;
/** Runs of the write into the large memory (a second or two each: more of them, the machine being shared). */
const WRITE_RUNS = 5;
const ROUNDS = 5;
/** Queries per length. */
const QUERIES = 20;

const WORDS = `account add all allow and archive back before cancel change changes check choose clear click close
  confirm connection continue copy create current data date default delete details device disable download edit email
  enable enter error export failed file files filter find folder for from help hide history home image import in invalid
  invite is item items language last link list load loading log manage message messages more move name network new next
  no not notification now of on open order page password payment please preview previous print profile project read
  remove rename report required reset restore retry save saved search select send server settings share show sign size
  start status stop submit success sync team the this time to try update upload user view was welcome with your`
  .split(/\s+/)
  .filter(Boolean);

/**
 * A stored text with its middle word replaced by another vocabulary word of the same length (the i-th such, so the
 * queries differ), or, a single word, with its middle letter changed: the same length, a close match to find.
 */
export function edited(text: string, i: number): string {
  const words = text.split(' ');
  const at = words.length >> 1;
  const word = words[at]!;
  const others = WORDS.filter((w) => w.length === word.length && w !== word.toLowerCase());
  if (words.length > 1 && others.length) {
    const other = others[i % others.length]!;
    words[at] = other[0]!.toUpperCase() + other.slice(1);
    return words.join(' ');
  }
  const chars = [...text];
  const middle = chars.length >> 1;
  chars[middle] = chars[middle] === 'x' ? 'y' : 'x';
  return chars.join('');
}

async function importOverhead(bench: BenchService, db: Figure['db']): Promise<Figure[]> {
  const prisma = bench.service.db.prisma;
  const file = multiLanguageJson(KEYS);
  const warm = await bench.project('tm-warmup');
  await importDirect(bench, warm.projectToken, file);
  // The memory's index exists (PGlite): from here on every gate call notes its keys.
  if (db === 'pglite') await currentIndex(prisma);
  const on: number[] = [];
  const off: number[] = [];
  const loadBefore = loadavg();
  const refresh: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const offProject = await bench.project(`tm-off-${i}`);
    if (db === 'postgres') await memoryTriggers(bench, 'DISABLE');
    try {
      off.push((await timed(() => importDirect(bench, offProject.projectToken, file, { gateParts: NO_NOTES }))).ms);
    } finally {
      if (db === 'postgres') await memoryTriggers(bench, 'ENABLE');
    }
    on.push((await timed(async () => importDirect(bench, (await bench.project(`tm-on-${i}`)).projectToken, file))).ms);
    if (db === 'pglite') refresh.push((await timed(() => currentIndex(prisma))).ms);
  }
  const value = percentile(on, 50);
  const baseline = percentile(off, 50);
  return [
    {
      scenario: 'translation memory: import 10k×10 kept current',
      db,
      metric: 'time',
      value,
      unit: 'ms',
      baseline,
      ratio: value / baseline,
      target: 'ratio ≤ 1.1 (baseline: the same import without the memory)',
      met: value / baseline <= 1.1,
      note:
        db === 'pglite'
          ? `runs on ${on.map(Math.round).join('/')} ms, off ${off.map(Math.round).join('/')} ms; the index then reads the 10,000 source texts again on the next lookup: ${refresh.map(Math.round).join('/')} ms`
          : `runs on ${on.map(Math.round).join('/')} ms, off ${off.map(Math.round).join('/')} ms (the MemorySource triggers disabled, and with them the word index's queue); load ${loadBefore} before, ${loadavg()} after`,
    },
  ];
}

/** Turns the memory's triggers on Translation off or on again (the bench's own database). */
async function memoryTriggers(bench: BenchService, action: 'DISABLE' | 'ENABLE'): Promise<void> {
  // DDL takes no parameters: the names are the constants above.
  const clauses = Prisma.raw(MEMORY_TRIGGERS.map((t) => `${action} TRIGGER "${t}"`).join(', '));
  await bench.service.db.prisma.$executeRaw(Prisma.sql`/* bench:tm-triggers */ ALTER TABLE "Translation" ${clauses}`);
}

/** Grows one project to `keys` keys × 10 languages of generated sentences, in SQL. */
async function seed(bench: BenchService, projectId: number, keys: number): Promise<void> {
  const prisma = bench.service.db.prisma;
  await prisma.$executeRaw(Prisma.sql`/* bench:tm-languages */
    INSERT INTO "Language" ("projectId", key, name, "order", "isDefault")
    SELECT ${projectId}, k, 'Language ' || k, o, false FROM unnest(${arrayLiteral(LANGUAGES)}::text[]) WITH ORDINALITY AS t(k, o) ON CONFLICT DO NOTHING`);
  const step = 50_000;
  for (let from = 1; from <= keys; from += step) {
    const to = Math.min(keys, from + step - 1);
    await prisma.$executeRaw(Prisma.sql`/* bench:tm-keys */
      INSERT INTO "TranslationKey" ("projectId", key, namespace) SELECT ${projectId}, 'tm.' || lpad(n::text, 7, '0'), '' FROM generate_series(${from}::int, ${to}::int) n`);
    // Each key's sentence: 1–12 words picked by a hash of the key; each language's text is the sentence with its code.
    await prisma.$executeRaw(Prisma.sql`/* bench:tm-texts */
      WITH w AS (SELECT ${arrayLiteral(WORDS)}::text[] AS words),
      s AS (
        SELECT k.id, (SELECT string_agg(w.words[1 + abs(hashint4(k.id * 31 + i)) % array_length(w.words, 1)], ' ' ORDER BY i)
                        FROM generate_series(1, 1 + abs(hashint4(k.id)) % 12) i) AS sentence
          FROM "TranslationKey" k, w WHERE k."projectId" = ${projectId} AND k.key BETWEEN ${`tm.${String(from).padStart(7, '0')}`} AND ${`tm.${String(to).padStart(7, '0')}`}
      )
      INSERT INTO "Translation" ("keyId", "languageId", "projectId", text)
      SELECT s.id, l.id, ${projectId}, CASE WHEN l."isDefault" THEN initcap(s.sentence) ELSE l.key || ': ' || s.sentence END
        FROM s JOIN "Language" l ON l."projectId" = ${projectId}`);
  }
  await prisma.$executeRaw(Prisma.sql`ANALYZE`);
}

/** The project grown to `pairs` (source, target) pairs, seeded now or by a run before (BENCH_KEEP_DATABASE). */
async function largeProject(
  bench: BenchService,
  pairs: number,
): Promise<{ projectId: number; languageId: number; keys: number }> {
  const prisma = bench.service.db.prisma;
  const keys = Math.ceil(pairs / (LANGUAGES.length - 1));
  // A database kept from a run before (BENCH_KEEP_DATABASE) may hold the project seeded already.
  const [kept] = await prisma.$queryRaw<{ id: number }[]>(Prisma.sql`/* bench:tm-kept */
    SELECT p.id FROM "Project" p WHERE p.name = ${`tm-large-${keys}`}
       AND (SELECT count(*) FROM "TranslationKey" k WHERE k."projectId" = p.id) = ${keys}
     ORDER BY p.id DESC LIMIT 1`);
  let projectId: number;
  if (kept) {
    projectId = kept.id;
    console.log(`  reusing the seeded project ${projectId} (${keys} keys × ${LANGUAGES.length} languages)`);
  } else {
    const project = await bench.project(`tm-large-${keys}`);
    [{ id: projectId }] = await prisma.$queryRaw<{ id: number }[]>(
      Prisma.sql`SELECT id FROM "Project" WHERE "projectToken" = ${project.projectToken}`,
    );
    const seeded = await timed(() => seed(bench, projectId, keys));
    console.log(
      `  seeded ${keys} keys × ${LANGUAGES.length} languages (${pairs} pairs) in ${(seeded.ms / 1000).toFixed(1)} s`,
    );
    if (bench.databaseUrl) await termsCaughtUp(bench);
  }
  const [{ id: languageId }] = await prisma.$queryRaw<{ id: number }[]>(
    Prisma.sql`SELECT id FROM "Language" WHERE "projectId" = ${projectId} AND "isDefault"`,
  );
  return { projectId, languageId, keys };
}

/**
 * Waits until the service's term updater has brought the seeded texts' terms current (PostgreSQL), then vacuums the
 * memory's tables: the lookups are measured on the memory at rest, not beside the updater's catch-up on 222,223
 * texts, nor reading the queue's dead rows (which every lookup reads whole) before autovacuum, if the server runs
 * it at all, has come.
 */
async function termsCaughtUp(bench: BenchService): Promise<void> {
  const prisma = bench.service.db.prisma;
  const started = Date.now();
  for (;;) {
    const [{ queued }] = await prisma.$queryRaw<{ queued: number }[]>(
      Prisma.sql`/* bench:tm-queued */ SELECT count(*)::int AS queued FROM "MemoryTermQueue"`,
    );
    if (!queued) break;
    if (Date.now() - started > 30 * 60_000) throw new Error(`the term updater left ${queued} texts queued`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  await prisma.$executeRaw(
    Prisma.sql`/* bench:tm-vacuum */ VACUUM ANALYZE "MemoryTermQueue", "MemoryTerm", "MemorySource", "Translation"`,
  );
  console.log(`  terms current and vacuumed ${((Date.now() - started) / 1000).toFixed(1)} s after the seed`);
}

/** Thrown to roll the write's transaction back once timed. */
class RolledBack extends Error {}

/** Runs `fn` in a transaction that is rolled back: the seeded memory stays as it was. */
async function rolledBack(bench: BenchService, fn: (tx: Prisma.TransactionClient) => Promise<void>): Promise<void> {
  try {
    await bench.service.db.prisma.$transaction(
      async (tx) => {
        await fn(tx);
        throw new RolledBack();
      },
      { timeout: 600_000, maxWait: 60_000 },
    );
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
}

/** WRITTEN source texts of 1–12 vocabulary words, a fixed pseudo-random draw (like the seed's). */
function newTexts(count: number): string[] {
  let seed = 35;
  const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  return Array.from({ length: count }, () => {
    const words = Array.from(
      { length: 1 + Math.floor(random() * 12) },
      () => WORDS[Math.floor(random() * WORDS.length)]!,
    );
    return words.join(' ').replace(/^./, (c) => c.toUpperCase());
  });
}

async function writeCost(bench: BenchService, pairs: number): Promise<Figure[]> {
  const { projectId, languageId } = await largeProject(bench, pairs);
  const texts = newTexts(KEYS);
  // Key ids past any the service hands out: "MemorySource" has no foreign key (it is derived data).
  const insert = Prisma.sql`/* bench:tm-write */
    INSERT INTO "MemorySource" ("keyId", "languageId", "projectId", text, length)
    SELECT 2000000000 + n::int, ${languageId}, ${projectId}, t, memory_length(t)
      FROM unnest(${arrayLiteral(texts)}::text[]) WITH ORDINALITY AS x(t, n)`;
  const on: number[] = [];
  const off: number[] = [];
  const catchUp: number[] = [];
  const loadBefore = loadavg();
  for (let i = 0; i < WRITE_RUNS; i++) {
    await rolledBack(bench, async (tx) => {
      await tx.$executeRaw(
        Prisma.sql`/* bench:tm-terms-off */ ALTER TABLE "MemorySource" DISABLE TRIGGER "MemorySource_terms_inserted"`,
      );
      off.push((await timed(() => tx.$executeRaw(insert))).ms);
    });
    await rolledBack(bench, async (tx) => {
      on.push((await timed(() => tx.$executeRaw(insert))).ms);
      // What the updater does for these texts afterwards (and the write did itself before the queue).
      const round = await timed(() => catchUpMemoryTerms(KEYS, tx));
      // 0: the service's own updater held the round (it finds nothing: these rows are not committed).
      if (round.value !== KEYS) throw new Error(`the round brought ${round.value} of ${KEYS} texts current`);
      catchUp.push(round.ms);
    });
  }
  // The rolled-back rows of the queue, which every lookup reads whole, gone now rather than when autovacuum comes.
  await bench.service.db.prisma.$executeRaw(Prisma.sql`/* bench:tm-queue-vacuum */ VACUUM "MemoryTermQueue"`);
  const value = percentile(on, 50);
  const baseline = percentile(off, 50);
  return [
    {
      scenario: `translation memory: write 10,000 texts into a ${pairs.toLocaleString('en')}-pair memory`,
      db: 'postgres',
      metric: 'time',
      value,
      unit: 'ms',
      baseline,
      ratio: value / baseline,
      target: 'ratio ≤ 1.1 (baseline: the same MemorySource insert with the word index’s maintenance off)',
      met: value / baseline <= 1.1,
      note: `runs on ${on.map(Math.round).join('/')} ms, off ${off.map(Math.round).join('/')} ms; the updater then brings the 10,000 texts’ terms current in ${catchUp.map(Math.round).join('/')} ms (one round, what the write cost when its trigger did it: on + this); load ${loadBefore} before, ${loadavg()} after`,
    },
  ];
}

async function lookups(bench: BenchService, db: Figure['db'], pairs: number): Promise<Figure[]> {
  const prisma = bench.service.db.prisma;
  const { projectId, languageId } = await largeProject(bench, pairs);
  // Written past the write gate: an index built before (the import half) does not know these texts.
  if (db === 'pglite') noteSourceTextsReplaced();
  const built = db === 'pglite' ? await timed(() => currentIndex(prisma)) : null;
  if (built) console.log(`  in-process index built in ${(built.ms / 1000).toFixed(1)} s`);
  const scope = { projectId, projectIds: [projectId], memoryIds: [] };
  const figures: Figure[] = [];
  for (const length of [5, 15, 40]) {
    // What a translator would look up: a stored source text of that length with one word replaced by another of
    // the vocabulary of the same length (a single word: one letter changed), so every query has matches to find.
    const samples = await prisma.$queryRaw<{ text: string }[]>(Prisma.sql`/* bench:tm-samples */
      SELECT t.text FROM "Translation" t JOIN "Language" l ON l.id = t."languageId" AND l."isDefault"
       WHERE t."projectId" = ${projectId} AND char_length(t.text) = ${length}
       GROUP BY t.text ORDER BY min(t."keyId") LIMIT ${QUERIES}`);
    const queries = samples.map((s, i) => edited(s.text, i));
    const times: number[] = [];
    const base: number[] = [];
    const loadBefore = loadavg();
    let found = 0;
    let none = 0;
    await suggest(scope, { text: queries[0]!, sourceLanguage: 'en', targetLanguage: 'de' }); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const q of queries) {
        const run = await timed(() => suggest(scope, { text: q, sourceLanguage: 'en', targetLanguage: 'de' }));
        times.push(run.ms);
        found += run.value.length;
        if (!run.value.length) none++;
        const window = lengthWindow(normalisedLength(q), 50);
        if (db === 'postgres' && byWords(q)) {
          // The same postings read from "MemoryTerm"'s primary key alone (the same bounds per term and side of the
          // length), and the source texts of as many keys as the lookup reads, by primary key: what the lookup
          // cannot do without, with nothing ranked.
          const length = normalisedLength(q);
          const side = (from: number, to: number, order: Prisma.Sql) => Prisma.sql`(
            SELECT t."keyId" FROM "MemoryTerm" t WHERE t.term = q.term AND t."languageId" = ${languageId}
               AND t.length BETWEEN ${from}::int AND ${to}::int ORDER BY t.length ${order} LIMIT ${PER_TERM})`;
          // With bitmap scans off, as the lookup plans them (migration 20261130050500_memory_term_candidates).
          base.push(
            (
              await timed(() =>
                prisma.$transaction([
                  prisma.$executeRaw(Prisma.sql`SET LOCAL enable_bitmapscan = off`),
                  prisma.$queryRaw(Prisma.sql`/* bench:tm-raw-postings */
            SELECT s."keyId", s.text FROM (
              SELECT DISTINCT h."keyId" FROM memory_terms(${q}) q CROSS JOIN LATERAL (
                ${side(Math.max(window.min, length), window.max, Prisma.sql`ASC`)}
                UNION ALL ${side(window.min, Math.min(window.max, length - 1), Prisma.sql`DESC`)}) h
              LIMIT ${CANDIDATES}) k JOIN "MemorySource" s ON s."keyId" = k."keyId"`),
                ]),
              )
            ).ms,
          );
        } else if (db === 'postgres') {
          // pg_trgm's own statement on the GiST index of "MemorySource" (the lookup's for a one-word query).
          base.push(
            (
              await timed(() =>
                prisma.$queryRaw(Prisma.sql`/* bench:tm-raw-candidates */
            SELECT "keyId", text FROM "MemorySource" WHERE length BETWEEN ${window.min}::int AND ${window.max}::int AND text % ${q}
             ORDER BY text <-> ${q} LIMIT ${CANDIDATES}`),
              )
            ).ms,
          );
        } else {
          const index = await currentIndex(prisma);
          // The candidates the lookup reads: by words for a query of two words or more, else by trigrams.
          const ids = (
            byWords(q)
              ? index.searchWords(q, () => true, CANDIDATES, window)
              : index.search(q, () => true, 2000, 0.3, window)
          ).map((c) => c.ref);
          base.push(
            (
              await timed(() =>
                prisma.$queryRaw(Prisma.sql`/* bench:tm-rows-by-id */
            SELECT s."keyId", s.text, t.text FROM "Translation" s JOIN "Translation" t ON t."keyId" = s."keyId"
              JOIN "Language" tl ON tl.id = t."languageId" AND tl.key = 'de' WHERE s."keyId" = ANY(${arrayLiteral(ids)}::int[]) AND s."languageId" = (SELECT id FROM "Language" WHERE "projectId" = ${projectId} AND "isDefault")`),
              )
            ).ms,
          );
        }
      }
    }
    const value = percentile(times, 95);
    const baseline = percentile(base, 95);
    const limit = db === 'postgres' ? 50 : 100;
    const multiWord = queries.filter(byWords).length;
    const baselineNote =
      db === 'pglite'
        ? 'the candidates’ rows read by id by hand'
        : `${multiWord ? `for the ${multiWord} queries of two words or more, the same MemoryTerm postings read from its primary key alone and as many source texts by primary key, nothing ranked` : ''}${multiWord && multiWord < queries.length ? '; ' : ''}${multiWord < queries.length ? `for the ${queries.length - multiWord} one-word queries, pg_trgm’s own % and <-> on the GiST index of MemorySource` : ''}`;
    figures.push({
      scenario: `translation memory: suggestions, ${length}-character query, ${pairs.toLocaleString('en')} pairs`,
      db,
      metric: 'p95',
      value,
      unit: 'ms',
      baseline,
      ratio: value / baseline,
      target: `p95 < ${limit} ms`,
      met: value < limit,
      note: `${queries.length} queries × ${ROUNDS} rounds, p50 ${percentile(times, 50).toFixed(1)} ms, ${(found / times.length).toFixed(1)} suggestions found per query (limit 10, minScore 50), ${none} lookups with none; load ${loadBefore} before, ${loadavg()} after; baseline: ${baselineNote}`,
    });
  }
  return figures;
}

export async function translationMemoryScenario(
  bench: BenchService,
  db: Figure['db'],
  pairs = Number(process.env.TM_PAIRS ?? (db === 'postgres' ? 2_000_000 : 500_000)),
): Promise<Figure[]> {
  // TM_PARTS=import, write or lookups runs one part (each takes minutes; write and lookups share the seeded memory).
  const parts = (process.env.TM_PARTS ?? 'import,write,lookups').split(',');
  return [
    ...(parts.includes('import') ? await importOverhead(bench, db) : []),
    ...(parts.includes('write') && db === 'postgres' ? await writeCost(bench, pairs) : []),
    ...(parts.includes('lookups') ? await lookups(bench, db, pairs) : []),
  ];
}

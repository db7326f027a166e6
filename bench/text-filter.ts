// The editor's text filter alone (#18), quicker than the large scenario: one
// project seeded as there (bench/lib/seed.ts, keys × 10 languages) in a
// database kept between runs, grown to each size given, and at each size every
// term of the large scenario timed (editorRows, the window of 100 keys and the
// count) for some rounds: each term's median and slowest, then p50 and p95
// over all, as the large scenario computes them.
//   node --import tsx bench/text-filter.ts [translations…]
// Env: TEXT_FILTER_DB (a PostgreSQL URL; PGlite in TEXT_FILTER_DIR otherwise),
// TEXT_FILTER_ROUNDS (5), TEXT_FILTER_EXPLAIN=1 (each statement's plan, once per term).
import { editorRows } from '../src/console/rows.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { setDatabase } from '../src/db.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { projectIdOf } from './lib/project-id.js';
import { LANGUAGES } from './lib/data.js';
import { percentile, timed } from './lib/report.js';
import { seedKeys } from './lib/seed.js';
import { TERMS } from './scenarios/large.js';

const sizes = process.argv.slice(2).map(Number);
const rounds = Number(process.env.TEXT_FILTER_ROUNDS ?? 5);
const url = process.env.TEXT_FILTER_DB;
const db = await openDatabase(
  url
    ? { kind: 'postgres', url, poolSize: 2 }
    : { kind: 'pglite', dataDir: process.env.TEXT_FILTER_DIR ?? '.scratch-pglite' },
);
setDatabase(db);
await migrate(db);

const prisma = db.prisma;
await prisma.$executeRaw(
  Prisma.sql`/* bench:text-filter-project */ INSERT INTO "Project" (name, "projectToken", "apiKey", "apiKeyHash", "ownerId") VALUES ('text-filter', 'text-filter', 'text-filter', 'text-filter', 0) ON CONFLICT DO NOTHING`,
);
const projectId = await projectIdOf(prisma, 'text-filter');

/** Shows the plan of every statement editorRows sends, run again under EXPLAIN (ANALYZE, BUFFERS). */
function explaining(database: Database): Database {
  const unsafe = database.prisma.$queryRawUnsafe.bind(database.prisma);
  const tagged = database.prisma.$queryRaw.bind(database.prisma);
  const show = (sql: string, plan: { 'QUERY PLAN': string }[]) =>
    console.log(`${sql.replace(/\s+/g, ' ').slice(0, 300)}\n${plan.map((r) => r['QUERY PLAN']).join('\n')}\n`);
  // Statements built as strings and as Prisma.sql fragments alike.
  const queryUnsafe = async (sql: string, ...params: unknown[]) => {
    show(sql, await unsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, ...params));
    return unsafe(sql, ...params);
  };
  const query = async (sql: Prisma.Sql) => {
    show(sql.sql, await tagged<{ 'QUERY PLAN': string }[]>(Prisma.sql`EXPLAIN (ANALYZE, BUFFERS) ${sql}`));
    return tagged(sql);
  };
  const replaced: Record<string | symbol, unknown> = { $queryRawUnsafe: queryUnsafe, $queryRaw: query };
  return {
    ...database,
    prisma: new Proxy(database.prisma, { get: (target, p) => replaced[p] ?? Reflect.get(target, p) }),
  };
}

for (const size of sizes) {
  const keys = size / LANGUAGES.length;
  const [{ count }] = await prisma.$queryRaw<{ count: number }[]>(
    Prisma.sql`/* bench:key-count */ SELECT count(*)::int AS count FROM "TranslationKey" WHERE "projectId" = ${projectId}`,
  );
  if (count < keys) {
    const seeded = await timed(() => seedKeys(prisma, projectId, count + 1, keys));
    console.log(`seeded ${count} → ${keys} keys in ${(seeded.ms / 1000).toFixed(1)} s`);
  }
  if (process.env.TEXT_FILTER_EXPLAIN) {
    setDatabase(explaining(db));
    for (const term of TERMS) {
      console.log(`==== ${term}`);
      await editorRows(projectId, { text: term, languages: LANGUAGES }, 0, 100);
    }
    setDatabase(db);
  }
  const all: number[] = [];
  const byTerm = new Map<string, number[]>(TERMS.map((t) => [t, []]));
  const counts = new Map<string, string>();
  await editorRows(projectId, { text: TERMS[0]!, languages: LANGUAGES }, 0, 100); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const term of TERMS) {
      const run = await timed(() => editorRows(projectId, { text: term, languages: LANGUAGES }, 0, 100));
      all.push(run.ms);
      byTerm.get(term)!.push(run.ms);
      counts.set(
        term,
        `${run.value.keyIds.length} keys, total ${run.value.totalCount}${run.value.totalIsExact ? '' : '+'}`,
      );
    }
  }
  console.log(`${size.toLocaleString('en')} translations (${db.kind}), ${rounds} rounds:`);
  for (const [term, ms] of byTerm)
    console.log(
      `  ${term.padEnd(18)} median ${percentile(ms, 50).toFixed(1).padStart(6)}  max ${Math.max(...ms)
        .toFixed(1)
        .padStart(6)} ms  (${counts.get(term)})`,
    );
  console.log(`  p50 ${percentile(all, 50).toFixed(1)} ms, p95 ${percentile(all, 95).toFixed(1)} ms`);
}
await db.close();

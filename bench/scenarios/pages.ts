// Paged reads of the contract: GET /api/v2/translations?size=500 at the
// first, middle and deepest page, unfiltered and filtered, one request at a
// time (median of repeated requests), each against a baseline that is the
// database's own limit for the same cells, timed in the same run:
//
// - unfiltered and language-filtered pages: the page's keys found by an
//   OFFSET along the (projectId, namespace, key) index and their cells by
//   primary key, with the language count known in advance (the service must
//   find it out; the baseline is handed it), no GraphQL, no HTTP;
// - text-status filtered pages: the plain SQL anyone would write (the cells
//   that have a text, sorted, cut to the page), planned by the database.
//
// Also the GraphQL read of as many cells through the key connection (50 keys
// × 10 languages), which pages by key id at any depth.
import type { BenchService } from '../lib/service.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { projectIdOf } from '../lib/project-id.js';
import type { Figure } from '../lib/types.js';

const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 15);
const SIZE = 500;

async function median(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export async function pageScenarios(bench: BenchService, db: Figure['db'], apiKey: string, projectToken: string): Promise<Figure[]> {
  const prisma = bench.service.db.prisma;
  const projectId = await projectIdOf(prisma, projectToken);
  const languages = await prisma.$queryRaw<{ id: number; key: string }[]>(Prisma.sql`/* bench:languages */ SELECT id, key FROM "Language" WHERE "projectId" = ${projectId} ORDER BY "order", key`);
  const [{ keys }] = await prisma.$queryRaw<{ keys: number }[]>(Prisma.sql`/* bench:key-count */ SELECT count(*)::int AS keys FROM "TranslationKey" WHERE "projectId" = ${projectId}`);
  await prisma.$executeRaw(Prisma.sql`VACUUM ANALYZE "TranslationKey"`);
  await prisma.$executeRaw(Prisma.sql`VACUUM ANALYZE "Translation"`);
  const headers = { 'x-service-token': apiKey };
  const rest = (query: string) => async () => {
    const res = await fetch(`${bench.url}/api/v2/translations?size=${SIZE}&${query}`, { headers });
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  /** The page's keys by OFFSET along the key index, their cells by primary key; the languages given. */
  const byPosition = (languageIds: number[], page: number) => {
    const n = languageIds.length;
    const offset = page * SIZE;
    return () => prisma.$queryRaw(Prisma.sql`/* bench:page-by-position */
      SELECT k.key, k.namespace, l.key AS language, coalesce(t.text, '') AS text, coalesce(t."reviewStatus"::text, 'NOT_REVIEWED') AS "reviewStatus", t."lastModifiedAt"
         FROM (SELECT id, key, namespace FROM "TranslationKey" WHERE "projectId" = ${projectId} ORDER BY namespace, key
                OFFSET ${Math.floor(offset / n)} LIMIT ${Math.ceil(((offset % n) + SIZE) / n)}) k
         CROSS JOIN unnest(${languageIds}::int[]) WITH ORDINALITY AS o(id, ord)
         JOIN "Language" l ON l.id = o.id
         LEFT JOIN "Translation" t ON t."keyId" = k.id AND t."languageId" = o.id
        ORDER BY k.namespace, k.key, o.ord OFFSET ${offset % n} LIMIT ${SIZE}`);
  };
  const notEmpty = (page: number) => () => prisma.$queryRaw(Prisma.sql`/* bench:page-not-empty */
    SELECT k.key, k.namespace, l.key AS language, t.text, t."reviewStatus"::text AS "reviewStatus", t."lastModifiedAt"
       FROM "Translation" t JOIN "TranslationKey" k ON k.id = t."keyId" JOIN "Language" l ON l.id = t."languageId"
      WHERE t."projectId" = ${projectId} AND t.text <> ''
      ORDER BY k.namespace, k.key, l."order", l.key OFFSET ${page * SIZE} LIMIT ${SIZE}`);
  const cells = keys * languages.length;
  const deepest = Math.ceil(cells / SIZE) - 1;
  const cases: { name: string; query: string; baseline: () => Promise<unknown> }[] = [
    { name: 'first page', query: 'page=0', baseline: byPosition(languages.map((l) => l.id), 0) },
    { name: 'middle page', query: `page=${Math.floor(deepest / 2)}`, baseline: byPosition(languages.map((l) => l.id), Math.floor(deepest / 2)) },
    { name: 'deepest page', query: `page=${deepest}`, baseline: byPosition(languages.map((l) => l.id), deepest) },
    { name: 'deepest page, language=de', query: `language=de&page=${Math.ceil(keys / SIZE) - 1}`, baseline: byPosition(languages.filter((l) => l.key === 'de').map((l) => l.id), Math.ceil(keys / SIZE) - 1) },
    { name: 'first page, textStatus=NOT_EMPTY', query: 'textStatus=NOT_EMPTY&page=0', baseline: notEmpty(0) },
    { name: 'deepest page, textStatus=NOT_EMPTY', query: `textStatus=NOT_EMPTY&page=${deepest}`, baseline: notEmpty(deepest) },
  ];
  const graphql = await median(async () => {
    const res = await fetch(`${bench.url}/graphql`, {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ translationKeys(first: 50) { edges { node { key namespace translations { language text } } } } }` }),
    });
    if (res.status !== 200) throw new Error(`graphql ${res.status}`);
    await res.arrayBuffer();
  });
  const figures: Figure[] = [];
  for (const c of cases) {
    const baseline = await median(c.baseline);
    const value = await median(rest(c.query));
    const ratio = value / baseline;
    figures.push({
      scenario: `GET /api/v2/translations?size=500, ${c.name} (${keys.toLocaleString('en')} keys × ${languages.length} languages)`,
      db, metric: 'median latency', value, unit: 'ms', baseline, ratio,
      target: '≤ 1.5 × hand-written SQL and ≤ 2 × GraphQL', met: ratio <= 1.5 && value <= 2 * graphql,
      note: `GraphQL 50 keys × ${languages.length} languages ${graphql.toFixed(1)} ms`,
    });
  }
  return figures;
}

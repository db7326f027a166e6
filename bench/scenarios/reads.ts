// Scenarios 4 and 5: GET /api/v2/translations?size=500 under 32 concurrent
// connections (autocannon in its own process) against a bare Fastify route
// reading the same cells at the database's limit; and the same 500 cells (50 keys × 10
// languages) read through GraphQL, with the SQL statements each request costs.
import { spawn } from 'node:child_process';
import Fastify from 'fastify';
import type { BenchService } from '../lib/service.js';
import type { Figure } from '../lib/types.js';
import { observeSql } from '../../src/db/client.js';
import { languageIdsOf, projectIdOf } from '../lib/project-id.js';
import { readRows } from '../../src/db/read-rows.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { handWritten, medians } from './pages.js';
import { GRAPHQL_READ } from '../lib/data.js';

const DURATION_S = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
/** Rounds of the GraphQL read alternating with the REST page, when both are measured. */
const COMPARED_ROUNDS = 3;
/** Load before the GraphQL read's rounds, not counted. */
const WARM_UP_S = 5;

/** The round of median throughput. */
function medianOf(results: LoadResult[]): LoadResult {
  return [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)]!;
}

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

function autocannon(
  url: string,
  headers: Record<string, string>,
  options: { method?: string; body?: string; seconds?: number } = {},
): Promise<LoadResult> {
  const args = ['-c', '32', '-d', String(options.seconds ?? DURATION_S), '-j', '--renderStatusCodes'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  if (options.method) args.push('-m', options.method);
  if (options.body) args.push('-b', options.body);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(new URL('../../node_modules/.bin/autocannon', import.meta.url).pathname, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', () => {
      try {
        const r = JSON.parse(out);
        resolve({
          rps: r.requests.average,
          p50: r.latency.p50,
          p99: r.latency.p99,
          errors: r.errors,
          non2xx: r.non2xx,
        });
      } catch (error) {
        reject(new Error(`autocannon output: ${out.slice(0, 300)} ${String(error)}`));
      }
    });
  });
}

/**
 * The bare route: the first page of 500 key × language cells, read by the hand-written SQL of the page rows
 * (bench/scenarios/pages.ts, `byPosition`: the page's keys along the key index, their cells by primary key,
 * the project and its language ids handed to it; prepared or planned each run, the faster), the database's limit for these cells, answered in the
 * contract's envelope. (It was the cross join of every key and language, sorted, then cut to 500: the slow
 * SQL the service once ran, a baseline that proved nothing, #41.)
 */
async function bareRoute(
  bench: BenchService,
  projectId: number,
): Promise<{ url: string; served: string; close(): Promise<void> }> {
  const app = Fastify({ logger: false });
  const languageIds = await languageIdsOf(bench.service.db.prisma, projectId);
  // As a named statement (prepared: PostgreSQL keeps a generic plan after five runs) and unnamed (planned for
  // its parameters at every run), timed one at a time in turns; the route serves the faster, as the page rows take the
  // faster (pages.ts). Named only, it served 273–337 requests/s where the service served 412–492 (2026-12-02).
  const named = handWritten((query) => readRows(query), projectId, languageIds).byPosition(languageIds, 0);
  const unnamed = handWritten((query) => readRows(Prisma.sql` ${query}`), projectId, languageIds).byPosition(
    languageIds,
    0,
  );
  const [prepared, planned] = (await medians([named, unnamed])) as [number, number];
  const firstPage = prepared <= planned ? named : unnamed;
  const served = `${prepared <= planned ? 'prepared' : 'planned each run'} (one at a time: prepared ${prepared.toFixed(2)} ms, planned ${planned.toFixed(2)} ms)`;
  app.get('/bare', async () => ({ msg: 'OK', status: 200, data: await firstPage() }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${url}/bare`, served, close: () => app.close() };
}

export async function readScenarios(
  bench: BenchService,
  db: Figure['db'],
  apiKey: string,
  projectToken: string,
  only: Set<string>,
): Promise<Figure[]> {
  const figures: Figure[] = [];
  const projectId = await projectIdOf(bench.service.db.prisma, projectToken);
  const headers = { 'x-service-token': apiKey };
  const restUrl = `${bench.url}/api/v2/translations?size=500`;
  let rest: LoadResult | undefined;
  if (only.has('rest')) {
    const bare = await bareRoute(bench, projectId);
    const baseline = await autocannon(bare.url, {});
    await bare.close();
    rest = await autocannon(restUrl, headers);
    figures.push({
      scenario: 'GET /api/v2/translations?size=500, 32 conn',
      db,
      metric: 'requests/s',
      value: rest.rps,
      unit: 'req/s',
      baseline: baseline.rps,
      ratio: rest.rps / baseline.rps,
      target: '≥ 0.5 × bare route',
      met: rest.rps / baseline.rps >= 0.5,
      note: `errors ${rest.errors + rest.non2xx}; bare route's SQL ${bare.served}`,
    });
    figures.push({
      scenario: 'GET /api/v2/translations?size=500, 32 conn',
      db,
      metric: 'latency p50 / p99',
      value: rest.p50,
      unit: 'ms',
      baseline: baseline.p50,
      note: `p99 ${rest.p99} ms (bare ${baseline.p99} ms)`,
    });
  }
  if (only.has('graphql')) {
    const body = (first: number) => JSON.stringify({ query: GRAPHQL_READ, variables: { first } });
    // In process, so that the statements of this one request can be observed.
    const statements = async (first: number) => {
      let count = 0;
      // inject() dispatches when awaited: await it inside the observed context.
      const res = await observeSql(
        () => count++,
        async () =>
          await bench.service.app.inject({
            method: 'POST',
            url: '/graphql',
            headers: { ...headers, 'content-type': 'application/json' },
            payload: body(first),
          }),
      );
      const json = res.json();
      if (json.errors) throw new Error(JSON.stringify(json.errors));
      return count;
    };
    const s10 = await statements(10);
    const s100 = await statements(100);
    // The cells of one REST page: 50 keys × 10 languages = 500. Against REST, rounds alternate with it (the
    // machine's other load falls on both alike) and the medians are compared.
    const graphqlRead = (seconds?: number) =>
      autocannon(
        `${bench.url}/graphql`,
        { ...headers, 'content-type': 'application/json' },
        { method: 'POST', body: body(50), seconds },
      );
    // Warmed up as the REST page is by its own row above: unwarmed, the first round ran at 0.6 of the third on
    // PGlite and the median leaned on it.
    await graphqlRead(WARM_UP_S);
    const rounds: { graphql: LoadResult; rest?: LoadResult }[] = [];
    for (let round = 0; round < (rest ? COMPARED_ROUNDS : 1); round++)
      rounds.push({ graphql: await graphqlRead(), rest: rest ? await autocannon(restUrl, headers) : undefined });
    const graphql = medianOf(rounds.map((r) => r.graphql));
    const restRounds = rounds.flatMap((r) => (r.rest ? [r.rest] : []));
    const restMedian = restRounds.length ? medianOf(restRounds) : undefined;
    figures.push({
      scenario: 'GraphQL 100 keys × 10 languages',
      db,
      metric: 'SQL statements / request',
      value: s100,
      unit: 'statements',
      baseline: s10,
      target: 'constant (same as 10 keys)',
      met: s100 === s10,
    });
    figures.push({
      scenario: "GraphQL 50 keys × 10 languages (the REST page's 500 cells), 32 conn",
      db,
      metric: 'requests/s',
      value: graphql.rps,
      unit: 'req/s',
      baseline: restMedian?.rps,
      ratio: restMedian ? graphql.rps / restMedian.rps : undefined,
      target: '≥ 0.8 × REST',
      met: restMedian ? graphql.rps / restMedian.rps >= 0.8 : undefined,
      note: `p99 ${graphql.p99} ms${
        restMedian
          ? `; medians of ${rounds.length} rounds alternating with REST after a ${WARM_UP_S} s warm-up (${rounds.map((r) => Math.round(r.graphql.rps)).join('/')} against ${restRounds.map((r) => Math.round(r.rps)).join('/')} req/s)`
          : ''
      }`,
    });
  }
  return figures;
}

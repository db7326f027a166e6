// The per-request path: one-cell writes (PATCH /api/v2/translations, POST
// /api/v1/translations) and small reads (GET /api/v1/languages, GET
// /api/v2/project, one page of GET /api/v2/translations) at 1 and 16 clients,
// each beside baselines measured in the same run: a bare Node HTTP handler in
// a process of its own doing the same SQL (requests-bare.ts), driven by the
// same load generator (requests-load.ts, autocannon in its own process); for
// writes also the upsert through the driver alone. The SQL statements and
// round trips (statements + BEGIN/COMMIT) of one request are counted in
// process (observeSql) and printed.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { BenchService } from '../lib/service.js';
import { LANGUAGES, multiLanguageJson } from '../lib/data.js';
import type { Figure } from '../lib/types.js';
import { settle } from '../lib/settle.js';
import { observeSql } from '../../src/db/client.js';

const SECONDS = Number(process.env.BENCH_REQUEST_SECONDS ?? 5);
/** Seconds of each load, service and bare handler alike, before its measured window (requests-load.ts). */
const WARMUP = Number(process.env.BENCH_REQUEST_WARMUP ?? 3);
const KEYS = 2_000;
const CLIENTS = [1, 16] as const;
const TSX = ['--import', 'tsx'];
const here = (file: string) => new URL(file, import.meta.url).pathname;

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

function runChild(script: string, arg: unknown): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TSX, here(script), JSON.stringify(arg)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${script} exited ${code}: ${out.slice(0, 300)}`)),
    );
  });
}

export async function load(
  url: string,
  method: 'GET' | 'POST' | 'PATCH',
  headers: Record<string, string>,
  body: 'v2patch' | 'v1post' | 'bare' | undefined,
  connections: number,
  languages: string[],
): Promise<Load> {
  const out = await runChild('./requests-load.ts', {
    url,
    method,
    headers,
    body,
    keys: KEYS,
    languages,
    connections,
    seconds: SECONDS,
    warmup: WARMUP,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Load;
}

/** The bare handler in its own process, on its own tables in the same kind of database. */
async function bareHandler(db: Figure['db'], url: string | undefined): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...TSX,
      here('./requests-bare.ts'),
      JSON.stringify({ db, url, keys: KEYS, languages: LANGUAGES.length, mode: 'http' }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const listening = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('listening ')) resolve(line.slice('listening '.length));
    });
    child.on('exit', (code) => reject(new Error(`bare handler exited ${code}`)));
  });
  return {
    url: listening,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Statements and round trips (statements + BEGIN/COMMIT) of one request, observed in process. */
async function countSql(
  bench: BenchService,
  request: { method: 'GET' | 'POST' | 'PATCH'; url: string; headers: Record<string, string> },
  payload?: (i: number) => unknown,
): Promise<{ statements: number; roundTrips: number }> {
  // The first request of a kind may warm caches; count a later one.
  let sql: string[] = [];
  for (let i = 0; i < 3; i++) {
    sql = [];
    const res = await observeSql(
      (s) => sql.push(s),
      async () => await bench.service.app.inject({ ...request, ...(payload ? { payload: payload(i) as object } : {}) }),
    );
    if (res.statusCode !== 200) throw new Error(`${request.method} ${request.url}: ${res.statusCode} ${res.body}`);
  }
  const statements = sql.filter((s) => !/^(BEGIN|COMMIT|ROLLBACK)$/.test(s.trim())).length;
  return { statements, roundTrips: sql.length };
}

export async function requestScenarios(
  bench: BenchService,
  db: Figure['db'],
  databaseUrl: string | undefined,
): Promise<Figure[]> {
  const figures: Figure[] = [];
  const project = await bench.project('bench-requests');
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(multiLanguageJson(KEYS))]), 'requests.json');
  const imported = await fetch(`${bench.url}/api/v2/import?uploadFormat=multi-language-json`, {
    method: 'POST',
    headers: { 'x-service-token': project.apiKey },
    body: form,
  });
  if (imported.status !== 200) throw new Error(`import for requests failed: ${await imported.text()}`);
  await settle(db);
  const auth = { 'x-service-token': project.apiKey };
  const json = { ...auth, 'content-type': 'application/json' };

  const bare = await bareHandler(db, databaseUrl);
  const driver = JSON.parse(
    (
      await runChild('./requests-bare.ts', {
        db,
        url: databaseUrl,
        keys: KEYS,
        languages: LANGUAGES.length,
        mode: 'driver',
        seconds: SECONDS,
      })
    )
      .trim()
      .split('\n')
      .at(-1)!,
  ) as Record<string, number>;
  try {
    const writes = [
      {
        name: 'PATCH /api/v2/translations (one cell)',
        method: 'PATCH' as const,
        path: '/api/v2/translations',
        body: 'v2patch' as const,
        sample: (i: number) => ({ key: 'screen0.section0.label_1', language: 'de', text: `counted ${i}` }),
      },
      {
        // REPLACE: every cell of the project exists, and without it a POST keeps the text and writes nothing.
        name: 'POST /api/v1/translations (one cell)',
        method: 'POST' as const,
        path: '/api/v1/translations?importOptions=REPLACE_TRANSLATION_IF_FOUND',
        body: 'v1post' as const,
        sample: (i: number) => ({
          content: [{ key: 'screen0.section0.label_2', language: 'de', text: `counted ${i}` }],
        }),
      },
    ];
    for (const w of writes) {
      const sql = await countSql(bench, { method: w.method, url: w.path, headers: json }, w.sample);
      figures.push(...sqlRows(w.name, db, sql));
      for (const clients of CLIENTS) {
        // Each pair starts settled: the findings of the writes before are not left to the next window.
        await settle(db);
        const service = await load(`${bench.url}${w.path}`, w.method, auth, w.body, clients, LANGUAGES);
        const baseline = await load(`${bare.url}/write`, 'POST', {}, 'bare', clients, LANGUAGES);
        figures.push(
          ...rows(`${w.name}, ${clients} client${clients > 1 ? 's' : ''}`, db, service, baseline, {
            // The targets (#41): 0.3× the bare upsert at 16 clients, p99 under 30 ms on PostgreSQL.
            throughput: clients === 16 ? 0.3 : undefined,
            p99: clients === 16 ? (db === 'postgres' ? 30 : 100) : undefined,
            driver: driver[clients],
          }),
        );
      }
    }
    const reads = [
      { name: 'GET /api/v1/languages', path: '/api/v1/languages', bare: '/languages' },
      // The bare handler: the project row and its figures (cells per language, namespaces, keys), 4 statements side by side.
      { name: 'GET /api/v2/project', path: '/api/v2/project', bare: '/project', bareStatements: 4 },
      { name: 'GET /api/v2/translations?size=100', path: '/api/v2/translations?size=100', bare: '/page' },
    ];
    for (const r of reads) {
      const sql = await countSql(bench, { method: 'GET', url: r.path, headers: auth });
      figures.push(...sqlRows(r.name, db, sql, 'bareStatements' in r ? r.bareStatements : 1));
      for (const clients of CLIENTS) {
        const service = await load(`${bench.url}${r.path}`, 'GET', auth, undefined, clients, LANGUAGES);
        const baseline = await load(`${bare.url}${r.bare}`, 'GET', {}, undefined, clients, LANGUAGES);
        figures.push(
          ...rows(`${r.name}, ${clients} client${clients > 1 ? 's' : ''}`, db, service, baseline, {
            throughput: clients === 1 ? 0.5 : undefined,
          }),
        );
      }
    }
  } finally {
    await bare.stop();
  }
  return figures;
}

function sqlRows(
  scenario: string,
  db: Figure['db'],
  sql: { statements: number; roundTrips: number },
  bareStatements = 1,
): Figure[] {
  scenario = `request: ${scenario}`;
  return [
    {
      scenario,
      db,
      metric: 'SQL statements / request',
      value: sql.statements,
      unit: 'statements',
      baseline: bareStatements,
      note: 'baseline: the bare handler',
    },
    {
      scenario,
      db,
      metric: 'round trips / request',
      value: sql.roundTrips,
      unit: 'round trips',
      baseline: bareStatements,
      note: 'statements + BEGIN/COMMIT',
    },
  ];
}

function rows(
  scenario: string,
  db: Figure['db'],
  service: Load,
  baseline: Load,
  /** throughput: the least ratio to the bare handler. */
  targets: { throughput?: number; p99?: number; driver?: number },
): Figure[] {
  scenario = `request: ${scenario}`;
  const ratio = service.rps / baseline.rps;
  const failures = service.errors + service.non2xx;
  const out: Figure[] = [
    {
      scenario,
      db,
      metric: 'requests/s',
      value: service.rps,
      unit: 'req/s',
      baseline: baseline.rps,
      ratio,
      target: targets.throughput ? `≥ ${targets.throughput} × bare handler` : undefined,
      met: targets.throughput ? ratio >= targets.throughput && failures === 0 : undefined,
      note: failures ? `${failures} failed requests` : undefined,
    },
    { scenario, db, metric: 'latency p50', value: service.p50, unit: 'ms', baseline: baseline.p50 },
    {
      scenario,
      db,
      metric: 'latency p99',
      value: service.p99,
      unit: 'ms',
      baseline: baseline.p99,
      target: targets.p99 ? `p99 < ${targets.p99} ms` : undefined,
      met: targets.p99 ? service.p99 < targets.p99 : undefined,
    },
  ];
  if (targets.driver)
    out.push({
      scenario,
      db,
      metric: 'upsert through the driver alone',
      value: targets.driver,
      unit: 'ops/s',
      note: 'no HTTP, same concurrency',
    });
  return out;
}

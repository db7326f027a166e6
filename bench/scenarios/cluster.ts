// PROCESSES (src/cluster.ts): the service as several processes sharing its port against one
// process, on the same PostgreSQL database and Redis, with the same load generator as the
// per-request benchmark (requests-load.ts, its own process): one-cell PATCHes and small reads at
// 16 clients. The baseline is the one process (the question is whether more of them serve more).
// Each round starts one service, loads it and stops it, then the other; the rounds alternate so
// that the machine's other load falls on both alike, and medians are compared. PostgreSQL only:
// the embedded database belongs to one process.
import { startServiceProcess, type ServiceProcess } from '../../scripts/lib/service-process.js';
import { LANGUAGES, multiLanguageJson } from '../lib/data.js';
import { postForm } from '../lib/post-form.js';
import { percentile } from '../lib/report.js';
import type { Figure } from '../lib/types.js';
import { buildBundle } from './memory.js';
import { load, type Load } from './requests.js';

const ROUNDS = Number(process.env.BENCH_CLUSTER_ROUNDS ?? 3);
const PROCESSES = Number(process.env.BENCH_CLUSTER_PROCESSES ?? 2);
const KEYS = 2_000;
const CLIENTS = 16;
const TOKEN = 'lms_pat_bench_cluster_token_0123456789';

const requests = [
  {
    name: 'PATCH /api/v2/translations (one cell)',
    method: 'PATCH' as const,
    path: '/api/v2/translations',
    body: 'v2patch' as const,
  },
  { name: 'GET /api/v1/languages', method: 'GET' as const, path: '/api/v1/languages' },
  { name: 'GET /api/v2/translations?size=100', method: 'GET' as const, path: '/api/v2/translations?size=100' },
];

export async function clusterScenario(databaseUrl: string): Promise<Figure[]> {
  buildBundle();
  const env = (processes: number) => ({
    PROCESSES: String(processes),
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-password',
    ADMIN_TOKEN: TOKEN,
    RATE_LIMIT_PER_MINUTE: '0',
    NODE_OPTIONS: '',
  });
  /** Starts a service and waits until all its processes listen (the port answers once the first does). */
  const start = async (processes: number): Promise<ServiceProcess> => {
    const service = await startServiceProcess({ ...env(processes), LOG_LEVEL: 'info' }, 'build');
    const deadline = Date.now() + 180_000;
    while (service.output().split('localization service ready').length - 1 < processes) {
      if (Date.now() > deadline) throw new Error(`only some of ${processes} processes started: ${service.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return service;
  };

  // The project, made once on the database both services use.
  const first = await start(1);
  let apiKey: string;
  try {
    const created = await fetch(`${first.url}/api/v2/projects`, {
      method: 'POST',
      headers: { authorization: TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench-cluster' }),
    });
    apiKey = ((await created.json()) as { data: { apiKey: string } }).data.apiKey;
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(multiLanguageJson(KEYS))]), 'cluster.json');
    const imported = await postForm(
      `${first.url}/api/v2/import?uploadFormat=multi-language-json`,
      { 'x-service-token': apiKey },
      form,
    );
    if (imported.status !== 200) throw new Error(`import for the cluster bench failed: ${imported.body.slice(0, 300)}`);
  } finally {
    await first.kill('SIGTERM');
  }

  const results = new Map<string, { one: Load[]; many: Load[] }>(requests.map((r) => [r.name, { one: [], many: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const processes of round % 2 ? [PROCESSES, 1] : [1, PROCESSES]) {
      const service = await start(processes);
      try {
        for (const r of requests) {
          const result = await load(
            `${service.url}${r.path}`,
            r.method,
            { 'x-service-token': apiKey },
            r.body,
            CLIENTS,
            LANGUAGES,
          );
          results.get(r.name)![processes === 1 ? 'one' : 'many'].push(result);
          console.log(
            `  [postgres] ${r.name}, ${processes} process${processes > 1 ? 'es' : ''}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms`,
          );
        }
      } finally {
        await service.kill('SIGTERM');
      }
    }
  }

  const figures: Figure[] = [];
  const median = (loads: Load[], pick: (l: Load) => number) => percentile(loads.map(pick), 50);
  for (const r of requests) {
    const { one, many } = results.get(r.name)!;
    const value = median(many, (l) => l.rps);
    const baseline = median(one, (l) => l.rps);
    const list = (loads: Load[]) => loads.map((l) => l.rps.toFixed(0)).join('/');
    figures.push(
      {
        scenario: `${r.name}, ${CLIENTS} clients, ${PROCESSES} processes (PROCESSES=${PROCESSES})`,
        db: 'postgres',
        metric: 'requests/s',
        value,
        unit: 'req/s',
        baseline,
        ratio: value / baseline,
        target: '> 1 × one process',
        met: value > baseline,
        note: `medians of ${ROUNDS} rounds alternating (${list(many)} against ${list(one)} req/s); errors ${many.reduce((n, l) => n + l.errors + l.non2xx, 0)}; baseline: one process`,
      },
      {
        scenario: `${r.name}, ${CLIENTS} clients, ${PROCESSES} processes (PROCESSES=${PROCESSES})`,
        db: 'postgres',
        metric: 'latency p99',
        value: median(many, (l) => l.p99),
        unit: 'ms',
        baseline: median(one, (l) => l.p99),
        note: 'baseline: one process',
      },
    );
  }
  return figures;
}

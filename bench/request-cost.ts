// The service's own time per small request, without sockets or a load
// generator: the small requests of the per-request benchmark sent one
// at a time through Fastify's inject (same routing, hooks, credential,
// GraphQL execution, SQL and serialisation as over HTTP) on a fresh database
// with the benchmark project (2,000 keys × 10 languages). Prints the median
// and p90 of rounds of N requests, in µs of the process's CPU time per request
// (on PostgreSQL the database's own work is not in it; on PGlite it is). Less
// noisy on a shared machine than requests/s under load. With --ab, rounds alternate between
// compiled execution of the REST documents and the generic executor
// (src/http/compiled-documents.ts), so that the machine's other load falls on both alike.
// With --clients N, N requests are in flight at once. With --drain, a write's
// round also waits until the findings updater has drained the queue the writes
// filled, so that the background work a write triggers is in its CPU; on
// PostgreSQL the CPU of the database's backends serving this service (from
// /proc) is printed beside it.
// npx tsx bench/request-cost.ts [--db pglite|postgres] [--n 300] [--rounds 7] [--ab] [--clients 1] [--drain]
import '../src/production.js';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startBenchService } from './lib/service.js';
import { readProcStat } from '../scripts/lib/proc-stat.js';
import { setCompiledExecution } from '../src/http/compiled-documents.js';
import { keyName, LANGUAGES, multiLanguageJson } from './lib/data.js';
import { pendingFindings, updaterStats } from '../src/findings/updater.js';
import { cellGroupStats } from '../src/content/translations/cell-groups.js';
import { lookupGroupStats } from '../src/content/translations/update-one.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    n: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '7' },
    only: { type: 'string' },
    ab: { type: 'boolean', default: false },
    clients: { type: 'string', default: '1' },
    drain: { type: 'boolean', default: false },
    // The service's settings (KEY=VALUE, repeated), e.g. FINDINGS_THREADS=0 for no findings updater.
    env: { type: 'string', multiple: true, default: [] },
  },
});
const KEYS = 2_000;
/** The main thread's CPU time (Node 23.9 and later; the types installed are older). */
const threadCpuUsage = (previous?: NodeJS.CpuUsage): NodeJS.CpuUsage =>
  (process as unknown as { threadCpuUsage(previous?: NodeJS.CpuUsage): NodeJS.CpuUsage }).threadCpuUsage(previous);
const bench = await startBenchService(
  values.db as 'pglite' | 'postgres',
  Object.fromEntries(values.env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])),
);
try {
  const project = await bench.project('bench-cost');
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(multiLanguageJson(KEYS))]), 'requests.json');
  const imported = await fetch(`${bench.url}/api/v2/import?uploadFormat=multi-language-json`, {
    method: 'POST',
    headers: { 'x-service-token': project.apiKey },
    body: form,
  });
  if (imported.status !== 200) throw new Error(await imported.text());
  const drained = async () => {
    if (!bench.service.config.findings.threads) return;
    while ((await pendingFindings()) > 0) await new Promise((r) => setTimeout(r, 10));
  };
  await drained();
  // The CPU time (µs) of the database's backends serving this service's database (PostgreSQL only).
  const monitor = bench.databaseUrl ? new pg.Client({ connectionString: bench.databaseUrl }) : undefined;
  await monitor?.connect();
  const databaseCpu = async (): Promise<number> => {
    if (!monitor) return 0;
    const { rows } = await monitor.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    let total = 0;
    for (const { pid } of rows) {
      try {
        total += readProcStat(pid).cpuMs * 1000;
      } catch {
        // The backend ended in between.
      }
    }
    return total;
  };
  const headers = { 'x-service-token': project.apiKey, 'content-type': 'application/json' };
  let n = 0;
  const cell = () => ({
    key: keyName(Math.floor(Math.random() * KEYS)),
    language: LANGUAGES[Math.floor(Math.random() * LANGUAGES.length)]!,
    text: `cost ${n++}`,
  });
  const requests = [
    { name: 'PATCH /api/v2/translations', method: 'PATCH' as const, url: '/api/v2/translations', payload: cell },
    {
      name: 'POST /api/v1/translations',
      method: 'POST' as const,
      url: '/api/v1/translations?importOptions=REPLACE_TRANSLATION_IF_FOUND',
      payload: () => ({ content: [cell()] }),
    },
    { name: 'GET /api/v1/languages', method: 'GET' as const, url: '/api/v1/languages' },
    { name: 'GET /api/v2/project', method: 'GET' as const, url: '/api/v2/project' },
    { name: 'GET /api/v2/translations?size=100', method: 'GET' as const, url: '/api/v2/translations?size=100' },
  ].filter((r) => !values.only || values.only.split(',').some((o) => r.name.includes(o)));
  const report = (label: string, perRequest: number[]) => {
    perRequest.sort((a, b) => a - b);
    const at = (q: number) => perRequest[Math.min(perRequest.length - 1, Math.floor(q * perRequest.length))]!;
    console.log(
      `${values.db} ${label}: CPU of the service's process: median ${at(0.5).toFixed(0)} µs, p90 ${at(0.9).toFixed(0)} µs per request (${perRequest.map((v) => v.toFixed(0)).join(' ')})`,
    );
  };
  const clients = Number(values.clients);
  for (const r of requests) {
    const perRequest: number[] = [];
    const generic: number[] = [];
    const mainThread: number[] = [];
    const database: number[] = [];
    const checkedPerRequest: number[] = [];
    const roundsPerRequest: number[] = [];
    const leasesPerRequest: number[] = [];
    const groupsStart = cellGroupStats();
    const lookupsStart = lookupGroupStats();
    for (let round = 0; round < Number(values.rounds) + 1; round++) {
      const compiled = !values.ab || round % 2 === 0;
      setCompiledExecution(compiled);
      const dbStart = await databaseCpu();
      const { cells: cellsStart, rounds: roundsStart, leases: leasesStart } = updaterStats();
      const start = process.cpuUsage();
      const threadStart = threadCpuUsage();
      let sent = 0;
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (sent++ < Number(values.n)) {
            const res = await bench.service.app.inject({
              method: r.method,
              url: r.url,
              headers: r.payload ? headers : { 'x-service-token': project.apiKey },
              ...(r.payload ? { payload: r.payload() } : {}),
            });
            if (res.statusCode !== 200) throw new Error(`${r.name}: ${res.statusCode} ${res.body}`);
          }
        }),
      );
      if (values.drain && r.payload) await drained();
      // The first round warms up.
      if (round > 1 || (round > 0 && !values.ab)) {
        const cpu = process.cpuUsage(start);
        const thread = threadCpuUsage(threadStart);
        (compiled ? perRequest : generic).push((cpu.user + cpu.system) / Number(values.n));
        if (compiled) {
          mainThread.push((thread.user + thread.system) / Number(values.n));
          database.push(((await databaseCpu()) - dbStart) / Number(values.n));
          checkedPerRequest.push((updaterStats().cells - cellsStart) / Number(values.n));
          roundsPerRequest.push((updaterStats().rounds - roundsStart) / Number(values.n));
          leasesPerRequest.push((updaterStats().leases - leasesStart) / Number(values.n));
        }
      }
    }
    report(values.ab ? `${r.name} (compiled)` : r.name, perRequest);
    if (values.ab) report(`${r.name} (generic executor)`, generic);
    const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
    const groups = cellGroupStats();
    const written = groups.items - groupsStart.items;
    if (written)
      console.log(
        `${values.db} ${r.name}: ${written} one-cell writes in ${groups.statements - groupsStart.statements} statements (${groups.groups - groupsStart.groups} groups, ${groups.retried - groupsStart.retried} retried alone); ${lookupGroupStats().items - lookupsStart.items} one-cell lookups in ${lookupGroupStats().statements - lookupsStart.statements} statements`,
      );
    console.log(
      `${values.db} ${r.name}: ${clients} client(s)${values.drain ? ', queue drained' : ''}: main thread median ${median(mainThread).toFixed(0)} µs, database backends ${monitor ? `${median(database).toFixed(0)} µs` : '(in the process)'}, cells checked ${median(checkedPerRequest).toFixed(2)} and findings rounds ${median(roundsPerRequest).toFixed(2)} (leases ${median(leasesPerRequest).toFixed(2)}) per request`,
    );
  }
  setCompiledExecution(true);
  await monitor?.end();
} finally {
  await bench.close();
}

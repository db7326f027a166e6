// The service's own time per small request, without sockets or a load
// generator: the four small requests of the per-request benchmark sent one
// at a time through Fastify's inject (same routing, hooks, credential,
// GraphQL execution, SQL and serialisation as over HTTP) on a fresh database
// with the benchmark project (2,000 keys × 10 languages). Prints the median
// and p90 of rounds of N requests, in µs of the process's CPU time per request
// (on PostgreSQL the database's own work is not in it; on PGlite it is). Less
// noisy on a shared machine than requests/s under load. With --ab, rounds alternate between
// compiled execution of the REST documents and the generic executor
// (src/http/compiled-documents.ts), so that the machine's other load falls on both alike.
// npx tsx bench/request-cost.ts [--db pglite|postgres] [--n 300] [--rounds 7] [--ab]
import '../src/production.js';
import { parseArgs } from 'node:util';
import { startBenchService } from './lib/service.js';
import { setCompiledExecution } from '../src/http/compiled-documents.js';
import { keyName, LANGUAGES, multiLanguageJson } from './lib/data.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    n: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '7' },
    only: { type: 'string' },
    ab: { type: 'boolean', default: false },
  },
});
const KEYS = 2_000;
const bench = await startBenchService(values.db as 'pglite' | 'postgres');
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
      url: '/api/v1/translations',
      payload: () => ({ content: [cell()] }),
    },
    { name: 'GET /api/v1/languages', method: 'GET' as const, url: '/api/v1/languages' },
    { name: 'GET /api/v2/project', method: 'GET' as const, url: '/api/v2/project' },
  ].filter((r) => !values.only || values.only.split(',').some((o) => r.name.includes(o)));
  const report = (label: string, perRequest: number[]) => {
    perRequest.sort((a, b) => a - b);
    const at = (q: number) => perRequest[Math.min(perRequest.length - 1, Math.floor(q * perRequest.length))]!;
    console.log(
      `${values.db} ${label}: CPU of the service's process: median ${at(0.5).toFixed(0)} µs, p90 ${at(0.9).toFixed(0)} µs per request (${perRequest.map((v) => v.toFixed(0)).join(' ')})`,
    );
  };
  for (const r of requests) {
    const perRequest: number[] = [];
    const generic: number[] = [];
    for (let round = 0; round < Number(values.rounds) + 1; round++) {
      const compiled = !values.ab || round % 2 === 0;
      setCompiledExecution(compiled);
      const start = process.cpuUsage();
      for (let i = 0; i < Number(values.n); i++) {
        const res = await bench.service.app.inject({
          method: r.method,
          url: r.url,
          headers: r.payload ? headers : { 'x-service-token': project.apiKey },
          ...(r.payload ? { payload: r.payload() } : {}),
        });
        if (res.statusCode !== 200) throw new Error(`${r.name}: ${res.statusCode} ${res.body}`);
      }
      // The first round warms up.
      if (round > 1 || (round > 0 && !values.ab)) {
        const cpu = process.cpuUsage(start);
        (compiled ? perRequest : generic).push((cpu.user + cpu.system) / Number(values.n));
      }
    }
    report(values.ab ? `${r.name} (compiled)` : r.name, perRequest);
    if (values.ab) report(`${r.name} (generic executor)`, generic);
  }
  setCompiledExecution(true);
} finally {
  await bench.close();
}

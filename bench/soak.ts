// npm run soak [-- --clients 200] [--seconds 60] [--warmup 5] [--db pglite|postgres] [--rate-limit 0] [--ignore-retry-after] [--save]
// --save: the run's figures (admitted throughput, shed share, p99 of the admitted and of the sheds, lost
// writes) into bench/results.json and the table of docs/benchmarks.md, named after ADMISSION (the service
// inherits this process's environment: ADMISSION=true turns admission on, ADMISSION_* tune it).
//
// The soak test: the service as its own process (npm start's entry point),
// one project, N concurrent clients for S seconds, each looping over a mix of
// reads (REST v2 translations pages, GraphQL), v2 PATCH of one translation,
// v1 POST of new keys, file imports (v2 import, replacing texts), exports
// (v4, the whole project) and, for one client, publications. A client whose
// request is shed waits its Retry-After (with jitter, as a client honouring
// the header would) before its next request; --ignore-retry-after sends the
// next one at once. Each client writes only its own keys and waits for
// each answer, so the last acknowledged write of every cell is known; at the
// end the project is exported and every acknowledged write must be in it.
// Fails (exit 1) on a lost write or on any answer other than 2xx, 429 and the
// admission's 503 (src/http/admission.ts: refused at once under overload, with
// Retry-After; counted as shed). The p99 figures are those of the admitted
// (answered 2xx) requests; the shed share and the admitted throughput are printed.
// The first --warmup seconds (the clients' first connections, the service's
// first run of each path) are run but not counted; their p99 is printed apart.
// The load generator shares the machine: its own event loop's delay (p99) is
// printed too, as every latency measured here includes it.
// PostgreSQL: --db postgres with BENCH_DATABASE_URL or TEST_DATABASE_URL.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startServiceProcess } from '../scripts/lib/service-process.js';
import { parseProcStat } from '../scripts/lib/proc-stat.js';
import { machine, percentile, save } from './lib/report.js';
import { writeResultsPage } from './lib/results-page.js';
import type { Figure } from './lib/types.js';
import { createBenchDatabase } from './lib/service.js';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '5' },
    db: { type: 'string', default: 'pglite' },
    'rate-limit': { type: 'string', default: '0' },
    json: { type: 'boolean', default: false },
    'ignore-retry-after': { type: 'boolean', default: false },
    save: { type: 'boolean', default: false },
  },
});
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const WARMUP_MS = Number(values.warmup) * 1000;
const KEYS_PER_CLIENT = 10;
const TOKEN = 'lms_pat_soak_admin_token_0123456789';

type Kind = 'read-rest' | 'read-graphql' | 'patch-v2' | 'post-v1' | 'import' | 'export' | 'publish';

interface Sample {
  kind: Kind;
  ms: number;
  status: number;
  /** Refused by admission (503 with Retry-After). */
  shed?: boolean;
  /** Retry-After of a 429 or 503, s. */
  retryAfter?: number;
  /** When it was sent, ms since the clock started. */
  at: number;
}

const SHED = 'The service is at capacity';

/** The actions of a client, by weight (publish is client 0's alone, see below). */
const MIX: [Kind, number][] = [
  ['read-rest', 28],
  ['read-graphql', 14],
  ['patch-v2', 28],
  ['post-v1', 20],
  ['import', 5],
  ['export', 5],
];
const TOTAL = MIX.reduce((n, [, w]) => n + w, 0);

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-soak-'));
  const database = values.db === 'postgres' ? await createBenchDatabase() : undefined;
  const service = await startServiceProcess({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'soak@example.com',
    ADMIN_PASSWORD: 'soak-password',
    ADMIN_TOKEN: TOKEN,
    RATE_LIMIT_PER_MINUTE: values['rate-limit']!,
    PUBLISH_RATE_LIMIT: '100000',
    LOG_LEVEL: 'error',
    ...(database && { DATABASE_URL: database.url }),
  });
  try {
    const base = service.url;
    // The set-up is sent again while refused (a service just started may still be busy with its own start).
    const created = await (
      await admitted(() =>
        fetch(`${base}/api/v2/projects`, {
          method: 'POST',
          headers: { authorization: TOKEN, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'soak' }),
        }),
      )
    ).json();
    const { apiKey, projectToken } = created.data as { apiKey: string; projectToken: string };
    const key = { 'x-service-token': apiKey };
    const language = await admitted(() =>
      fetch(`${base}/api/v1/languages`, {
        method: 'POST',
        headers: { ...key, 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'de', name: 'German' }),
      }),
    );
    if (language.status !== 200) throw new Error(`adding a language failed: ${language.status}`);
    // Every client's keys exist before the clock starts (PATCH needs them).
    const seed: Record<string, Record<string, string>> = { en: {}, de: {} };
    for (let c = 0; c < CLIENTS; c++)
      for (let k = 0; k < KEYS_PER_CLIENT; k++) {
        seed.en![`c${c}.k${k}`] = `seed ${c}.${k}`;
        seed.de![`c${c}.k${k}`] = `saat ${c}.${k}`;
      }
    const seeded = await admitted(() => importFile(base, key, 'multi-language-json', seed, []));
    if (seeded.status !== 200) throw new Error(`seeding failed: ${seeded.status}`);

    /** The last acknowledged text of each cell: `language\0key` → text. */
    const expected = new Map<string, string>();
    for (const [language, texts] of Object.entries(seed))
      for (const [k, text] of Object.entries(texts)) expected.set(`${language}\u0000${k}`, text);
    const allSamples: Sample[] = [];
    const unexpected: string[] = [];
    const deadline = Date.now() + WARMUP_MS + SECONDS * 1000;
    const t0 = performance.now();

    async function timedCall(kind: Kind, call: () => Promise<Response>): Promise<Response | undefined> {
      const start = performance.now();
      try {
        const res = await call();
        const body = await res.text();
        const shed = res.status === 503 && res.headers.has('retry-after') && body.includes(SHED);
        const retryAfter = Number(res.headers.get('retry-after') ?? 0) || undefined;
        allSamples.push({ kind, ms: performance.now() - start, status: res.status, shed, retryAfter, at: start - t0 });
        // A refused client comes back after Retry-After, spread over half of it again.
        if (retryAfter && !values['ignore-retry-after'])
          await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 * (1 + Math.random() / 2)));
        if ((res.status < 200 || res.status >= 300) && res.status !== 429 && !shed)
          unexpected.push(`${kind}: ${res.status} ${body.slice(0, 200)}`);
        return res.status === 200 ? new Response(body, { status: 200 }) : undefined;
      } catch (error) {
        allSamples.push({ kind, ms: performance.now() - start, status: 0, at: start - t0 });
        unexpected.push(`${kind}: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }
    }

    async function client(c: number) {
      let seq = 0;
      let nextPublish = Date.now();
      while (Date.now() < deadline) {
        seq++;
        if (c === 0 && Date.now() >= nextPublish) {
          nextPublish = Date.now() + 2000;
          await timedCall('publish', () =>
            fetch(`${base}/api/v2/environments/_latest/publish`, { method: 'POST', headers: key }),
          );
          continue;
        }
        let r = Math.floor(Math.random() * TOTAL);
        const kind = MIX.find(([, w]) => (r -= w) < 0)![0];
        const own = `c${c}.k${seq % KEYS_PER_CLIENT}`;
        if (kind === 'read-rest') {
          await timedCall(kind, () => fetch(`${base}/api/v2/translations?size=100&page=${seq % 20}`, { headers: key }));
        } else if (kind === 'read-graphql') {
          await timedCall(kind, () =>
            fetch(`${base}/graphql`, {
              method: 'POST',
              headers: { ...key, 'content-type': 'application/json' },
              body: JSON.stringify({
                query: `{ translationKeyPage(size: 50, page: ${seq % 40}) { totalElements } languages { key } }`,
              }),
            }),
          );
        } else if (kind === 'patch-v2') {
          const text = `patch ${c}.${seq}`;
          const ok = await timedCall(kind, () =>
            fetch(`${base}/api/v2/translations`, {
              method: 'PATCH',
              headers: { ...key, 'content-type': 'application/json' },
              body: JSON.stringify({ key: own, language: 'de', text }),
            }),
          );
          if (ok) expected.set(`de\u0000${own}`, text);
        } else if (kind === 'post-v1') {
          const fresh = `c${c}.n${seq}`;
          const text = `post ${c}.${seq}`;
          const ok = await timedCall(kind, () =>
            fetch(`${base}/api/v1/translations`, {
              method: 'POST',
              headers: { ...key, 'content-type': 'application/json' },
              body: JSON.stringify({
                content: [
                  { key: fresh, language: 'en', text },
                  { key: own, language: 'en', text },
                ],
              }),
            }),
          );
          // POST adds: an existing text (own) is kept, the new key gets its text.
          if (ok) expected.set(`en\u0000${fresh}`, text);
        } else if (kind === 'import') {
          const texts = Object.fromEntries(
            Array.from({ length: KEYS_PER_CLIENT }, (_, k) => [`c${c}.k${k}`, `import ${c}.${seq}.${k}`]),
          );
          const ok = await timedCall(kind, () =>
            importFile(base, key, 'single-language-json', texts, ['REPLACE_TRANSLATION_IF_FOUND'], 'en'),
          );
          if (ok) for (const [k, text] of Object.entries(texts)) expected.set(`en\u0000${k}`, text);
        } else {
          await timedCall(kind, () =>
            fetch(`${base}/api/v4/export?downloadFormat=multi-language-json`, { headers: key }),
          );
        }
      }
    }

    // The service's CPU time over the counted part: whether it stayed fully used (its JavaScript thread
    // near one core) while it shed.
    const pid = service.child.pid!;
    let cpuFrom = { main: 0, all: 0, runnable: 0, at: 0 };
    let ownFrom = process.cpuUsage();
    const cpuMark = setTimeout(() => {
      cpuFrom = serviceCpu(pid);
      ownFrom = process.cpuUsage();
    }, WARMUP_MS);
    const started = performance.now();
    const clientLoop = monitorEventLoopDelay({ resolution: 10 });
    clientLoop.enable();
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    clientLoop.disable();
    clearTimeout(cpuMark);
    const cpuTo = serviceCpu(pid);
    const cpuSeconds = (cpuTo.at - cpuFrom.at) / 1000;
    const own = process.cpuUsage(ownFrom);
    const cpu = {
      main: (cpuTo.main - cpuFrom.main) / cpuSeconds,
      all: (cpuTo.all - cpuFrom.all) / cpuSeconds,
      generator: (own.user + own.system) / 1e6 / cpuSeconds,
      runnable: (cpuTo.runnable - cpuFrom.runnable) / cpuSeconds,
    };
    const elapsed = (performance.now() - started - WARMUP_MS) / 1000;
    const samples = allSamples.filter((s) => s.at >= WARMUP_MS);
    const warm = allSamples.filter((s) => s.at < WARMUP_MS && s.status >= 200 && s.status < 300).map((s) => s.ms);

    // Every acknowledged write, read back from an export of the project.
    const stored = await exportAll(base, key);
    let lost = 0;
    const lostExamples: string[] = [];
    for (const [cell, text] of expected) {
      const [language, k] = cell.split('\u0000') as [string, string];
      if (stored[language]?.[k] !== text) {
        lost++;
        if (lostExamples.length < 5)
          lostExamples.push(
            `${language} ${k}: expected ${JSON.stringify(text)}, stored ${JSON.stringify(stored[language]?.[k] ?? null)}`,
          );
      }
    }

    const kinds = [...new Set(samples.map((s) => s.kind))].sort();
    const rows = kinds.map((kind) => {
      const of = samples.filter((s) => s.kind === kind);
      const admitted = of.filter((s) => s.status >= 200 && s.status < 300).map((s) => s.ms);
      const ms = admitted.length ? admitted : [0];
      return {
        kind,
        requests: of.length,
        ok: admitted.length,
        tooMany: of.filter((s) => s.status === 429).length,
        shed: of.filter((s) => s.shed).length,
        p50: percentile(ms, 50),
        p99: percentile(ms, 99),
        max: Math.max(...ms),
      };
    });
    const ok = samples.filter((s) => s.status >= 200 && s.status < 300);
    const all = ok.map((s) => s.ms);
    const shedSamples = samples.filter((s) => s.shed).map((s) => s.ms);
    const summary = {
      machine: machine(),
      db: values.db,
      clients: CLIENTS,
      seconds: Math.round(elapsed),
      projectToken,
      requests: samples.length,
      perSecond: Math.round(samples.length / elapsed),
      acknowledgedWrites: expected.size,
      lostWrites: lost,
      errorsOtherThan429: unexpected.length,
      tooMany: samples.filter((s) => s.status === 429).length,
      admittedPerSecond: Math.round(ok.length / elapsed),
      shed: shedSamples.length,
      shedShare: samples.length ? shedSamples.length / samples.length : 0,
      shedP99: shedSamples.length ? Math.round(percentile(shedSamples, 99)) : 0,
      serviceCpuMainThread: Number(cpu.main.toFixed(2)),
      serviceCpuProcess: Number(cpu.all.toFixed(2)),
      generatorCpu: Number(cpu.generator.toFixed(2)),
      serviceWaitingForCpu: Number(cpu.runnable.toFixed(2)),
      clientLoopDelayP99: Math.round(clientLoop.percentile(99) / 1e6),
      clientLoopDelayMax: Math.round(clientLoop.max / 1e6),
      p50: Math.round(percentile(all, 50)),
      p99: Math.round(percentile(all, 99)),
      max: Math.round(Math.max(...all)),
      byKind: rows,
    };
    if (values.json) console.log(JSON.stringify(summary, null, 2));
    else {
      console.log(`soak: ${CLIENTS} clients for ${summary.seconds} s on ${values.db} (${summary.machine})`);
      console.log(
        `${summary.requests} requests (${summary.perSecond}/s), ${ok.length} admitted and answered 2xx (${summary.admittedPerSecond}/s), ` +
          `${summary.shed} shed (${(100 * summary.shedShare).toFixed(1)} %, answered in p99 ${summary.shedP99} ms)`,
      );
      console.log(`admitted: p50 ${summary.p50} ms, p99 ${summary.p99} ms, max ${summary.max} ms`);
      console.log(
        `the service's CPU: its JavaScript thread ${summary.serviceCpuMainThread} of a core, the whole process ${summary.serviceCpuProcess} cores; ` +
          `the load generator's ${summary.generatorCpu} cores; the service's thread waited for a core ` +
          `${(100 * summary.serviceWaitingForCpu).toFixed(0)} % of the time (ready to run, another process running)`,
      );
      if (warm.length)
        console.log(
          `warm-up (${WARMUP_MS / 1000} s, not counted): ${warm.length} admitted, p99 ${Math.round(percentile(warm, 99))} ms`,
        );
      console.log(
        `the load generator's own event loop delay: p99 ${summary.clientLoopDelayP99} ms, max ${summary.clientLoopDelayMax} ms`,
      );
      console.log(
        `acknowledged writes checked: ${summary.acknowledgedWrites} cells; lost: ${lost}; answers other than 2xx/429: ${unexpected.length}; 429: ${summary.tooMany}`,
      );
      console.log(
        '| kind | requests | 2xx | 429 | shed (503) | p50 ms (2xx) | p99 ms (2xx) | max ms (2xx) |\n|---|---|---|---|---|---|---|---|',
      );
      for (const r of rows)
        console.log(
          `| ${r.kind} | ${r.requests} | ${r.ok} | ${r.tooMany} | ${r.shed} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.max.toFixed(0)} |`,
        );
      // Over time: whether the slow answers are spread or bunched (the start, a publication, an export).
      const windows = Math.ceil((elapsed * 1000 + WARMUP_MS) / 5000);
      console.log('by 5 s window (sent in it): 2xx, p99 ms of the 2xx; shed, p99 ms of the sheds');
      for (let w = 0; w < windows; w++) {
        const of = allSamples.filter((s) => s.at >= w * 5000 && s.at < (w + 1) * 5000);
        const good = of.filter((s) => s.status >= 200 && s.status < 300).map((s) => s.ms);
        const sheds = of.filter((s) => s.shed).map((s) => s.ms);
        console.log(
          `  ${w * 5}–${w * 5 + 5} s: ${good.length}, ${Math.round(percentile(good, 99) || 0)}; ${sheds.length}, ${Math.round(percentile(sheds, 99) || 0)}`,
        );
      }
      for (const line of [...lostExamples, ...unexpected.slice(0, 10)]) console.log(`  ${line}`);
    }
    // The service's own account of unexpected answers (its error log lines).
    if (unexpected.length) {
      const errors = service
        .output()
        .split('\n')
        .filter((line) => line.includes('"level":50'));
      console.log(`service errors (${errors.length}, distinct messages):`);
      const distinct = new Map<string, string>();
      for (const line of errors) {
        const message = /"message":"([^"]*)"/.exec(line)?.[1] ?? /"msg":"([^"]*)"/.exec(line)?.[1] ?? line;
        if (!distinct.has(message)) distinct.set(message, line);
      }
      for (const line of [...distinct.values()].slice(0, 5)) console.log(`  ${line.slice(0, 1500)}`);
    }
    if (values.save) {
      const admission = process.env.ADMISSION === 'true' ? 'admission on' : 'admission off';
      const scenario = `soak: ${CLIENTS} clients × ${SECONDS} s, mixed (${admission})`;
      const db = values.db as Figure['db'];
      const note =
        `${summary.requests} requests, ${ok.length} admitted, ${summary.shed} shed; lost writes ${lost}; ` +
        `other errors ${unexpected.length}; ${values['ignore-retry-after'] ? 'Retry-After ignored' : 'Retry-After honoured'}; ` +
        `service CPU: thread ${summary.serviceCpuMainThread}, process ${summary.serviceCpuProcess} cores, generator ${summary.generatorCpu}; ` +
        `service thread waiting for a core ${(100 * summary.serviceWaitingForCpu).toFixed(0)} % of the time; ` +
        `load generator's loop delay p99 ${summary.clientLoopDelayP99} ms; load ${loadavg()[0]!.toFixed(1)}`;
      writeResultsPage(
        save([
          { scenario, db, metric: 'admitted throughput', value: summary.admittedPerSecond, unit: 'req/s', note },
          { scenario, db, metric: 'shed share', value: 100 * summary.shedShare, unit: '%' },
          { scenario, db, metric: 'latency p99 (shed)', value: summary.shedP99, unit: 'ms' },
          { scenario, db, metric: 'lost writes', value: lost, unit: 'cells' },
          {
            scenario,
            db,
            metric: 'latency p99 (admitted)',
            value: summary.p99,
            unit: 'ms',
            target: 'p99 < 1000 ms',
            met: summary.p99 < 1000 && !lost,
          },
        ]),
      );
    }
    process.exitCode = lost || unexpected.length ? 1 : 0;
  } finally {
    await service.kill('SIGTERM');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * CPU seconds of a process's main thread and of the whole process, the seconds its main thread was ready
 * to run but waited for a core (the scheduler's run queue), all from Linux /proc, and when read (ms).
 */
function serviceCpu(pid: number): { main: number; all: number; runnable: number; at: number } {
  const seconds = (stat: string) => parseProcStat(stat).cpuMs / 1000;
  return {
    main: seconds(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8')),
    all: seconds(readFileSync(`/proc/${pid}/stat`, 'utf8')),
    runnable: Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e9,
    at: performance.now(),
  };
}

/** The answer to `call`, sent again after Retry-After while it is refused (503 with Retry-After). */
async function admitted(call: () => Promise<Response>): Promise<Response> {
  for (;;) {
    const res = await call();
    const retryAfter = res.status === 503 ? Number(res.headers.get('retry-after')) : 0;
    if (!retryAfter) return res;
    await res.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
  }
}

function importFile(
  base: string,
  key: Record<string, string>,
  format: string,
  content: unknown,
  options: string[],
  languageKey?: string,
): Promise<Response> {
  const form = new FormData();
  form.set('file', new Blob([JSON.stringify(content)], { type: 'application/json' }), 'soak.json');
  const query = new URLSearchParams({ uploadFormat: format, ...(languageKey && { languageKey }) });
  for (const option of options) query.append('importOptions', option);
  return fetch(`${base}/api/v2/import?${query}`, { method: 'POST', headers: key, body: form });
}

/** language → key → text of the whole project (a multi-language-json export). */
async function exportAll(base: string, key: Record<string, string>): Promise<Record<string, Record<string, string>>> {
  // Sent again while refused: the clients' last transfers may still hold the class's slots.
  const res = await admitted(() => fetch(`${base}/api/v4/export?downloadFormat=multi-language-json`, { headers: key }));
  if (res.status !== 200) throw new Error(`export failed: ${res.status} ${await res.text()}`);
  const files = (await res.json()).data.files as { url: string }[];
  // The download url names PUBLIC_URL (localhost:<port>); ask the listener itself.
  const url = new URL(files[0]!.url);
  return (await (await fetch(`${base}${url.pathname}${url.search}`)).json()) as Record<string, Record<string, string>>;
}

await main();

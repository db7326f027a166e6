// What the stored quality-check findings cost (docs/quality-checks.md):
//  - the write path: 10,000 keys × 10 languages imported through REST with the
//    write gate queuing every cell for the checks, against the same import with
//    a gate that queues nothing (withoutFindingsQueueForBenchmark); alternated,
//    median of three each. Target: at most 15 % slower.
//  - the time until every finding of such an import is stored (the updater
//    drains the queue in its worker threads after, or while, the import runs).
//  - the editor's "errors" filter and the per-check counts at 2,000,000
//    translations (filterScenario): findings made set-based in SQL, p95 of the
//    filter's first page through GraphQL. Target: p95 under 100 ms.
import type { BenchService } from '../lib/service.js';
import { LANGUAGES, multiLanguageJson } from '../lib/data.js';
import { percentile, timed } from '../lib/report.js';
import type { Figure } from '../lib/types.js';
import { withoutFindingsQueueForBenchmark } from '../../src/translations/gate.js';
import { pendingFindings, updaterStats } from '../../src/findings/updater.js';
import { prisma } from '../../src/db.js';

const KEYS = 10_000;
const RUNS = Number(process.env.FINDINGS_BENCH_RUNS ?? 3);
const progress = (line: string) => { if (process.env.FINDINGS_BENCH_PROGRESS) process.stderr.write(`${line}\n`); };

async function importFile(bench: BenchService, apiKey: string, file: Buffer): Promise<void> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(file)], { type: 'application/json' }), 'translations.json');
  const res = await fetch(`${bench.url}/api/v2/import?uploadFormat=multi-language-json`, { method: 'POST', headers: { 'x-service-token': apiKey }, body: form });
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${await res.text()}`);
}

async function drained(): Promise<void> {
  while ((await pendingFindings()) > 0) await new Promise((r) => setTimeout(r, 100));
}

const runs = (values: number[]) => values.map(Math.round).join('/');

export async function findingsScenario(bench: BenchService, db: Figure['db']): Promise<Figure[]> {
  // Every tenth text loses its placeholder: findings to store, as a real project has.
  const file = Buffer.from(multiLanguageJson(KEYS).toString().replace(/(text \d*0 v1 with )\{name\}/g, '$1name'));
  const rows = KEYS * LANGUAGES.length;
  const into = async (name: string) => importFile(bench, (await bench.project(name)).apiKey, file);
  const t = performance.now();
  await into('findings-warmup');
  progress(`warm-up import ${Math.round(performance.now() - t)} ms`);
  await drained();
  progress(`warm-up drained ${Math.round(performance.now() - t)} ms; updater ${JSON.stringify(updaterStats())}`);
  const on: number[] = [];
  const off: number[] = [];
  const settled: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    off.push((await timed(() => withoutFindingsQueueForBenchmark(() => into(`findings-off-${i}`)))).ms);
    const started = performance.now();
    on.push((await timed(() => into(`findings-on-${i}`))).ms);
    await drained();
    settled.push(performance.now() - started);
    progress(`run ${i}: off ${Math.round(off[i]!)} ms, on ${Math.round(on[i]!)} ms, settled ${Math.round(settled[i]!)} ms`);
  }
  const [{ n: stored }] = await prisma().$queryRawUnsafe<{ n: number }[]>(`/* bench:findings-count */ SELECT count(*)::int AS n FROM "Finding"`);
  const value = percentile(on, 50);
  const baseline = percentile(off, 50);
  return [{
    scenario: 'import 10k×10 with the findings queue', db, metric: 'time', value, unit: 'ms', baseline, ratio: value / baseline,
    target: 'ratio ≤ 1.15 (baseline: the same import, no cell queued)', met: value / baseline <= 1.15,
    note: `${rows} cells queued per run; runs on ${runs(on)} ms, off ${runs(off)} ms`,
  }, {
    scenario: 'import 10k×10 until every finding is stored', db, metric: 'time', value: percentile(settled, 50), unit: 'ms',
    note: `${rows} cells checked per run in the worker pool; runs ${runs(settled)} ms; ${stored} findings stored in all`,
  }];
}

// What the change history costs an import: 10,000 keys × 10 languages
// imported through REST into a new project with the write gate recording every
// cell's change event (as the service always does), against the same import
// with the gate as it was before change events
// (withoutCellEventsForBenchmark). Alternated, median of three each.
import type { BenchService } from '../lib/service.js';
import { LANGUAGES, multiLanguageJson } from '../lib/data.js';
import { percentile, timed } from '../lib/report.js';
import type { Figure } from '../lib/types.js';
import { withoutCellEventsForBenchmark } from '../../src/translations/gate.js';

const KEYS = 10_000;
const RUNS = 3;

async function importInto(bench: BenchService, name: string, file: Buffer): Promise<void> {
  const project = await bench.project(name);
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(file)], { type: 'application/json' }), 'translations.json');
  const res = await fetch(`${bench.url}/api/v2/import?uploadFormat=multi-language-json`, { method: 'POST', headers: { 'x-service-token': project.apiKey }, body: form });
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${await res.text()}`);
}

export async function historyScenario(bench: BenchService, db: Figure['db']): Promise<Figure[]> {
  const file = multiLanguageJson(KEYS);
  const on: number[] = [];
  const off: number[] = [];
  // A warm-up import, so neither side pays for the first one.
  await importInto(bench, 'history-warmup', file);
  for (let i = 0; i < RUNS; i++) {
    off.push((await timed(() => withoutCellEventsForBenchmark(() => importInto(bench, `history-off-${i}`, file)))).ms);
    on.push((await timed(() => importInto(bench, `history-on-${i}`, file))).ms);
  }
  const value = percentile(on, 50);
  const baseline = percentile(off, 50);
  const rows = KEYS * LANGUAGES.length;
  return [{
    scenario: 'import 10k×10 with change events', db, metric: 'time', value, unit: 'ms', baseline, ratio: value / baseline,
    target: 'ratio ≤ 1.3 (baseline: the same import without events)', met: value / baseline <= 1.3,
    note: `${rows} cell events; runs on ${on.map(Math.round).join('/')} ms, off ${off.map(Math.round).join('/')} ms`,
  }];
}

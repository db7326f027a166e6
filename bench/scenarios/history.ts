// What the change history costs an import and a re-import: 10,000 keys × 10
// languages imported by the import's domain function (bench/lib/import-direct.ts)
// with the write gate recording every cell's change event (as the service
// always does), against the same work with the gate as it was before change
// events (its `cellEvents` part left out).
// Alternated, median of three each. The re-import replaces every text of one
// project (a new version of the file each time), as the transfer scenario's
// re-import does: its ratio here is the part of that scenario's ratio the
// history accounts for.
import type { BenchService } from '../lib/service.js';
import { LANGUAGES, multiLanguageJson } from '../lib/data.js';
import { percentile, timed } from '../lib/report.js';
import type { Figure } from '../lib/types.js';
import { ALL_PARTS, type GateParts } from '../../src/content/translations/gate.js';
import { importDirect } from '../lib/import-direct.js';

/** The gate as it was before change events. */
const NO_EVENTS: GateParts = { ...ALL_PARTS, cellEvents: false };

const KEYS = 10_000;
const RUNS = 3;

const importInto = async (bench: BenchService, name: string, file: Buffer, gateParts?: GateParts) =>
  importDirect(bench, (await bench.project(name)).projectToken, file, { gateParts });
const runs = (values: number[]) => values.map(Math.round).join('/');

export async function historyScenario(bench: BenchService, db: Figure['db']): Promise<Figure[]> {
  const file = multiLanguageJson(KEYS);
  const rows = KEYS * LANGUAGES.length;
  const on: number[] = [];
  const off: number[] = [];
  // A warm-up import, so neither side pays for the first one.
  await importInto(bench, 'history-warmup', file);
  for (let i = 0; i < RUNS; i++) {
    off.push((await timed(() => importInto(bench, `history-off-${i}`, file, NO_EVENTS))).ms);
    on.push((await timed(() => importInto(bench, `history-on-${i}`, file))).ms);
  }
  const reOn: number[] = [];
  const reOff: number[] = [];
  const { projectToken } = await bench.project('history-reimport');
  await importDirect(bench, projectToken, file);
  let version = 1;
  const reimport = (gateParts?: GateParts) =>
    importDirect(bench, projectToken, multiLanguageJson(KEYS, LANGUAGES, ++version), {
      importOptions: ['REPLACE_TRANSLATION_IF_FOUND'],
      gateParts,
    });
  for (let i = 0; i < RUNS; i++) {
    reOff.push((await timed(() => reimport(NO_EVENTS))).ms);
    reOn.push((await timed(() => reimport())).ms);
  }
  const value = percentile(on, 50);
  const baseline = percentile(off, 50);
  const reValue = percentile(reOn, 50);
  const reBaseline = percentile(reOff, 50);
  return [
    {
      scenario: 'import 10k×10 with change events',
      db,
      metric: 'time',
      value,
      unit: 'ms',
      baseline,
      ratio: value / baseline,
      target: 'ratio ≤ 1.3 (baseline: the same import without events)',
      met: value / baseline <= 1.3,
      note: `${rows} cell events; runs on ${runs(on)} ms, off ${runs(off)} ms`,
    },
    {
      scenario: 're-import REPLACE 10k×10 with change events',
      db,
      metric: 'time',
      value: reValue,
      unit: 'ms',
      baseline: reBaseline,
      ratio: reValue / reBaseline,
      note: `baseline: the same re-import without events; ${rows} cells replaced per run; runs on ${runs(reOn)} ms, off ${runs(reOff)} ms`,
    },
  ];
}

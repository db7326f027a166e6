// The benchmark table of docs/benchmarks.md is generated from bench/results.json
// (the only copy of the figures): `npm run bench` rewrites it after a run,
// `npm run bench:table` from the file as it is. A unit test keeps the two in step.
import { readFileSync, writeFileSync } from 'node:fs';
import { load } from './report.js';
import type { Results } from './types.js';

export const RESULTS_PAGE = new URL('../../docs/benchmarks.md', import.meta.url);
const START = '<!-- bench-results: generated from bench/results.json by `npm run bench:table`; do not edit -->';
const END = '<!-- /bench-results -->';

const fmt = (n: number | undefined) =>
  n === undefined ? '' : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);
const cell = (s: string) => s.replace(/\|/g, '\\|');

export function resultsTable(results: Results): string {
  const lines = [
    '| scenario | db | metric | value | baseline | ratio | target | met | note | commit, date |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const f of results.figures) {
    lines.push(
      `| ${[
        f.scenario,
        f.db,
        f.metric,
        `${fmt(f.value)} ${f.unit}`,
        f.baseline === undefined ? '' : `${fmt(f.baseline)} ${f.unit}`,
        fmt(f.ratio),
        f.target ?? '',
        f.met === undefined ? '' : f.met ? 'yes' : '**no**',
        f.note ?? '',
        `${f.commit ?? ''}, ${f.at?.slice(0, 10) ?? ''}`,
      ]
        .map(cell)
        .join(' | ')} |`,
    );
  }
  const machines = [...new Set(results.figures.map((f) => f.machine).filter(Boolean))];
  lines.push('', `Machine: ${machines.join('; ') || 'unknown'}.`);
  return lines.join('\n');
}

/** The page with its generated section replaced by the table of `results`. */
export function pageWith(page: string, results: Results): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start)
    throw new Error(`docs/benchmarks.md lacks the generated benchmark section (${START} … ${END})`);
  return `${page.slice(0, start + START.length)}\n${resultsTable(results)}\n${page.slice(end)}`;
}

export function writeResultsPage(results: Results = load()): void {
  writeFileSync(RESULTS_PAGE, pageWith(readFileSync(RESULTS_PAGE, 'utf8'), results));
}

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { Figure, Results } from './types.js';

const fmt = (n: number | undefined) =>
  n === undefined ? '' : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);

export function machine(): string {
  return `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

export function table(figures: Figure[]): string {
  const rows = [['scenario', 'db', 'metric', 'value', 'baseline', 'ratio', 'target', 'met']];
  for (const f of figures) {
    rows.push([
      f.scenario,
      f.db,
      f.metric,
      `${fmt(f.value)} ${f.unit}`,
      f.baseline === undefined ? '' : `${fmt(f.baseline)} ${f.unit}`,
      fmt(f.ratio),
      f.target ?? '',
      f.met === undefined ? '' : f.met ? 'yes' : 'NO',
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

/** The commit measured, `+dirty` when the work tree had changes beyond the benchmark's own outputs (results.json, the table of docs/benchmarks.md, the large project's page and chart). */
export function commit(): string {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: new URL('../..', import.meta.url).pathname, encoding: 'utf8' }).trim();
  try {
    // The benchmark's own outputs do not make a run dirty.
    const changed = git(
      'status',
      '--porcelain',
      '--untracked-files=no',
      '--',
      '.',
      ':!bench/results.json',
      ':!docs/benchmarks.md',
      ':!docs/large-project.md',
      ':!docs/large-project.svg',
    );
    return `${git('rev-parse', '--short=12', 'HEAD')}${changed ? '+dirty' : ''}`;
  } catch {
    return 'unknown';
  }
}

export const RESULTS_FILE = new URL('../results.json', import.meta.url);

export function load(file = RESULTS_FILE): Results {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Results) : { figures: [] };
}

/**
 * Writes this run's figures into results.json, each stamped with the commit,
 * machine and date; figures of scenarios this run did not measure (--only,
 * --db) are kept with their own stamps.
 */
export function save(figures: Figure[], file = RESULTS_FILE): Results {
  const stamp = { commit: commit(), machine: machine(), at: new Date().toISOString() };
  const id = (f: Figure) => `${f.db}\u0000${f.scenario}\u0000${f.metric}`;
  const fresh = figures.map((f) => ({ ...f, ...stamp }));
  const measured = new Set(fresh.map(id));
  const kept = load(file).figures.filter((f) => f.commit && !measured.has(id(f)));
  const results: Results = { figures: [...kept, ...fresh] };
  mkdirSync(new URL('.', file), { recursive: true });
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  return results;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

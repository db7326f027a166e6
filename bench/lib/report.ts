import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { Figure } from './types.js';

const fmt = (n: number | undefined) => (n === undefined ? '' : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2));

export function machine(): string {
  return `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

export function table(figures: Figure[]): string {
  const rows = [['scenario', 'db', 'metric', 'value', 'baseline', 'ratio', 'target', 'met']];
  for (const f of figures) {
    rows.push([f.scenario, f.db, f.metric, `${fmt(f.value)} ${f.unit}`, f.baseline === undefined ? '' : `${fmt(f.baseline)} ${f.unit}`, fmt(f.ratio), f.target ?? '', f.met === undefined ? '' : f.met ? 'yes' : 'NO']);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

/**
 * Writes the run's figures into results.json, keeping the figures of
 * scenarios this run did not measure (`--only`, `--db`). Returns them all.
 */
export function save(figures: Figure[], file = new URL('../results.json', import.meta.url)): Figure[] {
  mkdirSync(new URL('.', file), { recursive: true });
  const id = (f: Figure) => `${f.scenario}|${f.db}|${f.metric}`;
  const measured = new Set(figures.map(id));
  let kept: Figure[] = [];
  try {
    kept = (JSON.parse(readFileSync(file, 'utf8')) as { figures: Figure[] }).figures.filter((f) => !measured.has(id(f)));
  } catch {
    // No earlier results.
  }
  const all = [...kept, ...figures];
  writeFileSync(file, JSON.stringify({ machine: machine(), at: new Date().toISOString(), figures: all }, null, 2) + '\n');
  return all;
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

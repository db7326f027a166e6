// The benchmark table of docs/benchmarks.md is generated from bench/results.json, the only
// copy of the figures: the two must not drift apart.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageWith, resultsTable } from '../../bench/lib/results-page.js';
import type { Results } from '../../bench/lib/types.js';

const results = JSON.parse(readFileSync(new URL('../../bench/results.json', import.meta.url), 'utf8')) as Results;
const page = readFileSync(new URL('../../docs/benchmarks.md', import.meta.url), 'utf8');

describe('benchmark figures', () => {
  it('the table of docs/benchmarks.md is the one generated from bench/results.json (npm run bench:table)', () => {
    expect(pageWith(page, results)).toBe(page);
  });

  it('every figure names the commit, machine and date it was measured at', () => {
    expect(results.figures.length).toBeGreaterThan(0);
    for (const f of results.figures) {
      expect(f.commit).toMatch(/^[0-9a-f]{7,40}(\+dirty)?$/);
      expect(f.machine).toBeTruthy();
      expect(Number.isNaN(Date.parse(f.at ?? ''))).toBe(false);
    }
    expect(resultsTable(results)).toContain(results.figures[0]!.commit!);
  });

  it('docs/import-export.md keeps no second copy of the figures', () => {
    const doc = readFileSync(new URL('../../docs/import-export.md', import.meta.url), 'utf8');
    expect(doc).not.toMatch(/\d[\d,.]* ?rows\/s/);
    expect(doc).not.toMatch(/× baseline/);
  });
});

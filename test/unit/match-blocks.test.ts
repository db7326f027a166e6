// The counts per block kept in memory (src/content/translations/match-blocks.ts): what a page finds of them,
// and how much of them is kept.
import { afterEach, describe, expect, it } from 'vitest';
import {
  blocksOf,
  cachedBlocks,
  dropBlocks,
  forgetBlocks,
  keptCounts,
  pageKeys,
  storeBlocks,
  totalOf,
  type MatchBlocks,
} from '../../src/content/translations/match-blocks.js';

/** An entry of `blocks` blocks, each holding `cells` matching cells in its first key. */
function entry(blocks: number, cells = 10): MatchBlocks {
  return blocksOf(
    Array.from({ length: blocks }, (_, i) => ({
      snapshot: '100:100:',
      ns0: '',
      k0: `key-${String(i).padStart(6, '0')}-a`,
      n: cells,
      per_key: `${cells},0`,
    })),
  );
}

afterEach(() => forgetBlocks());

describe('counts per block', () => {
  it("finds a page's keys from the cells before each block and each key", () => {
    const counted = entry(5);
    expect(totalOf(counted)).toBe(50);
    expect(counted.blocks.map((b) => b.before)).toEqual([0, 10, 20, 30, 40]);
    const first = (i: number): [string, string] => ['', `key-${String(i).padStart(6, '0')}-a`];
    expect(pageKeys(counted, 15, 10)).toEqual({
      runs: [
        { first: first(1), skip: 0, keys: 1, base: 0 },
        { first: first(2), skip: 0, keys: 1, base: 1 },
      ],
      before: [10, 20],
    });
    expect(pageKeys(counted, 20, 10)).toEqual({ runs: [{ first: first(2), skip: 0, keys: 1, base: 0 }], before: [20] });
    expect(pageKeys(counted, 50, 10)).toEqual({ runs: [], before: [] });
    // Keys and blocks without a matching cell hold no page: a run starts and ends at a key that holds one, and
    // a key inside it without one is read but not held (-1).
    const sparse = blocksOf([
      { snapshot: '1:1:', ns0: '', k0: 'a', n: 3, per_key: '0,2,0,1,0' },
      { snapshot: '1:1:', ns0: '', k0: 'f', n: 0, per_key: '0,0,0,0' },
      { snapshot: '1:1:', ns0: 'x', k0: 'j', n: 4, per_key: '0,0,3,1' },
    ]);
    expect(pageKeys(sparse, 0, 3)).toEqual({
      runs: [{ first: ['', 'a'], skip: 1, keys: 3, base: 0 }],
      before: [0, -1, 2],
    });
    expect(pageKeys(sparse, 2, 3)).toEqual({
      runs: [
        { first: ['', 'a'], skip: 3, keys: 1, base: 0 },
        { first: ['x', 'j'], skip: 2, keys: 1, base: 1 },
      ],
      before: [2, 3],
    });
    expect(pageKeys(sparse, 5, 10)).toEqual({
      runs: [{ first: ['x', 'j'], skip: 2, keys: 2, base: 0 }],
      before: [3, 6],
    });
    expect(pageKeys(sparse, 7, 1)).toEqual({ runs: [], before: [] });
  });

  it('keeps at most 65,536 blocks in all, dropping the least recently used entries first', () => {
    // Entries of a project of 200,000 keys in blocks of 64: 3,125 blocks each.
    for (let i = 0; i < 20; i++) storeBlocks(`filter-${i}`, entry(3_125));
    expect(keptCounts()).toEqual({ entries: 20, blocks: 62_500 });
    // Reading an entry makes it the most recently used.
    expect(cachedBlocks('filter-0')).toBeDefined();
    storeBlocks('filter-20', entry(3_125));
    expect(keptCounts()).toEqual({ entries: 20, blocks: 62_500 });
    expect(cachedBlocks('filter-1')).toBeUndefined();
    expect(cachedBlocks('filter-0')).toBeDefined();
    expect(cachedBlocks('filter-20')).toBeDefined();
    // One entry larger than the whole allowance is still kept, alone.
    storeBlocks('huge', entry(70_000, 1));
    expect(keptCounts()).toEqual({ entries: 1, blocks: 70_000 });
    // Stored again, an entry counts once.
    storeBlocks('huge', entry(10));
    expect(keptCounts()).toEqual({ entries: 1, blocks: 10 });
    dropBlocks('huge');
    expect(keptCounts()).toEqual({ entries: 0, blocks: 0 });
  });

  it('keeps at most 256 entries however small', () => {
    for (let i = 0; i < 300; i++) storeBlocks(`filter-${i}`, entry(1));
    expect(keptCounts()).toEqual({ entries: 256, blocks: 256 });
    expect(cachedBlocks('filter-43')).toBeUndefined();
    expect(cachedBlocks('filter-44')).toBeDefined();
  });

  it('forgets an entry counted more than ten minutes ago', () => {
    const counted = entry(2);
    storeBlocks('old', counted);
    expect(cachedBlocks('old', counted.countedAt + 10 * 60_000)).toBe(counted);
    expect(cachedBlocks('old', counted.countedAt + 10 * 60_000 + 1)).toBeUndefined();
    expect(keptCounts()).toEqual({ entries: 0, blocks: 0 });
  });
});

// The counts per block kept in memory (src/content/translations/match-blocks.ts): what a page finds of them,
// and how much of them is kept.
import { afterEach, describe, expect, it } from 'vitest';
import {
  blocksOf,
  blocksOfPage,
  cachedBlocks,
  dropBlocks,
  forgetBlocks,
  keptCounts,
  storeBlocks,
  totalOf,
  type MatchBlocks,
} from '../../src/content/translations/match-blocks.js';

/** An entry of `blocks` blocks, each holding `cells` matching cells. */
function entry(blocks: number, cells = 10): MatchBlocks {
  return blocksOf(
    Array.from({ length: blocks }, (_, i) => ({
      snapshot: '100:100:',
      ns0: '',
      k0: `key-${String(i).padStart(6, '0')}-a`,
      ns1: '',
      k1: `key-${String(i).padStart(6, '0')}-z`,
      n: cells,
    })),
  );
}

afterEach(() => forgetBlocks());

describe('counts per block', () => {
  it('finds the blocks that hold a page from the cells before each', () => {
    const counted = entry(5);
    expect(totalOf(counted)).toBe(50);
    expect(counted.blocks.map((b) => b.before)).toEqual([0, 10, 20, 30, 40]);
    expect(blocksOfPage(counted, 15, 10).map((b) => b.before)).toEqual([10, 20]);
    expect(blocksOfPage(counted, 20, 10).map((b) => b.before)).toEqual([20]);
    expect(blocksOfPage(counted, 50, 10)).toEqual([]);
    // A block without a matching cell holds no page.
    const sparse = blocksOf([
      { snapshot: '1:1:', ns0: '', k0: 'a', ns1: '', k1: 'b', n: 3 },
      { snapshot: '1:1:', ns0: '', k0: 'c', ns1: '', k1: 'd', n: 0 },
      { snapshot: '1:1:', ns0: '', k0: 'e', ns1: '', k1: 'f', n: 3 },
    ]);
    expect(blocksOfPage(sparse, 2, 2).map((b) => b.first[1])).toEqual(['a', 'e']);
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

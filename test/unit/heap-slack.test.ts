// The heap bound of large imports (src/heap-slack.ts): garbage past the bound
// is collected between chunks; below it nothing runs.
import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HeapBound, oldGenerationBytes, releaseFreedMemory, withHeapBound } from '../../src/heap-slack.js';

const used = () => getHeapStatistics().used_heap_size;
/** Heap committed by V8 beyond what is in use: what a collection may leave resident. */
const slack = () => getHeapStatistics().total_heap_size - getHeapStatistics().used_heap_size;

/** Garbage: about `mib` MiB of strings, dropped at once. */
function litter(mib: number): number {
  let length = 0;
  for (let i = 0; i < mib * 16; i++)
    length += Array.from({ length: 1024 }, (_, j) => `${i}:${j}:`.padEnd(32, 'x')).length;
  return length;
}

describe('HeapBound', () => {
  it('collects once the heap has grown past its bound, and not below it', () => {
    const bound = new HeapBound(used() + 512 * 2 ** 20);
    bound.check();
    expect(bound.collections).toBe(0);
    const low = new HeapBound(1);
    litter(32);
    const before = used();
    low.check();
    expect(low.collections).toBe(1);
    expect(used()).toBeLessThan(before);
  });

  it('leaves the young generation to V8: what sits there is no reason for a full collection', () => {
    // A large array is allocated in the young generation's large-object space and stays there until the next
    // scavenge: the heap is past the bound, the old generation below it (a findings batch in its worker thread).
    const bound = new HeapBound(oldGenerationBytes() + 16 * 2 ** 20);
    const young = new Array<number>(4_000_000).fill(1);
    expect(used()).toBeGreaterThan(oldGenerationBytes() + 16 * 2 ** 20);
    bound.check();
    expect(bound.collections).toBe(0);
    expect(young.length).toBe(4_000_000);
  });

  it('runs between the items of a stream and once more at its end when it collected at all', async () => {
    const bound = new HeapBound(1);
    const seen: number[] = [];
    let atLast = 0;
    for await (const item of withHeapBound([1, 2, 3], bound)) {
      seen.push(item);
      // Only the first item leaves garbage: a collection after the last is the end's.
      if (item === 1) litter(4);
      else atLast = bound.collections;
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(atLast).toBeGreaterThanOrEqual(1);
    expect(bound.collections).toBe(atLast + 1);
    // One item: nothing to collect between, whatever the heap holds (a small import on a busy service).
    const single = new HeapBound(1);
    for await (const _ of withHeapBound([1], single)) litter(4);
    expect(single.collections).toBe(0);
    const idle = new HeapBound(Number.MAX_SAFE_INTEGER);
    for await (const _ of withHeapBound([1, 2], idle)) litter(1);
    expect(idle.collections).toBe(0);
  });
});

describe('releaseFreedMemory', () => {
  it('gives back the pages a burst of garbage grew the heap by, not only the objects', () => {
    // Live while it is built, so the heap grows (the young generation too, and pages the collection empties).
    const kept = Array.from({ length: 32 }, (_, i) =>
      Array.from({ length: 8 * 1024 }, (_, j) => `${i}:${j}`.padEnd(48, 'x')),
    );
    expect(kept.length).toBe(32);
    kept.length = 0;
    releaseFreedMemory();
    // A plain full collection frees the objects but keeps their pages committed (about 67 MiB more here).
    expect(slack()).toBeLessThan(24 * 2 ** 20);
  }, 60_000);
});

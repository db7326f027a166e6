// The chunks of a streamed import are parsed one ahead of the write (src/transfer/read-ahead.ts).
import { setImmediate } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { readAhead } from '../../../src/transfer/read-ahead.js';

/** A source that records what was asked of it, failing at `failAt` when given. */
function source(count: number, failAt?: number) {
  const log: string[] = [];
  async function* items(): AsyncGenerator<number> {
    try {
      for (let i = 1; i <= count; i++) {
        log.push(`read ${i}`);
        await setImmediate();
        if (i === failAt) throw new Error(`broken at ${i}`);
        yield i;
      }
    } finally {
      log.push('closed');
    }
  }
  return { log, items: items() };
}

describe('readAhead', () => {
  it('hands out every item in order, and reads the next one while the consumer works on the current one', async () => {
    const { log, items } = source(3);
    const seen: number[] = [];
    for await (const item of readAhead(items)) {
      seen.push(item);
      log.push(`write ${item} starts`);
      // The consumer waits for its database: the read ahead runs meanwhile.
      await setImmediate();
      await setImmediate();
      log.push(`write ${item} ends`);
    }
    expect(seen).toEqual([1, 2, 3]);
    // The next read starts after the consumer began with its item, and before it ends.
    expect(log).toEqual([
      'read 1',
      'write 1 starts',
      'read 2',
      'write 1 ends',
      'write 2 starts',
      'read 3',
      'write 2 ends',
      'write 3 starts',
      'closed',
      'write 3 ends',
    ]);
  });

  it('holds at most one item ahead', async () => {
    const { log, items } = source(5);
    const reader = readAhead(items);
    await reader.next();
    for (let i = 0; i < 10; i++) await setImmediate();
    expect(log).toEqual(['read 1', 'read 2']);
    await reader.return(undefined);
  });

  it("gives the source's error when the consumer asks for that item, after writing the ones before", async () => {
    const { items } = source(5, 3);
    const written: number[] = [];
    await expect(
      (async () => {
        for await (const item of readAhead(items)) written.push(item);
      })(),
    ).rejects.toThrow('broken at 3');
    expect(written).toEqual([1, 2]);
  });

  it('closes the source when the consumer stops (its own error)', async () => {
    const { log, items } = source(5);
    await expect(
      (async () => {
        for await (const item of readAhead(items)) if (item === 2) throw new Error('the write failed');
      })(),
    ).rejects.toThrow('the write failed');
    expect(log.at(-1)).toBe('closed');
    expect(log).not.toContain('read 4');
  });
});

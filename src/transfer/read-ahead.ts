// The chunks of a streamed import, one read ahead: while a chunk is written
// (the database works, the process waits for its answer), the next one is
// parsed from the upload. At most two chunks are held.
import { setImmediate } from 'node:timers/promises';

/**
 * Yields the items of `source`, asking it for the next one once an item has
 * been handed out. The next read starts a turn of the event loop later, so
 * that what the consumer does with an item first (sending its statements)
 * goes before it. An error of the read ahead comes out where it would have
 * without it: when the consumer asks for that item.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const items = source[Symbol.asyncIterator]();
  let next: Promise<IteratorResult<T>> | undefined = items.next();
  try {
    for (;;) {
      const result: IteratorResult<T> = await next;
      next = undefined;
      if (result.done) return;
      const ahead = setImmediate().then(() => items.next());
      // Awaited at the next round; meanwhile its rejection is not unhandled.
      ahead.catch(() => undefined);
      next = ahead;
      yield result.value;
    }
  } finally {
    // The consumer stopped (an error, a refusal): the source is closed once its read ahead is over.
    if (next) {
      const pending = await next.then(
        (r) => !r.done,
        () => false,
      );
      if (pending) await items.return?.();
    }
  }
}

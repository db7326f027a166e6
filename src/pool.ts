// Bounded concurrency over an async source: publishing stores a few files at
// a time, an export stores its files a few at a time.

/** Runs `worker` over the items of a source with at most `limit` in flight; stops at the first error. */
export async function pool<T>(source: AsyncIterable<T> | Iterable<T>, limit: number, worker: (item: T, index: number) => Promise<void>): Promise<void> {
  const iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : (async function* () { yield* source; })();
  let pulled = 0;
  let failed: unknown;
  let hasFailed = false;
  // The source is an async generator: pulls must not overlap, and each gets its index in order.
  let pulling = Promise.resolve();
  const next = (): Promise<{ result: IteratorResult<T>; index: number }> => {
    const index = pulled++;
    const result = pulling.then(() => iterator.next()).then((r) => ({ result: r, index }));
    pulling = result.then(() => undefined, () => undefined);
    return result;
  };
  const lane = async () => {
    while (!hasFailed) {
      const { result, index } = await next();
      if (result.done) return;
      await worker(result.value, index);
    }
  };
  await Promise.all(Array.from({ length: limit }, () => lane().catch((error) => {
    if (!hasFailed) { hasFailed = true; failed = error; }
  })));
  if (hasFailed) {
    await iterator.return?.(undefined);
    throw failed;
  }
}

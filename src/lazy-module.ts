// Libraries that only some requests or configurations use are loaded on first
// use instead of at start-up: each one loaded costs the idle service megabytes
// of resident memory for good (docs/architecture.md, "Memory"). Where the
// caller is async, a dynamic import() does it; this is for CommonJS libraries
// needed by synchronous code.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A function that requires `id` the first time it is called and returns the same module after. */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}

// The worker threads that compute findings (check-worker.ts), one pool per
// process, started with the first batch. From the sources (tests, tsx) a
// thread boots through tsx's loader; from the bundle it runs the built worker.
import { Piscina } from 'piscina';
import { checkCells, type CheckBatch, type StoredFinding } from './check-worker.js';

/**
 * Batches of up to this many cells (a few one-cell writes' worth) are checked
 * in the calling thread: a cell's checks take tens of microseconds, less than
 * handing the batch to a worker thread and its findings back, and a write's
 * round then starts no thread (docs/benchmarks.md, "The per-request path").
 */
export const INLINE_CELLS = 16;

let pool: Piscina<CheckBatch, StoredFinding[][]> | undefined;
let size = 1;
/** How long an idle thread is kept (ms). */
let idleMs = 10_000;

function workerFile(): string {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return new URL('./check-worker-boot.mjs', here).href;
  // The bundle: this code sits in dist/ (main.js or a chunk), the worker entry in dist/findings/.
  return new URL('./findings/check-worker.js', here).href;
}

/** Threads used by the pool from its next start (config FINDINGS_THREADS). */
export function setCheckThreads(threads: number): void {
  size = Math.max(1, threads);
}

/** How long an idle thread is kept, from the pool's next start (tests shorten it). */
export function setCheckIdleMs(ms: number): void {
  idleMs = ms;
}

/** Threads the pool runs now (0 when it has none or is not started). */
export function checkThreadCount(): number {
  return pool?.threads.length ?? 0;
}

export function checkPool(): Piscina<CheckBatch, StoredFinding[][]> {
  pool ??= new Piscina<CheckBatch, StoredFinding[][]>({
    filename: workerFile(),
    // No thread is kept for good: piscina ends an idle thread only while the
    // pool has more than minThreads, so with minThreads 1 (and one thread on a
    // two-core machine) the thread and its heap stayed for the process's life
    // after the first batch (docs/quality-checks.md, "Memory").
    minThreads: 0,
    maxThreads: size,
    idleTimeout: idleMs,
  });
  return pool;
}

/** Checks a batch: a few cells in this thread, more in the pool's threads. */
export async function checkBatchCells(batch: CheckBatch): Promise<StoredFinding[][]> {
  return batch.cells.length <= INLINE_CELLS ? checkCells(batch) : runInPool(batch);
}

/** Checks a batch split across the pool's threads. */
export async function runInPool(batch: CheckBatch): Promise<StoredFinding[][]> {
  const parts = Math.min(size, Math.ceil(batch.cells.length / 200));
  if (parts <= 1) return checkPool().run(batch);
  const per = Math.ceil(batch.cells.length / parts);
  const results = await Promise.all(
    Array.from({ length: parts }, (_, i) =>
      checkPool().run({ settings: batch.settings, cells: batch.cells.slice(i * per, (i + 1) * per) }),
    ),
  );
  return results.flat();
}

export async function closeCheckPool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.destroy();
}

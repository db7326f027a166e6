// A worker thread of the findings updater's pool (pool.ts): runs the quality
// checks of a batch of cells, so the service's event loop stays free while
// tens of thousands of cells are checked after an import.
import { runChecks, type CheckSettings, type Dialect } from '../checks/index.js';
import type { MessageText } from '../message-text.js';
import { HeapBound } from '../heap-slack.js';
import { setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/**
 * The nice value of a check thread: findings are background work, and the
 * cores are the requests' first (the service's thread and the database's
 * processes serving them). On Linux a thread's nice value is its own
 * (setpriority(2), "BUGS"), so only this thread yields; elsewhere it would be
 * the whole process's, and it is left alone.
 */
export const CHECK_THREAD_NICE = 10;
if (!isMainThread && process.platform === 'linux') setPriority(CHECK_THREAD_NICE);

/**
 * Below this the thread's heap is left to V8. A batch's cells and findings
 * live until it has been checked, long enough to reach the old generation,
 * which V8 lets grow to a multiple of what the thread keeps (its modules, the
 * checks' data) before it collects; the bound collects between batches, as
 * the updater does in the service's thread (updater.ts).
 */
export const WORKER_HEAP_FLOOR_BYTES = 32 * 2 ** 20;
/** The thread's bound (exported for its test). */
export const workerHeap = new HeapBound(WORKER_HEAP_FLOOR_BYTES);

/** One cell: the index of its project's settings, its source text, its text, the two languages, the characters limit. */
export type CheckCell = [
  settings: number,
  source: string,
  target: string,
  sourceLanguage: string,
  targetLanguage: string,
  charactersLimit: number | null,
  dialect: Dialect,
];

export interface CheckBatch {
  settings: CheckSettings[];
  cells: CheckCell[];
}

/** A finding as it travels back: check, severity, message, span start, span end, the message as data. */
export type StoredFinding = [
  check: string,
  severity: string,
  message: string,
  start: number | null,
  end: number | null,
  text: MessageText | null,
];

/** The findings of each cell, in the order of the batch. */
export function checkBatch(batch: CheckBatch): StoredFinding[][] {
  const findings = checkCells(batch);
  workerHeap.check();
  return findings;
}

/** The findings of each cell, in the order of the batch, without the thread's collection (pool.ts checks a few cells in the service's thread). */
export function checkCells(batch: CheckBatch): StoredFinding[][] {
  return batch.cells.map(([settings, source, target, sourceLanguage, targetLanguage, charactersLimit, dialect]) => {
    if (target === '') return [];
    // A cell with no source (the default language's own, or a key without a source text) is checked alone, as the editor does.
    const alone = source === '';
    const findings = runChecks(
      {
        source: alone ? target : source,
        target,
        sourceLanguage,
        targetLanguage: alone ? sourceLanguage : targetLanguage,
        charactersLimit,
        dialect,
      },
      batch.settings[settings],
    );
    return findings.map((f) => [f.check, f.severity, f.message, f.span?.start ?? null, f.span?.end ?? null, f.text]);
  });
}

export default checkBatch;

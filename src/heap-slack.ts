// V8 collects its old generation when the heap has grown to a multiple of what
// was reachable after the last collection, a multiple chosen for throughput.
// A streamed import allocates fast and keeps little (one chunk, the names of
// the keys met: docs/import-export.md, "Large files"), so with V8's defaults
// a large import's heap grows to several times what is reachable (the figures:
// docs/benchmarks.md, "Figures behind constants in the code"). Between the
// chunks of a large import a full collection runs once the heap has grown past
// GROWTH times what the last one left (at least HEAP_FLOOR_BYTES): a small
// import never reaches that and pays nothing. After a large import, one more
// collection and a trim of glibc's arenas give back what it used
// (native-memory.ts). That collection is V8's memory-reducing one: a plain
// full collection frees the objects but keeps the heap's pages committed
// (its young generation at the size the burst grew it to, emptied pages
// pooled for reuse), which stayed resident (docs/benchmarks.md, "The memory
// an embedded service keeps after a large import's findings").
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { trimNativeHeap } from './native-memory.js';

/** Below this the heap is left to V8: twice an idle service's. */
export const HEAP_FLOOR_BYTES = 128 * 2 ** 20;
const GROWTH = 1.25;

type Gc = (options?: { type: 'major'; flavor: 'last-resort' }) => void;

let collect: Gc | undefined;

/** V8's gc(), exposed at run time (the flag is read when a context is created). */
function gc(): Gc {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Gc;
  }
  return collect;
}

/**
 * A full collection that also shrinks the heap: V8's "last resort" flavor
 * (CollectAllAvailableGarbage, the collection of a memory-reducing pass)
 * collects until nothing more is freed, shrinks the young generation and
 * releases the pooled empty pages. It costs several full collections, so it
 * runs once work is over, never between chunks.
 */
function collectAndShrink(): void {
  gc()({ type: 'major', flavor: 'last-resort' });
}

/** The young generation's spaces: garbage there goes at the next scavenge, which a full collection does not speed up. */
const YOUNG_SPACES = new Set(['new_space', 'new_large_object_space']);

/**
 * The bytes in use in the old generation: the part that grows until V8's own
 * full collection, and the only part a full collection is needed for. The
 * whole heap counted the young generation's garbage too, so in the findings
 * worker (a floor of 32 MiB, a young generation of up to 32 MiB) nearly
 * every batch of one-cell writes' findings ran a full collection of 30–100 ms
 * (docs/benchmarks.md, "The per-request path").
 */
export function oldGenerationBytes(): number {
  let young = 0;
  for (const space of getHeapSpaceStatistics()) if (YOUNG_SPACES.has(space.space_name)) young += space.space_used_size;
  return getHeapStatistics().used_heap_size - young;
}

/** Collects garbage when the old generation has grown past its bound since the last collection made here. */
export class HeapBound {
  private bound: number;
  collections = 0;
  ms = 0;

  constructor(private readonly floor = HEAP_FLOOR_BYTES) {
    this.bound = floor;
  }

  check(): void {
    if (oldGenerationBytes() >= this.bound) this.collect();
  }

  /** At the end of the work: when it was large enough to collect during, what it left goes back to the system. */
  finish(): void {
    if (this.collections === 0) return;
    const started = performance.now();
    collectAndShrink();
    this.ms += performance.now() - started;
    this.collections++;
    trimNativeHeap();
  }

  private collect(): void {
    const started = performance.now();
    gc()();
    this.ms += performance.now() - started;
    this.collections++;
    this.bound = Math.max(this.floor, oldGenerationBytes() * GROWTH);
  }
}

/**
 * After a large piece of background work (the findings of an import): a
 * memory-reducing collection and a trim of glibc's arenas, so what it freed
 * goes back to the system instead of staying resident until V8 and malloc
 * reuse it.
 */
export function releaseFreedMemory(): void {
  collectAndShrink();
  trimNativeHeap();
}

/**
 * The items of `source`, with the heap checked before each one after the
 * first. The heap is the process's: on a busy service it is past the floor
 * with other requests' garbage, so a check after a one-item source (a small
 * import, one chunk) would stop the process for a full collection, and a
 * memory-reducing one at the end, for nothing the source left (the overload
 * soak, docs/benchmarks.md). A source of several items collects between them
 * as before; the end's collection follows the last.
 */
export async function* withHeapBound<T>(
  source: Iterable<T> | AsyncIterable<T>,
  bound = new HeapBound(),
): AsyncIterable<T> {
  let first = true;
  for await (const item of source) {
    if (!first) bound.check();
    first = false;
    yield item;
  }
  bound.finish();
}

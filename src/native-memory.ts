// Native (malloc) memory the process gives back. glibc's malloc maps a large
// block apart (from 128 KiB) and unmaps it when it is freed, but each such free
// raises that threshold to the block's size (up to 32 MiB): later blocks of
// that size come from its arenas, which keep them resident once freed. Starting
// the service frees many large blocks (compiling PGlite's and Prisma's
// WebAssembly, among others), which an idle service then kept resident. With
// the threshold fixed at glibc's starting value it holds less, and import and
// export run as fast (docs/benchmarks.md, "Figures behind constants in the code").
import { createRequire } from 'node:module';

/** glibc's starting mmap threshold: blocks from this size on are mapped apart and returned when freed. */
export const MMAP_THRESHOLD_BYTES = 128 * 1024;
/** mallopt's parameter number for the threshold (malloc.h). */
const M_MMAP_THRESHOLD = -3;

export type MmapThresholdOutcome = 'fixed' | 'set by MALLOC_MMAP_THRESHOLD_' | 'not glibc' | 'unavailable';

type Mallopt = (param: number, value: number) => number;

/** glibc's mallopt, through koffi: a call into libc without a compiled addon of ours (prebuilt binaries from the npm registry). */
function libcMallopt(): Mallopt {
  const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
  return koffi.load('libc.so.6').func('int mallopt(int param, int value)') as Mallopt;
}

/**
 * Fixes glibc's mmap threshold (mallopt), unless the environment already sets
 * it. Elsewhere (macOS, musl) it does nothing: only glibc adapts its threshold.
 * Call it first thing: it applies to blocks allocated from then on. If koffi
 * cannot load (no binary for the platform), it warns and the service runs on.
 */
export function fixMmapThreshold(openMallopt: () => Mallopt = libcMallopt): MmapThresholdOutcome {
  if (process.env.MALLOC_MMAP_THRESHOLD_ !== undefined) return 'set by MALLOC_MMAP_THRESHOLD_';
  const report =
    process.platform === 'linux'
      ? (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)
      : undefined;
  if (!report?.header?.glibcVersionRuntime) return 'not glibc';
  try {
    const mallopt = openMallopt();
    // mallopt answers 1 on success; it refuses only values out of range, which this one is not.
    if (mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) !== 1) throw new Error('mallopt refused the value');
  } catch (error) {
    // Memory, not correctness: the service runs without it, and says so.
    process.emitWarning(
      `glibc's mmap threshold could not be fixed (${(error as Error).message}): an idle service may hold some 50 MiB more`,
    );
    return 'unavailable';
  }
  return 'fixed';
}

let trim: ((pad: number) => number) | undefined | null;

/**
 * Gives the free memory of glibc's arenas back to the system (malloc_trim):
 * after a large import, what its statements and buffers freed stays resident
 * in the arenas otherwise. Does nothing where it is not glibc or koffi cannot load.
 */
export function trimNativeHeap(): boolean {
  if (trim === undefined) {
    const report =
      process.platform === 'linux'
        ? (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)
        : undefined;
    try {
      trim = report?.header?.glibcVersionRuntime
        ? ((createRequire(import.meta.url)('koffi') as typeof import('koffi'))
            .load('libc.so.6')
            .func('int malloc_trim(size_t pad)') as (pad: number) => number)
        : null;
    } catch {
      trim = null;
    }
  }
  return trim ? trim(0) === 1 : false;
}

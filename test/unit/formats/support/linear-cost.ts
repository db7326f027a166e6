// Cost checks that a loaded machine cannot fail.
//
// They measure the CPU time of this test process (process.cpuUsage: user +
// system), not wall-clock time: other processes on a shared 2-core machine
// stall the clock but do not add to our CPU time. Vitest runs each test file in
// its own process (the default `forks` pool), so other files do not count
// either. The bounds only catch pathological growth (quadratic or exponential
// work, a billion-laughs expansion); speed itself is the benchmark's business
// (bench/).

/** CPU milliseconds this process has used so far. Subtract two readings. */
export function cpuClock(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The bound for "refused quickly" checks on hostile input. Each such input
 * costs milliseconds when the limit works and minutes (or all memory) when it
 * does not, so the bound is far above any honest cost.
 */
export const PATHOLOGICAL_CPU_MS = 10_000;

/** A test timeout that leaves room for PATHOLOGICAL_CPU_MS on a loaded machine. */
export const HOSTILE_TEST_TIMEOUT = 60_000;

// Detects work that grows with the square of the input: measures `run(n)` for
// a small and an eight times larger n and returns the ratio of CPU times.
// Linear code gives about 8, quadratic 64. Each measurement repeats the run
// for at least 30 ms and keeps the best of three; a ratio that looks too high
// is measured again (up to five times, the lowest wins), since noise (GC,
// JIT) can only inflate a measurement, never make quadratic code look
// linear. Callers accept ratios below 32.
export async function costRatio(run: (n: number) => Promise<unknown>, small = 1000): Promise<number> {
  const perRun = async (n: number) => {
    let best = Infinity;
    for (let trial = 0; trial < 3; trial++) {
      let count = 0;
      const start = cpuClock();
      do {
        await run(n);
        count++;
      } while (cpuClock() - start < 30);
      best = Math.min(best, (cpuClock() - start) / count);
    }
    return best;
  };
  await run(small); // warm up the JIT
  let ratio = Infinity;
  for (let attempt = 0; attempt < 5 && ratio >= 16; attempt++) {
    ratio = Math.min(ratio, (await perRun(small * 8)) / (await perRun(small)));
  }
  return ratio;
}

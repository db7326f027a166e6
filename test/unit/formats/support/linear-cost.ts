// Detects work that grows with the square of the input: times `run(n)` for a
// small and an eight times larger n and returns the ratio. Linear code gives
// about 8, quadratic 64. Each timing repeats the run for at least 30 ms and
// keeps the best of three; a ratio that looks too high is measured again (up
// to three times, the lowest wins), since a loaded machine can stall any one
// measurement but cannot make quadratic code look linear. Callers accept
// ratios below 32.
export async function costRatio(run: (n: number) => Promise<unknown>, small = 1000): Promise<number> {
  const perRun = async (n: number) => {
    let best = Infinity;
    for (let trial = 0; trial < 3; trial++) {
      let count = 0;
      const start = performance.now();
      do {
        await run(n);
        count++;
      } while (performance.now() - start < 30);
      best = Math.min(best, (performance.now() - start) / count);
    }
    return best;
  };
  await run(small); // warm up the JIT
  let ratio = Infinity;
  for (let attempt = 0; attempt < 3 && ratio >= 16; attempt++) {
    ratio = Math.min(ratio, (await perRun(small * 8)) / (await perRun(small)));
  }
  return ratio;
}

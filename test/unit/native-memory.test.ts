// fixMmapThreshold: after it, large blocks a process frees go back to the
// system; without it glibc keeps them once it has raised its threshold. Each
// case runs in a child process of its own (the setting is process-wide).
import { spawnSync } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { fixMmapThreshold, MMAP_THRESHOLD_BYTES } from '../../src/native-memory.js';

const glibc = !!(process.report?.getReport() as { header?: { glibcVersionRuntime?: string } }).header
  ?.glibcVersionRuntime;

/**
 * Frees 64 blocks of 1 MiB (written, so resident) a few times and answers how
 * many MiB stay resident after the last round, and what fixMmapThreshold said.
 */
function retainedAfterFrees(
  fix: boolean,
  env: Record<string, string> = {},
): { retainedMiB: number; outcome: string | null } {
  const script = `
    import { fixMmapThreshold } from './src/native-memory.ts';
    const outcome = ${fix} ? fixMmapThreshold() : null;
    const rss = () => process.memoryUsage.rss() / 2 ** 20;
    const round = () => {
      let blocks = [];
      for (let i = 0; i < 64; i++) blocks.push(Buffer.allocUnsafeSlow(2 ** 20).fill(i));
      blocks = null;
      globalThis.gc();
      globalThis.gc();
    };
    round();
    const before = rss();
    round();
    round();
    console.log(JSON.stringify({ retainedMiB: rss() - before, outcome, before }));
  `;
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as { retainedMiB: number; outcome: string | null };
}

// Each case starts two Node processes through tsx: seconds on a loaded machine, past the default 5 s.
describe.runIf(glibc)('fixMmapThreshold (glibc)', { timeout: 60_000 }, () => {
  it('gives freed large blocks back to the system, where glibc alone keeps them', () => {
    const fixed = retainedAfterFrees(true);
    expect(fixed.outcome).toBe('fixed');
    const unfixed = retainedAfterFrees(false);
    // The 1 MiB blocks are above the fixed threshold: mapped apart and unmapped when freed.
    expect(MMAP_THRESHOLD_BYTES).toBeLessThan(2 ** 20);
    expect(fixed.retainedMiB).toBeLessThan(8);
    // Without it, glibc raised its threshold past 1 MiB and kept the blocks in its heap.
    expect(unfixed.retainedMiB).toBeGreaterThan(fixed.retainedMiB + 32);
  });

  it('leaves a threshold the environment sets alone', () => {
    expect(retainedAfterFrees(true, { MALLOC_MMAP_THRESHOLD_: '4194304' }).outcome).toBe(
      'set by MALLOC_MMAP_THRESHOLD_',
    );
  });

  it('warns and lets the service run on when libc cannot be reached', () => {
    // The warning is caught here rather than printed: the suite's output stays for warnings that mean something.
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      expect(
        fixMmapThreshold(() => {
          throw new Error('no koffi binary for this platform');
        }),
      ).toBe('unavailable');
      expect(emitted).toHaveBeenCalledWith(expect.stringContaining('no koffi binary for this platform'));
    } finally {
      emitted.mockRestore();
    }
  });
});

// With TEST_CPU_LOG=<file>, each test file appends one JSON line to that file: the CPU its worker spent
// on it (`self`: the test, its in-process service, PGlite) and the CPU of the worker's child processes
// in that time (`children`: service processes, Chromium, initdb, heap-capped parsers; those that exited
// and those still running), in milliseconds, with its wall time. A worker runs one file at a time, so the
// figures are the file's own. Wall times of a whole run say little about what a file costs: they stretch
// with whatever else runs (docs/testing.md, "Where the suite's time goes").
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { liveProcesses, readProcStat } from '../../scripts/lib/proc-stat.js';

const log = process.env.TEST_CPU_LOG;

/** Milliseconds of CPU of this process, and of its children: reaped, and alive (their whole tree). */
function cpu(): { self: number; children: number } {
  const self = readProcStat('self');
  const processes = liveProcesses();
  let alive = 0;
  const walk = (parent: number) => {
    for (const [pid, stat] of processes)
      if (stat.parent === parent) {
        alive += stat.cpuMs;
        walk(pid);
      }
  };
  walk(process.pid);
  return { self: self.cpuMs, children: self.reapedChildrenMs + alive };
}

if (log) {
  let start: { self: number; children: number; at: number; file: string; project: string } | undefined;
  // Vitest passes the file's suite second; its first parameter must be a destructuring pattern.
  // eslint-disable-next-line no-empty-pattern
  beforeAll(({}, suite) => {
    start = { ...cpu(), at: Date.now(), file: suite.file.filepath, project: suite.file.projectName ?? '' };
  });
  afterAll(() => {
    if (!start) return;
    const end = cpu();
    const line = {
      file: start.file.slice(start.file.indexOf('/test/') + 1),
      project: start.project,
      self: end.self - start.self,
      children: end.children - start.children,
      wall: Date.now() - start.at,
    };
    appendFileSync(log, JSON.stringify(line) + '\n');
  });
}

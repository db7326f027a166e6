// With TEST_CPU_LOG=<file>, each test file appends one JSON line to that file: the CPU its worker spent
// on it (`self`: the test, its in-process service, PGlite) and the CPU of the worker's child processes
// in that time (`children`: service processes, Chromium, initdb, heap-capped parsers; those that exited
// and those still running), in milliseconds, with its wall time. A worker runs one file at a time, so the
// figures are the file's own. Wall times of a whole run say little about what a file costs: they stretch
// with whatever else runs (docs/testing.md, "Where the suite's time goes").
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';

const log = process.env.TEST_CPU_LOG;

/** utime, stime, cutime and cstime of a process, in clock ticks (/proc/<pid>/stat, fields 14–17). */
function times(pid: string): number[] {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return fields.slice(11, 15).map(Number);
}

/** Milliseconds of CPU of this process, and of its children: reaped (cutime, cstime) and alive (their whole tree). */
function cpu(): { self: number; children: number } {
  const ms = 1000 / 100; // USER_HZ is 100 on Linux
  const [utime, stime, cutime, cstime] = times('self');
  const childrenOf = new Map<string, string[]>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const parent = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]!;
      childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), pid]);
    } catch {
      // exited while listed
    }
  }
  let alive = 0;
  const walk = (pid: string) => {
    for (const child of childrenOf.get(pid) ?? []) {
      try {
        const [u, s] = times(child);
        alive += u! + s!;
      } catch {
        // exited while listed
      }
      walk(child);
    }
  };
  walk(String(process.pid));
  return { self: (utime! + stime!) * ms, children: (cutime! + cstime! + alive) * ms };
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

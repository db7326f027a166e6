// A process's line of Linux /proc/<pid>/stat, read by the tests and benchmarks that measure processes
// (CPU per test file, a cluster's workers, the database's backends, the soak's service).
import { readFileSync, readdirSync } from 'node:fs';

/** Linux counts CPU times in /proc in ticks of 1/100 s (USER_HZ). */
const MS_PER_TICK = 10;

export interface ProcStat {
  /** The parent's pid. */
  parent: number;
  /** CPU of the process itself (user and system), in ms. */
  cpuMs: number;
  /** CPU of its children that ended and were reaped (user and system), in ms. */
  reapedChildrenMs: number;
}

/** Parses a /proc/<pid>/stat (or /proc/<pid>/task/<tid>/stat) text. */
export function parseProcStat(text: string): ProcStat {
  // The fields after the command's closing parenthesis (the command itself may hold spaces and parentheses):
  // state, the parent's pid, …, utime and stime (the 12th and 13th), cutime and cstime (14th and 15th).
  const fields = text
    .slice(text.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return {
    parent: fields[1]!,
    cpuMs: (fields[11]! + fields[12]!) * MS_PER_TICK,
    reapedChildrenMs: (fields[13]! + fields[14]!) * MS_PER_TICK,
  };
}

/** The stat of process `pid` (or of `self`); throws when the process is gone. */
export function readProcStat(pid: number | 'self'): ProcStat {
  return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** Every live process's stat, by pid (a process that ends while listed is left out). */
export function liveProcesses(): Map<number, ProcStat> {
  const found = new Map<number, ProcStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      found.set(Number(entry), readProcStat(Number(entry)));
    } catch {
      // gone in between
    }
  }
  return found;
}

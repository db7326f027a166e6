// Where a process's resident memory is, read from outside it
// (/proc/<pid>/smaps): pages of mapped files (the node binary and shared
// libraries) and anonymous memory (V8's heap, WebAssembly memories and code,
// buffers, native allocations).
import { readFileSync } from 'node:fs';

export interface MemoryBreakdown {
  /** MiB. */
  rss: number;
  file: number;
  anonymous: number;
}

export function processMemory(pid: number): MemoryBreakdown {
  let inode = 0;
  let file = 0;
  let anonymous = 0;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)/.exec(line);
    if (header) {
      inode = Number(header[1]);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (!rss) continue;
    if (inode !== 0) file += Number(rss[1]);
    else anonymous += Number(rss[1]);
  }
  const mib = (kb: number) => Math.round(kb / 1024);
  return { rss: mib(file + anonymous), file: mib(file), anonymous: mib(anonymous) };
}

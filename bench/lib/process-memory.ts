// Where a process's resident memory is, read from outside it (/proc/<pid>/smaps):
// file-backed pages (the node binary, shared libraries), WebAssembly memories
// (V8 reserves each one with a guard region of several GiB of address space,
// so they are the mappings of 4 GiB or more), and the rest of the anonymous
// memory (V8's heap, buffers, native allocations).
import { readFileSync } from 'node:fs';

export interface MemoryBreakdown {
  rss: number;
  file: number;
  wasm: number[];
  otherAnon: number;
}

const MiB = 1024;

export function processMemory(pid: number): MemoryBreakdown {
  const smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n');
  let size = 0; let inode = 0; let isWasm = false;
  const out: MemoryBreakdown = { rss: 0, file: 0, wasm: [], otherAnon: 0 };
  for (const line of smaps) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ (\d+)/.exec(line);
    if (header) {
      size = (parseInt(header[2]!, 16) - parseInt(header[1]!, 16)) / 1024;
      inode = Number(header[3]);
      isWasm = inode === 0 && size >= 4 * MiB * MiB;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (!rss) continue;
    const kb = Number(rss[1]);
    out.rss += kb;
    if (inode !== 0) out.file += kb;
    else if (isWasm) { if (kb > 0) out.wasm.push(kb); }
    else out.otherAnon += kb;
  }
  const mib = (kb: number) => Math.round(kb / 1024);
  return { rss: mib(out.rss), file: mib(out.file), wasm: out.wasm.map(mib), otherAnon: mib(out.otherAnon) };
}

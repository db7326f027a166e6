// Temporary directories a test file makes, removed by the vitest hook given
// (after each test, or after the file). Call at the top of the file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function tempDirs(prefix: string, removeAfter: (fn: () => void) => void = afterAll): () => string {
  const dirs: string[] = [];
  removeAfter(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

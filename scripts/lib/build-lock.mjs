// One build step at a time per checkout. Two `npm start` (or `npm start` and
// `npm test`) from one checkout run generate and build at the same time; under
// this lock the second waits for the first, then finds everything up to date.
// The lock is a folder (mkdir is atomic) holding its owner's pid; a lock whose
// owner died is taken over. A child step started by the holder (generate.mjs
// runs build-web.mjs) inherits it through the environment instead of waiting
// for its own parent.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

const HELD = 'LMS_BUILD_LOCK_HELD';
/** A lock folder without a pid this long after its creation was left by a process killed between the two steps. */
const EMPTY_LOCK_STALE_MS = 10_000;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function stale(dir) {
  let pid;
  try {
    pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
  } catch {
    try {
      return Date.now() - statSync(dir).mtimeMs > EMPTY_LOCK_STALE_MS;
    } catch {
      return false; // gone meanwhile: try again
    }
  }
  return pid > 0 && !alive(pid);
}

/** Runs fn holding the checkout's build lock; the environment variable passes it on to child processes. */
export async function withBuildLock(root, fn) {
  if (process.env[HELD]) return fn();
  const dir = join(root, '.build.lock');
  let waited = false;
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (stale(dir)) {
        // Renamed first, so that of two processes finding it stale only one removes it.
        const aside = `${dir}.stale-${randomBytes(4).toString('hex')}`;
        try {
          renameSync(dir, aside);
          rmSync(aside, { recursive: true, force: true });
        } catch {
          // Another build removed it first.
        }
        continue;
      }
      if (!waited) console.log('Waiting for another build of this checkout to finish…');
      waited = true;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  process.env[HELD] = String(process.pid);
  try {
    return await fn();
  } finally {
    delete process.env[HELD];
    rmSync(dir, { recursive: true, force: true });
  }
}

// Removing the upload folders (uploaded-file.ts) that no request will remove:
// those of a process killed or crashed mid-import. A pass runs at start and
// then every UPLOAD_SWEEP_MS. This process's uploads still in use are kept,
// and their folders touched on each pass: that is the heartbeat by which
// other instances sharing DATA_DIR (on PostgreSQL) tell a live upload from a
// dead one, so a folder untouched for STALE_PASSES passes is dead. On the
// embedded database the data directory belongs to this process alone (its
// lock, src/db/lock.ts), so at start every folder found there is dead.
import { readdir, rm, stat, utimes } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { logger } from '../log.js';
import { UPLOAD_PREFIX, uploadsInUse } from './uploaded-file.js';

/** Passes a folder of another instance may miss before it counts as dead. */
const STALE_PASSES = 3;

/** When a folder or its file was last written or touched (ms), or null when it is gone. */
async function lastTouched(dir: string): Promise<number | null> {
  try {
    const folder = await stat(dir);
    // An upload still arriving writes its file, not its folder.
    const file = await stat(join(dir, 'file')).catch(() => undefined);
    return Math.max(folder.mtimeMs, file?.mtimeMs ?? 0);
  } catch {
    return null;
  }
}

/**
 * One pass over `uploadDir`: touches this process's uploads in use and
 * removes the other upload folders not touched for `maxAgeMs`. Returns the
 * names removed.
 */
export async function sweepUploads(uploadDir: string, maxAgeMs: number, now = Date.now()): Promise<string[]> {
  const dir = resolve(uploadDir);
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const removed: string[] = [];
  for (const name of names.filter((n) => n.startsWith(UPLOAD_PREFIX))) {
    const path = join(dir, name);
    if (uploadsInUse().has(path)) {
      await utimes(path, new Date(now), new Date(now)).catch(() => {});
      continue;
    }
    const touched = await lastTouched(path);
    if (touched === null || now - touched < maxAgeMs) continue;
    // Checked again: an upload of this process may have begun meanwhile.
    if (uploadsInUse().has(path)) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/**
 * Sweeps at start (everything not in use when `exclusive`: nobody else writes
 * the directory) and then every `intervalMs`. Returns the function that stops it.
 */
export async function startUploadSweeper(
  uploadDir: string,
  options: { intervalMs: number; exclusive: boolean },
): Promise<() => void> {
  const maxAgeMs = options.intervalMs * STALE_PASSES;
  const pass = async (age: number) => {
    try {
      const removed = await sweepUploads(uploadDir, age);
      if (removed.length)
        logger().info(
          { removed: removed.length, uploadDir },
          'removed the temp folders of uploads no request will remove',
        );
    } catch (error) {
      logger().warn({ err: error, uploadDir }, 'sweeping the upload folders failed');
    }
  };
  await pass(options.exclusive ? 0 : maxAgeMs);
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void pass(maxAgeMs).finally(() => {
      running = false;
    });
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

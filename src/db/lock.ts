// PGlite is an in-process database: only one process may open a data directory.
// The service holds DATA_DIR/service.pid while it runs; the CLI checks it.
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The live process (other than this one) that holds the data directory, if any. */
export function dataDirHolder(dataDir: string): number | undefined {
  const file = join(dataDir, 'service.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8'));
  return pid && pid !== process.pid && alive(pid) ? pid : undefined;
}

/** Takes the data directory; throws when another live process holds it. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'service.pid');
  const pid = dataDirHolder(dataDir);
  if (pid) {
    throw new Error(
      `The data directory ${dataDir} is in use by process ${pid}. Stop the service first (the embedded database allows one process), or run the service on PostgreSQL (DATABASE_URL).`,
    );
  }
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}

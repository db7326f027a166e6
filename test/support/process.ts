// The service as a child process lives in scripts/lib (shared with bench/, which never imports test/).
// Tests run the bundle `npm start` runs (dist/main.js, built from the sources by the global set-up at the
// start of every run): it starts in about half the time of the sources through tsx, and it is what users run.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { inject } from 'vitest';
import { embeddedDataDir } from '../../src/config.js';
import { startServiceProcess as start, type ServiceProcess } from '../../scripts/lib/service-process.js';

export { freePort, type ServiceProcess } from '../../scripts/lib/service-process.js';

export function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  return start(env, 'build');
}

/**
 * Puts the run's migrated template (test/support/global-setup.ts) where a service process started with
 * DATA_DIR `dataDir` opens its embedded database, so that its first start neither runs initdb nor migrates:
 * on a 2-core machine that is about 13 s of CPU a start (initdb 9 s, the migrations 4 s). For tests about
 * what happens after the first start, not about creating the database.
 */
export function seedEmbeddedDatabase(dataDir: string): void {
  const target = embeddedDataDir(dataDir);
  mkdirSync(target, { recursive: true });
  // The template is PGlite's dump of its data folder: a gzipped tar whose members are that folder's files.
  execFileSync('tar', ['-xzf', inject('pgliteTemplate'), '-C', target, '--no-same-owner'], { stdio: 'ignore' });
}

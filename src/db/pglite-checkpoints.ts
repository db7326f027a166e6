// Checkpoints of the embedded database. PGlite runs PostgreSQL as a
// single-user backend: no checkpointer process. When the WAL written since
// the last checkpoint reaches about max_wal_size / 1.9 (540 MB at the default
// 1 GB), PostgreSQL asks for a checkpoint, which a single-user backend runs
// inline, and PGlite then spins forever inside XLogInsert (a few large
// re-imports get there; a CHECKPOINT issued between statements is quick and
// avoids it: docs/benchmarks.md, "Figures behind constants in the code"). So
// the embedded database starts with a max_wal_size it never reaches, and the service
// checkpoints itself: every CHECK_MS it reads how much WAL the last checkpoint
// is behind and checkpoints from CHECKPOINT_BYTES on, between transactions
// (PGlite runs a statement only when no transaction holds it). This also
// bounds the WAL kept on disk and the replay after a crash.
import type { PGlite } from '@electric-sql/pglite';
import { periodicPass, type PeriodicPass } from './periodic-pass.js';

/** A max_wal_size no embedded workload reaches: the automatic checkpoint never runs. */
export const EMBEDDED_MAX_WAL_SIZE = '1TB';

const CHECK_MS = 10_000;
const CHECKPOINT_BYTES = 64 * 2 ** 20;

export type Checkpoints = PeriodicPass<boolean>;

/** Checks every `checkMs` and checkpoints when the WAL since the last checkpoint reaches the threshold; check() answers whether it did. */
export function startCheckpoints(
  pglite: PGlite,
  options: { checkMs?: number; checkpointBytes?: number } = {},
): Checkpoints {
  const threshold = options.checkpointBytes ?? CHECKPOINT_BYTES;
  return periodicPass('checkpoint', options.checkMs ?? CHECK_MS, async () => {
    const { rows } = await pglite.query<{ behind: number }>(
      'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::float8 AS behind FROM pg_control_checkpoint()',
    );
    if ((rows[0]?.behind ?? 0) < threshold) return false;
    await pglite.exec('CHECKPOINT');
    return true;
  });
}

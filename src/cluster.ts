// PROCESSES: several service processes on one machine (docs/instances.md, "On one machine").
// Node's cluster module: this primary process forks the workers, which share the one
// listening socket (each accepts from it); each worker is a whole instance
// (src/main.ts) of the multi-instance design, sharing PostgreSQL and Redis. The
// primary runs no service itself. It starts the first worker alone, so that the
// migrations, the secret key and the first administrator are made once before the
// others start; it starts a worker again when one dies, and passes SIGTERM and
// SIGINT on, exiting when every worker has.
import cluster, { type Worker } from 'node:cluster';
import { logger } from './log.js';

/** A worker's message once it listens (src/main.ts). */
export const READY = 'lms:ready';

/** A worker that dies within this time of its start is started again after a growing delay. */
const EARLY_DEATH_MS = 10_000;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/** Forks a worker and resolves when it listens; rejects with its exit code if it dies first. */
function fork(slot: number): Promise<Worker> {
  const worker = cluster.fork({ LMS_PROCESS_SLOT: String(slot) });
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (message === READY) {
        worker.off('exit', onExit);
        resolve(worker);
      }
    };
    const onExit = (code: number | null, signal: string | null) => {
      worker.off('message', onMessage);
      reject(new Error(`worker ${slot} exited before it was ready (${signal ?? `code ${code}`})`));
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
  });
}

/** Every live worker, those still starting included. */
function liveWorkers(): Worker[] {
  return Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
}

export async function superviseWorkers(processes: number): Promise<void> {
  const log = logger();
  // The workers accept from the shared socket themselves. With Node's default (the primary accepting and
  // handing each connection to a worker in turn), the first connection after a worker died was handed to
  // it and never answered (a client waited 10 s for nothing); the kernel's queue loses none.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  let stopping = false;

  const watch = (slot: number, worker: Worker, startedAt: number, delay: number) => {
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      const early = Date.now() - startedAt < EARLY_DEATH_MS;
      const next = early ? Math.min(delay * 2, MAX_DELAY_MS) : FIRST_DELAY_MS;
      log.error({ slot, pid: worker.process.pid, code, signal, restartInMs: next }, 'a service process died');
      setTimeout(() => restart(slot, next), next).unref();
    });
  };
  const restart = (slot: number, delay: number) => {
    if (stopping) return;
    const startedAt = Date.now();
    fork(slot).then(
      (worker) => watch(slot, worker, startedAt, delay),
      (error: unknown) => {
        const next = Math.min(delay * 2, MAX_DELAY_MS);
        log.error({ slot, err: error, restartInMs: next }, 'a service process failed to start');
        if (!stopping) setTimeout(() => restart(slot, next), next).unref();
      },
    );
  };

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      const live = liveWorkers();
      log.info({ signal, processes: live.length }, 'shutting down the service processes');
      const exits = live.map(
        // One killed by the signal before it had set its own handler (still starting) stopped as asked.
        (worker) =>
          new Promise<number>((resolve) => worker.once('exit', (code, signal) => resolve(code ?? (signal ? 0 : 1)))),
      );
      for (const worker of live) worker.process.kill(signal);
      void Promise.all(exits).then((codes) => process.exit(codes.every((c) => c === 0) ? 0 : 1));
    });
  }

  // The first worker alone; if it cannot start, neither can the others (same configuration, same database).
  try {
    for (let slot = 1; slot <= processes && !stopping; slot++) {
      const startedAt = Date.now();
      watch(slot, await fork(slot), startedAt, FIRST_DELAY_MS);
    }
  } catch (error) {
    log.error({ err: error }, 'the service processes could not start');
    stopping = true;
    for (const worker of liveWorkers()) worker.process.kill('SIGTERM');
    process.exit(1);
  }
  log.info({ processes, pids: liveWorkers().map((w) => w.process.pid) }, 'service processes ready');
}

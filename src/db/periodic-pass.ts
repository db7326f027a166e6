// A pass the embedded database's upkeep runs on a timer (checkpoints,
// vacuum), that can also be run at once. One pass at a time: a check asked
// for while one runs gets that one's result. The timer never keeps the
// process alive, and stop() waits for a pass under way, so the database is
// not closed under it.
export interface PeriodicPass<T> {
  /** One pass now (or the one under way); what it did. */
  check(): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs`. `pass` is told whether stop() was called,
 * to end a long pass between its statements. A failed pass is reported as a
 * process warning (the db layer has no logger, docs/architecture.md,
 * "Layers"); the next one tries again.
 */
export function periodicPass<T>(
  what: string,
  intervalMs: number,
  pass: (stopping: () => boolean) => Promise<T>,
): PeriodicPass<T> {
  let running: Promise<T> | undefined;
  let stopping = false;
  const check = (): Promise<T> => {
    running ??= pass(() => stopping).finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => {
    check().catch((error: unknown) =>
      process.emitWarning(`${what} of the embedded database failed: ${(error as Error).message}`),
    );
  }, intervalMs);
  timer.unref();
  return {
    check,
    async stop() {
      stopping = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

// Every instance looks, every third of PUBLICATION_LEASE_SECONDS, for a
// publication whose publisher stopped renewing its lease (its instance was
// killed or crashed) and publishes it again (lifecycle.ts takeOverExpired,
// publish.ts resumePublication). A dead publisher's project is then blocked
// (409 "A publication … is running") for at most a lease and a third, after
// which its publication completes instead of being marked failed.
import { logger } from '../log.js';
import { takeOverExpired } from './lifecycle.js';
import { resumePublication } from './publish.js';

/** Starts looking; the returned function stops and waits for a publication being resumed. */
export function startPublicationTakeover(leaseSeconds: number): () => Promise<void> {
  let running: Promise<void> | undefined;
  let stopped = false;
  const pass = async () => {
    // One at a time: a second one waits for the next pass.
    for (let expired = await takeOverExpired(); expired && !stopped; expired = await takeOverExpired()) {
      logger().warn(
        { publicationId: expired.id, projectId: expired.projectId, abandonedVersion: expired.abandonedVersion },
        'publication: its publisher stopped; taken over and published again',
      );
      await resumePublication(expired).catch((error: unknown) =>
        logger().error({ err: error, publicationId: expired!.id }, 'publication: the taken-over publication failed'),
      );
    }
  };
  const timer = setInterval(
    () => {
      if (running) return;
      running = pass()
        .catch((error: unknown) =>
          logger().warn({ err: error }, 'publication: looking for stopped publications failed'),
        )
        .finally(() => {
          running = undefined;
        });
    },
    (leaseSeconds * 1000) / 3,
  );
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}

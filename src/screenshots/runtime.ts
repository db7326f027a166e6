// The screenshot settings of this process, set once at start-up (src/app.ts)
// after the service's storage, and the periodic sweep of queued folder
// deletions (those of imports and reverts that deleted keys, and of a process
// that died before its own sweep).
import type { Config } from '../config.js';
import { logger } from '../log.js';
import { setScreenshotSettings } from './storage.js';
import { sweepScreenshotDeletions } from './sweep.js';

const SWEEP_INTERVAL_MS = 5 * 60_000;

export function startScreenshots(config: Config): () => void {
  setScreenshotSettings(config);
  const timer = setInterval(() => {
    sweepScreenshotDeletions().catch((error: unknown) =>
      logger().warn({ err: error }, 'screenshots: removing deleted folders failed'),
    );
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    setScreenshotSettings(undefined);
  };
}

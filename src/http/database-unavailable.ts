// A database connection lost where retrying was not safe (src/db/connection-loss.ts)
// is not a fault of the request: it is answered 503 with Retry-After, on every
// path (GraphQL's error masking, REST through it, Fastify's error handler), and
// its cause is logged.
import { connectionLoss } from '../db/connection-loss.js';
import { serviceUnavailable, type AppError } from '../errors.js';
import type { Log } from '../log.js';

/** Seconds a client waits before trying again: the pool has reconnected by then. */
export const RETRY_AFTER_SECONDS = 2;

export const UNAVAILABLE_MESSAGE = `The database is unavailable (its connection was lost); retry in ${RETRY_AFTER_SECONDS} s`;

/** The 503 error for a lost database connection (logged with its cause), or undefined for any other error. */
export function databaseUnavailable(
  error: unknown,
  log: Log,
  where: Record<string, unknown> = {},
): AppError | undefined {
  const loss = connectionLoss(error);
  if (!loss) return undefined;
  log.warn(
    { ...where, cause: loss.cause, statementMayHaveRun: loss.kind === 'unknown' },
    'database connection lost: answered 503 with Retry-After',
  );
  return serviceUnavailable(UNAVAILABLE_MESSAGE, RETRY_AFTER_SECONDS);
}

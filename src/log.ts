// The service's pino logger for code that runs outside a request (job workers,
// publication, sweepers). buildService (src/app.ts) installs Fastify's logger
// here, so these lines share its level, format and destination with the
// request logs; before that (scripts, a bare domain call) a pino logger on
// stderr stands in.
import { pino } from 'pino';

type LogFn = (object: object, message: string) => void;
/** What this code needs of a pino logger (Fastify's app.log is one). */
export interface Log { error: LogFn; warn: LogFn; info: LogFn }

const fallback: Log = pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination(2));
let current: Log = fallback;

/** Installs the service's logger; returns a function that puts the previous one back. */
export function setLogger(logger: Log): () => void {
  const previous = current;
  current = logger;
  return () => {
    if (current === logger) current = previous;
  };
}

export function logger(): Log {
  return current;
}

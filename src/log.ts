// Logging goes through pino, nowhere else (test/unit/log.test.ts checks that
// src/ has no console.* call). createLogger makes the service's logger:
// colored, human-readable lines (pino-pretty) when the output is a terminal,
// JSON lines otherwise (files, pipes, log collectors). buildService
// (src/app.ts) hands it to Fastify and installs it here, so code that runs
// outside a request (job workers, publication, sweepers) logs with the same
// level, format and destination; before that (start-up errors, scripts, a bare
// domain call) a logger on stderr stands in.
import { pino, type Logger } from 'pino';
import type pinoPretty from 'pino-pretty';
import { lazyRequire } from './lazy-module.js';

// Loaded only for a terminal: a service writing JSON never needs it.
const pretty = lazyRequire<typeof pinoPretty>('pino-pretty');

type LogFn = (object: object, message: string) => void;
/** What this code needs of a pino logger (Fastify's app.log is one). */
export interface Log {
  error: LogFn;
  warn: LogFn;
  info: LogFn;
}

export interface LoggerOptions {
  /** Pretty lines instead of JSON: by default when the destination is a terminal. */
  pretty?: boolean;
  /** A file descriptor (1: stdout, 2: stderr) or a stream; default stdout. */
  destination?: 1 | 2 | NodeJS.WritableStream;
}

export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const destination = options.destination ?? 1;
  const tty = destination === 1 ? process.stdout.isTTY : destination === 2 ? process.stderr.isTTY : false;
  if (options.pretty ?? tty) {
    // Written synchronously: a terminal's volume is small, and a line logged just before exit is not lost.
    return pino(
      { level },
      pretty()({
        colorize: tty || options.pretty === true,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
        destination,
        sync: true,
      }),
    );
  }
  return pino(
    { level },
    typeof destination === 'number' ? pino.destination({ dest: destination, sync: true }) : destination,
  );
}

const fallback: Log = createLogger(process.env.LOG_LEVEL ?? 'info', { destination: 2 });
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

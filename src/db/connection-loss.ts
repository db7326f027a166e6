// A PostgreSQL connection can drop under the service: the server restarts or
// fails over, an administrator terminates backends, a network path resets.
// pg's pool replaces the connection, but the statement that was on it fails.
// What is safe to do about it depends on whether that statement can have
// taken effect:
//   - the server said it aborted the session (57P01 admin_shutdown, 57P02
//     crash_shutdown, 57P03 cannot_connect_now), refused the connection, or
//     the driver refused to send on a connection it knew dead ("not
//     queryable"): the statement did not run (a backend aborts before a commit, and once
//     idle it is answered before the next statement is read), so it is sent
//     again on another connection;
//   - the connection closed without a word (reset, "Connection terminated"):
//     a read is sent again; a write outside a transaction may have committed,
//     so it is not;
//   - inside an interactive transaction nothing has committed until COMMIT:
//     the whole transaction is replayed (replayTransactions below), its
//     callback run again from the start on a new connection.
// What cannot be retried reaches the caller; the HTTP layer answers it with
// 503 and Retry-After (src/http/errors.ts, src/http/graphql.ts).
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';

/** Whether the statement that failed with a lost connection can have run. */
export type LossKind = 'not run' | 'unknown';

export interface ConnectionLoss {
  kind: LossKind;
  /** The driver's or server's words, for the log. */
  cause: string;
}

/** Server error codes after which the statement did not run. */
const ABORTED_SESSION = new Set(['57P01', '57P02', '57P03', '53300', '08001', '08004']);
/** Connection-exception codes (class 08) and driver kinds where the statement's fate is unknown. */
const UNKNOWN_CODES = new Set(['08000', '08003', '08006', '08007']);
const NOT_RUN_KINDS = new Set(['DatabaseNotReachable', 'TooManyConnections']);
const UNKNOWN_KINDS = new Set(['ConnectionClosed', 'SocketTimeout']);
const NOT_RUN_MESSAGES =
  /ECONNREFUSED|is not currently accepting connections|timeout exceeded when trying to connect|the database system is (?:starting up|shutting down|in recovery)|Cannot use a pool after calling end|is not queryable/i;
const UNKNOWN_MESSAGES =
  /Connection terminated|terminating connection|server closed the connection unexpectedly|ECONNRESET|EPIPE|Connection ended unexpectedly|This socket has been ended/i;

/** The objects an error carries its cause in: Prisma's wrapper, the driver adapter's, the driver's. */
function* layers(error: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (typeof error !== 'object' || error === null || depth > 6) return;
  const object = error as Record<string, unknown>;
  yield object;
  const meta = object.meta as Record<string, unknown> | undefined;
  yield* layers(meta?.driverAdapterError, depth + 1);
  yield* layers(object.cause, depth + 1);
}

/** The connection loss an error reports, if it is one. */
export function connectionLoss(error: unknown): ConnectionLoss | undefined {
  let unknown: ConnectionLoss | undefined;
  for (const layer of layers(error)) {
    const code =
      typeof layer.originalCode === 'string'
        ? layer.originalCode
        : typeof layer.code === 'string'
          ? layer.code
          : undefined;
    const kind = typeof layer.kind === 'string' ? layer.kind : undefined;
    const message =
      typeof layer.originalMessage === 'string'
        ? layer.originalMessage
        : typeof layer.message === 'string'
          ? layer.message
          : '';
    const cause = [code, kind, message.trim().split('\n').pop()].filter(Boolean).join(': ');
    if ((code && ABORTED_SESSION.has(code)) || (kind && NOT_RUN_KINDS.has(kind)) || NOT_RUN_MESSAGES.test(message))
      return { kind: 'not run', cause };
    if (
      (code && UNKNOWN_CODES.has(code)) ||
      (kind && UNKNOWN_KINDS.has(kind)) ||
      UNKNOWN_MESSAGES.test(message) ||
      code === 'ECONNRESET' ||
      code === 'EPIPE'
    ) {
      unknown ??= { kind: 'unknown', cause };
    }
  }
  return unknown;
}

/** A statement that only reads: sent again after any connection loss. */
export function isRead(sql: string): boolean {
  return /^\s*(?:\/\*[\s\S]*?\*\/\s*|--[^\n]*\n\s*)*(?:SELECT|SHOW|VALUES)\b/i.test(sql);
}

export interface RetryReport {
  what: 'statement' | 'transaction';
  attempt: number;
  cause: string;
}

let reporter: (report: RetryReport) => void = () => {};

/** Where retries are reported (the service logs them; src/app.ts sets it). */
export function onConnectionRetry(report: (report: RetryReport) => void): void {
  reporter = report;
}

/**
 * Pauses before each try after the first, about 1.6 s in all while the pool
 * reconnects. Several, since each try may be handed another connection that
 * died while idle in the pool (it fails at once, and the pool drops it).
 */
const RETRY_DELAYS_MS = [0, 25, 50, 100, 200, 400, 800];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function retrying<T>(
  what: RetryReport['what'],
  run: () => Promise<T>,
  safe: (loss: ConnectionLoss) => boolean,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const loss = connectionLoss(error);
      if (!loss || !safe(loss) || attempt >= RETRY_DELAYS_MS.length) throw error;
      reporter({ what, attempt: attempt + 1, cause: loss.cause });
      await pause(RETRY_DELAYS_MS[attempt]!);
    }
  }
}

/**
 * The adapter's own statements (each one its own transaction) and the start
 * of a transaction, retried when safe. Statements inside a transaction are
 * not: the transaction is replayed as a whole instead.
 */
function retryingAdapter(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return new Proxy(adapter, {
    get(object, property) {
      const found: unknown = Reflect.get(object, property);
      if (typeof found !== 'function') return found;
      // A method of the adapter, forwarded with its own arguments and result.
      const value = found as (...args: unknown[]) => Promise<unknown>;
      if (property === 'queryRaw' || property === 'executeRaw') {
        return (query: SqlQuery) =>
          retrying(
            'statement',
            () => value.call(object, query),
            (loss) => loss.kind === 'not run' || isRead(query.sql),
          );
      }
      // A failed BEGIN leaves nothing begun.
      if (property === 'startTransaction') {
        return (...args: unknown[]): Promise<Transaction> =>
          retrying(
            'statement',
            () => value.apply(object, args) as Promise<Transaction>,
            () => true,
          );
      }
      return value.bind(object);
    },
  });
}

/** Wraps a PostgreSQL adapter factory so that its adapters retry what is safe to retry. */
export function retryingFactory<T extends SqlDriverAdapterFactory>(factory: T): T {
  return new Proxy(factory, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      if (property === 'connect') return async () => retryingAdapter((await method.call(object)) as SqlDriverAdapter);
      return method.bind(object);
    },
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Prisma's $transaction overloads are assignable to a function type only with any[] parameters (parameters are contravariant).
type TransactionFn = (...args: any[]) => Promise<unknown>;

/**
 * Replays an interactive transaction (`$transaction(async (tx) => …)`) whose
 * connection was lost: before its COMMIT nothing of it was committed, and a
 * COMMIT the server refused did not run either. Its callback runs again from
 * the start, so a callback does database work only (as every one here does);
 * the batch form (`$transaction([...])`) is not replayed (its statements are
 * run once), and neither is a COMMIT whose fate is unknown.
 */
export function replayTransactions<C extends { $transaction: TransactionFn }>(client: C): C {
  const transaction = client.$transaction.bind(client);
  const replaying = (input: unknown, options?: unknown) => {
    if (typeof input !== 'function') return transaction(input, options);
    let callbackDone = false;
    return retrying(
      'transaction',
      () => {
        callbackDone = false;
        return transaction(async (tx: unknown) => {
          const result = await (input as (tx: unknown) => Promise<unknown>)(tx);
          callbackDone = true;
          return result;
        }, options);
      },
      (loss) => !callbackDone || loss.kind === 'not run',
    );
  };
  Object.defineProperty(client, '$transaction', { value: replaying, configurable: true, writable: true });
  return client;
}

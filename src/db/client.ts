// Builds the Prisma client on a driver adapter: PGlite in a data directory
// (the embedded default) or a PostgreSQL server when a URL is given. Both share
// one schema and one SQL dialect. `exec` runs multi-statement SQL (migrations)
// on the underlying driver, which Prisma's prepared statements cannot.
import { AsyncLocalStorage } from 'node:async_hooks';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
// Each driver is loaded only when it is the one opened: an embedded service
// never loads pg, a PostgreSQL one never loads PGlite.
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { SqlDriverAdapter } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client.js';
import { PROJECT_DIR } from '../paths.js';
import { compilerFromFile } from './query-compiler.js';
import { EMBEDDED_MAX_WAL_SIZE, startCheckpoints } from './pglite-checkpoints.js';
import { startVacuum } from './pglite-vacuum.js';
import { replayTransactions, retryingFactory } from './connection-loss.js';
import { releaseHistoryOf } from './statement-history.js';
import { statementName } from './statement-names.js';
import { withPreparedStatements } from './pglite-prepared.js';
import { replacePGliteParser } from './pglite-parser.js';

export type Database = {
  prisma: PrismaClient;
  kind: 'pglite' | 'postgres';
  /** Runs SQL text that may hold several statements, outside Prisma. */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL only: the connection pool's use (metrics). */
  poolStats?: () => { total: number; idle: number; waiting: number; max: number };
  /**
   * PGlite only: the upkeep its timers would run, done now (a vacuum pass by
   * autovacuum's rule, then a checkpoint), so that work measured next starts
   * from the state an idle database reaches instead of sharing the single
   * thread with the previous work's upkeep (the benchmark's alternated imports).
   */
  settle?: () => Promise<void>;
  /** PGlite only: the data directory as a tarball (test templates, backups). */
  dumpDataDir?: () => Promise<Blob>;
  /**
   * The driver adapter Prisma's client runs on, connected once: the same
   * pool, statement names, SQL observer and connection-loss retries, without
   * the client's query interpreter (src/db/read-rows.ts).
   */
  adapter: SqlDriverAdapter;
  /** The driver underneath Prisma, for what Prisma cannot express (the benchmark's COPY baselines). */
  driver: { kind: 'pglite'; pglite: PGlite } | { kind: 'postgres'; pool: pg.Pool };
};

// Statements sent to the database by the code running inside observeSql(),
// reported to its observer (tests prove that a GraphQL read costs a constant
// number of statements). Costs one lookup per statement when nobody observes.
const sqlObservers = new AsyncLocalStorage<(sql: string) => void>();

export function observeSql<T>(observer: (sql: string) => void, fn: () => Promise<T>): Promise<T> {
  return sqlObservers.run(observer, fn);
}

/** Wraps a driver adapter factory so that queries of its adapters and transactions reach the observer. */
function observed<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, property) {
      const found: unknown = Reflect.get(object, property);
      if (typeof found !== 'function') return found;
      // A method of the adapter, forwarded with its own arguments and result.
      const value = found as (...args: unknown[]) => unknown;
      if (property === 'queryRaw' || property === 'executeRaw') {
        return (query: { sql: string }) => {
          sqlObservers.getStore()?.(query.sql);
          return value.call(object, query);
        };
      }
      if (property === 'connect')
        return async (...args: unknown[]) => observed((await value.apply(object, args)) as object);
      // BEGIN and COMMIT are round trips too (the benchmark counts them), but
      // the adapters send BEGIN themselves, and PGlite's also COMMIT/ROLLBACK
      // (its transactions use "phantom" queries the engine does not send).
      if (property === 'startTransaction') {
        return async (...args: unknown[]) => {
          sqlObservers.getStore()?.('BEGIN');
          return observed((await value.apply(object, args)) as object);
        };
      }
      if (
        (property === 'commit' || property === 'rollback') &&
        (object as { options?: { usePhantomQuery?: boolean } }).options?.usePhantomQuery
      ) {
        return (...args: unknown[]) => {
          sqlObservers.getStore()?.(property === 'commit' ? 'COMMIT' : 'ROLLBACK');
          return value.apply(object, args);
        };
      }
      return value.bind(object);
    },
  });
}

export type DatabaseOptions =
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob | File }
  | { kind: 'postgres'; url: string; schema?: string; poolSize?: number };

/**
 * Defaults of every interactive transaction that names none. Prisma's own
 * (wait 2 s for a connection, run at most 5 s) made a write fail with a 500
 * ("Unable to start a transaction in the given time") as soon as the pool was
 * busy for two seconds: 200 concurrent clients of one project did that (npm
 * run soak). A write now waits its turn, as a plain query does.
 */
export const TRANSACTION_DEFAULTS = { maxWait: 60_000, timeout: 60_000 } as const;

/**
 * A new embedded database is created by a child process: initdb grows the
 * WebAssembly heap by hundreds of MiB that a process never gives back, so a
 * service that ran it itself would keep that memory until restarted.
 */
async function initEmbedded(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  await promisify(execFile)(process.execPath, [join(PROJECT_DIR, 'src', 'db', 'pglite-initdb.mjs'), dataDir]);
}

/**
 * The embedded PostgreSQL's buffer cache. initdb writes PostgreSQL's default
 * (128 MB) into postgresql.conf, and PGlite touches all of it at start, so an
 * idle service would hold it (docs/benchmarks.md, "Figures behind constants in
 * the code"). Its data files are ordinary
 * files, so a page that is not in this cache comes from the operating
 * system's page cache at the cost of a read call, not from a disk.
 */
export const EMBEDDED_SHARED_BUFFERS = '16MB';

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'pglite') {
    if (options.dataDir && !options.loadDataDir && !options.dataDir.includes('://'))
      await initEmbedded(options.dataDir);
    const [pgliteModule, { PrismaPGlite }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('pglite-prisma-adapter'),
    ]);
    const { PGlite } = pgliteModule;
    // Before the first answer is parsed (pglite-parser.ts).
    replacePGliteParser(pgliteModule.protocol);
    // It logs its queries to a copy of Prisma's debug history of its own.
    await releaseHistoryOf('pglite-prisma-adapter');
    const embeddedStartParams = [
      ...PGlite.defaultStartParams,
      '-c',
      `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`,
      '-c',
      `max_wal_size=${EMBEDDED_MAX_WAL_SIZE}`,
    ];
    const pglite = options.loadDataDir
      ? new PGlite({ loadDataDir: options.loadDataDir, startParams: embeddedStartParams })
      : new PGlite(options.dataDir, { startParams: embeddedStartParams });
    await pglite.waitReady;
    // No checkpointer and no autovacuum in a single-user backend: the service runs both itself.
    const checkpoints = startCheckpoints(pglite);
    const vacuum = startVacuum(pglite);
    // The statements named on PostgreSQL are prepared once in the embedded session too (pglite-prepared.ts).
    const factory = observed(new PrismaPGlite(withPreparedStatements(pglite, pgliteModule)));
    const prisma = new PrismaClient({
      adapter: factory,
      transactionOptions: TRANSACTION_DEFAULTS,
      ...compilerFromFile,
    });
    return {
      prisma,
      kind: 'pglite',
      adapter: await factory.connect(),
      exec: async (sql) => {
        await pglite.exec(sql);
      },
      close: async () => {
        await Promise.all([checkpoints.stop(), vacuum.stop()]);
        await prisma.$disconnect();
        await pglite.close();
      },
      settle: async () => {
        await vacuum.check();
        await pglite.exec('CHECKPOINT');
      },
      dumpDataDir: () => pglite.dumpDataDir('gzip') as Promise<Blob>,
      driver: { kind: 'pglite', pglite },
    };
  }
  const [{ default: pg }, { PrismaPg }] = await Promise.all([import('pg'), import('@prisma/adapter-pg')]);
  const schema = options.schema;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // No JIT: its compile time (tens of ms) is more than it saves on the
    // service's statements, which read pages and write chunks.
    options: `-c jit=off${schema ? ` -c search_path="${schema}"` : ''}`,
  });
  // An idle connection closed by the server (restart, failover, a dropped
  // database) surfaces as an 'error' event of the pool, which would end the
  // process without a listener. The pool replaces the connection by itself.
  pool.on('error', () => {});
  // So can a connection in use: the server's notice that it ends the session
  // (57P01 when a backend is terminated) may arrive between two statements of
  // a transaction, when no query is there to receive it, and a client emits it
  // as an 'error' event, which without a listener ends the process. The
  // statement that needed the connection gets the failure itself.
  pool.on('connect', (client) => client.on('error', () => {}));
  // A connection lost under a statement: retried, or the transaction replayed, when safe (connection-loss.ts).
  const factory = observed(
    retryingFactory(
      // The adapter's type says a name is always returned; undefined leaves a statement unnamed (pg's default).
      new PrismaPg(pool, {
        ...(schema ? { schema } : {}),
        statementNameGenerator: statementName as (q: { sql: string }) => string,
      }),
    ),
  );
  const prisma = replayTransactions(
    new PrismaClient({ adapter: factory, transactionOptions: TRANSACTION_DEFAULTS, ...compilerFromFile }),
  );
  return {
    prisma,
    kind: 'postgres',
    adapter: await factory.connect(),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max ?? 10,
    }),
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
    driver: { kind: 'postgres', pool },
  };
}

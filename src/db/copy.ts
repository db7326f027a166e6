// COPY … FROM STDIN into a table inside the caller's Prisma transaction, on
// PostgreSQL: the fastest way rows reach the server (no array parameters to
// encode, send and parse). Prisma cannot send COPY, so the rows go through the
// transaction's own connection, found by its server process id. Only inside a
// transaction that has already run a statement (the connection is then held
// by the transaction, and no other request can be using it); anywhere else,
// and on PGlite, it declines and the caller writes its rows another way.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { database, type Db } from '../db.js';

/** A CSV field for COPY (FORMAT csv): null is an empty unquoted field, a string is always quoted. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  return typeof value === 'number' ? String(value) : `"${value.replace(/"/g, '""')}"`;
}

/** Joins lines into chunks of about 64 KiB for the stream. */
function* chunks(lines: Iterable<string>): Generator<string> {
  let chunk = '';
  for (const line of lines) {
    chunk += line;
    if (chunk.length >= 65_536) { yield chunk; chunk = ''; }
  }
  if (chunk) yield chunk;
}

/** The connection a transaction runs on, for COPY. */
export interface TransactionConnection {
  /** COPY `target` (a table and its columns) FROM the CSV `lines`, each ending in a line break. */
  copyIn(target: string, lines: Iterable<string>): Promise<void>;
}

/**
 * The connection of the transaction `tx`, or undefined where COPY cannot be
 * used: PGlite, or `tx` not a transaction that has run a statement before.
 */
export async function transactionConnection(tx: Db): Promise<TransactionConnection | undefined> {
  const driver = database().driver;
  // The client itself (a transaction's has no $connect) sends its statements to any pooled connection.
  if (driver.kind !== 'postgres' || '$connect' in tx) return undefined;
  const [found] = await tx.$queryRawUnsafe<{ pid: number; inTransaction: boolean }[]>(
    `SELECT pg_backend_pid() AS pid, transaction_timestamp() < statement_timestamp() AS "inTransaction"`,
  );
  const connection = found?.inTransaction ? driver.connectionOf(found.pid) : undefined;
  if (!connection) return undefined;
  return {
    copyIn: (target, lines) => pipeline(Readable.from(chunks(lines)), connection.query(copyFrom(`COPY ${target} FROM STDIN (FORMAT csv)`))),
  };
}

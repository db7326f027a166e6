// The database's own bulk paths, for baselines: COPY … FROM STDIN of CSV
// rows and COPY (query) TO STDOUT streamed to a file — pg-copy-streams on
// PostgreSQL, PGlite's /dev/blob device on the embedded database. One
// connection (PostgreSQL) or the one PGlite instance, outside the service.
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { Database } from '../../src/db/client.js';

export interface BulkSql {
  query<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  /** COPY `target` FROM the CSV lines (each ending in a line break). */
  copyIn(target: string, lines: Iterable<string>): Promise<void>;
  /** COPY (`select`) TO a file: one line per row, its single column written verbatim. */
  copyOut(select: string, file: string): Promise<Buffer>;
  release(): Promise<void>;
}

/** A CSV field, always quoted. */
export const csv = (value: string | number): string =>
  typeof value === 'number' ? String(value) : `"${value.replace(/"/g, '""')}"`;

// CSV whose quote and delimiter never occur in the rows: each row is written
// as it is, except that one holding a line break comes between two quote
// characters (\x01), which are dropped on the way to the file.
const VERBATIM = `(FORMAT csv, QUOTE e'\\x01', DELIMITER e'\\x02')`;
const dropQuotes = (chunk: Buffer): Buffer => (chunk.includes(1) ? Buffer.from(chunk.filter((b) => b !== 1)) : chunk);

/** Batches of lines as the chunks of a stream. */
function* batches(lines: Iterable<string>, size = 4096): Generator<string> {
  let batch = '';
  let n = 0;
  for (const line of lines) {
    batch += line;
    if (++n === size) {
      yield batch;
      batch = '';
      n = 0;
    }
  }
  if (batch) yield batch;
}

export async function bulkSql(db: Database): Promise<BulkSql> {
  if (db.driver.kind === 'postgres') {
    const client: pg.PoolClient = await db.driver.pool.connect();
    return {
      query: async (sql) => (await client.query(sql)).rows,
      copyIn: (target, lines) =>
        pipeline(Readable.from(batches(lines)), client.query(copyFrom(`COPY ${target} FROM STDIN (FORMAT csv)`))),
      async copyOut(select, file) {
        const chunks: Buffer[] = [];
        await pipeline(
          client.query(copyTo(`COPY (${select}) TO STDOUT ${VERBATIM}`)),
          async function* (source: AsyncIterable<Buffer>) {
            for await (const c of source) {
              const bytes = dropQuotes(c);
              chunks.push(bytes);
              yield bytes;
            }
          },
          createWriteStream(file),
        );
        return Buffer.concat(chunks);
      },
      release: async () => client.release(),
    };
  }
  const pglite = db.driver.pglite;
  return {
    query: async (sql) => (await pglite.query(sql)).rows as never[],
    async copyIn(target, lines) {
      await pglite.query(`COPY ${target} FROM '/dev/blob' (FORMAT csv)`, [], { blob: new Blob([...batches(lines)]) });
    },
    async copyOut(select, file) {
      const { blob } = await pglite.query(`COPY (${select}) TO '/dev/blob' ${VERBATIM}`);
      const bytes = dropQuotes(Buffer.from(await blob!.arrayBuffer()));
      await writeFile(file, bytes);
      return bytes;
    },
    release: async () => {},
  };
}

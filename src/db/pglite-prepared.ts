// Prepared statements on the embedded database. PGlite's query() parses,
// describes and plans every statement again (an unnamed statement of the
// extended protocol), which for the service's long statements cost more than
// running them: the write gate of a one-cell write took 7–9 ms unprepared and
// 2–3.5 ms prepared (docs/benchmarks.md, "Prepared statements on the embedded
// database"). The statements that have a name on PostgreSQL
// (statement-names.ts) are prepared here once, under that name, in PGlite's
// single session, and then only bound and executed: the same protocol
// messages as PGlite's own query(), with Parse and Describe sent once.
//
// It drives PGlite's protocol through its public messages and its query and
// transaction locks (`_runExclusiveQuery`, `_runExclusiveTransaction`, which
// its own query() takes): a PGlite upgrade is checked by the tests of this file
// (test/unit/pglite-prepared.test.ts), which compare every answer with query()'s.
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type * as PGliteModule from '@electric-sql/pglite';
import { statementName } from './statement-names.js';

type QueryOptions = Parameters<PGlite['query']>[2];
type Results = Awaited<ReturnType<PGlite['query']>>;

/** PGlite's locks, which its query() takes (public in JavaScript, not in its types). */
interface Locks {
  _checkReady(): Promise<void>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * Statements prepared in the embedded session, at most: each keeps its plan in
 * the process's memory (PostgreSQL's are spread over its connections'
 * processes). Later texts run unprepared.
 */
export const PGLITE_PREPARED_MAX = 300;

/**
 * The PGlite instance as the Prisma adapter sees it: query() (and a
 * transaction's) runs a named statement prepared, anything else as before.
 */
export function withPreparedStatements(
  pglite: PGlite,
  { protocol, parse }: Pick<typeof PGliteModule, 'protocol' | 'parse'>,
  max = PGLITE_PREPARED_MAX,
): PGlite {
  const { serialize } = protocol;
  const locks = pglite as unknown as Locks;
  /** Parameter types of each prepared statement, by name; null: its preparation failed, it runs unprepared. */
  const prepared = new Map<string, number[] | null>();
  const send = (message: Uint8Array) => pglite.execProtocolStream(message, { syncToFs: false });

  /** Runs a prepared statement; within PGlite's query lock. */
  async function execute(name: string, sql: string, params: unknown[], options: QueryOptions): Promise<Results> {
    const messages = [];
    try {
      let types = prepared.get(name);
      if (types === undefined) {
        // Marked before it is sent: a failed Parse or Describe leaves the statement unprepared for good.
        prepared.set(name, null);
        messages.push(...(await send(serialize.parse({ name, text: sql }))));
        types = parse.parseDescribeStatementResults(await send(serialize.describe({ type: 'S', name })));
        prepared.set(name, types);
      }
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = options?.serializers?.[types![i]!] ?? pglite.serializers[types![i]!];
        return serializer ? serializer(value) : String(value as string);
      });
      messages.push(
        ...(await send(serialize.bind({ statement: name, values }))),
        ...(await send(serialize.describe({ type: 'P' }))),
        ...(await send(serialize.execute({}))),
      );
    } finally {
      messages.push(...(await send(serialize.sync())));
    }
    return resultOf(messages as Message[], pglite.parsers as Record<number, ValueParser>, options);
  }

  /** The name a statement runs prepared under, or undefined to run it as query() does. */
  function nameOf(sql: string): string | undefined {
    const name = statementName({ sql });
    if (name === undefined) return undefined;
    const types = prepared.get(name);
    if (types === null) return undefined;
    if (types === undefined && prepared.size >= max) return undefined;
    return name;
  }

  const query = async (sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results> => {
    const name = nameOf(sql);
    if (name === undefined) return pglite.query(sql, params, options);
    await locks._checkReady();
    const results = await locks._runExclusiveTransaction(() =>
      locks._runExclusiveQuery(() => execute(name, sql, params, options)),
    );
    // As query() outside a transaction: what was written goes to the file system.
    await pglite.syncToFs();
    return results;
  };

  const inTransaction = (tx: Transaction): Transaction =>
    new Proxy(tx, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
        return async (sql: string, params: unknown[] = [], options?: QueryOptions) => {
          const name = nameOf(sql);
          // Unnamed, or a closed transaction (whose own query() says so).
          if (name === undefined || target.closed) return target.query(sql, params, options);
          return locks._runExclusiveQuery(() => execute(name, sql, params, options));
        };
      },
    });

  return new Proxy(pglite, {
    get(target, property, receiver) {
      if (property === 'query') return query;
      if (property === 'transaction')
        return <T>(fn: (tx: Transaction) => Promise<T>) => target.transaction((tx) => fn(inTransaction(tx)));
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

type ValueParser = (value: string, typeId: number) => unknown;
type Message =
  | { name: 'rowDescription'; fields: { name: string; dataTypeID: number }[] }
  | { name: 'dataRow'; fields: (string | null)[] }
  | { name: 'commandComplete'; text: string }
  | { name: string };

/**
 * The statement's result from its messages: what PGlite's parseResults gives
 * as its first result (rows as arrays or objects, each value through the
 * parser of its type, the query's own parsers first, and the rows the command
 * affected), with each column's parser looked up once per result instead of
 * once per value, the rows built by a loop, and no copy of every parser per
 * statement (a one-cell write runs a dozen statements): parseResults was 8.8%
 * of the main thread's time in a profile of one-cell PATCHes at 16 clients;
 * the process's CPU per PATCH 3.2 / 4.1 → 2.9 / 2.8 ms in two alternating
 * runs (docs/benchmarks.md, "A page's columns, and the embedded database's
 * answers"). test/unit/db/pglite-prepared.test.ts compares every answer with
 * query()'s.
 */
function resultOf(messages: Message[], parsers: Record<number, ValueParser>, options: QueryOptions): Results {
  const own = options?.parsers as Record<number, ValueParser> | undefined;
  const asArrays = options?.rowMode === 'array';
  let fields: { name: string; dataTypeID: number }[] = [];
  let convert: (ValueParser | undefined)[] = [];
  const rows: unknown[] = [];
  for (const message of messages) {
    if (message.name === 'rowDescription') {
      fields = (message as Extract<Message, { name: 'rowDescription' }>).fields.map((f) => ({
        name: f.name,
        dataTypeID: f.dataTypeID,
      }));
      convert = fields.map((f) => own?.[f.dataTypeID] ?? parsers[f.dataTypeID]);
    } else if (message.name === 'dataRow') {
      const values = (message as Extract<Message, { name: 'dataRow' }>).fields;
      const row = new Array<unknown>(values.length);
      for (let i = 0; i < values.length; i++) {
        const text = values[i]!;
        const parser = convert[i];
        row[i] = text === null ? null : parser ? parser(text, fields[i]!.dataTypeID) : text;
      }
      if (asArrays) rows.push(row);
      else {
        const object: Record<string, unknown> = {};
        for (let i = 0; i < row.length; i++) object[fields[i]!.name] = row[i];
        rows.push(object);
      }
    } else if (message.name === 'commandComplete') {
      return {
        rows,
        fields,
        affectedRows: affected((message as Extract<Message, { name: 'commandComplete' }>).text),
      } as Results;
    }
  }
  return { rows: [], fields: [], affectedRows: 0 } as Results;
}

/** The rows a command affected, from its tag (as PGlite reads it). */
function affected(tag: string): number {
  const words = tag.split(' ');
  switch (words[0]) {
    case 'INSERT':
      return parseInt(words[2]!, 10);
    case 'UPDATE':
    case 'DELETE':
    case 'COPY':
    case 'MERGE':
      return parseInt(words[1]!, 10);
    default:
      return 0;
  }
}

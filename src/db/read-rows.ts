// Rows of one of the service's own statements, read through the driver
// adapter Prisma's client runs on (src/db/client.ts) instead of through the
// client's `$queryRaw`: the same pool, statement names, SQL observer and
// retries after a lost connection (a write is sent again only when it cannot
// have run: connection-loss.ts), without the client's query interpreter.
// For the statements of every request, where that interpreter was the largest
// part of the service's own CPU time (`GET /api/v1/languages`: 630 → 460 µs of
// CPU per request; docs/benchmarks.md, "The service's own cost of a small
// read"): the reads, and a one-cell write's lookup and gate statement.
// Outside transactions only: it runs on the pool, not on a transaction's
// connection.
import { ColumnTypeEnum, type ArgType, type ColumnType } from '@prisma/driver-adapter-utils';
import type { Prisma } from '../generated/prisma/client.js';
import { database } from '../db.js';

const same = (value: unknown) => value;
const bigint = (value: unknown) => (value === null ? null : BigInt(value as string | number | bigint));
const date = (value: unknown) => (value === null ? null : new Date(value as string));
const json = (value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);

/**
 * A column's value as `$queryRaw` gives it, from the adapter's: the types the
 * service's reads select. Any other type is refused, so that a statement that
 * selects one fails in its test instead of answering another type than the
 * ORM would.
 */
function converter(type: ColumnType): (value: unknown) => unknown {
  switch (type) {
    case ColumnTypeEnum.Int32:
    case ColumnTypeEnum.Float:
    case ColumnTypeEnum.Double:
    case ColumnTypeEnum.Boolean:
    case ColumnTypeEnum.Character:
    case ColumnTypeEnum.Text:
    case ColumnTypeEnum.Enum:
    case ColumnTypeEnum.Uuid:
    case ColumnTypeEnum.TextArray:
      return same;
    case ColumnTypeEnum.Int64:
      return bigint;
    case ColumnTypeEnum.DateTime:
      return date;
    case ColumnTypeEnum.Json:
      return json;
    default:
      throw new Error(`readRows: column type ${type} is not converted (select it through $queryRaw, or add it here)`);
  }
}

/** A parameter's type for the adapter (which formats dates and expands lists by it). */
function argType(value: unknown): ArgType {
  const arity = Array.isArray(value) ? 'list' : 'scalar';
  const item: unknown = Array.isArray(value) ? value[0] : value;
  if (typeof item === 'number') return { scalarType: Number.isInteger(item) ? 'int' : 'float', arity };
  if (typeof item === 'bigint') return { scalarType: 'bigint', arity };
  if (typeof item === 'boolean') return { scalarType: 'boolean', arity };
  if (item instanceof Date) return { scalarType: 'datetime', arity };
  if (typeof item === 'string') return { scalarType: 'string', arity };
  return { scalarType: 'unknown', arity };
}

/** The rows of a read statement composed with `Prisma.sql`, as objects typed like `$queryRaw`'s. */
export async function readRows<T>(statement: Prisma.Sql): Promise<T[]> {
  // Big integers as text, as the client's $queryRaw hands them to the adapter: the adapter logs its queries
  // to Prisma's debug history, which is read as JSON (a BigInt there breaks the history's readers).
  const args = statement.values.map((value) =>
    typeof value === 'bigint'
      ? value.toString()
      : Array.isArray(value) && typeof value[0] === 'bigint'
        ? (value as bigint[]).map(String)
        : value,
  );
  const types = statement.values.map(argType);
  const result = await database().adapter.queryRaw({ sql: statement.text, args, argTypes: types });
  return result.rows.map(rowMaker(result.columnNames, result.columnTypes)) as T[];
}

type RowMaker = (row: unknown[]) => Record<string, unknown>;

// The statements are the service's own, so their sets of columns are few: one maker each, kept.
const makers = new Map<string, RowMaker>();

/**
 * The function making a row's object for one set of columns: an object literal of the columns' names, made
 * once per set. Setting the names one by one in a loop cost 1.7 times as much for a page of 500 cells
 * (270 against 155 µs, most of the rest being the dates), each object growing its shape key by key.
 */
function rowMaker(names: string[], types: ColumnType[]): RowMaker {
  const key = `${names.join('\u0000')}\u0001${types.join(',')}`;
  let maker = makers.get(key);
  if (!maker) {
    const convert = types.map(converter);
    // Names quoted as JSON strings: any column name is a valid property name of the literal.
    const properties = names.map((name, i) =>
      convert[i] === same ? `${JSON.stringify(name)}: row[${i}]` : `${JSON.stringify(name)}: convert[${i}](row[${i}])`,
    );
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- its text is the quoted names and indexes above
    const factory = new Function('convert', `return (row) => ({ ${properties.join(', ')} });`) as (
      convert: ((value: unknown) => unknown)[],
    ) => RowMaker;
    maker = factory(convert);
    makers.set(key, maker);
  }
  return maker;
}

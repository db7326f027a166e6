// readRows (src/db/read-rows.ts): a read statement through the driver adapter
// answers what `$queryRaw` answers for the same statement (values and types),
// is seen by the SQL observer, and refuses a column type it does not convert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { observeSql, type Database } from '../../src/db/client.js';
import { setDatabase } from '../../src/db.js';
import { readRows } from '../../src/db/read-rows.js';
import { openTestDatabase } from '../support/service.js';

describe('readRows', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase();
    setDatabase(db);
  });
  afterAll(async () => {
    setDatabase(undefined);
    await db?.close();
  });

  it("answers $queryRaw's rows: the same values with the same types, parameters of each kind included", async () => {
    const at = new Date('2026-11-30T12:34:56.789Z');
    const statement = Prisma.sql`/* test:read-rows */
      SELECT ${7}::int AS i, ${9007199254740993n}::bigint AS big, ${'text'}::text AS t, ${true}::boolean AS b,
             ${at}::timestamp(3) AS ts, ${at}::timestamptz AS tz, ${1.5}::float8 AS f, NULL::int AS nothing,
             NULL::bigint AS "noBig", NULL::timestamp AS "noTime", array_length(${[1, 2, 3]}::int[], 1) AS n,
             ${['a', 'b,"c"', '']}::text[] AS tags, '{"a": [1, "x", null], "b": {"c": true}}'::jsonb AS details,
             '"x"'::jsonb AS "jsonText"
      UNION ALL SELECT 8, 2, '', false, ${at}::timestamp(3) - interval '1 day', ${at}::timestamptz, -2, 1, 3, '2026-01-02 03:04:05.006'::timestamp, 0, '{}'::text[], NULL::jsonb, '3'::jsonb`;
    const expected = await db.prisma.$queryRaw<Record<string, unknown>[]>(statement);
    const rows = await readRows<Record<string, unknown>>(statement);
    expect(rows).toEqual(expected);
    expect(rows[0]).toMatchObject({ i: 7, big: 9007199254740993n, t: 'text', b: true, ts: at, tz: at, f: 1.5, n: 3 });
    expect(rows.map((r) => r.tags)).toEqual([['a', 'b,"c"', ''], []]);
    expect(rows.map((r) => r.details)).toEqual([{ a: [1, 'x', null], b: { c: true } }, null]);
    expect(rows.map((r) => r.jsonText)).toEqual(['x', 3]);
    expect(rows[0]!.nothing).toBeNull();
    expect(rows[1]!.noTime).toBeInstanceOf(Date);
  });

  it('names each value by its column, whatever the name, and keeps one maker per set of columns apart', async () => {
    // Each set of columns gets an object maker of its own (its names written into its code): names that are
    // no identifier, and the same names in another order or with another type, stay what the statement says.
    const odd = Prisma.sql`/* test:read-rows-names */ SELECT 1 AS "a""b", 2 AS "back\\slash", 3 AS "line
break", 4 AS "\${x}", 5 AS "constructor"`;
    expect(await readRows(odd)).toEqual(await db.prisma.$queryRaw(odd));
    expect(await readRows(odd)).toEqual([{ 'a"b': 1, 'back\\slash': 2, 'line\nbreak': 3, '${x}': 4, constructor: 5 }]);
    const first = Prisma.sql`/* test:read-rows-order */ SELECT 1 AS x, 'y' AS y`;
    const swapped = Prisma.sql`/* test:read-rows-order */ SELECT 'y' AS y, 1 AS x`;
    const retyped = Prisma.sql`/* test:read-rows-order */ SELECT 1::bigint AS x, 'y' AS y`;
    expect(await readRows(first)).toEqual([{ x: 1, y: 'y' }]);
    expect(await readRows(swapped)).toEqual([{ y: 'y', x: 1 }]);
    expect(await readRows(retyped)).toEqual([{ x: 1n, y: 'y' }]);
  });

  it('hands the adapter big integers as text, as $queryRaw does (the adapter logs its arguments as JSON)', async () => {
    const handed: unknown[][] = [];
    const queryRaw = db.adapter.queryRaw.bind(db.adapter);
    // An own property in front of the adapter's method, deleted after.
    db.adapter.queryRaw = (query) => {
      handed.push(query.args);
      return queryRaw(query);
    };
    try {
      const rows = await readRows<{ big: bigint; n: number }>(
        Prisma.sql`/* test:read-rows-bigint */ SELECT ${9007199254740993n}::bigint AS big, array_length(${[1n, 2n]}::bigint[], 1) AS n`,
      );
      expect(rows).toEqual([{ big: 9007199254740993n, n: 2 }]);
    } finally {
      delete (db.adapter as Partial<typeof db.adapter>).queryRaw;
    }
    expect(handed).toHaveLength(1);
    expect(JSON.stringify(handed[0])).toBe('["9007199254740993",["1","2"]]');
  });

  it('is seen by the SQL observer, one statement', async () => {
    const seen: string[] = [];
    await observeSql(
      (sql) => seen.push(sql),
      () => readRows(Prisma.sql`/* test:read-rows-observed */ SELECT ${1}::int AS one`),
    );
    expect(seen).toEqual(['/* test:read-rows-observed */ SELECT $1::int AS one']);
  });

  it('refuses a column type it does not convert, rather than answer another type than the ORM', async () => {
    await expect(readRows(Prisma.sql`SELECT 1.5::numeric AS n`)).rejects.toThrow(/column type .* is not converted/);
  });
});

// Prepared statements on the embedded database (src/db/pglite-prepared.ts):
// a named statement is parsed once and then only bound and executed, and
// every answer is the one PGlite's own query() gives — values of each type,
// nulls, counts of a write, errors (after which the session goes on), inside
// and outside a transaction, and a rolled-back transaction's writes gone.
// Also what guards a PGlite upgrade: the locks and protocol it relies on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as pgliteModule from '@electric-sql/pglite';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_PREPARED_MAX, withPreparedStatements } from '../../../src/db/pglite-prepared.js';

let raw: PGlite;
let db: PGlite;

beforeAll(async () => {
  raw = new PGlite();
  await raw.waitReady;
  db = withPreparedStatements(raw, pgliteModule);
  await raw.exec(`CREATE TABLE t (id int PRIMARY KEY, name text, at timestamptz, tags text[], doc jsonb, n numeric)`);
});
afterAll(() => raw.close());

const prepared = async () =>
  (
    await raw.query<{ name: string; generic_plans: number; custom_plans: number }>(
      `SELECT name, generic_plans::int, custom_plans::int FROM pg_prepared_statements ORDER BY name`,
    )
  ).rows;

const INSERT = `/* test:insert */ INSERT INTO t (id, name, at, tags, doc, n) VALUES ($1::int, $2::text, $3::timestamptz, $4::text[], $5::jsonb, $6::numeric)
  ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name RETURNING id, name, at, tags, doc, n, (xmax = 0) AS inserted`;
const SELECT = `/* test:select */ SELECT id, name, at, tags, doc, n FROM t WHERE id = ANY($1::int[]) ORDER BY id`;

describe('named statements on PGlite', () => {
  it('answers as query() does, for every type and null, and prepares the statement once', async () => {
    const rows = [
      [1, 'one', '2026-11-30T10:00:00.000Z', '{a,b}', '{"k": [1, "x"]}', '12.50'],
      [2, "it's \u00e9\u{1F600}", null, '{}', null, null],
    ];
    for (const row of rows) {
      const ours = await db.query(INSERT, row, { rowMode: 'array' });
      await raw.exec(`DELETE FROM t WHERE id = ${row[0] as number}`);
      const theirs = await raw.query(INSERT, row, { rowMode: 'array' });
      expect(ours.rows).toEqual(theirs.rows);
      expect(ours.affectedRows).toBe(theirs.affectedRows);
      expect(ours.fields).toEqual(theirs.fields);
    }
    // The query's own parsers come before PGlite's (the Prisma adapter passes its own), as arrays and as objects.
    const parsers = { 1700: (v: string) => `numeric ${v}`, 1184: (v: string) => `timestamptz ${v}` };
    for (let i = 0; i < 8; i++) {
      const ours = await db.query(SELECT, ['{1,2,3}']);
      expect(ours.rows).toEqual((await raw.query(SELECT, ['{1,2,3}'])).rows);
      expect(ours.rows).toHaveLength(2);
      const options = i % 2 ? { parsers } : { parsers, rowMode: 'array' as const };
      const parsed = await db.query(SELECT, ['{1,2,3}'], options);
      expect(parsed).toEqual(await raw.query(SELECT, ['{1,2,3}'], options));
      expect(JSON.stringify(parsed.rows)).toContain('numeric 12.50');
    }
    // A statement without the comment runs as before, unprepared.
    expect((await db.query('SELECT $1::int + 1 AS n', [41])).rows).toEqual([{ n: 42 }]);
    const names = await prepared();
    expect(names).toHaveLength(2);
    // Two inserts and sixteen selects, each on its one prepared statement.
    expect(names.map((p) => p.generic_plans + p.custom_plans).sort()).toEqual([16, 2]);
  });

  it('gives the database error and goes on: a failed bind, a failed parse', async () => {
    const bad = db.query(SELECT, ['not an array']);
    await expect(bad).rejects.toMatchObject({ code: '22P02' });
    expect((await db.query(SELECT, ['{1}'])).rows).toHaveLength(1);
    // A statement that cannot be prepared fails as query() fails, and again the same way (run unprepared).
    const broken = '/* test:broken */ SELEC 1';
    for (let i = 0; i < 2; i++) await expect(db.query(broken)).rejects.toMatchObject({ code: '42601' });
    expect((await db.query(SELECT, ['{2}'])).rows).toHaveLength(1);
  });

  it('runs inside a transaction, whose rollback takes the writes back', async () => {
    await db
      .transaction(async (tx) => {
        await tx.query(INSERT, [10, 'ten', null, '{}', null, null]);
        expect((await tx.query(SELECT, ['{10}'])).rows).toHaveLength(1);
        throw new Error('roll back');
      })
      .catch((e: Error) => expect(e.message).toBe('roll back'));
    expect((await db.query(SELECT, ['{10}'])).rows).toHaveLength(0);
    await db.transaction(async (tx) => {
      await tx.query(INSERT, [11, 'eleven', null, '{}', null, null]);
    });
    expect((await db.query(SELECT, ['{11}'])).rows).toEqual([
      { id: 11, name: 'eleven', at: null, tags: [], doc: null, n: null },
    ]);
  });

  it('keeps statements from running into each other when they are sent at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? db.query(SELECT, [i % 4 === 1 ? '{1}' : '{2}'])
          : db.query(INSERT, [100 + i, `n${i}`, null, '{}', null, null]),
      ),
    );
    answers.forEach((a, i) => expect(a.rows, `query ${i}`).toHaveLength(1));
  });

  it(`prepares at most ${PGLITE_PREPARED_MAX} statements; later texts run unprepared`, async () => {
    const small = new PGlite();
    try {
      const capped = withPreparedStatements(small, pgliteModule, 3);
      for (let i = 0; i < 5; i++)
        expect((await capped.query(`/* test:n${i} */ SELECT ${i} AS n`)).rows).toEqual([{ n: i }]);
      expect((await small.query(`SELECT count(*)::int AS n FROM pg_prepared_statements`)).rows).toEqual([{ n: 3 }]);
    } finally {
      await small.close();
    }
  }, 60_000);
});

// The service's own statements (their text begins with a `/* area:name */`
// comment) are prepared once per PostgreSQL connection and run again by name
// (src/db/statement-names.ts); other statements stay unnamed. Runs in the
// postgres test project (PGlite has no driver cache of statements).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { NAMED_TEXTS, statementName } from '../../src/db/statement-names.js';
import { createPostgresDatabase } from '../support/pg-database.js';

describe('statement names', () => {
  it('names a marked text by its content, the same each time, and leaves other texts unnamed', () => {
    const a = statementName({ sql: '/* names:a */ SELECT $1::int AS n' });
    expect(a).toMatch(/^lms_/);
    expect(statementName({ sql: '/* names:a */ SELECT $1::int AS n' })).toBe(a);
    expect(statementName({ sql: '/* names:a */ SELECT $1::text' })).not.toBe(a);
    expect(statementName({ sql: 'SELECT "id" FROM "Project" WHERE "id" IN ($1, $2)' })).toBeUndefined();
  });

  it('names no more than NAMED_TEXTS texts', () => {
    const named = Array.from({ length: NAMED_TEXTS + 10 }, (_, i) =>
      statementName({ sql: `/* names:many */ SELECT ${i}` }),
    );
    expect(named.filter((n) => n === undefined).length).toBeGreaterThanOrEqual(10);
    // A text named before keeps its name.
    expect(statementName({ sql: '/* names:a */ SELECT $1::int AS n' })).toMatch(/^lms_/);
  });
});

describe.runIf(process.env.TEST_DB_KIND === 'postgres')('prepared statements on PostgreSQL', () => {
  let database: { url: string; drop(): Promise<void> };
  let db: Database;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    db = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 });
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it("prepares a marked statement once on its connection and runs it again by name; the ORM's are not kept", async () => {
    // A text named in this process before (the tests above filled the names up to NAMED_TEXTS).
    const marked = Prisma.sql`/* names:a */ SELECT ${41}::int AS n`;
    const prepared = await db.prisma.$transaction(async (tx) => {
      // One transaction: one connection, whose prepared statements pg_prepared_statements lists.
      for (let i = 0; i < 3; i++) expect(await tx.$queryRaw<{ n: number }[]>(marked)).toEqual([{ n: 41 }]);
      await tx.project.findMany({ where: { id: { in: [1, 2, 3] } } });
      return tx.$queryRaw<{ name: string; statement: string }[]>`SELECT name, statement FROM pg_prepared_statements`;
    });
    expect(prepared).toEqual([{ name: statementName({ sql: marked.text }), statement: marked.text }]);
  });
});

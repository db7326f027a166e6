// Bulk writes release the parameters Prisma's debug histories keep of their
// statements (src/db/statement-history.ts), the embedded database's adapter's
// own copy of that history included.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { releaseStatementHistory } from '../../src/db/statement-history.js';

/** The debug module the PGlite adapter logs its queries to, found as its own import finds it. */
async function adapterDebugLogs(): Promise<() => string> {
  const fromAdapter = createRequire(createRequire(import.meta.url).resolve('pglite-prisma-adapter'));
  const fromUtils = createRequire(fromAdapter.resolve('@prisma/driver-adapter-utils'));
  const debug = fromUtils.resolve('@prisma/debug');
  const mod = (await import(pathToFileURL(join(dirname(debug), 'index.mjs')).href)) as {
    getLogs: (chars?: number) => string;
  };
  return () => mod.getLogs(Number.MAX_SAFE_INTEGER);
}

describe('statement history', () => {
  let db: Database;
  beforeAll(async () => {
    // The embedded database whatever TEST_DB_KIND says: its adapter is the one with a history of its own.
    db = await openDatabase({ kind: 'pglite', loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) });
  }, 120_000);
  afterAll(async () => {
    await db.close();
  });

  it("lets the embedded adapter's history go of a statement's parameters", async () => {
    const logs = await adapterDebugLogs();
    const marker = `bulk-parameter-${'x'.repeat(64)}`;
    await db.prisma.$queryRawUnsafe('SELECT length($1::text) AS n', marker);
    // The adapter's history has it (else this test would prove nothing)…
    expect(logs()).toContain(marker);
    releaseStatementHistory();
    // …and lets it go once released.
    expect(logs()).not.toContain(marker);
  });
});

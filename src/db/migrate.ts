// Applies prisma/migrations/*/migration.sql in order at start-up, keeping
// Prisma's own `_prisma_migrations` bookkeeping (same table, same SHA-256
// checksums) so that `prisma migrate deploy` on a connected machine agrees.
// An advisory lock serialises instances starting at the same time.
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './client.js';
import { Prisma } from '../generated/prisma/client.js';
import { PROJECT_DIR } from '../paths.js';

const MIGRATIONS_DIR = join(PROJECT_DIR, 'prisma', 'migrations');
// The key Prisma's migrate uses for its own advisory lock.
const ADVISORY_LOCK_KEY = 72707369;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  const { prisma } = db;
  await db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
  const applied: string[] = [];
  await prisma.$transaction(
    async (tx) => {
      // From the start on each run: a transaction whose connection was lost is replayed (connection-loss.ts).
      applied.length = 0;
      await tx.$executeRaw(Prisma.sql`/* migrate:lock */ SELECT pg_advisory_xact_lock(${ADVISORY_LOCK_KEY}::bigint)`);
      const done = await tx.$queryRaw<{ migration_name: string; checksum: string }[]>(
        Prisma.sql`/* migrate:applied */ SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      );
      const byName = new Map(done.map((r) => [r.migration_name, r.checksum]));
      for (const m of migrations) {
        const previous = byName.get(m.name);
        if (previous) {
          if (previous !== m.checksum)
            throw new Error(`Migration ${m.name} was modified after it was applied (checksum differs)`);
          continue;
        }
        // Migration files hold several statements; run them as one simple-protocol batch.
        for (const statement of splitStatements(m.sql))
          // eslint-disable-next-line no-restricted-properties -- a migration file's statements are SQL text read from prisma/migrations, run as they are written.
          await tx.$executeRawUnsafe(statement);
        await tx.$executeRaw(
          Prisma.sql`/* migrate:record */ INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
            VALUES (${randomUUID()}, ${m.checksum}, ${m.name}, now(), 1)`,
        );
        applied.push(m.name);
      }
    },
    { timeout: 120_000, maxWait: 120_000 },
  );
  return applied;
}

/** Splits migration SQL on statement ends, outside quoted strings and dollar-quoted ($$) bodies. */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let inString = false;
  let inDollar = false;
  for (const line of sql.split('\n')) {
    if (!inString && /^\s*--/.test(line)) continue;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (!inString && ch === '$' && line[i + 1] === '$') {
        inDollar = !inDollar;
        current += '$$';
        i++;
        continue;
      }
      if (ch === "'" && !inDollar) inString = !inString;
      current += ch;
      if (ch === ';' && !inString && !inDollar) {
        if (current.trim() !== ';') out.push(current.trim());
        current = '';
      }
    }
    current += '\n';
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

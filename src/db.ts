// The one database of this process, opened at start-up (src/app.ts) and
// imported by domain code. Tests open one per test file.
import type { Database } from './db/client.js';
import { Prisma, type PrismaClient } from './generated/prisma/client.js';

let current: Database | undefined;

export function setDatabase(db: Database | undefined): void {
  current = db;
}

export function database(): Database {
  if (!current) throw new Error('The database is not open');
  return current;
}

/** The database of this process when one is open (code that must not fail without one). */
export function databaseIfOpen(): Database | undefined {
  return current;
}

export function prisma(): PrismaClient {
  return database().prisma;
}

/** A client or an interactive transaction: domain functions accept either. */
export type Db = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

/**
 * Locks the project's row until the transaction `db` ends: changes that check
 * a rule over the whole project (its last owner, last language, the plan's
 * customer limit) run one at a time. Here, below every domain folder, so each
 * of them takes the same lock without importing another.
 */
export async function lockProject(db: Db, projectId: number): Promise<void> {
  await db.$queryRaw(Prisma.sql`/* projects:lock */ SELECT id FROM "Project" WHERE id = ${projectId} FOR UPDATE`);
}

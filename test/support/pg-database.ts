import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { withDatabase } from './global-setup.js';

/** A PostgreSQL database of its own, cloned from the migrated template (postgres test project only). */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL!;
  const name = `${inject('pgRunPrefix')}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  await admin.end();
  return {
    url: withDatabase(base, name),
    async drop() {
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

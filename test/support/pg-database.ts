import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createDatabase } from './pg-admin.js';

/** A PostgreSQL database of its own, cloned from the migrated template (postgres test project only). */
export function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  return createDatabase(
    process.env.TEST_DATABASE_URL!,
    `${inject('pgRunPrefix')}${randomBytes(6).toString('hex')}`,
    inject('pgTemplate'),
  );
}

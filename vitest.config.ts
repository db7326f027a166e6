import { defineConfig } from 'vitest/config';

// test/unit: pure code, run once. test/api: the service on a database, run on
// PGlite always and on PostgreSQL too when TEST_DATABASE_URL is set.
const dbProjects = [
  { name: 'pglite', env: { TEST_DB_KIND: 'pglite' } },
  ...(process.env.TEST_DATABASE_URL ? [{ name: 'postgres', env: { TEST_DB_KIND: 'postgres' } }] : []),
];

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      ...dbProjects.map((p) => ({
        test: {
          name: p.name,
          include: ['test/api/**/*.test.ts'],
          env: p.env,
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file gets its own database; two at a time suits 2 cores.
          maxWorkers: 2,
        },
      })),
    ],
  },
});

import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import LongFirstSequencer from './test/support/sequencer.js';

// test/unit: pure code, run once. test/api: the service on a database, run on
// PGlite always and on PostgreSQL too when TEST_DATABASE_URL is set.
// test/browser: the web console in headless Chromium, on PGlite.
// Files about what only PostgreSQL has (several service processes on one database, its connections,
// a server's memory): each also skips itself elsewhere, but an excluded file costs no start-up at all.
const postgresOnly = [
  'test/api/publication-takeover.test.ts',
  'test/api/connection-loss.test.ts',
  'test/api/jobs-recovery.test.ts',
  'test/api/instances.test.ts',
  'test/api/export-memory.test.ts',
  'test/api/cluster.test.ts',
  'test/api/deletion-findings-race.test.ts',
];
const dbProjects = [
  { name: 'pglite', env: { TEST_DB_KIND: 'pglite' }, exclude: postgresOnly },
  ...(process.env.TEST_DATABASE_URL
    ? [
        {
          name: 'postgres',
          env: { TEST_DB_KIND: 'postgres' },
          // Where the database plays no part, one run (on PGlite) covers it: requests
          // refused at the edge or by the one authorization check before any statement,
          // file formats read and written, the API's description. Each file costs
          // seconds of start-up besides its tests (the suite's largest cost).
          exclude: [
            'test/api/bad-input.test.ts',
            'test/api/import-format-mismatch.test.ts',
            'test/api/import-bad-files.test.ts',
            'test/api/authorization-matrix.test.ts',
            'test/api/graphql-limits.test.ts',
            'test/api/request-limits.test.ts',
            'test/api/slow-clients.test.ts',
            'test/api/http.test.ts',
            'test/api/openapi.test.ts',
            'test/api/platform-tools.test.ts',
            'test/api/import-export-roundtrip.test.ts',
            'test/api/export-plural-shape.test.ts',
            'test/api/glossary-files.test.ts',
            // Git and forge protocols, a model server's protocol, the in-context credential's refusals:
            // their database work is the import, export and gate paths other files run on both.
            'test/api/gitsync.test.ts',
            'test/api/gitsync-automation.test.ts',
            'test/api/llm-providers.test.ts',
            'test/api/in-context-tokens.test.ts',
            // The service's Redis connections: opened and closed alike on either database.
            'test/api/redis-connection.test.ts',
            // The admin command line on the embedded database's files.
            'test/api/cli-admin.test.ts',
          ],
        },
      ]
    : []),
];

export default defineConfig({
  // One graphql module instance: pothos and yoga load the CommonJS build.
  // (Node resolves `graphql` to index.js for dependencies; Vite would pick index.mjs.)
  resolve: { alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') }] },
  test: {
    // Each API test file gets its own database. Three files at a time on 2 cores: the files mostly wait
    // (on service processes, browsers, timers), and with two the cores sat idle most of a run.
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    // A larger young generation for the workers: fewer scavenges of the services' short-lived objects. Eight
    // PGlite API files, two workers, runs alternating on 2026-12-02: 88–95 s of the workers' CPU against 91–115 s
    // with Node's default (64 MiB was no better than 32).
    execArgv: ['--max-semi-space-size=32'],
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // As in the API projects: files share a worker's loaded modules (a fresh module graph per
          // file cost the unit block a fifth of its CPU, 245 s against 190 s on 2026-12-01).
          isolate: false,
          setupFiles: ['test/support/file-isolation.ts', 'test/support/file-cpu.ts'],
          // Some unit tests open an embedded database in their set-up: only a hang should fail there.
          hookTimeout: 60_000,
        },
      },
      ...dbProjects.map((p) => ({
        extends: true as const,
        test: {
          name: p.name,
          include: ['test/api/**/*.test.ts'],
          exclude: p.exclude,
          env: p.env,
          globalSetup: ['test/support/global-setup.ts'],
          // Files share a worker's loaded modules: each saves seconds of start-up.
          isolate: false,
          setupFiles: ['test/support/file-isolation.ts', 'test/support/file-cpu.ts'],
          testTimeout: 30_000,
          // Set-ups that start service processes and databases: generous, since
          // only a hang should fail here, not a slow machine.
          hookTimeout: 180_000,
        },
      })),
      // The web console in headless Chromium against the real service (PGlite).
      {
        extends: true as const,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          env: { TEST_DB_KIND: 'pglite' },
          globalSetup: ['test/support/global-setup.ts'],
          isolate: false,
          setupFiles: ['test/support/file-isolation.ts', 'test/support/file-cpu.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // A screen's answer waits for a GraphQL request, which under the whole suite's load (10+ on two
          // cores) took longer than expect.poll's default second (the glossary search, 2026-11-30): only a
          // hang should fail a poll.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});

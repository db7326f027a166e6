// Dependencies run one way: server → rest-compat → http → schema → domain → db
// (the layers and extra rules are defined once, in scripts/lib/dependencies.ts),
// and no chain of imports comes back to where it started.
import { describe, expect, it } from 'vitest';
import {
  collectImports,
  folderCycles,
  importCycles,
  layerOf,
  layerViolations,
  LAYERS,
} from '../../scripts/lib/dependencies.js';

const { files, imports } = collectImports();

describe('dependencies', () => {
  it('reads the whole code base', () => {
    expect(files).toContain('src/app.ts');
    expect(files).toContain('rest-compat/index.ts');
    expect(files.some((f) => f.startsWith('bench/'))).toBe(true);
    // Every file of the service belongs to a layer.
    expect(files.filter((f) => (f.startsWith('src/') || f.startsWith('rest-compat/')) && !layerOf(f))).toEqual([]);
    expect(imports.length).toBeGreaterThan(files.length);
  });

  it('has no upward import and breaks none of the rules', () => {
    expect(layerViolations(imports)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(importCycles(imports)).toEqual([]);
  });

  it('has no cycle between folders', () => {
    expect(folderCycles(imports)).toEqual([]);
  });

  describe('the checker itself', () => {
    it('places files in the layers of docs/architecture.md', () => {
      expect(LAYERS.map((l) => l.name)).toEqual(['server', 'rest-compat', 'http', 'schema', 'domain', 'db']);
      expect(layerOf('src/main.ts')?.name).toBe('server');
      expect(layerOf('rest-compat/routes/transfer.ts')?.name).toBe('rest-compat');
      expect(layerOf('src/http/graphql.ts')?.name).toBe('http');
      expect(layerOf('src/schema/transfer.ts')?.name).toBe('schema');
      expect(layerOf('src/context.ts')?.name).toBe('schema');
      expect(layerOf('src/content/translations/store.ts')?.name).toBe('domain');
      expect(layerOf('src/errors.ts')?.name).toBe('domain');
      expect(layerOf('src/db.ts')?.name).toBe('db');
      expect(layerOf('src/generated/prisma/client.ts')?.name).toBe('db');
    });

    it('reports upward imports and forbidden targets', () => {
      const rules = (from: string, to: string) => layerViolations([{ from, to }]).map((v) => v.rule);
      expect(rules('src/content/translations/store.ts', 'src/schema/translations.ts')).toEqual([
        'upward import: domain may not import schema',
      ]);
      expect(rules('src/http/errors.ts', 'rest-compat/envelope.ts')).toEqual([
        'upward import: http may not import rest-compat',
      ]);
      expect(rules('src/db/client.ts', 'src/projects/projects.ts')).toEqual([
        'upward import: db may not import domain',
      ]);
      expect(rules('rest-compat/routes/jobs.ts', '@prisma/client')[0]).toMatch(
        /rest-compat never touches the database/,
      );
      expect(rules('rest-compat/routes/jobs.ts', 'src/db.ts')[0]).toMatch(/rest-compat never touches the database/);
      expect(rules('bench/lib/service.ts', 'test/support/pg-admin.ts')[0]).toMatch(/only tests import test/);
      expect(rules('src/jobs/run.ts', 'test/support/content.ts')[0]).toMatch(/only tests import test/);
      // Downward and same-layer imports are fine.
      expect(rules('src/app.ts', 'rest-compat/index.ts')).toEqual([]);
      expect(rules('rest-compat/index.ts', 'src/http/graphql.ts')).toEqual([]);
      expect(rules('src/schema/transfer.ts', 'src/transfer/import.ts')).toEqual([]);
      expect(rules('test/api/http.test.ts', 'src/db.ts')).toEqual([]);
    });

    it('finds cycles, type-only and lazy imports included', () => {
      expect(
        importCycles([
          { from: 'src/jobs/run.ts', to: 'src/jobs/finish.ts' },
          { from: 'src/jobs/finish.ts', to: 'src/jobs/run.ts' },
          { from: 'src/jobs/worker.ts', to: 'src/jobs/run.ts' },
        ]),
      ).toEqual([['src/jobs/finish.ts', 'src/jobs/run.ts']]);
      expect(
        importCycles([
          { from: 'src/a/x.ts', to: 'src/a/y.ts' },
          { from: 'src/a/y.ts', to: 'src/a/z.ts' },
          { from: 'src/a/z.ts', to: 'src/a/x.ts' },
          { from: 'src/a/z.ts', to: 'pino' },
        ]),
      ).toEqual([['src/a/x.ts', 'src/a/y.ts', 'src/a/z.ts']]);
      expect(importCycles([{ from: 'src/a/x.ts', to: 'src/a/y.ts' }])).toEqual([]);
    });

    it('finds cycles between folders that no cycle of files shows', () => {
      const crossing = [
        { from: 'src/auth/sessions.ts', to: 'src/events/pubsub.ts' },
        { from: 'src/events/redis.ts', to: 'src/auth/credential-cache.ts' },
      ];
      expect(importCycles(crossing)).toEqual([]);
      expect(folderCycles(crossing)).toEqual([['src/auth', 'src/events']]);
      expect(
        folderCycles([
          { from: 'src/auth/a.ts', to: 'src/auth/b.ts' },
          { from: 'src/auth/b.ts', to: 'src/db.ts' },
        ]),
      ).toEqual([]);
    });

    it('fails the code base on one import that closes a circle of folders', () => {
      // The write gate telling the memory's index directly which keys it wrote, as it once did:
      // memory depends on content, so that import closes a circle no file cycle shows.
      const turnedBack = [...imports, { from: 'src/content/translations/gate.ts', to: 'src/memory/ngram-index.ts' }];
      expect(importCycles(turnedBack)).toEqual([]);
      expect(folderCycles(turnedBack)).toEqual([expect.arrayContaining(['src/content', 'src/memory'])]);
    });
  });
});

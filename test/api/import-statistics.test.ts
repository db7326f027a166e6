// The planner's view of an import's keys while the import runs (src/db/fresh-statistics.ts): on the
// embedded database, the keys a transaction created in bulk are counted before its cells are written.
// Without that, a second project's first import was planned as if it had one key, and the write gate
// joined two of its CTEs of thousands of rows by a nested loop (docs/benchmarks.md, "The embedded
// database's planner after a bulk write"). The plan is asserted, not the time it takes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { writeBundle } from '../../src/transfer/write-bundle.js';
import { openChange } from '../../src/content/changes.js';
import { ensureKeys } from '../../src/content/translations/store.js';
import type { Bundle } from '../../src/formats/model.js';
import type { Db } from '../../src/db.js';
import { observeSql } from '../../src/db/client.js';
import { updateTranslationsV1 } from '../../src/content/translations/update-v1.js';
import { importTranslationsV1 } from '../../src/transfer/import-v1.js';
import type { V1Element } from '../../src/content/translations/v1-elements.js';

let service: TestService;
afterAll(() => service?.close());
beforeAll(async () => {
  service = await startTestService();
});

async function projectId(name: string): Promise<number> {
  const project = await (await service.account()).project(name);
  return (await service.db.prisma.project.findUniqueOrThrow({ where: { projectToken: project.projectToken } })).id;
}

/** The planner's estimate of a project's keys. */
async function estimatedKeys(db: Db, id: number): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }[]>(
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM "TranslationKey" WHERE "projectId" = ${id}`,
  );
  return row!['QUERY PLAN'][0].Plan['Plan Rows'];
}

interface PlanNode {
  'Node Type': string;
  Plans?: PlanNode[];
}

/** A CTE scan, or a hash, sort or materialization of one. */
const scansCte = (node: PlanNode): boolean =>
  node['Node Type'] === 'CTE Scan' ||
  (['Hash', 'Sort', 'Materialize'].includes(node['Node Type']) && node.Plans?.length === 1 && scansCte(node.Plans[0]!));

/** The joins of two CTE scans in a plan, by their node type. */
function cteJoins(node: PlanNode): string[] {
  const children = node.Plans ?? [];
  const own = children.length === 2 && children.every(scansCte) ? [node['Node Type']] : [];
  return [...own, ...children.flatMap(cteJoins)];
}

const KEYS = 1_000;
const bundle: Bundle = {
  languages: [{ key: 'en' }, { key: 'de' }],
  keys: Array.from({ length: KEYS }, (_, i) => ({
    key: `k${i}`,
    namespace: '',
    translations: { en: { text: `en ${i}` }, de: { text: `de ${i}` } },
  })),
};

describe.skipIf(process.env.TEST_DB_KIND === 'postgres')('an import on the embedded database', () => {
  it("counts the keys it created before writing their cells, so the write gate's joins are not nested loops over thousands of rows", async () => {
    const db = service.db.prisma;
    // Another project's keys are all the statistics know of.
    const other = await projectId('statistics-other');
    await ensureKeys(
      db,
      other,
      Array.from({ length: 3 * KEYS }, (_, i) => ({ key: `o${i}`, namespace: '' })),
      { create: true },
    );
    await db.$executeRawUnsafe('ANALYZE "TranslationKey"');
    const id = await projectId('statistics-import');
    expect(await estimatedKeys(db, id)).toBeLessThan(10);
    await db.$transaction(async (tx) => {
      const result = await writeBundle(tx, id, bundle, {
        replace: false,
        customerId: null,
        tags: [],
        change: await openChange(tx, id, 'IMPORT'),
      });
      expect(result).toMatchObject({ keysCreated: KEYS });
      // Two CTEs over the cells joined with the project's keys, joined with each other, as the gate's
      // "written" and "checked" are.
      const keyIds = (await tx.translationKey.findMany({ where: { projectId: id }, select: { id: true } })).map(
        (k) => k.id,
      );
      const [row] = await tx.$queryRawUnsafe<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(
        `EXPLAIN (FORMAT JSON) WITH input AS (SELECT * FROM unnest($1::int[]) AS i(key_id)),
              checked AS (SELECT i.key_id FROM input i JOIN "TranslationKey" k ON k.id = i.key_id AND k."projectId" = ${id}),
              written AS (SELECT key_id FROM checked)
         SELECT count(*) FROM written w JOIN checked c ON c.key_id = w.key_id`,
        keyIds,
      );
      // The two CTEs' join: by hash, as for thousands of rows, not a nested loop planned for one row each.
      expect(cteJoins(row!['QUERY PLAN'][0].Plan)).toEqual(['Hash Join']);
      // Still inside the import's transaction: what its statements were planned with.
      expect(await estimatedKeys(tx, id)).toBeGreaterThan(KEYS / 2);
    });
  });
});

/** Elements of `keys` new keys in two languages (v1 paths). */
const elements = (prefix: string, keys: number): V1Element[] =>
  Array.from({ length: keys }, (_, i) => [
    { key: `${prefix}${i}`, language: 'en', text: `en ${i}` },
    { key: `${prefix}${i}`, language: 'de', text: `de ${i}` },
  ]).flat();

/** The statements `write` sent, by the tag in their first comment ('BEGIN' and the like as they are). */
async function statementsOf(write: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  await observeSql((sql) => statements.push(/\/\* ([\w:-]+) \*\//.exec(sql)?.[1] ?? sql.trim().split(/\s/)[0]!), write);
  return statements;
}

// The v1 writes that create keys in bulk (REST v1 and GraphQL updateTranslations with
// CREATE_KEY_IF_NOT_FOUND, the v1 import) create them and write their cells in one transaction too.
describe('the v1 writes that create many keys', () => {
  const embedded = process.env.TEST_DB_KIND !== 'postgres';

  it('analyze the keys they created before the write gate plans their cells, on the embedded database only', async () => {
    const languages = ['en', 'de'];
    const update = await projectId('statistics-v1-update');
    const imported = await projectId('statistics-v1-import');
    for (const id of [update, imported])
      await service.db.prisma.language.createMany({
        data: languages.map((key) => ({ projectId: id, key, name: key })),
        skipDuplicates: true,
      });
    const runs = [
      await statementsOf(() => updateTranslationsV1(update, elements('u', KEYS), { createKeys: true })),
      await statementsOf(() => importTranslationsV1(imported, elements('i', KEYS), { replace: false, publish: false })),
    ];
    for (const statements of runs) {
      const created = statements.indexOf('keys:create-plain');
      const gate = statements.indexOf('translations:gate');
      expect(created).toBeGreaterThanOrEqual(0);
      expect(gate).toBeGreaterThan(created);
      const analyzed = statements.indexOf('db:analyze-grown');
      if (embedded) {
        expect(analyzed).toBeGreaterThan(created);
        expect(analyzed).toBeLessThan(gate);
      } else expect(analyzed).toBe(-1);
    }
    expect(await service.db.prisma.translationKey.count({ where: { projectId: { in: [update, imported] } } })).toBe(
      2 * KEYS,
    );
    // A few keys (below MIN_ANALYZED_ROWS) are not worth an ANALYZE.
    expect(
      await statementsOf(() => updateTranslationsV1(update, elements('few', 10), { createKeys: true })),
    ).not.toContain('db:analyze-grown');
  }, 120_000);
});

// The export's page reader: keys in order, page by page, and the next page's
// query already sent while the caller writes the current page; a page past
// statistics taken when the project was smaller reads that page, not every
// key past it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureKeys } from '../../src/content/translations/store.js';
import { ensureLanguages } from '../../src/content/languages.js';
import { writeTranslations } from '../../src/content/translations/gate.js';
import { openChange } from '../../src/content/changes.js';
import { observeSql } from '../../src/db/client.js';
import { readKeyPages, type ExportLanguage } from '../../src/transfer/export-read.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { startTestService, type TestService } from '../support/service.js';

let service: TestService;
let projectId: number;
let languages: ExportLanguage[];
beforeAll(async () => {
  service = await startTestService();
  const account = await service.account();
  const project = await account.project('export-read');
  projectId = (await service.db.prisma.project.findUniqueOrThrow({ where: { projectToken: project.projectToken } })).id;
  const db = service.db.prisma;
  const { ids } = await ensureKeys(
    db,
    projectId,
    Array.from({ length: 25 }, (_, i) => ({ key: `k${i}`, namespace: '' })),
    { create: true },
  );
  const langs = await ensureLanguages(db, projectId, [{ key: 'en' }, { key: 'de' }], { create: true });
  const cells = [...ids.values()].flatMap((keyId) =>
    [...langs.ids.values()].map((languageId) => ({
      keyId,
      languageId,
      customerId: null,
      text: `t${keyId}-${languageId}`,
    })),
  );
  await writeTranslations(db, projectId, cells, {
    replace: true,
    change: await openChange(db, projectId, 'TRANSLATIONS'),
  });
  languages = (await db.language.findMany({ where: { projectId }, orderBy: { order: 'asc' } })).map((l) => ({
    id: l.id,
    key: l.key,
    name: l.name,
    isDefault: l.isDefault,
  }));
});
afterAll(() => service.close());

describe('export page reader', () => {
  const scope = () => ({
    projectId,
    languages,
    customerId: null,
    customerTranslations: false,
    sort: 'IMPORT_ORDER' as const,
    oneKeyPerName: false,
    pageSize: 10,
  });

  it('reads every key once, in order, with its texts', async () => {
    const names: string[] = [];
    for await (const page of readKeyPages(service.db.prisma, scope())) {
      for (const key of page) {
        names.push(key.key);
        expect(Object.keys(key.translations).sort()).toEqual(['de', 'en']);
      }
    }
    expect(names).toEqual(Array.from({ length: 25 }, (_, i) => `k${i}`));
  });

  it('reads the texts of the scope’s languages only, also when it reads every language without a condition', async () => {
    const en = languages.filter((l) => l.key === 'en');
    for (const everyLanguage of [false, true]) {
      // everyLanguage with fewer languages than the project has: a language added after the export began.
      for await (const page of readKeyPages(service.db.prisma, { ...scope(), languages: en, everyLanguage })) {
        for (const key of page) expect(Object.keys(key.translations)).toEqual(['en']);
      }
    }
  });

  it('has sent the next page’s query when it hands out a page, so the database reads while the caller writes', async () => {
    const sent: string[] = [];
    await observeSql(
      (sql) => sent.push(sql),
      async () => {
        const pages = readKeyPages(service.db.prisma, scope());
        const first = await pages.next();
        expect(first.value).toHaveLength(10);
        // Page 2 is already on its way (the caller has not asked for it), not page 3.
        expect(sent.filter((sql) => sql.includes('"TranslationKey" k'))).toHaveLength(2);
        await pages.return(undefined);
      },
    );
  });

  describe('a project grown since its statistics were taken', () => {
    const PAGE = 500;
    const HALF = 20_000;
    let grownId: number;
    beforeAll(async () => {
      const db = service.db.prisma;
      const account = await service.account();
      const project = await account.project('export-read-grown');
      grownId = (await db.project.findUniqueOrThrow({ where: { projectToken: project.projectToken } })).id;
      // Five namespaces (formats without namespaces read one key per name): half the keys, the statistics, then the rest.
      const insert = (from: number, to: number) =>
        db.$executeRawUnsafe(
          `INSERT INTO "TranslationKey" ("projectId", key, namespace)
         SELECT $1, 'screen' || (n / 50) || '.key.' || lpad(n::text, 7, '0'), 'ns' || (n % 5) FROM generate_series($2::int, $3::int) n`,
          grownId,
          from,
          to,
        );
      await insert(1, HALF);
      await db.$executeRawUnsafe('ANALYZE "TranslationKey"');
      await insert(HALF + 1, 2 * HALF);
    });

    /** Rows each scan of TranslationKey read (over all its loops), by alias, in a plan of EXPLAIN (ANALYZE, FORMAT JSON). */
    function keyRowsRead(plan: Record<string, unknown>, out = new Map<string, number>()): Map<string, number> {
      if (plan['Relation Name'] === 'TranslationKey') {
        const alias = plan['Alias'] as string;
        out.set(alias, (out.get(alias) ?? 0) + (plan['Actual Rows'] as number) * (plan['Actual Loops'] as number));
      }
      for (const child of (plan['Plans'] as Record<string, unknown>[] | undefined) ?? []) keyRowsRead(child, out);
      return out;
    }

    for (const sort of ['IMPORT_ORDER', 'NAMESPACES', 'NEWEST_KEYS_LAST', 'NEWEST_KEYS_FIRST'] as const) {
      for (const oneKeyPerName of [false, true]) {
        it(`${sort}${oneKeyPerName ? ', one key per name' : ''}: a page past the statistics reads about a page of keys`, async () => {
          const prisma = service.db.prisma;
          const statements: Prisma.Sql[] = [];
          const recording = {
            $queryRaw: (query: Prisma.Sql) => {
              statements.push(query);
              return prisma.$queryRaw(query);
            },
          };
          for await (const page of readKeyPages(recording as never, {
            projectId: grownId,
            languages: [],
            customerId: null,
            customerTranslations: false,
            sort,
            oneKeyPerName,
            pageSize: PAGE,
          })) {
            expect(page.length).toBeGreaterThan(0);
          }
          // Every page, those just past the keys the statistics know above all (where they see none).
          const worst = new Map<string, number>();
          for (const query of statements) {
            const [{ 'QUERY PLAN': plan }] = await prisma.$queryRaw<{ 'QUERY PLAN': unknown }[]>(
              Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`,
            );
            const root = (
              (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: Record<string, unknown> }[]
            )[0]!.Plan;
            for (const [alias, rows] of keyRowsRead(root)) worst.set(alias, Math.max(worst.get(alias) ?? 0, rows));
          }
          // The page's keys (and, for one key per name, a lookup of each one's name), not every key past the cursor.
          expect(worst.get('k')).toBeLessThanOrEqual(2 * PAGE);
          expect(worst.get('same') ?? 0).toBeLessThanOrEqual(2 * PAGE);
        });
      }
    }
  });
});

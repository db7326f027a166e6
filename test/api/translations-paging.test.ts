// GET /api/v2/translations pages: every filter of the contract gives the
// cells a reference computed here from the data written, page by page and
// whatever the page size; a page costs the same statements wherever it is;
// and a page reads only its own rows (filtered: the keys before it counted
// from an index alone).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeSql } from '../../src/db/client.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import {
  cellsOfKeys,
  countTranslations,
  queryTranslations,
  type TranslationFilter,
} from '../../src/content/translations/cells.js';
import { BLOCK_KEYS, DEEP_CELLS, forgetBlocks } from '../../src/content/translations/match-blocks.js';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { preparedPlan, rowsRead, type PlanNode } from '../support/query-plan.js';

let service: TestService;
let api: ProjectApi;

// Languages in the project's order (fr moved before de), keys in three namespaces.
const LANGUAGES = ['en', 'fr', 'de'];
const NAMESPACES = ['', 'app', 'web'];
const KEYS = Array.from({ length: 20 }, (_, i) => `k.${String(i).padStart(3, '0')}`);

interface Cell {
  key: string;
  namespace: string;
  language: string;
  text: string;
  reviewStatus: string;
  customerId: string | null;
}

/** What the data below writes: a text where base(key, language) says so; an override for acme where override says so. */
const base = (ns: number, k: number, language: string): string => {
  if (language === 'en') return k % 7 === 3 ? '' : `en ${ns}.${k}`;
  if (language === 'de') return k % 3 === 0 ? `de ${ns}.${k}` : '';
  return k % 5 === 1 ? `fr ${ns}.${k}` : '';
};
const reviewed = (ns: number, k: number, language: string) =>
  language === 'en' && base(ns, k, language) !== '' && k % 4 === 0;
const override = (ns: number, k: number, language: string) =>
  language === 'de' && ns === 1 && k % 2 === 0 ? `acme de ${k}` : '';

function reference(customer: string | null): Cell[] {
  const cells: Cell[] = [];
  for (const [ns, namespace] of NAMESPACES.entries()) {
    for (const [k, key] of KEYS.entries()) {
      for (const language of LANGUAGES) {
        const own = customer ? override(ns, k, language) : '';
        cells.push({
          key,
          namespace,
          language,
          customerId: customer,
          text: own || base(ns, k, language),
          reviewStatus: !own && reviewed(ns, k, language) ? 'REVIEWED' : 'NOT_REVIEWED',
        });
      }
    }
  }
  return cells;
}

beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account(), 'Paging');
  for (const language of ['fr', 'de']) await api.post('/api/v1/languages', { key: language });
  const order = await api.gql(`mutation { setLanguageOrder(keys: ["en", "fr", "de"]) { key } }`);
  expect(order.errors).toBeUndefined();
  await api.post('/api/v1/customers', { key: 'acme' });
  const content = NAMESPACES.flatMap((namespace, ns) =>
    KEYS.flatMap((key, k) => LANGUAGES.map((language) => ({ key, namespace, language, text: base(ns, k, language) }))),
  );
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  for (const [ns, namespace] of NAMESPACES.entries()) {
    for (const [k, key] of KEYS.entries()) {
      for (const language of LANGUAGES) {
        if (reviewed(ns, k, language))
          expect(
            (await api.patch('/api/v2/translations', { key, namespace, language, reviewStatus: 'REVIEWED' })).status,
          ).toBe(200);
        const text = override(ns, k, language);
        if (text)
          expect(
            (await api.patch('/api/v2/translations', { key, namespace, language, customerId: 'acme', text })).status,
          ).toBe(200);
      }
    }
  }
}, 120_000);
afterAll(() => service.close());

const strip = ({ key, namespace, language, text, reviewStatus, customerId }: Cell): Cell => ({
  key,
  namespace,
  language,
  text,
  reviewStatus,
  customerId,
});

const FILTERS: [string, (c: Cell) => boolean, string | null][] = [
  ['', () => true, null],
  ['language=de', (c) => c.language === 'de', null],
  ['namespace=app', (c) => c.namespace === 'app', null],
  ['key=k.005', (c) => c.key === 'k.005', null],
  [
    'key=k.005&namespace=web&language=fr',
    (c) => c.key === 'k.005' && c.namespace === 'web' && c.language === 'fr',
    null,
  ],
  ['language=nope', () => false, null],
  ['textStatus=EMPTY', (c) => c.text === '', null],
  ['textStatus=NOT_EMPTY', (c) => c.text !== '', null],
  ['text=N%201.1', (c) => c.text.toLowerCase().includes('n 1.1'), null],
  ['reviewsStatus=REVIEWED', (c) => c.reviewStatus === 'REVIEWED', null],
  ['reviewsStatus=NOT_REVIEWED&language=en', (c) => c.reviewStatus === 'NOT_REVIEWED' && c.language === 'en', null],
  // Filters only a cell with a row passes, combined (the page reads a key's rows from an index, not each language).
  [
    'text=E%201&reviewsStatus=NOT_REVIEWED&language=de',
    (c) => c.text.toLowerCase().includes('e 1') && c.reviewStatus === 'NOT_REVIEWED' && c.language === 'de',
    null,
  ],
  [
    'reviewsStatus=REVIEWED&textStatus=NOT_EMPTY&language=en',
    (c) => c.reviewStatus === 'REVIEWED' && c.text !== '' && c.language === 'en',
    null,
  ],
  ['customerId=acme', () => true, 'acme'],
  ['customerId=acme&language=de&textStatus=NOT_EMPTY', (c) => c.language === 'de' && c.text !== '', 'acme'],
  [
    'customerId=acme&namespace=app&reviewsStatus=NOT_REVIEWED',
    (c) => c.namespace === 'app' && c.reviewStatus === 'NOT_REVIEWED',
    'acme',
  ],
];

describe('every page of every filter', () => {
  for (const [query, keep, customer] of FILTERS) {
    it(`?${query || '(no filter)'}`, async () => {
      const expected = reference(customer).filter(keep);
      // Every filter but the unknown language keeps cells: a page of nothing would prove little.
      if (!query.includes('nope')) expect(expected.length).toBeGreaterThan(0);
      for (const size of [4, 25, 500]) {
        const got: Cell[] = [];
        for (let page = 0; ; page++) {
          const res = await api.get(`/api/v2/translations?${query}&size=${size}&page=${page}`);
          expect(res.status).toBe(200);
          expect(res.data.length).toBeLessThanOrEqual(size);
          got.push(...res.data.map(strip));
          if (res.data.length < size) break;
        }
        expect(got).toEqual(expected);
        // A page past the end is empty, not an error.
        expect(
          (await api.get(`/api/v2/translations?${query}&size=${size}&page=${Math.ceil(expected.length / size) + 3}`))
            .data,
        ).toEqual([]);
      }
      const count = await api.gql(`query ($filter: TranslationFilter) { translationCount(filter: $filter) }`, {
        filter: filterOf(query),
      });
      expect(count.data.translationCount).toBe(expected.length);
    });
  }
});

/** The REST query as the GraphQL filter. */
function filterOf(query: string): Record<string, string> {
  const names: Record<string, string> = { customerId: 'customerKey', reviewsStatus: 'reviewStatus' };
  const params = new URLSearchParams(query);
  return Object.fromEntries([...params].map(([name, value]) => [names[name] ?? name, value]));
}

describe('what a page costs', () => {
  it('the same statements for the first and the last page, whatever the filter', async () => {
    const statements = async (query: string) => {
      const sql: string[] = [];
      const res = await observeSql(
        (s) => sql.push(s),
        () => api.get(`/api/v2/translations?${query}`),
      );
      expect(res.status).toBe(200);
      expect(res.data.length).toBeGreaterThan(0);
      return sql;
    };
    const size = 4;
    for (const [filter, keep, customer] of FILTERS) {
      const cells = reference(customer).filter(keep).length;
      if (cells === 0) continue;
      const first = await statements(`${filter}&size=${size}&page=0`);
      const last = await statements(`${filter}&size=${size}&page=${Math.ceil(cells / size) - 1}`);
      expect(last, filter).toEqual(first);
      // The page (a text to contain here is rare: its page is read from its cells); the customer's id when there is one.
      expect(first.length, filter).toBe(1 + (customer ? 1 : 0));
      if (filter.includes('text=') && !customer)
        expect(first[0], filter).toMatch(/^\/\* translations:rare-text-page \*\//);
    }
  });

  // 3,000 more keys in a namespace of their own, with a text in each language for half of them (once, for the tests below).
  let bulk: Promise<number> | undefined;
  const withBulk = () =>
    (bulk ??= (async () => {
      const prisma = service.db.prisma;
      const project = await prisma.project.findUniqueOrThrow({ where: { projectToken: api.projectToken } });
      await prisma.$executeRaw`INSERT INTO "TranslationKey" ("projectId", key, namespace)
      SELECT ${project.id}, 'bulk.' || lpad(n::text, 5, '0'), 'zz' FROM generate_series(1, 3000) n`;
      await prisma.$executeRaw`INSERT INTO "Translation" ("keyId", "languageId", "projectId", text)
      SELECT k.id, l.id, k."projectId", 'text ' || k.key FROM "TranslationKey" k JOIN "Language" l ON l."projectId" = k."projectId"
       WHERE k."projectId" = ${project.id} AND k.namespace = 'zz' AND right(k.key, 1) IN ('0', '2', '4', '6', '8')`;
      // Reviewed: the 'de' cells of every third of those keys.
      await prisma.$executeRaw`UPDATE "Translation" t SET "reviewStatus" = 'REVIEWED' FROM "TranslationKey" k, "Language" l
      WHERE k.id = t."keyId" AND l.id = t."languageId" AND k."projectId" = ${project.id} AND k.namespace = 'zz' AND l.key = 'de' AND right(k.key, 1) IN ('0', '6')`;
      await prisma.$executeRaw`VACUUM ANALYZE "TranslationKey"`;
      await prisma.$executeRaw`VACUUM ANALYZE "Translation"`;
      // Written behind the service's back (no change recorded): the counts it keeps per block of keys are forgotten.
      forgetBlocks();
      return project.id;
    })());

  /** The plan of the one statement a page costs, run. */
  async function plannedPage(projectId: number, filter: TranslationFilter, page: number, size: number, rare = false) {
    const prisma = service.db.prisma;
    const queries: Prisma.Sql[] = [];
    const recording = (query: Prisma.Sql) => {
      queries.push(query);
      return prisma.$queryRaw(query);
    };
    const rows = await queryTranslations(projectId, filter, page, size, recording as never);
    // The page; before it, for a common text to contain, the statement that found it common (for a rare one,
    // that statement is the page).
    expect(queries).toHaveLength(filter.text && !rare ? 2 : 1);
    const [{ 'QUERY PLAN': plan }] = await prisma.$queryRaw<{ 'QUERY PLAN': unknown }[]>(
      Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${queries.at(-1)!}`,
    );
    return {
      rows,
      root: ((typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[])[0]!.Plan,
      name: queries.at(-1)!.sql.match(/\/\* ([^ ]+) \*\//)?.[1],
    };
  }

  it('a page of the unfiltered cells reads its own rows only, wherever it is', async () => {
    const projectId = await withBulk();
    const cells = (60 + 3000) * 3;
    const size = 100;
    for (const page of [0, Math.floor(cells / size / 2), Math.ceil(cells / size) - 1]) {
      const { rows, root } = await plannedPage(projectId, {}, page, size);
      expect(rows.length).toBeGreaterThan(0);
      const reads = rowsRead(root);
      // One lookup per cell of the page's keys; the page's keys from the table; the skip along the index alone.
      expect(reads.get('Translation t')).toBeLessThanOrEqual(size + 3);
      expect(reads.get('TranslationKey k')).toBeLessThanOrEqual(size / 3 + 2);
      expect(
        scans(root)
          .filter((s) => s.relation === 'Translation')
          .every((s) => s.type === 'Index Scan'),
      ).toBe(true);
      expect(scans(root).find((s) => s.alias === 'skip')?.type).toBe('Index Only Scan');
    }
  });

  it("a page of filtered cells counts each key's cells before it from an index alone, and reads only its own cells", async () => {
    const projectId = await withBulk();
    const size = 100;
    const cases: [TranslationFilter, string | null][] = [
      [{ textStatus: 'NOT_EMPTY' }, 'Translation_filled_idx'],
      [{ textStatus: 'EMPTY' }, 'Translation_filled_idx'],
      [{ reviewStatus: 'REVIEWED' }, 'Translation_reviewed_idx'],
      [{ reviewStatus: 'NOT_REVIEWED', language: 'de' }, 'Translation_reviewed_idx'],
      // A common text (1,500 cells: every key is walked) and a rare one (150: only its keys).
      [{ text: 'TEXT BULK.01' }, null],
      [{ text: 'text bulk.012' }, null],
    ];
    for (const [filter, index] of cases) {
      const label = JSON.stringify(filter);
      const total = await countTranslations(projectId, filter);
      expect(total, label).toBeGreaterThan(size);
      // Every page in turn: consecutive, none twice, as many cells as counted.
      const seen = new Set<string>();
      for (let page = 0; page * size < total; page++) {
        for (const c of await queryTranslations(projectId, filter, page, size))
          seen.add(`${c.namespace}/${c.key}/${c.language}`);
      }
      expect(seen.size, label).toBe(total);
      const rare = filter.text === 'text bulk.012';
      for (const page of [0, Math.floor(total / size / 2), Math.ceil(total / size) - 1]) {
        // The first page walked from the first key (no counts kept); a deep one after its counts were taken.
        if (page === 0) forgetBlocks();
        else await queryTranslations(projectId, filter, page, size);
        const { rows, root, name } = await plannedPage(projectId, filter, page, size, rare);
        if (page === 0) expect(name, label).toBe(rare ? 'translations:rare-text-page' : 'translations:page-filtered');
        expect(rows.length, label).toBe(Math.min(size, total - page * size));
        const all = scans(root);
        if (rare) {
          // A rare text's page comes from its cells (the trigram index on PostgreSQL, a scan on the embedded
          // database): no key walked, no cell counted; each cell's key read once by its primary key.
          const hits = rowsRead(root).get('Translation h') ?? 0;
          expect(hits, label).toBe(total);
          expect(
            all.filter((s) => s.alias === 'f'),
            label,
          ).toEqual([]);
          expect(rowsRead(root).get('TranslationKey tk') ?? 0, label).toBeLessThanOrEqual(total);
          expect(all.find((s) => s.alias === 'tk')?.type, label).toBe('Index Scan');
          continue;
        }
        expect(
          all.filter((s) => s.type === 'Seq Scan').map((s) => s.relation),
          label,
        ).toEqual([]);
        const probes = all.filter((s) => s.alias === 'f');
        // A deep page counts its filter's cells per key once (kept while no change commits); so, then, does every page.
        if (page * size >= DEEP_CELLS) expect(name, label).toBe('translations:page-filtered-blocks');
        if (name === 'translations:page-filtered-blocks') {
          // The counts per key known: no cell counted; the page's keys read along the key index from their
          // blocks' first keys (fewer than a block's skipped, then the page's own).
          expect(probes, label).toEqual([]);
          const keys = new Set(rows.map((r) => `${r.namespace}\u0000${r.key}`)).size;
          expect(rowsRead(root).get('TranslationKey tk') ?? 0, label).toBeGreaterThanOrEqual(keys);
          expect(rowsRead(root).get('TranslationKey tk') ?? 0, label).toBeLessThan(2 * keys + BLOCK_KEYS);
          continue;
        }
        // The walk: one probe per key, in the partial index only.
        expect(probes.length, label).toBeGreaterThan(0);
        if (index)
          expect(
            probes.every((s) => s.type === 'Index Only Scan' && s.index === index),
            `${label} ${JSON.stringify(probes)}`,
          ).toBe(true);
        // A text is tested on the key's rows, found by an index on the key.
        else
          expect(
            probes.every((s) => s.type === 'Index Scan' || s.type === 'Bitmap Heap Scan'),
            `${label} ${JSON.stringify(probes)}`,
          ).toBe(true);
        // The page's own cells: a lookup for each cell of the keys that hold the page (and of the next key,
        // read to see that the last one ended).
        const keys = new Set(rows.map((r) => `${r.namespace}\u0000${r.key}`)).size;
        expect(rowsRead(root).get('Translation t') ?? 0, label).toBeLessThanOrEqual(3 * (keys + 1));
        // A common text: every key is walked.
        const walked = rowsRead(root).get('TranslationKey k') ?? 0;
        if (page === 0 && filter.text) expect(walked, label).toBeGreaterThan(total / 3);
      }
    }
  });

  it('the cells of a GraphQL page of keys read each key by its primary key, in the plan kept for the statement and in a plan made for its ids', async () => {
    // The statement is named (src/db/statement-names.ts): after five runs PostgreSQL may keep a generic plan, made
    // without the ids' count; and a project's keys written since the table's last ANALYZE look like a handful to
    // the planner. With the ids as `k.id = ANY(…)` beside the project's condition, the plan then walked the
    // project's key index once per id (25 ms for a page of 50 keys at 10,000 keys on PostgreSQL).
    await withBulk(); // the table analysed before this project's keys are written
    const fresh = await projectApi(service, await service.account(), 'Unanalysed');
    const prisma = service.db.prisma;
    const projectId = (await prisma.project.findUniqueOrThrow({ where: { projectToken: fresh.projectToken } })).id;
    await prisma.$executeRaw`INSERT INTO "TranslationKey" ("projectId", key, namespace)
      SELECT ${projectId}, 'fresh.' || lpad(n::text, 5, '0'), '' FROM generate_series(1, 3000) n`;
    const languages = await prisma.language.count({ where: { projectId } });
    const ids = (
      await prisma.translationKey.findMany({
        where: { projectId },
        orderBy: { key: 'asc' },
        skip: 1000,
        take: 50,
        select: { id: true },
      })
    ).map((k) => k.id);
    const queries: Prisma.Sql[] = [];
    const recording = (query: Prisma.Sql) => {
      queries.push(query);
      return prisma.$queryRaw(query);
    };
    const cells = await cellsOfKeys(projectId, ids, null, {}, recording as never);
    expect(cells).toHaveLength(50 * languages);
    const [statement] = queries as [Prisma.Sql];
    for (const mode of ['force_generic_plan', 'force_custom_plan'] as const) {
      const root = await prisma.$transaction((tx) => preparedPlan(tx, statement, mode));
      const keyScans = scans(root).filter((s) => s.relation === 'TranslationKey');
      expect(keyScans, mode).toEqual([
        { relation: 'TranslationKey', alias: 'tk', type: 'Index Scan', index: 'TranslationKey_pkey' },
      ]);
      expect(rowsRead(root).get('TranslationKey tk'), mode).toBe(50);
    }
  });
});

function scans(plan: PlanNode, out: { relation: string; alias: string; type: string; index?: string }[] = []) {
  if (plan['Relation Name'])
    out.push({
      relation: plan['Relation Name'] as string,
      alias: plan['Alias'] as string,
      type: plan['Node Type'] as string,
      index: plan['Index Name'] as string | undefined,
    });
  for (const child of plan.Plans ?? []) scans(child, out);
  return out;
}

// A filtered page's counts per block (src/content/translations/match-blocks.ts)
// belong to the database they were counted in. Test files that share a
// process each open their own database from one template, so project ids
// repeat; on PGlite transaction ids do too, so the freshness check (Activity
// rows written after the counting snapshot) cannot tell one database from the
// other. Here one process opens two databases one after the other, with the
// same project id and different texts, and reads the same deep filtered page
// in each: the second must be its own database's page, not one walked from
// the first database's counts (the whole suite, 2026-11-30).
import { afterEach, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { DEEP_CELLS, forgetBlocks } from '../../src/content/translations/match-blocks.js';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi } from '../support/project-api.js';

const KEYS = 1200;
const LANGUAGES = ['en', 'fr', 'de'];
const SIZE = 100;
const name = (k: number) => `k.${String(k).padStart(4, '0')}`;

interface Cell {
  key: string;
  language: string;
  text: string;
}

let open: TestService | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** A service on a fresh database whose project holds every key in every language, texts from `textOf`. */
async function seeded(textOf: (k: number, language: string) => string) {
  const service = (open = await startTestService());
  const api = await projectApi(service, await service.account(), 'Two databases');
  for (const language of LANGUAGES.slice(1))
    expect((await api.post('/api/v1/languages', { key: language })).status).toBe(200);
  const content = Array.from({ length: KEYS }, (_, k) =>
    LANGUAGES.map((language) => ({ key: name(k), language, text: textOf(k, language) })),
  ).flat();
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  const { id } = await service.db.prisma.project.findUniqueOrThrow({ where: { projectToken: api.projectToken } });
  const page = async (page: number) => {
    const res = await api.get(`/api/v2/translations?textStatus=NOT_EMPTY&size=${SIZE}&page=${page}`);
    expect(res.status).toBe(200);
    return (res.data as Cell[]).map(({ key, language, text }) => ({ key, language, text }));
  };
  /** The same page by the plain query: every non-empty cell, in the contract's order, cut. */
  const expected = (page: number) =>
    Array.from({ length: KEYS }, (_, k) =>
      LANGUAGES.map((language) => ({ key: name(k), language, text: textOf(k, language) })),
    )
      .flat()
      .filter((c) => c.text !== '')
      .slice(page * SIZE, (page + 1) * SIZE);
  return { service, id, page, expected };
}

describe('deep filtered pages in two databases of one process', () => {
  it("answer the second database's page from its own counts, not the first's", async () => {
    forgetBlocks();
    const deep = Math.ceil(DEEP_CELLS / SIZE) + 2;

    // The first database: every cell has a text. Many transactions before its
    // counts are taken, so that their snapshot's xmin lies beyond every
    // transaction id the second database will write on PGlite.
    const first = await seeded((k, language) => `${language} ${k}`);
    for (let i = 0; i < 300; i++) await first.service.db.prisma.$queryRaw(Prisma.sql`SELECT txid_current()`);
    expect(await first.page(deep)).toEqual(first.expected(deep));
    await first.service.close();
    open = undefined;

    // The second: the same project id; its first 300 keys have no text, so
    // its blocks hold other counts than the first's.
    const second = await seeded((k, language) => (k < 300 ? '' : `${language} ${k}`));
    expect(second.id).toBe(first.id);
    const last = Math.ceil(((KEYS - 300) * LANGUAGES.length) / SIZE) - 1;
    expect(last).toBeGreaterThan(deep);
    for (const page of [deep, last, 0]) {
      expect(second.expected(page)).not.toEqual([]);
      expect(await second.page(page)).toEqual(second.expected(page));
    }
  }, 180_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureKeys, keyRefId } from '../../src/content/translations/store.js';
import { ensureLanguages } from '../../src/content/languages.js';
import { writeTranslations } from '../../src/content/translations/gate.js';
import { startTestService, type TestService } from '../support/service.js';
import { writeBundle, writeBundles } from '../../src/transfer/write-bundle.js';
import type { Bundle } from '../../src/formats/model.js';
import { openChange } from '../../src/content/changes.js';
import { observeSql } from '../../src/db/client.js';

let service: TestService;
let projectId: number;
beforeAll(async () => {
  service = await startTestService();
  const account = await service.account();
  const project = await account.project('store');
  projectId = (await service.db.prisma.project.findUniqueOrThrow({ where: { projectToken: project.projectToken } })).id;
});
afterAll(() => service.close());

describe('set-based translation store', () => {
  it('creates missing keys in order and missing languages after existing ones', async () => {
    const db = service.db.prisma;
    const refs = Array.from({ length: 2000 }, (_, i) => ({ key: `k${i}`, namespace: i % 2 ? 'ns' : '' }));
    const { ids, created } = await ensureKeys(db, projectId, [...refs, refs[0]!], { create: true });
    expect(created).toBe(2000);
    expect(ids.size).toBe(2000);
    const ordered = await db.translationKey.findMany({
      where: { projectId },
      orderBy: { importOrder: 'asc' },
      take: 3,
    });
    expect(ordered.map((k) => k.key)).toEqual(['k0', 'k1', 'k2']);
    const langs = await ensureLanguages(db, projectId, [{ key: 'de' }, { key: 'en' }, { key: 'fr', name: 'French' }], {
      create: true,
    });
    expect(langs.created.sort()).toEqual(['de', 'fr']);
    const all = await db.language.findMany({ where: { projectId }, orderBy: { order: 'asc' } });
    expect(all.map((l) => [l.key, l.order])).toEqual([
      ['en', 0],
      ['de', 1],
      ['fr', 2],
    ]);
  });

  it('makes the first language of a project without languages its default, and names languages by CLDR', async () => {
    const db = service.db.prisma;
    const account = await service.account();
    const project = await account.project('store-first-language');
    const id = (await db.project.findUniqueOrThrow({ where: { projectToken: project.projectToken } })).id;
    await db.language.deleteMany({ where: { projectId: id } });
    const langs = await ensureLanguages(db, id, [{ key: 'pt-BR' }, { key: 'de', name: 'Deutsch' }, { key: 'qaa' }], {
      create: true,
    });
    expect(langs.created).toEqual(['pt-BR', 'de', 'qaa']);
    const all = await db.language.findMany({ where: { projectId: id }, orderBy: { order: 'asc' } });
    expect(all.map((l) => [l.key, l.name, l.order, l.isDefault])).toEqual([
      ['pt-BR', 'Brazilian Portuguese', 0, true],
      ['de', 'Deutsch', 1, false],
      ['qaa', 'qaa', 2, false],
    ]);
    // A project that has languages keeps its default.
    await ensureLanguages(db, id, [{ key: 'fr' }], { create: true });
    expect((await db.language.findMany({ where: { projectId: id, isDefault: true } })).map((l) => l.key)).toEqual([
      'pt-BR',
    ]);
  });

  it('inserts new cells, keeps existing ones unless replacing, and only counts real changes', async () => {
    const db = service.db.prisma;
    const { ids } = await ensureKeys(
      db,
      projectId,
      [
        { key: 'k0', namespace: '' },
        { key: 'k1', namespace: 'ns' },
      ],
      { create: false, touchLastSeen: true },
    );
    const de = (await ensureLanguages(db, projectId, [{ key: 'de' }], { create: false })).ids.get('de')!;
    const k0 = ids.get(keyRefId({ key: 'k0', namespace: '' }))!;
    const k1 = ids.get(keyRefId({ key: 'k1', namespace: 'ns' }))!;
    expect(
      await writeTranslations(db, projectId, [{ keyId: k0, languageId: de, customerId: null, text: 'Hallo' }], {
        replace: false,
        change: await openChange(db, projectId, 'TRANSLATIONS'),
      }),
    ).toMatchObject({ inserted: 1, updated: 0 });
    expect(
      await writeTranslations(
        db,
        projectId,
        [
          { keyId: k0, languageId: de, customerId: null, text: 'Servus' },
          { keyId: k1, languageId: de, customerId: null, text: 'Welt' },
        ],
        { replace: false, change: await openChange(db, projectId, 'TRANSLATIONS') },
      ),
    ).toMatchObject({ inserted: 1, updated: 0 });
    expect((await db.translation.findFirstOrThrow({ where: { keyId: k0 } })).text).toBe('Hallo');
    expect(
      await writeTranslations(
        db,
        projectId,
        [{ keyId: k0, languageId: de, customerId: null, text: 'Servus', reviewStatus: 'REVIEWED' }],
        { replace: true, change: await openChange(db, projectId, 'TRANSLATIONS') },
      ),
    ).toMatchObject({ inserted: 0, updated: 1 });
    expect(
      await writeTranslations(
        db,
        projectId,
        [{ keyId: k0, languageId: de, customerId: null, text: 'Servus', reviewStatus: 'REVIEWED' }],
        { replace: true, change: await openChange(db, projectId, 'TRANSLATIONS') },
      ),
    ).toMatchObject({ inserted: 0, updated: 0 });
    const row = await db.translation.findFirstOrThrow({ where: { keyId: k0 } });
    expect(row).toMatchObject({ text: 'Servus', reviewStatus: 'REVIEWED' });
    const customer = await db.customer.create({ data: { projectId, key: 'acme' } });
    expect(
      await writeTranslations(
        db,
        projectId,
        [{ keyId: k0, languageId: de, customerId: customer.id, text: 'Grüß Gott' }],
        { replace: false, change: await openChange(db, projectId, 'TRANSLATIONS') },
      ),
    ).toMatchObject({ inserted: 1, updated: 0 });
    expect((await db.translation.findFirstOrThrow({ where: { keyId: k0 } })).text).toBe('Servus');
  });
});

describe('writeBundle in chunks of cells', () => {
  /** Writes a bundle into a new project with the given chunk size; returns its counts and cells. */
  async function written(bundle: Bundle, cellChunk: number | undefined, replaceWith?: Bundle) {
    const account = await service.account();
    const project = await account.project(`chunks-${cellChunk}`);
    const id = (await service.db.prisma.project.findUniqueOrThrow({ where: { projectToken: project.projectToken } }))
      .id;
    const write = (b: Bundle, replace: boolean) =>
      service.db.prisma.$transaction(async (tx) =>
        writeBundle(tx, id, b, {
          replace,
          customerId: null,
          tags: [],
          cellChunk,
          change: await openChange(tx, id, 'IMPORT'),
        }),
      );
    const first = await write(bundle, false);
    const second = replaceWith ? await write(replaceWith, true) : undefined;
    const cells = await service.db.prisma.$queryRawUnsafe<{ key: string; language: string; text: string }[]>(
      `SELECT k.key, l.key AS language, t.text FROM "Translation" t JOIN "TranslationKey" k ON k.id = t."keyId" JOIN "Language" l ON l.id = t."languageId"
        WHERE t."projectId" = $1 ORDER BY k."importOrder", l.key`,
      id,
    );
    const counts = (r: typeof first | undefined) =>
      r && { inserted: r.translationsInserted, updated: r.translationsUpdated, keys: r.keysCreated };
    return { first: counts(first), second: counts(second), cells };
  }

  const bundleOf = (n: number, prefix: string, repeat = false): Bundle => ({
    languages: [{ key: 'en' }, { key: 'de' }],
    keys: [
      ...Array.from({ length: n }, (_, i) => ({
        key: `k${i}`,
        namespace: '',
        translations: { en: { text: `${prefix} en ${i}` }, de: { text: i % 3 ? `${prefix} de ${i}` : '' } },
      })),
      ...(repeat ? [{ key: 'k1', namespace: '', translations: { en: { text: `${prefix} en again` } } }] : []),
    ],
  });

  it('sets last-seen of the keys it finds, not of the keys it creates', async () => {
    const db = service.db.prisma;
    const refs = ['seen.a', 'seen.b'].map((key) => ({ key, namespace: '' }));
    const { ids } = await ensureKeys(db, projectId, refs.slice(0, 1), { create: true });
    const a = ids.get(keyRefId(refs[0]!))!;
    const old = new Date('2020-01-01T00:00:00Z');
    await db.translationKey.update({ where: { id: a }, data: { lastSeenAt: old } });
    const statements: string[] = [];
    const result = await observeSql(
      (sql) => statements.push(sql),
      () => ensureKeys(db, projectId, refs, { create: true, touchLastSeen: true }),
    );
    expect(result.created).toBe(1);
    expect((await db.translationKey.findUniqueOrThrow({ where: { id: a } })).lastSeenAt.getTime()).toBeGreaterThan(
      old.getTime(),
    );
    // One statement that finds and touches the existing key, then the creation of the other.
    expect(statements).toHaveLength(2);
    expect(statements[1]).toContain('INSERT INTO "TranslationKey"');
    // Keys that all exist (a re-import) cost that one statement: no INSERT.
    statements.length = 0;
    expect(
      await observeSql(
        (sql) => statements.push(sql),
        () => ensureKeys(db, projectId, refs, { create: true, touchLastSeen: true }),
      ),
    ).toMatchObject({ created: 0 });
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('"lastSeenAt" = now()');
  });

  it('looks up, creates and touches a key once across the chunks of a file', async () => {
    const db = service.db.prisma;
    const keys = ['chunked.a', 'chunked.b'];
    // Laid out by language, as a language-first JSON file streams: every key again in each chunk.
    const chunks: Bundle[] = ['en', 'de', 'fr'].map((language) => ({
      languages: [{ key: language }],
      keys: keys.map((key) => ({ key, namespace: '', translations: { [language]: { text: `${language} ${key}` } } })),
    }));
    const statements: string[] = [];
    const result = await observeSql(
      (sql) => statements.push(sql),
      () =>
        db.$transaction(async (tx) =>
          writeBundles(tx, projectId, chunks, {
            replace: false,
            customerId: null,
            tags: [],
            change: await openChange(tx, projectId, 'IMPORT'),
          }),
        ),
    );
    expect(result).toMatchObject({ keysCreated: 2, keysFound: 2, uniqueKeysFound: 2, translationsInserted: 6 });
    expect(statements.filter((sql) => sql.includes('INSERT INTO "TranslationKey"'))).toHaveLength(1);
    expect(statements.filter((sql) => sql.includes('"lastSeenAt" = now()'))).toHaveLength(1);
    const texts = await db.translation.findMany({ where: { projectId, key: { key: { in: keys } } } });
    expect(texts).toHaveLength(6);
  });

  it('writes and counts exactly what one statement writes, whatever the chunk size', async () => {
    const whole = await written(bundleOf(40, 'a'), undefined, bundleOf(40, 'b'));
    for (const chunk of [1, 7, 39]) expect(await written(bundleOf(40, 'a'), chunk, bundleOf(40, 'b'))).toEqual(whole);
    expect(whole.first).toEqual({ inserted: 66, updated: 0, keys: 40 });
    expect(whole.second).toEqual({ inserted: 0, updated: 66, keys: 0 });
  });

  it('keeps the last text of a key the file gives twice, as a single statement does', async () => {
    const { cells } = await written(bundleOf(10, 'a', true), 2);
    expect(cells.find((c) => c.key === 'k1' && c.language === 'en')!.text).toBe('a en again');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureKeys, ensureLanguages, keyRefId, upsertTranslations } from '../../src/translations/store.js';
import { startTestService, type TestService } from '../support/service.js';

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
    const ordered = await db.translationKey.findMany({ where: { projectId }, orderBy: { importOrder: 'asc' }, take: 3 });
    expect(ordered.map((k) => k.key)).toEqual(['k0', 'k1', 'k2']);
    const langs = await ensureLanguages(db, projectId, [{ key: 'de' }, { key: 'en' }, { key: 'fr', name: 'French' }], { create: true });
    expect(langs.created.sort()).toEqual(['de', 'fr']);
    const all = await db.language.findMany({ where: { projectId }, orderBy: { order: 'asc' } });
    expect(all.map((l) => [l.key, l.order])).toEqual([['en', 0], ['de', 1], ['fr', 2]]);
  });

  it('inserts new cells, keeps existing ones unless replacing, and only counts real changes', async () => {
    const db = service.db.prisma;
    const { ids } = await ensureKeys(db, projectId, [{ key: 'k0', namespace: '' }, { key: 'k1', namespace: 'ns' }], { create: false, touchLastSeen: true });
    const de = (await ensureLanguages(db, projectId, [{ key: 'de' }], { create: false })).ids.get('de')!;
    const k0 = ids.get(keyRefId({ key: 'k0', namespace: '' }))!;
    const k1 = ids.get(keyRefId({ key: 'k1', namespace: 'ns' }))!;
    expect(await upsertTranslations(db, projectId, [{ keyId: k0, languageId: de, customerId: null, text: 'Hallo' }], { replace: false })).toEqual({ inserted: 1, updated: 0 });
    expect(await upsertTranslations(db, projectId, [{ keyId: k0, languageId: de, customerId: null, text: 'Servus' }, { keyId: k1, languageId: de, customerId: null, text: 'Welt' }], { replace: false })).toEqual({ inserted: 1, updated: 0 });
    expect((await db.translation.findFirstOrThrow({ where: { keyId: k0 } })).text).toBe('Hallo');
    expect(await upsertTranslations(db, projectId, [{ keyId: k0, languageId: de, customerId: null, text: 'Servus', reviewStatus: 'REVIEWED' }], { replace: true })).toEqual({ inserted: 0, updated: 1 });
    expect(await upsertTranslations(db, projectId, [{ keyId: k0, languageId: de, customerId: null, text: 'Servus', reviewStatus: 'REVIEWED' }], { replace: true })).toEqual({ inserted: 0, updated: 0 });
    const row = await db.translation.findFirstOrThrow({ where: { keyId: k0 } });
    expect(row).toMatchObject({ text: 'Servus', reviewStatus: 'REVIEWED' });
    const customer = await db.customer.create({ data: { projectId, key: 'acme' } });
    expect(await upsertTranslations(db, projectId, [{ keyId: k0, languageId: de, customerId: customer.id, text: 'Grüß Gott' }], { replace: false })).toEqual({ inserted: 1, updated: 0 });
    expect((await db.translation.findFirstOrThrow({ where: { keyId: k0 } })).text).toBe('Servus');
  });
});

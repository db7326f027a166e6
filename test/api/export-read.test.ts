// The export's page reader: keys in order, page by page, and the next page's
// query already sent while the caller writes the current page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureKeys, ensureLanguages } from '../../src/translations/store.js';
import { writeTranslations } from '../../src/translations/gate.js';
import { openChange } from '../../src/history/changes.js';
import { observeSql } from '../../src/db/client.js';
import { readKeyPages, type ExportLanguage } from '../../src/transfer/export-read.js';
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
  const { ids } = await ensureKeys(db, projectId, Array.from({ length: 25 }, (_, i) => ({ key: `k${i}`, namespace: '' })), { create: true });
  const langs = await ensureLanguages(db, projectId, [{ key: 'en' }, { key: 'de' }], { create: true });
  const cells = [...ids.values()].flatMap((keyId) => [...langs.ids.values()].map((languageId) => ({ keyId, languageId, customerId: null, text: `t${keyId}-${languageId}` })));
  await writeTranslations(db, projectId, cells, { replace: true, change: await openChange(db, projectId, 'TRANSLATIONS') });
  languages = (await db.language.findMany({ where: { projectId }, orderBy: { order: 'asc' } })).map((l) => ({ id: l.id, key: l.key, name: l.name, isDefault: l.isDefault }));
});
afterAll(() => service.close());

describe('export page reader', () => {
  const scope = () => ({ projectId, languages, customerId: null, customerTranslations: false, sort: 'IMPORT_ORDER' as const, oneKeyPerName: false, pageSize: 10 });

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
    await observeSql((sql) => sent.push(sql), async () => {
      const pages = readKeyPages(service.db.prisma, scope());
      const first = await pages.next();
      expect(first.value).toHaveLength(10);
      // Page 2 is already on its way (the caller has not asked for it), not page 3.
      expect(sent.filter((sql) => sql.includes('"TranslationKey" k'))).toHaveLength(2);
      await pages.return(undefined);
    });
  });
});

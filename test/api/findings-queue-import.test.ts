// The findings queue during an import laid out by language (multi-language-json,
// read as a stream): each chunk names the file's keys again, one language at a
// time. A key's entry that waits for the updater is written once, not once per
// language (src/content/findings-queue.ts). The updater is off here, so the
// entries stay as the imports left them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { uploadedImport } from '../support/transfer.js';
import { importFile } from '../../src/transfer/import.js';
import type { ImportOption } from '../../src/transfer/options.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ env: { FINDINGS_THREADS: '0', LOG_LEVEL: 'error' } });
});
afterAll(() => service.close());

// Two texts per chunk: each chunk holds one language's two keys.
const importJson = async (projectId: number, file: object, options: ImportOption[] = []) =>
  importFile(await uploadedImport(service, projectId, JSON.stringify(file), 2, { options }));

const texts = (language: string, version: number) => ({
  'queue.a': `${language} A ${version}`,
  'queue.b': `${language} B ${version}`,
});

it('queues each key of a file laid out by language once, and a re-import leaves the waiting entries as they are', async () => {
  const project = await (await service.account()).project('queue');
  const { id: projectId } = await service.db.prisma.project.findUniqueOrThrow({
    where: { projectToken: project.projectToken },
    select: { id: true },
  });
  const entries = () =>
    service.db.prisma.$queryRaw<{ key: string; generation: number; languageIds: number[] | null }[]>`
      SELECT k.key, q.generation, q."languageIds" FROM "FindingQueue" q JOIN "TranslationKey" k ON k.id = q."keyId"
       WHERE q."projectId" = ${projectId} ORDER BY k.key`;
  // The project's default language (en) first: its chunk queues every language of the keys.
  const first = await importJson(projectId, { en: texts('en', 1), de: texts('de', 1), fr: texts('fr', 1) });
  expect([first.languagesCreated, first.translationsInserted]).toEqual([['de', 'fr'], 6]);
  const whole = [
    { key: 'queue.a', generation: 1, languageIds: null },
    { key: 'queue.b', generation: 1, languageIds: null },
  ];
  expect(await entries()).toEqual(whole);
  // Every text replaced, the default language last: still waiting, still naming every language.
  const again = await importJson(projectId, { fr: texts('fr', 2), de: texts('de', 2), en: texts('en', 2) }, [
    'REPLACE_TRANSLATION_IF_FOUND',
  ]);
  expect(again.translationsUpdated).toBe(6);
  expect(await entries()).toEqual(whole);
});

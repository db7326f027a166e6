// Pre-translation from the translation memory (docs/translation-memory.md): a
// MEMORY job fills empty cells from matches at or above its score (default
// 100 %, placeholders and numbers substituted), marks them not reviewed,
// never fills a locked key, and says what it filled; any provider asked to use
// the memory first (memoryMinScore) takes the memory's matches and sends only
// the rest. The memory is read from the default language only.
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { readTranslations, seedTranslations } from '../support/content.js';

let service: TestService;
let apiKey: string;
let projectToken: string;
let projectId: number;

const headers = () => ({ 'X-SIMPLELOCALIZE-token': apiKey, 'content-type': 'application/json' });
const gql = async (query: string, variables: Record<string, unknown> = {}) =>
  (
    await service.request({ method: 'POST', url: '/graphql', headers: headers(), payload: { query, variables } })
  ).json();

async function run(input: Record<string, unknown>): Promise<{ state: string; message: string; metadata?: unknown }> {
  const res = await gql('mutation($input: AutoTranslateInput!) { autoTranslate(input: $input) { jobId } }', {
    input: { targets: [{ targetProjectLanguage: 'de', targetLanguage: 'de' }], ...input },
  });
  expect(res.errors).toBeUndefined();
  const jobId = res.data.autoTranslate[0].jobId;
  for (let i = 0; i < 800; i++) {
    const job = envelope(await service.request({ url: `/api/v1/jobs/${jobId}`, headers: headers() })).data;
    if (job.state !== 'STARTED') return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the job did not end');
}

const EN = {
  save: 'Save file',
  save_copy: 'Save file',
  delete_some: 'Delete 12 files',
  delete_few: 'Delete 5 files',
  save_the: 'Save files',
  locked_save: 'Save file',
  other: 'Something else entirely',
};

beforeAll(async () => {
  service = await startTestService();
  const account = await service.account();
  ({ apiKey, projectToken } = await account.project('pretranslate'));
  projectId = await seedTranslations(service.db, {
    projectToken,
    translations: { en: EN, de: { save: 'Datei speichern', delete_some: '12 Dateien löschen' } },
  });
  await service.db.prisma.language.updateMany({ where: { projectId }, data: { isDefault: false } });
  await service.db.prisma.language.updateMany({ where: { projectId, key: 'en' }, data: { isDefault: true } });
  await service.db.prisma.translationKey.updateMany({ where: { projectId, key: 'locked_save' }, data: { lock: true } });
});
afterAll(() => service.close());

describe('pre-translation from the memory', () => {
  it('fills empty cells from 100 % matches (numbers substituted), not reviewed, never a locked key, and says so', async () => {
    const job = await run({ translationProvider: 'MEMORY' });
    expect(job.state).toBe('SUCCESS');
    const de = (await readTranslations(service.db, projectToken)).de!;
    expect(de.save_copy).toBe('Datei speichern');
    // "Delete 5 files" differs from "Delete 12 files" only in a number: 100 % after substitution.
    expect(de.delete_few).toBe('5 Dateien löschen');
    expect(de.save_the).toBeUndefined();
    expect(de.other).toBeUndefined();
    expect(de.locked_save).toBeUndefined();
    expect(job.message).toBe(
      'Translated 2 texts (0 characters); 2 of them from the translation memory; 2 without a memory match at the score asked for; 1 not written because their key is locked',
    );
    const filled = await service.db.prisma.translation.findMany({
      where: { projectId, language: { key: 'de' }, key: { key: { in: ['save_copy', 'delete_few'] } } },
    });
    expect(filled.map((t) => t.reviewStatus)).toEqual(['NOT_REVIEWED', 'NOT_REVIEWED']);
    // One change in the history, the job's, which names the provider.
    const change = await service.db.prisma.activity.findFirstOrThrow({
      where: { projectId, kind: 'AUTO_TRANSLATION' },
      orderBy: { id: 'desc' },
    });
    expect(change).toMatchObject({ cells: 2, actorKind: 'JOB' });
    expect(change.details).toMatchObject({ provider: 'MEMORY' });
  });

  it('takes fuzzy matches from a lower score', async () => {
    const job = await run({ translationProvider: 'MEMORY', memoryMinScore: 80 });
    expect(job.state).toBe('SUCCESS');
    expect((await readTranslations(service.db, projectToken)).de!.save_the).toBe('Datei speichern');
    expect(job.message).toMatch(
      /^Translated 1 texts .*; 1 of them from the translation memory; 1 without a memory match/,
    );
  });
});

describe('the memory first, then the provider', () => {
  it('sends only what the memory did not fill', async () => {
    await service.db.prisma.translation.deleteMany({
      where: { projectId, language: { key: 'de' }, key: { key: { in: ['save_copy', 'save_the'] } } },
    });
    const job = await run({ translationProvider: 'PSEUDO', memoryMinScore: 100 });
    expect(job.state).toBe('SUCCESS');
    const de = (await readTranslations(service.db, projectToken)).de!;
    expect(de.save_copy).toBe('Datei speichern');
    // Not in the memory at 100 %: pseudo-localized.
    expect(de.save_the).toMatch(/^\[!!! /);
    expect(de.other).toMatch(/^\[!!! /);
    expect(job.message).toMatch(
      /^Translated 3 texts \(\d+ characters\); 1 of them from the translation memory; 1 not written because their key is locked$/,
    );
  });
});

describe('refusals', () => {
  it('refuses a score outside 50–100 and a source that is not the default language, creating no job', async () => {
    const before = await service.db.prisma.job.count({ where: { projectId } });
    const low = await gql(
      'mutation { autoTranslate(input: { translationProvider: MEMORY, memoryMinScore: 30, targets: [{ targetProjectLanguage: "de", targetLanguage: "de" }] }) { jobId } }',
    );
    expect(low.errors[0]).toMatchObject({
      message: 'memoryMinScore must be a whole number from 50 to 100, got 30',
      extensions: { code: 'BAD_REQUEST' },
    });
    const side = await gql(
      'mutation { autoTranslate(input: { translationProvider: MEMORY, sourceProjectLanguage: "de", targets: [{ targetProjectLanguage: "en", targetLanguage: "en" }] }) { jobId } }',
    );
    expect(side.errors[0].message).toBe(
      "The translation memory is looked up from the default language; sourceProjectLanguage 'de' is not it",
    );
    expect(await service.db.prisma.job.count({ where: { projectId } })).toBe(before);
  });
});

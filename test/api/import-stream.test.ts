// Imports of the JSON formats read as a stream (IMPORT_CHUNK_CELLS texts per
// chunk, written as they come inside the import's transaction): the project
// ends as a one-chunk import leaves it, with the same result and history, and
// a file that fails after chunks were written leaves the project unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { importRequest, projectSnapshot } from '../support/transfer.js';
import { saveUpload } from '../../src/transfer/uploaded-file.js';
import { importFile, previewImport, type ImportRequest } from '../../src/transfer/import.js';
import type { ImportOption } from '../../src/transfer/options.js';

let service: TestService;
let account: Awaited<ReturnType<TestService['account']>>;

beforeAll(async () => {
  service = await startTestService({ env: { IMPORT_CHUNK_CELLS: '5' } });
  account = await service.account();
});
afterAll(() => service.close());

async function newProject() {
  const project = await account.project('stream');
  const { id } = await service.db.prisma.project.findUniqueOrThrow({ where: { projectToken: project.projectToken }, select: { id: true } });
  return { ...project, id };
}

/** importFile's request for a file, as the HTTP layer builds it (a temp file). */
async function request(projectId: number, content: string, chunkCells: number, extra: Partial<ImportRequest> = {}): Promise<ImportRequest> {
  const file = await saveUpload(Readable.from([Buffer.from(content)]), join(service.config.dataDir, 'tmp'), 'file.json', 'application/json');
  return { projectId, uploadFormat: 'multi-language-json', file, options: [], maxUploadBytes: 1 << 30, chunkCells, ...extra };
}

/** What an import leaves, by names (ids and dates differ between projects). */
async function state(projectId: number) {
  const db = service.db.prisma;
  return {
    languages: await db.$queryRawUnsafe(`SELECT key, "order" FROM "Language" WHERE "projectId" = $1 ORDER BY "order"`, projectId),
    keys: await db.$queryRawUnsafe(
      `SELECT key, namespace, tags, lock, "charactersLimit", "filePath", description FROM "TranslationKey" WHERE "projectId" = $1 ORDER BY "importOrder"`, projectId),
    translations: await db.$queryRawUnsafe(
      `SELECT k.key, k.namespace, l.key AS language, t.text, t."reviewStatus"::text FROM "Translation" t
         JOIN "TranslationKey" k ON k.id = t."keyId" JOIN "Language" l ON l.id = t."languageId"
        WHERE t."projectId" = $1 ORDER BY k."importOrder", l."order"`, projectId),
    history: await db.$queryRawUnsafe(
      `SELECT c.key, c.namespace, l.key AS language, c."oldText", c."newText" FROM "CellChange" c JOIN "Language" l ON l.id = c."languageId"
        WHERE c."projectId" = $1 ORDER BY c.key, l.key, c.id`, projectId),
    changes: await db.$queryRawUnsafe(`SELECT kind, cells, edits, details::text FROM "Activity" WHERE "projectId" = $1 ORDER BY id`, projectId),
  };
}

const LANGUAGES = ['en', 'de', 'fr'];

/** A language-first file of `n` keys, nested two levels, some nulls, texts with spaces around. */
function file(n: number, variant: string, extra: Record<string, Record<string, unknown>> = {}): string {
  const doc: Record<string, Record<string, unknown>> = {};
  for (const language of LANGUAGES) {
    const tree: Record<string, Record<string, unknown>> = {};
    for (let i = 0; i < n; i++) (tree[`section${i % 4}`] ??= {})[`key${i}`] = i % 7 === 3 && language !== 'en' ? null : ` ${variant} ${language} ${i} `;
    doc[language] = { ...tree, ...extra[language] };
  }
  return JSON.stringify(doc, null, 2);
}

describe('an import read as a stream', () => {
  it('leaves the project as a one-chunk import does, with the same result, preview and history', async () => {
    const options: ImportOption[] = ['REPLACE_TRANSLATION_IF_FOUND', 'DELETE_NOT_PRESENT_KEYS', 'TRIM_LEADING_TRAILING_SPACES'];
    const main = file(40, 'new', { en: { locked: 'changed', limited: 'far too long for the limit' }, de: { 'section1.key1': undefined } });
    const outcomes = [];
    for (const chunkCells of [5, Number.POSITIVE_INFINITY]) {
      const project = await newProject();
      // Existing keys: some the file changes, a locked one, one with a charactersLimit, one the file lacks (deleted).
      const seed = file(20, 'old', { en: { locked: 'kept', limited: 'ok', gone: 'bye' } });
      await importFile(await request(project.id, seed, chunkCells, { namespace: 'app' }));
      await service.db.prisma.translationKey.updateMany({ where: { projectId: project.id, key: 'locked' }, data: { lock: true } });
      await service.db.prisma.translationKey.updateMany({ where: { projectId: project.id, key: 'limited' }, data: { charactersLimit: 5 } });
      const args = { options, namespace: 'app', tags: ['imported'] };
      const preview = await previewImport(await request(project.id, main, chunkCells, args));
      const result = await importFile(await request(project.id, main, chunkCells, args));
      outcomes.push({ preview, result, state: await state(project.id) });
    }
    const [streamed, whole] = outcomes;
    expect(streamed).toEqual(whole);
    expect(streamed!.result).toMatchObject({
      numberOfKeysFound: 42, numberOfUniqueKeysFound: 42, keysCreated: 20, keysDeleted: 1, translationsRefused: 2,
      foundLanguages: [{ key: 'en' }, { key: 'de' }, { key: 'fr' }].map((l) => expect.objectContaining(l)),
    });
    expect(streamed!.preview.keysToCreate.count).toBe(20);
    expect((streamed!.state.keys as { key: string; tags: string[] }[]).find((k) => k.key === 'section0.key0')!.tags).toEqual(['imported']);
  });

  it('refuses a file broken after its first chunks, leaving the project unchanged', async () => {
    const project = await newProject();
    const good = file(100, 'v1');
    expect((await importRequest(service, project.apiKey, good, { uploadFormat: 'multi-language-json' })).statusCode).toBe(200);
    const before = await projectSnapshot(service, project.projectToken);
    const maxKeyId = async () => (await service.db.prisma.translationKey.aggregate({ where: { projectId: project.id }, _max: { id: true } }))._max.id!;
    const idBefore = await maxKeyId();
    // New keys first (created by the first chunks), then the problem at the very end.
    const more = file(100, 'v2').replace(/"key(\d+)"/g, '"new$1"');
    const broken: [string, string | Buffer, RegExp][] = [
      ['a syntax error', more.replace(/\}\s*\}\s*$/, '}'), /^The file is not a valid multi-language-json file: Malformed JSON: unexpected end of input \(line \d+, column \d+\)$/],
      ['a text given twice', more.replace(/\}\s*\}\s*$/, ', "section0": {"new0": "again"}}}'), /The key "section0\.new0" is defined twice in "fr"/],
      ['invalid UTF-8', Buffer.concat([Buffer.from(more.replace(/"\s*\}\s*\}\s*\}\s*$/, '')), Buffer.from([0xc3, 0x28]), Buffer.from('"}}}')]), /^The file is not a valid multi-language-json file: The file is not valid UTF-8: invalid byte at offset \d+/],
      ['a text that cannot be stored', more.replace(/\}\s*\}\s*$/, ', "last": "nul \\u0000"}}'), /cannot|NUL|U\+0000/i],
      ['a nesting too deep', more.replace(/\}\s*\}\s*$/, `, "deep": ${'{"a": '.repeat(70)}"x"${'}'.repeat(70)}}}`), /nesting is deeper than 64 levels/],
    ];
    for (const [what, content, message] of broken) {
      const res = await importRequest(service, project.apiKey, content, { uploadFormat: 'multi-language-json', importOptions: ['REPLACE_TRANSLATION_IF_FOUND', 'DELETE_NOT_PRESENT_KEYS'] });
      expect(res.statusCode, what).toBe(400);
      expect(envelope(res).msg, what).toMatch(message);
      expect(await projectSnapshot(service, project.projectToken), what).toEqual(before);
    }
    // The keys of the first chunks were created, then rolled back: their ids are spent.
    const after = await importRequest(service, project.apiKey, JSON.stringify({ en: { fresh: 'x' } }), { uploadFormat: 'multi-language-json' });
    expect(after.statusCode).toBe(200);
    expect((await maxKeyId()) - idBefore).toBeGreaterThan(100);
  });
});

// What the console's Import and Export screens add to the transfer
// operations: previewImport lists the cells the write gate would refuse (with
// the counts and warnings importFile then gives), and exportTranslations with
// withZip gives the files and, when there are several, the same files in one zip.
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { download, multipart } from '../support/transfer.js';

let service: TestService;
let api: ProjectApi;

beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account());
  expect((await api.post('/api/v1/languages', { key: 'de', name: 'German' })).status).toBe(200);
  expect(
    (
      await api.post('/api/v1/translations', {
        content: [
          { key: 'locked', language: 'en', text: 'Locked' },
          { key: 'short', language: 'en', text: 'Short' },
          { key: 'short', language: 'de', text: 'Kurz' },
        ],
      })
    ).status,
  ).toBe(200);
  expect((await api.patch('/api/v1/translation-keys?key=locked', { lock: true })).status).toBe(200);
  expect((await api.patch('/api/v1/translation-keys?key=short', { charactersLimit: 5 })).status).toBe(200);
});

afterAll(async () => {
  await service?.close();
});

const IMPORT_ARGS = '$file: Upload!, $options: [ImportOption!]';
const IMPORT_CALL = 'file: $file, uploadFormat: SINGLE_LANGUAGE_JSON, languageKey: "en", importOptions: $options';

async function upload(query: string, content: string, options: string[]): Promise<any> {
  const body = multipart([
    { name: 'operations', content: JSON.stringify({ query, variables: { file: null, options } }) },
    { name: 'map', content: JSON.stringify({ 0: ['variables.file'] }) },
    { name: '0', fileName: 'en.json', content },
  ]);
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { 'x-service-token': api.apiKey, ...body.headers },
    payload: body.payload,
  });
  const parsed = JSON.parse(res.body);
  expect(parsed.errors).toBeUndefined();
  return parsed.data;
}

describe('previewImport refusals', () => {
  it('lists the refused cells with their reasons, as importFile then refuses them', async () => {
    const file = JSON.stringify({ locked: 'Changed', short: 'Far too long', added: 'New' });
    const options = ['REPLACE_TRANSLATION_IF_FOUND'];
    const { previewImport: preview } = await upload(
      `mutation (${IMPORT_ARGS}) { previewImport(${IMPORT_CALL}) { translationsToInsert translationsToUpdate translationsToRefuse refusals { key namespace language reason message } warnings } }`,
      file,
      options,
    );
    expect(preview).toMatchObject({ translationsToInsert: 1, translationsToUpdate: 0, translationsToRefuse: 2 });
    expect(preview.refusals).toEqual([
      { key: 'locked', namespace: '', language: 'en', reason: 'LOCKED', message: expect.stringMatching(/locked/) },
      {
        key: 'short',
        namespace: '',
        language: 'en',
        reason: 'CHARACTERS_LIMIT',
        message: expect.stringMatching(/12 characters, more than the charactersLimit of 5/),
      },
    ]);
    const { importFile: result } = await upload(
      `mutation (${IMPORT_ARGS}) { importFile(${IMPORT_CALL}) { translationsInserted translationsUpdated translationsRefused warnings } }`,
      file,
      options,
    );
    expect(result).toEqual({
      translationsInserted: 1,
      translationsUpdated: 0,
      translationsRefused: 2,
      warnings: preview.warnings,
    });
    expect(preview.warnings).toHaveLength(2);
  });
});

describe('exportTranslations withZip', () => {
  const EXPORT =
    'mutation ($format: FormatId!, $withZip: Boolean) { exportTranslations(downloadFormat: $format, withZip: $withZip) { files { url fileName language } zip { url fileName contentType } } }';

  it('gives the files and one zip holding the same files', async () => {
    const { data } = await api.gql(EXPORT, { format: 'SINGLE_LANGUAGE_JSON', withZip: true });
    const { files, zip } = data.exportTranslations;
    expect(files.map((f: any) => f.fileName)).toEqual(['en.json', 'de.json']);
    expect(zip).toMatchObject({ fileName: 'translations-single-language-json.zip', contentType: 'application/zip' });
    const archive = await JSZip.loadAsync(await download(service, zip.url));
    expect(Object.keys(archive.files).sort()).toEqual(['de.json', 'en.json']);
    for (const file of files) {
      expect(await archive.file(file.fileName)!.async('string')).toBe(
        (await download(service, file.url)).toString('utf8'),
      );
    }
  });

  it('gives no zip for a single file or without withZip', async () => {
    expect(
      (await api.gql(EXPORT, { format: 'MULTI_LANGUAGE_JSON', withZip: true })).data.exportTranslations.zip,
    ).toBeNull();
    const plain = (await api.gql(EXPORT, { format: 'SINGLE_LANGUAGE_JSON' })).data.exportTranslations;
    expect(plain.files).toHaveLength(2);
    expect(plain.zip).toBeNull();
  });
});

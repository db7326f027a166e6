// A file that is not in the chosen format is refused (400, naming both) before
// anything is read into the project: every format's example file (a real file
// of the corpus, and the file this service writes in that format) uploaded as
// each of the other formats. Pairs of formats that read the same kind of
// content (the XML formats among themselves, the JSON ones, YAML reading JSON)
// are left to the parser and documented in docs/import-export.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatIds, registeredFormat } from '../../src/formats/registry.js';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { importOk, importRequest, multipart, projectSnapshot } from '../support/transfer.js';

type Kind =
  | 'xml'
  | 'json'
  | 'arb'
  | 'string-catalog'
  | 'project-backup'
  | 'yaml'
  | 'po'
  | 'properties'
  | 'csv'
  | 'tsv'
  | 'zip'
  | 'binary'
  | 'php'
  | 'javascript'
  | 'strings';

/** What each format reads, as the formats' documentation says (independent of the service's table). */
const READS: Record<string, Kind[]> = {
  android: ['xml'],
  'android-strings': ['xml'],
  'android-xml': ['xml'],
  resx: ['xml'],
  'string-resources': ['xml'],
  'xliff-1.2': ['xml'],
  'xliff-2.0': ['xml'],
  xliff12: ['xml'],
  xliff20: ['xml'],
  'qt-linguist': ['xml'],
  'localizable-strings-dict': ['xml'],
  'single-language-json': ['json'],
  'multi-language-json': ['json'],
  'simplelocalize-json': ['json'],
  'browser-extension-json': ['json'],
  'project-backup-json': ['json', 'project-backup'],
  arb: ['json', 'arb'],
  'localizable-xcstrings': ['json', 'string-catalog'],
  yaml: ['yaml', 'json'],
  'po-pot': ['po'],
  'java-properties': ['properties'],
  'csv-translations': ['csv'],
  tsv: ['tsv'],
  excel: ['zip'],
  'php-array': ['php'],
  javascript: ['javascript'],
  'module-exports': ['javascript'],
  'localizable-strings': ['strings'],
};

/** A word the refusal uses for each kind. */
const NAMED: Record<Kind, RegExp> = {
  xml: /XML/,
  json: /JSON/,
  arb: /ARB/,
  'string-catalog': /String Catalog/,
  'project-backup': /project backup/,
  yaml: /YAML/,
  po: /gettext PO/,
  properties: /Java properties/,
  csv: /CSV/,
  tsv: /TSV/,
  zip: /zip container/,
  binary: /binary/,
  php: /PHP/,
  javascript: /JavaScript/,
  strings: /Apple \.strings/,
};

const CORPUS = '/work/shared/corpus';
/** Real files, one or more of each kind. */
const CORPUS_EXAMPLES: [path: string, kind: Kind][] = [
  ['android/duckduckgo_autofill_values_strings.xml', 'xml'],
  ['qt-ts/lxqt-panel_kbindicator_de.ts', 'xml'],
  ['resx/sharex_MediaLib_Resources.resx', 'xml'],
  ['stringsdict/duckduckgo-ios_ru_Localizable.stringsdict', 'xml'],
  ['xliff/kimai_daterangepicker.de.xlf', 'xml'],
  ['json/overseerr_lt.react-intl.json', 'json'],
  ['arb/aves_app_en.arb', 'arb'],
  ['xcstrings/coteditor_CommandBar.xcstrings', 'string-catalog'],
  ['yaml/devise_en.yml', 'yaml'],
  ['po/wtforms_ar.po', 'po'],
  ['properties/jenkins_hudson_model_Messages_fr.properties', 'properties'],
  ['properties/jenkins_LogRecorder_index_da.latin1.properties', 'properties'],
  ['csv/godot-demo-projects_translation_text.csv', 'csv'],
  ['php/bookstack_de_validation.php', 'php'],
  ['js/validatorjs_fr.js', 'javascript'],
  ['js/element-ui_de.js', 'javascript'],
  ['localizable-strings/duckduckgo-ios_autofill_it_Localizable.strings', 'strings'],
  ['localizable-strings/sparkle-1.27.1_de_SUUpdateAlert.utf16le.strings', 'strings'],
  ['screenshots/pontoon_tm_tab.png', 'binary'],
];

/** The kind of the file this service writes in each format (its flat YAML, `key: text` lines, is YAML and properties alike: left out). */
const OWN_KIND: Record<string, Kind | undefined> = {
  ...Object.fromEntries(Object.entries(READS).map(([id, kinds]) => [id, kinds.at(-1)])),
  yaml: undefined,
};

let service: TestService;
let apiKey: string;
let projectToken: string;
let before: unknown;
const examples: { name: string; kind: Kind; content: Buffer }[] = [];

beforeAll(async () => {
  service = await startTestService();
  const account = await service.account();
  ({ apiKey, projectToken } = await account.project('format mismatch'));
  await importOk(
    service,
    apiKey,
    JSON.stringify({ en: { hello: 'Hello', bye: 'Bye, now' }, de: { hello: 'Hallo', bye: 'Tschüss' } }),
    { uploadFormat: 'multi-language-json' },
  );
  for (const [path, kind] of CORPUS_EXAMPLES)
    examples.push({ name: path, kind, content: readFileSync(join(CORPUS, path)) });
  // The file each format's export writes, as a user would upload it back.
  for (const id of formatIds()) {
    const kind = OWN_KIND[id];
    if (!kind) continue;
    const format = registeredFormat(id)!;
    const res = await service.request({
      url: `/api/v4/export?downloadFormat=${id}&languageKey=en${format.format.multiLanguage || format.bilingual ? '&languageKey=de' : ''}`,
      headers: { 'x-service-token': apiKey },
    });
    expect(res.statusCode, `${id}: ${res.body}`).toBe(200);
    const [file] = envelope(res).data.files;
    const download = await service.request({ url: new URL(file.url).pathname });
    expect(download.statusCode).toBe(200);
    examples.push({ name: `exported ${id}`, kind, content: download.rawPayload });
  }
  before = await projectSnapshot(service, projectToken);
});
afterAll(() => service.close());

describe('every example file uploaded as every format that does not read its kind', () => {
  it(
    'is refused with 400 naming what the file looks like and the format chosen; the project is unchanged',
    { timeout: 300_000 },
    async () => {
      const wrong: string[] = [];
      let refused = 0;
      for (const example of examples) {
        for (const id of formatIds()) {
          if (READS[id]!.includes(example.kind)) continue;
          const res = await importRequest(service, apiKey, example.content, {
            uploadFormat: id,
            languageKey: 'en',
            importOptions: 'REPLACE_TRANSLATION_IF_FOUND',
          });
          const msg = res.statusCode === 400 ? envelope(res).msg : '';
          if (
            res.statusCode !== 400 ||
            !msg.startsWith('The file looks like ') ||
            !msg.includes(`, not ${id}:`) ||
            !NAMED[example.kind].test(msg)
          ) {
            wrong.push(`${example.name} as ${id}: ${res.statusCode} ${msg || res.body.slice(0, 200)}`);
          }
          refused++;
        }
      }
      expect(wrong).toEqual([]);
      expect(refused).toBeGreaterThan(900);
      expect(await projectSnapshot(service, projectToken)).toEqual(before);
    },
  );

  it('the file of the issue: an English .json as java-properties and as csv-translations', async () => {
    const file = readFileSync(join(CORPUS, 'json/overseerr_lt.react-intl.json'));
    for (const id of ['java-properties', 'csv-translations']) {
      const res = await importRequest(service, apiKey, file, { uploadFormat: id, languageKey: 'en' });
      expect(res.statusCode).toBe(400);
      expect(envelope(res)).toEqual({
        status: 400,
        msg: `The file looks like JSON, not ${id}: choose the uploadFormat of the file`,
      });
    }
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });
});

describe('the preview (GraphQL, console) and the official client refuse the same way', () => {
  const file = () => readFileSync(join(CORPUS, 'json/actualbudget_cs.json'));
  const MESSAGE = 'The file looks like JSON, not java-properties: choose the uploadFormat of the file';

  it('GraphQL previewImport', async () => {
    const operations = JSON.stringify({
      query:
        'mutation ($file: Upload!) { previewImport(file: $file, uploadFormat: JAVA_PROPERTIES, languageKey: "en") { numberOfKeysFound } }',
      variables: { file: null },
    });
    const body = multipart([
      { name: 'operations', content: operations },
      { name: 'map', content: JSON.stringify({ 0: ['variables.file'] }) },
      { name: '0', fileName: 'cs.json', content: file(), contentType: 'application/json' },
    ]);
    const res = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': apiKey, 'graphql-require-preflight': '1', ...body.headers },
      payload: body.payload,
    });
    const answer = res.json();
    expect(answer.data?.previewImport ?? null).toBeNull();
    expect(answer.errors[0]).toMatchObject({ message: MESSAGE, extensions: { code: 'BAD_REQUEST' } });
  });

  it("the client's upload and upload-preview", async () => {
    for (const command of ['upload', 'upload-preview']) {
      const body = multipart([{ name: 'file', fileName: 'cs.json', content: file() }]);
      const res = await service.request({
        method: 'POST',
        url: `/cli/v2/${command}?uploadFormat=java-properties&languageKey=cs`,
        headers: { 'x-simplelocalize-token': apiKey, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(envelope(res).msg).toBe(MESSAGE);
    }
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });
});

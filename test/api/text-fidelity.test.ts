// A text comes back from every read exactly as it was written, whatever its
// characters: on PGlite, the driver's decoder took a leading U+FEFF for a
// byte-order mark and dropped it (scripts/patch-pglite.mjs), so the REST
// read, the editor's rows and the editor's save all lost it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { exportText } from '../support/transfer.js';

let service: TestService;
let api: ProjectApi;

const TEXTS: Record<string, string> = {
  'bom.first': '\uFEFFstarts with U+FEFF',
  'bom.twice': '\uFEFF\uFEFFtwo of them',
  'bom.only': '\uFEFF',
  'bom.middle': 'a\uFEFFb',
  astral: '😀 𝄞 \u{10FFFF}',
  controls: 'tab\tline\nreturn\r',
  combining: 'e\u0301 a\u200Db',
};

beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account(), 'Text fidelity');
  for (const [key, text] of Object.entries(TEXTS)) {
    await api.post('/api/v1/translation-keys', { key });
    expect((await api.patch('/api/v2/translations', { key, language: 'en', text })).data.text).toBe(text);
  }
});
afterAll(() => service.close());

describe('a text read back', () => {
  it('is what was written, through the REST read', async () => {
    const cells = (await api.get('/api/v2/translations?languages=en')).data as { key: string; text: string }[];
    expect(Object.fromEntries(cells.map((c) => [c.key, c.text]))).toEqual(TEXTS);
  });

  it("is what was written, through the editor's rows (GraphQL)", async () => {
    const answer = await api.gql(
      `query($p: String!) { editorRows(projectToken: $p, offset: 0, limit: 50) { keys { key translations(languages: ["en"]) { text } } } }`,
      { p: api.projectToken },
    );
    const keys = answer.data.editorRows.keys as { key: string; translations: { text: string }[] }[];
    expect(Object.fromEntries(keys.map((k) => [k.key, k.translations[0]!.text]))).toEqual(TEXTS);
  });

  it('is what was written, in an exported file', async () => {
    const file = JSON.parse(
      await exportText(service, api.apiKey, { downloadFormat: 'single-language-json', languages: 'en' }),
    );
    expect(file).toEqual(TEXTS);
  });
});

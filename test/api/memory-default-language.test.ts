// Another default language changes every source text of a project at once:
// the translation memory answers from the new source texts right away. On the
// embedded database this is the content model telling the memory's in-process
// index (src/content/written-keys.ts → src/memory/ngram-index.ts), which would
// otherwise still propose the keys by their old source texts and find nothing
// for the new ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let api: ProjectApi;
beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account(), 'Memory default language');
});
afterAll(() => service.close());

const SUGGEST = `query($sourceText: String, $targetLanguage: String!) {
  memorySuggestions(sourceText: $sourceText, targetLanguage: $targetLanguage) {
    sourceLanguage
    suggestions { score exact text origin { key language } }
  }
}`;

async function suggest(sourceText: string, targetLanguage: string) {
  const out = await api.gql(SUGGEST, { sourceText, targetLanguage });
  expect(out.errors).toBeUndefined();
  return out.data.memorySuggestions as { sourceLanguage: string; suggestions: any[] };
}

describe('the translation memory after the default language changes', () => {
  it('reads the new default language as the source at once', async () => {
    expect((await api.post('/api/v1/languages', { key: 'de' })).status).toBe(200);
    const content = [
      { key: 'save', language: 'en', text: 'Save changes' },
      { key: 'save', language: 'de', text: 'Änderungen speichern' },
    ];
    expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
    // The memory (and on the embedded database its index) is built from the English source texts.
    const before = await suggest('Save changes', 'de');
    expect(before.sourceLanguage).toBe('en');
    expect(before.suggestions[0]).toMatchObject({ exact: true, text: 'Änderungen speichern' });
    expect((await suggest('Änderungen speichern', 'en')).suggestions).toEqual([]);

    expect((await api.patch('/api/v1/languages/de', { isDefault: true })).status).toBe(200);
    const after = await suggest('Änderungen speichern', 'en');
    expect(after.sourceLanguage).toBe('de');
    expect(after.suggestions[0]).toMatchObject({
      exact: true,
      text: 'Save changes',
      origin: { key: 'save', language: 'en' },
    });
    expect((await suggest('Save changes', 'de')).suggestions).toEqual([]);
  });
});

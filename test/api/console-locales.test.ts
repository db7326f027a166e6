// The console's own texts (web/src/locales/*.json, docs/console-languages.md)
// are files of this service's own i18next JSON: imported into a project and
// exported again as single-language JSON with nested keys, each comes back
// byte for byte. So the files can be translated in a project of the service
// and written back with an export, without a reformatting step in between.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { contentOf, exportFiles, importOk } from '../support/transfer.js';

const LOCALES = join(import.meta.dirname, '..', '..', 'web', 'src', 'locales');
const LANGUAGES = ['en', 'de'];
const file = (language: string) => readFileSync(join(LOCALES, `${language}.json`), 'utf8');

let service: TestService;
let project: { apiKey: string; projectToken: string };

beforeAll(async () => {
  service = await startTestService();
  project = await (await service.account()).project('console texts');
  for (const language of LANGUAGES)
    await importOk(service, project.apiKey, file(language), {
      uploadFormat: 'single-language-json',
      languageKey: language,
    });
}, 60_000);
afterAll(() => service?.close());

describe('the console texts round-trip through the service', () => {
  it('holds every key of each file, with its text', async () => {
    const content = await contentOf(service, project.projectToken);
    for (const language of LANGUAGES) {
      const flat: Record<string, string> = {};
      const walk = (node: Record<string, unknown>, path: string[]) => {
        for (const [name, value] of Object.entries(node))
          if (typeof value === 'string') flat[[...path, name].join('.')] = value;
          else walk(value as Record<string, unknown>, [...path, name]);
      };
      walk(JSON.parse(file(language)) as Record<string, unknown>, []);
      expect(Object.keys(flat).length).toBeGreaterThan(500);
      expect(content[language]).toEqual(flat);
    }
  });

  it('exports each language as i18next JSON (single-language, nested) identical to the repository file', async () => {
    const files = await exportFiles(service, project.apiKey, {
      downloadFormat: 'single-language-json',
      downloadOptions: 'WRITE_NESTED',
    });
    expect(files.map((f) => f.language).sort()).toEqual([...LANGUAGES].sort());
    for (const exported of files)
      expect(exported.content.toString('utf8'), `${exported.language}.json`).toBe(file(exported.language!));
  });
});

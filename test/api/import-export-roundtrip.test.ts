// For every registered format, through the REST endpoints: a project's
// content exported in the format, imported into a new project and exported
// again gives the same files, and the new project holds the same texts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatIds, registeredFormat } from '../../src/formats/registry.js';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { contentOf, exportFiles, importOk } from '../support/transfer.js';

let service: TestService;
let account: TestAccount;
let source: { apiKey: string; projectToken: string };

// Texts that exercise escaping in every syntax: quotes, markup, ampersands,
// placeholders, line breaks, non-ASCII, and a key missing in one language.
const CONTENT = {
  greeting: { en: 'Hello {name}!', de: 'Hallo {name}!', fr: 'Bonjour {name} !' },
  markup: { en: 'Tom & Jerry\'s "show" <b>now</b>', de: 'Tom & Jerrys „Show“ <b>jetzt</b>', fr: 'L\'émission « Tom & Jerry »' },
  lines: { en: 'First line\nSecond line', de: 'Erste Zeile\nZweite Zeile', fr: 'Première ligne\nDeuxième ligne' },
  unicode: { en: 'Grüße 👋 — 100%', de: 'Schöne Grüße 👋', fr: 'Salutations 👋' },
  only_en: { en: 'Only in English' },
  plural: { en: '{count, plural, one {# file} other {# files}}', de: '{count, plural, one {# Datei} other {# Dateien}}', fr: '{count, plural, one {# fichier} other {# fichiers}}' },
};

beforeAll(async () => {
  service = await startTestService();
  account = await service.account();
  source = await account.project('round trip source');
  // multi-language-json is language-first: {"en": {key: text}, …}.
  const byLanguage: Record<string, Record<string, string>> = {};
  for (const [key, texts] of Object.entries(CONTENT)) for (const [language, text] of Object.entries(texts)) (byLanguage[language] ??= {})[key] = text;
  await importOk(service, source.apiKey, JSON.stringify(byLanguage), { uploadFormat: 'multi-language-json' });
});
afterAll(() => service.close());

/** Exports `apiKey`'s project in `format` and imports every file into `target`. */
async function copy(format: string, from: { apiKey: string }, target: { apiKey: string }) {
  const files = await exportFiles(service, from.apiKey, { downloadFormat: format });
  for (const file of files) await importOk(service, target.apiKey, file.content, { uploadFormat: format, ...(file.language && { languageKey: file.language }) });
  return files;
}

describe('import → export → import, for each registered format', () => {
  for (const format of formatIds()) {
    it(format, async () => {
      const target = await account.project(`round trip ${format}`);
      const first = await copy(format, source, target);
      expect(first.length).toBeGreaterThan(0);
      expect(await contentOf(service, target.projectToken)).toEqual(await contentOf(service, source.projectToken));
      const second = await exportFiles(service, target.apiKey, { downloadFormat: format });
      expect(second.map((f) => [f.language, f.namespace])).toEqual(first.map((f) => [f.language, f.namespace]));
      // Spreadsheets carry creation times in their metadata; every other format is compared byte for byte.
      if (registeredFormat(format)!.format.extension !== 'xlsx') {
        second.forEach((file, i) => expect(file.content.toString('utf8'), `${format} ${file.language ?? ''}`).toBe(first[i]!.content.toString('utf8')));
      }
    });
  }
});

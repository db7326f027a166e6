// The registry of import/export formats: every identifier of the contract is
// there, and what it declares about a format holds.
import { describe, expect, it } from 'vitest';
import type { ExportOption } from '../../../src/formats/model.js';
import { generatedBundle } from '../formats/support/bundles.js';
import { PAGE_PATTERNS, serializeInPages } from '../formats/support/pages.js';
import { formatIds, registeredFormat } from '../../../src/formats/registry.js';

const CONTRACT = [
  'android',
  'android-strings',
  'android-xml',
  'csv-translations',
  'tsv',
  'excel',
  'java-properties',
  'localizable-xcstrings',
  'localizable-strings',
  'localizable-strings-dict',
  'po-pot',
  'php-array',
  'string-resources',
  'simplelocalize-json',
  'single-language-json',
  'multi-language-json',
  'javascript',
  'module-exports',
  'yaml',
  'qt-linguist',
  'resx',
];

describe('format registry', () => {
  it('has every uploadFormat of the contract', () => {
    expect(CONTRACT.filter((id) => !registeredFormat(id))).toEqual([]);
  });

  it('registers each format under its own identifier, once', () => {
    for (const id of formatIds()) expect(registeredFormat(id)!.format.id).toBe(id);
    expect(new Set(formatIds()).size).toBe(formatIds().length);
  });

  it('gives every format a name for people; the lossless backup has its own identifier and name', () => {
    for (const id of formatIds()) expect(registeredFormat(id)!.name, id).toMatch(/\S/);
    expect(registeredFormat('project-backup-json')).toMatchObject({
      name: 'Project backup JSON',
      customerTranslations: true,
    });
    expect(registeredFormat('simplelocalize-json')!.name).not.toBe(registeredFormat('project-backup-json')!.name);
    expect(registeredFormat('simplelocalize-json')!.customerTranslations).toBeUndefined();
  });

  it('every format writes the same file whether its keys come in one page or many', async () => {
    const bundle = generatedBundle(120, ['en', 'de']);
    // Array items and a key that is also a parent exercise the nested writers.
    bundle.keys.push(
      { key: 'list[0]', namespace: '', translations: { en: { text: 'first' } } },
      { key: 'list[1]', namespace: '', translations: { en: { text: 'second' } } },
      { key: 'group1', namespace: '', translations: { en: { text: 'parent' } } },
    );
    for (const id of formatIds()) {
      const { format } = registeredFormat(id)!;
      const languages = format.multiLanguage ? bundle.languages : [{ key: 'en' }];
      for (const options of [[], ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS']] as ExportOption[][]) {
        for (const namespace of [undefined, 'ns0']) {
          const given = { languages, options: new Set(options), namespace };
          const whole = await format.serialize(bundle, given);
          for (const pages of PAGE_PATTERNS) {
            const paged = await serializeInPages(format, bundle, given, pages);
            // A zip (xlsx) may differ in its bytes: compare what it reads back as.
            if (id === 'excel')
              expect(await format.parse(paged, { options: new Set() })).toEqual(
                await format.parse(whole, { options: new Set() }),
              );
            else
              expect(
                paged.toString('utf8'),
                `${id} ${options.join(',')} ${namespace} in pages of ${pages.join(',')}`,
              ).toBe(whole.toString('utf8'));
          }
        }
      }
    }
  }, 30_000);
});

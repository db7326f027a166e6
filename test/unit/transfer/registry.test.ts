// The registry of import/export formats: every identifier of the contract is
// there, and what it declares about a format holds.
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../../src/formats/model.js';
import { formatIds, registeredFormat } from '../../../src/formats/registry.js';

const CONTRACT = [
  'android', 'android-strings', 'android-xml', 'csv-translations', 'tsv', 'excel', 'java-properties', 'localizable-xcstrings',
  'localizable-strings', 'localizable-strings-dict', 'po-pot', 'php-array', 'string-resources', 'simplelocalize-json',
  'single-language-json', 'multi-language-json', 'javascript', 'module-exports', 'yaml', 'qt-linguist', 'resx',
];

describe('format registry', () => {
  it('has every uploadFormat of the contract', () => {
    expect(CONTRACT.filter((id) => !registeredFormat(id))).toEqual([]);
  });

  it('registers each format under its own identifier, once', () => {
    for (const id of formatIds()) expect(registeredFormat(id)!.format.id).toBe(id);
    expect(new Set(formatIds()).size).toBe(formatIds().length);
  });

  it('declares page concatenation only where serializing pages one after the other gives the whole file', async () => {
    const keys = Array.from({ length: 7 }, (_, i) => ({
      key: `key.${i}`,
      namespace: '',
      description: i % 2 ? `About ${i}\nsecond line` : undefined,
      translations: { de: { text: i === 3 ? '' : `Text ${i} = "ü" \\ # ! \n end` } },
    }));
    const options = { languages: [{ key: 'de' }], options: new Set(['INCLUDE_DESCRIPTIONS'] as const) };
    for (const id of formatIds().filter((f) => registeredFormat(f)!.pageConcatenation)) {
      const { format } = registeredFormat(id)!;
      const whole = await format.serialize({ keys, languages: [{ key: 'de' }] } as Bundle, options);
      for (const cut of [0, 1, 3, 6, 7]) {
        const pages = [keys.slice(0, cut), keys.slice(cut)];
        const parts = await Promise.all(pages.map((page) => format.serialize({ keys: page, languages: [{ key: 'de' }] } as Bundle, options)));
        expect(Buffer.concat(parts).equals(whole), `${id} cut at ${cut}`).toBe(true);
      }
    }
  });
});

// Generated bundles of n keys for the formats' round-trip and linear-cost tests.
import type { Bundle } from '../../../../src/formats/model.js';
import { toIcuPlural } from '../../../../src/formats/plural.js';

/** Keys in groups and namespaces, some descriptions, an ICU plural every fourth key. */
export const generatedBundle = (n: number, languages = ['en']): Bundle => ({
  languages: languages.map((key) => ({ key })),
  keys: Array.from({ length: n }, (_, i) => ({
    key: `group${i % 50}.item${i}`,
    namespace: i % 3 ? '' : `ns${i % 7}`,
    description: i % 5 ? undefined : `About item ${i}`,
    translations: Object.fromEntries(
      languages.map((l) => [
        l,
        { text: i % 4 ? `Text ${i}, "quoted"` : toIcuPlural({ one: `# item ${i}`, other: `# items ${i}` }) },
      ]),
    ),
  })),
});

/** Two languages, namespaces, descriptions, markup and plurals with printf placeholders. */
export const bilingualBundle = (n: number): Bundle => ({
  languages: [{ key: 'en' }, { key: 'de' }],
  keys: Array.from({ length: n }, (_, i) => ({
    key: `key.${i}`,
    namespace: i % 3 ? '' : `ns${i % 5}`,
    description: `Description ${i}`,
    translations: {
      en: { text: i % 2 ? `Text ${i} & <more>` : `{count, plural, one {%d file ${i}} other {%d files}}` },
      de: { text: `Text ${i}`, reviewStatus: 'REVIEWED' as const },
    },
  })),
});

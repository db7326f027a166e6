// The fuzzer's starting files, per format identifier: the real files of the
// shared corpus (../shared/corpus beside the repository, the folder the
// format tests read) and the format's own exports of a bundle that uses
// everything the model has (plurals, namespaces, descriptions, markup,
// escapes, non-ASCII), written with each export option that changes the
// shape of the file.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Bundle, ExportOption } from '../src/formats/model.js';
import { formatIds, holdsSeveralLanguages, registeredFormat, type RegisteredFormat } from '../src/formats/registry.js';

export const CORPUS_ROOT = resolve(import.meta.dirname, '..', '..', 'shared', 'corpus');

/** Corpus folders and the parsers that read their files. */
const CORPUS_FOLDERS: Record<string, string[]> = {
  android: ['android', 'android-strings', 'android-xml'],
  arb: ['arb'],
  csv: ['csv-translations', 'tsv'],
  js: ['javascript', 'module-exports'],
  json: [
    'single-language-json',
    'multi-language-json',
    'simplelocalize-json',
    'project-backup-json',
    'browser-extension-json',
  ],
  'localizable-strings': ['localizable-strings'],
  php: ['php-array'],
  po: ['po-pot'],
  properties: ['java-properties'],
  'qt-ts': ['qt-linguist'],
  resx: ['resx', 'string-resources'],
  stringsdict: ['localizable-strings-dict'],
  xcstrings: ['localizable-xcstrings'],
  xliff: ['xliff-1.2', 'xliff-2.0', 'xliff12', 'xliff20'],
  yaml: ['yaml'],
};

export interface Seed {
  /** Where it comes from: a corpus path or `export:<options>`. */
  origin: string;
  bytes: Buffer;
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile())
    .sort();
}

/** Corpus files per format id ({} when the corpus folder is absent). */
export function corpusSeeds(root = CORPUS_ROOT): Map<string, Seed[]> {
  const seeds = new Map<string, Seed[]>();
  if (!existsSync(root)) return seeds;
  for (const [folder, ids] of Object.entries(CORPUS_FOLDERS)) {
    const path = join(root, folder);
    if (!existsSync(path)) continue;
    for (const file of filesUnder(path)) {
      const seed = { origin: `corpus/${folder}/${file.slice(path.length + 1)}`, bytes: readFileSync(file) };
      for (const id of ids) (seeds.get(id) ?? seeds.set(id, []).get(id)!).push(seed);
    }
  }
  return seeds;
}

const TEXTS = [
  'Hello {name}!',
  'Tom & Jerry\'s "show" <b>now</b> &amp; then',
  'Line one\nLine two\ttabbed\\backslash',
  '{count, plural, one {# file} other {# files}}',
  '{count, plural, =0 {no message} one {# message from {sender}} other {# messages}}',
  '  spaces around  ',
  'Grüße 👋 — 100% %1$s %d %@ ${x}',
  "It's <![CDATA[x]]> -- <!-- --> ?> */",
  'ÄÖÜ العربية 日本語 \u200f',
  '{gender, select, female {she} other {they}}',
];

/** A bundle with every feature of the model, in the given languages. */
export function richBundle(languages: string[]): Bundle {
  return {
    languages: languages.map((key, i) => ({ key, isDefault: i === 0 })),
    keys: TEXTS.flatMap((_, i) => [
      {
        key: i % 2 ? `group.sub${i}.item` : `key_${i}`,
        namespace: i % 3 === 0 ? `ns${i % 2}` : '',
        description: i % 2 ? `About ${i} & "more"` : undefined,
        translations: Object.fromEntries(
          languages.map((language, l) => [language, { text: TEXTS[(i + l) % TEXTS.length]! }]),
        ),
      },
    ]),
  };
}

/** Export option sets that change a file's shape, those the format reads among them. */
const OPTION_SETS: ExportOption[][] = [
  [],
  ['WRITE_NESTED'],
  ['INCLUDE_DESCRIPTIONS'],
  ['ESCAPE_NEW_LINES', 'ESCAPE_SINGLE_QUOTES'],
  ['MULTI_LANGUAGE'],
  ['MULTI_LANGUAGE', 'LANGUAGES_NESTED'],
  ['SHEETS_AS_NAMESPACES'],
];

/** The languages a file of the format holds when written with the options. */
export function fileLanguages(format: RegisteredFormat, options: ReadonlySet<string>): string[] {
  if (format.bilingual) return ['en', 'de'];
  return holdsSeveralLanguages(format, options) ? ['en', 'de', 'pl'] : ['de'];
}

/** The format's own exports of the rich bundle, one per distinct file. */
export async function exportSeeds(id: string): Promise<Seed[]> {
  const format = registeredFormat(id)!;
  const seeds: Seed[] = [];
  const seen = new Set<string>();
  for (const options of OPTION_SETS) {
    const set = new Set(options);
    const languages = fileLanguages(format, set);
    const bytes = await format.format.serialize(richBundle(languages), {
      languages: languages.map((key, i) => ({ key, isDefault: i === 0 })),
      options: set,
    });
    const digest = bytes.toString('base64');
    if (seen.has(digest)) continue;
    seen.add(digest);
    seeds.push({ origin: `export:${options.join('+') || 'default'}`, bytes });
  }
  return seeds;
}

/** All seeds of every registered format, corpus first. */
export async function allSeeds(corpusRoot = CORPUS_ROOT): Promise<Map<string, Seed[]>> {
  const corpus = corpusSeeds(corpusRoot);
  const seeds = new Map<string, Seed[]>();
  for (const id of formatIds()) seeds.set(id, [...(corpus.get(id) ?? []), ...(await exportSeeds(id))]);
  return seeds;
}

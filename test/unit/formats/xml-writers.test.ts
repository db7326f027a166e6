// The streaming writers of the XML formats (Android, .resx/.resw, Qt Linguist,
// XLIFF): the keys handed over page by page, in pages of any size (empty ones
// too), give exactly the bytes of serialize(), which re-parse to the keys; and
// each page's entries are written with that page, not held until end().
import { describe, expect, it } from 'vitest';
import { android, androidStrings, androidXml } from '../../../src/formats/android.js';
import { fileOf } from '../../../src/formats/define.js';
import { pagesOf } from './support/pages.js';
import type {
  Bundle,
  BundleKey,
  ExportOption,
  FileFormat,
  SerializeOptions,
  WriterOutput,
} from '../../../src/formats/model.js';
import { toIcuPlural } from '../../../src/formats/plural.js';
import { qtLinguist } from '../../../src/formats/qt-linguist.js';
import { resx, stringResources } from '../../../src/formats/resx.js';
import { xliff12, xliff12Export, xliff20, xliff20Export } from '../../../src/formats/xliff.js';
import { hasXmllint, xmllintErrors } from './support/xmllint.js';

interface Case {
  format: FileFormat;
  languages: string[];
  /** How the entry of a key (with a plain name) starts in the file. */
  entry: (key: string) => string;
  /** Android writes string-array items at the end. */
  heldUntilEnd?: (key: string) => boolean;
}

const isArrayItem = (key: string): boolean => /\[\d+\]$/.test(key);
/** The key as an attribute value (name, id or, for an XLIFF 2.0 key that cannot be an id, name). */
const attribute = (key: string): string => `="${key}"`;

const CASES: Case[] = [
  ...[android, androidStrings, androidXml].map((format) => ({
    format,
    languages: ['en'],
    entry: attribute,
    heldUntilEnd: isArrayItem,
  })),
  ...[resx, stringResources].map((format) => ({ format, languages: ['en'], entry: attribute })),
  { format: qtLinguist, languages: ['en'], entry: (key: string) => `<source>${key}</source>` },
  ...[xliff12, xliff12Export, xliff20, xliff20Export].map((format) => ({
    format,
    languages: ['en', 'de'],
    entry: attribute,
  })),
];

/**
 * n keys out of namespace order, names shared across namespaces, plurals,
 * descriptions, inline markup, and string-array items (`listN[i]`) scattered
 * over the whole list in no index order. Every key is translated in every
 * language, so the files re-parse to the same texts.
 */
function mixedBundle(n: number, languages: string[]): Bundle {
  const text = (i: number, lang: string): string => {
    if (i % 4 === 0) return toIcuPlural({ one: `# item ${i} ${lang}`, other: `# items ${i} ${lang}` });
    if (i % 7 === 0) return `Press <b>OK</b> & "go" ${i} ${lang}`;
    return `Text ${i}, it's ${lang}`;
  };
  const keys: BundleKey[] = [];
  for (let i = 0; i < n; i++) {
    // i and i + 45 differ in namespace, so names are shared across namespaces.
    const name = i % 5 === 3 ? `list${i % 2}[${(Math.floor(i / 10) * 7) % 5}]` : `key${i % 45}`;
    keys.push({
      key: name,
      namespace: i % 4 === 0 ? '' : `ns${i % 4}`,
      ...(i % 5 === 0 ? { description: `About ${i}` } : {}),
      translations: Object.fromEntries(languages.map((l) => [l, { text: text(i, l) }])),
    });
  }
  return { keys: dedupe(keys), languages: languages.map((key) => ({ key })) };
}

/** One key per namespace and name (as in a project). */
function dedupe(keys: BundleKey[]): BundleKey[] {
  const seen = new Set<string>();
  return keys.filter((k) => !seen.has(`${k.namespace}\u0000${k.key}`) && seen.add(`${k.namespace}\u0000${k.key}`));
}

/** Array items must have consecutive indices 0..k-1 to re-parse to the same keys (a gap is written as an empty item). */
function withoutArrayGaps(bundle: Bundle): Bundle {
  const indices = new Map<string, Set<number>>();
  for (const k of bundle.keys) {
    const m = /^(.+)\[(\d+)\]$/.exec(k.key);
    if (m)
      indices.set(
        `${k.namespace}\u0000${m[1]}`,
        (indices.get(`${k.namespace}\u0000${m[1]}`) ?? new Set()).add(Number(m[2])),
      );
  }
  const dense = (ns: string, name: string, index: number): boolean => {
    const set = indices.get(`${ns}\u0000${name}`)!;
    for (let i = 0; i <= index; i++) if (!set.has(i)) return false;
    return true;
  };
  return {
    ...bundle,
    keys: bundle.keys.filter((k) => {
      const m = /^(.+)\[(\d+)\]$/.exec(k.key);
      return !m || dense(k.namespace, m[1]!, Number(m[2]));
    }),
  };
}

/** A writer's output as text: these writers write one section, as text. */
function text(output: WriterOutput): string {
  if (typeof output !== 'string') throw new Error('expected a text chunk');
  return output;
}

function fileOptions(
  format: FileFormat,
  bundle: Bundle,
  languages: string[],
  options: ExportOption[],
  namespace?: string,
): { keys: BundleKey[]; options: SerializeOptions } {
  return fileOf(format, bundle, { languages: languages.map((key) => ({ key })), options: new Set(options), namespace });
}

/** Streams the pages through a writer; checks each page's entries are in that page's chunk. */
async function stream(
  c: Case,
  keys: readonly BundleKey[],
  options: SerializeOptions,
  sizes: number[],
): Promise<string> {
  const writer = c.format.writer(options);
  let file = '';
  for (const page of pagesOf(keys, sizes)) {
    const chunk = text(await writer.write(page));
    for (const key of page) {
      if (!c.heldUntilEnd?.(key.key)) expect(chunk).toContain(c.entry(key.key));
    }
    file += chunk;
  }
  return file + text(await writer.end());
}

/** `namespace/key` -> texts of the file's languages. */
function textsOf(
  keys: readonly BundleKey[],
  languages: string[],
  withNamespace: boolean,
): Record<string, (string | undefined)[]> {
  return Object.fromEntries(
    keys.map((k) => [`${withNamespace ? k.namespace : ''}/${k.key}`, languages.map((l) => k.translations[l]?.text)]),
  );
}

const PAGE_SIZES = [[1], [0, 2, 0, 5], [3, 0, 0, 1000], [7, 1, 13], [1000], [100_000]];

describe.each(CASES)('$format.id writer', (c) => {
  const bundle = withoutArrayGaps(mixedBundle(300, c.languages));
  const parseOptions = { languageKey: c.languages[c.languages.length - 1], options: new Set<never>() };

  it.each([
    { name: 'unsplit', namespace: undefined, options: ['INCLUDE_DESCRIPTIONS'] as ExportOption[] },
    { name: 'split', namespace: 'ns1', options: [] as ExportOption[] },
  ])('gives the bytes of serialize() in pages of any size ($name)', async ({ namespace, options }) => {
    const expected = await c.format.serialize(bundle, {
      languages: bundle.languages,
      options: new Set(options),
      namespace,
    });
    const file = fileOptions(c.format, bundle, c.languages, options, namespace);
    expect(file.keys.length).toBeGreaterThan(20);
    for (const sizes of PAGE_SIZES)
      expect(await stream(c, file.keys, file.options, sizes)).toBe(expected.toString('utf8'));
    if (hasXmllint) expect(xmllintErrors(expected)).toBe('');

    const again = await c.format.parse(expected, parseOptions);
    const namespaced = c.format.namespaces && namespace === undefined;
    expect(textsOf(again.keys, c.languages, namespaced)).toEqual(textsOf(file.keys, c.languages, namespaced));
  });

  it('writes the same empty file from end() alone as from empty pages', async () => {
    const empty: Bundle = { keys: [], languages: bundle.languages };
    const expected = (await c.format.serialize(empty, { languages: bundle.languages, options: new Set() })).toString(
      'utf8',
    );
    const options = fileOptions(c.format, empty, c.languages, []).options;
    expect(text(await c.format.writer(options).end())).toBe(expected);
    const writer = c.format.writer(options);
    const parts = [await writer.write([]), await writer.write([]), await writer.end()];
    expect(parts.map(text).join('')).toBe(expected);
    if (hasXmllint) expect(xmllintErrors(Buffer.from(expected))).toBe('');
    expect((await c.format.parse(Buffer.from(expected), parseOptions)).keys).toEqual([]);
  });
});

describe('format properties of the XML writers', () => {
  it('declares namespaces only for the formats whose files carry them, and the namespace order where they group by it', () => {
    const opts = fileOptions(android, { keys: [], languages: [] }, ['en'], []).options;
    expect(CASES.map((c) => [c.format.id, c.format.namespaces, c.format.keyOrder?.(opts)])).toEqual([
      ['android', false, undefined],
      ['android-strings', false, undefined],
      ['android-xml', false, undefined],
      ['resx', false, undefined],
      ['string-resources', false, undefined],
      ['qt-linguist', true, 'namespace'],
      ['xliff-1.2', true, 'namespace'],
      ['xliff12', true, 'namespace'],
      ['xliff-2.0', true, 'namespace'],
      ['xliff20', true, 'namespace'],
    ]);
  });

  it('Android: an array whose items come on different pages is written once, complete, at the end', async () => {
    const en = (text: string) => ({ en: { text } });
    const keys: BundleKey[] = [
      { key: 'days[2]', namespace: '', translations: en('Wed') },
      { key: 'hello', namespace: '', translations: en('Hello <xliff:g id="n">%s</xliff:g>') },
      { key: 'days[0]', namespace: '', translations: en('Mon') },
      { key: 'days[1]', namespace: '', translations: en('Tue') },
    ];
    const { options } = fileOptions(android, { keys, languages: [{ key: 'en' }] }, ['en'], []);
    const writer = android.writer(options);
    const first = text(await writer.write(keys.slice(0, 2)));
    expect(first).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="hello" xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">Hello <xliff:g id="n">%s</xliff:g></string>\n',
    );
    expect(text(await writer.write(keys.slice(2)))).toBe('');
    expect(text(await writer.end())).toBe(
      '    <string-array name="days">\n        <item>Mon</item>\n        <item>Tue</item>\n        <item>Wed</item>\n    </string-array>\n</resources>\n',
    );
  });

  it('Qt: a context spanning pages is opened once and closed when the namespace changes', async () => {
    const key = (namespace: string, name: string): BundleKey => ({
      key: name,
      namespace,
      translations: { en: { text: name.toUpperCase() } },
    });
    const keys = [key('A', 'a1'), key('A', 'a2'), key('B', 'b1')];
    const { options } = fileOptions(qtLinguist, { keys, languages: [{ key: 'en' }] }, ['en'], []);
    const writer = qtLinguist.writer(options);
    const chunks = [
      await writer.write(keys.slice(0, 1)),
      await writer.write(keys.slice(1, 2)),
      await writer.write(keys.slice(2)),
      await writer.end(),
    ].map(text);
    expect(chunks[0]).toContain('<context>\n    <name>A</name>\n    <message>');
    expect(chunks[1]).not.toContain('context>');
    expect(chunks[2]!.startsWith('</context>\n<context>\n    <name>B</name>\n')).toBe(true);
    expect(chunks[3]).toBe('</context>\n</TS>\n');
  });
});

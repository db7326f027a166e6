// The streaming writers of PO, .strings, .stringsdict, .xcstrings, .properties,
// CSV/TSV, Excel, ARB, browser-extension, simplelocalize-json and project-backup-json: a file
// written page by page, as the export engine writes it, is the file
// format.serialize gives for the same keys, and reads back to those keys.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { arb } from '../../../src/formats/arb.js';
import { browserExtensionJson } from '../../../src/formats/browser-extension.js';
import { csvTranslations, tsv } from '../../../src/formats/csv.js';
import { chunkBytes, fileOf, writePages } from '../../../src/formats/define.js';
import { excel } from '../../../src/formats/excel.js';
import { javaProperties } from '../../../src/formats/java-properties.js';
import { JsonMembers } from '../../../src/formats/json-object-writer.js';
import { localizableStrings } from '../../../src/formats/localizable-strings.js';
import type {
  Bundle,
  BundleKey,
  ExportOption,
  FileChunk,
  FileFormat,
  SerializeOptions,
} from '../../../src/formats/model.js';
import { poPot } from '../../../src/formats/po.js';
import { projectBackupJson } from '../../../src/formats/project-backup-json.js';
import { simplelocalizeJson } from '../../../src/formats/simplelocalize-json.js';
import { localizableStringsDict } from '../../../src/formats/stringsdict.js';
import { localizableXcstrings } from '../../../src/formats/xcstrings.js';

const FORMATS: FileFormat[] = [
  poPot,
  localizableStrings,
  localizableStringsDict,
  localizableXcstrings,
  javaProperties,
  csvTranslations,
  tsv,
  excel,
  arb,
  browserExtensionJson,
  simplelocalizeJson,
  projectBackupJson,
];
const LANGUAGES = [{ key: 'en', isDefault: true }, { key: 'de' }];

type Given = Omit<SerializeOptions, 'namespacesInFile'>;

/** Keys in several namespaces (one name in two of them), texts every format must escape, plurals, descriptions. */
function bundle(n: number, namespaces = ['', 'app', 'web']): Bundle {
  const keys: BundleKey[] = Array.from({ length: n }, (_, i) => ({
    key: i === 5 ? 'shared.name' : `screen${i % 4}.item${i}`,
    namespace: namespaces[i % namespaces.length]!,
    ...(i % 3 === 0 && { description: `About "item" ${i}\nsecond line` }),
    translations: Object.fromEntries(
      LANGUAGES.map(({ key: l }) => [
        l,
        {
          text:
            i % 4 === 1
              ? `{count, plural, one {# ${l} item} other {# ${l} items}}`
              : `${l} ${i}: "quoted", tab\there, =1+1, <b>&amp;</b> ü 😀\nnext line `,
        },
      ]),
    ),
    ...(i % 7 === 2 && { customerTranslations: { acme: { en: { text: `ACME ${i}` } } } }),
  }));
  if (n > 6)
    keys.push({
      ...keys[5]!,
      namespace: namespaces[(5 + 1) % namespaces.length]!,
      translations: { en: { text: 'shared, other namespace' }, de: { text: 'geteilt' } },
    });
  return { languages: LANGUAGES, keys, customers: [{ key: 'acme', description: 'ACME Corp' }, { key: 'globex' }] };
}

function givenOptions(format: FileFormat, b: Bundle, options: ExportOption[] = [], namespace?: string): Given {
  return {
    languages: format.multiLanguage ? LANGUAGES : [LANGUAGES[0]!],
    options: new Set(options),
    ...(namespace !== undefined && { namespace }),
    // The export engine passes the project's customers (project-backup-json declares them).
    customers: b.customers,
  };
}

/** The file's keys and writer options as the export engine gives them: namespaces known first, then the order keyOrder asks for. */
function asTheEngine(format: FileFormat, b: Bundle, given: Given) {
  return fileOf(format, b, given);
}

/**
 * Writes `keys` in pages of the given sizes (the rest in a last page), then
 * ends. Each page is a copy that is spoiled once written: a writer that kept
 * keys for end() instead of writing them would write the spoiled copies.
 */
function writePaged(
  format: FileFormat,
  options: SerializeOptions,
  keys: readonly BundleKey[],
  sizes: number[],
): Promise<Buffer> {
  function* pages(): Generator<BundleKey[]> {
    let at = 0;
    for (const size of [...sizes, Math.max(0, keys.length - sizes.reduce((a, b) => a + b, 0))]) {
      const page: BundleKey[] = structuredClone(keys.slice(at, at + size));
      at += size;
      yield page; // writePages asks for the next page once this one is written
      for (const k of page)
        Object.assign(k, { key: `spoiled ${k.key}`, namespace: 'spoiled', translations: {}, description: 'spoiled' });
    }
  }
  return writePages(format.writer(options), pages());
}

const PAGINGS: [string, number[]][] = [
  ['one page', []],
  ['a key per page', Array.from({ length: 40 }, () => 1)],
  ['pages of different sizes, empty ones among them', [0, 2, 0, 0, 5, 1, 0, 9, 3]],
  ['namespaces split across pages', [3, 4, 7, 1]],
];

/** What a file of `keys` should read back as: names, namespaces when the format has them, the file's texts. */
function expected(format: FileFormat, keys: readonly BundleKey[], given: Given) {
  const languages = given.languages.map((l) => l.key);
  // A .stringsdict holds plurals only (plain texts belong in Localizable.strings).
  const inFile =
    format === localizableStringsDict
      ? keys.filter((k) => k.translations[languages[0]!]?.text.includes(', plural,'))
      : keys;
  return inFile.map((k) => ({
    key: k.key,
    namespace: format.namespaces || given.namespace !== undefined ? k.namespace : '',
    texts: languages.map((l) => k.translations[l]?.text),
  }));
}

async function readBack(format: FileFormat, file: Buffer, given: Given) {
  const b = await format.parse(file, {
    languageKey: format.multiLanguage ? undefined : given.languages[0]!.key,
    namespace: given.namespace,
    options: new Set(),
  });
  return b.keys.map((k) => ({
    key: k.key,
    namespace: k.namespace,
    texts: given.languages.map((l) => k.translations[l.key]?.text),
  }));
}

/** Excel zips differ in their bytes (timestamps): compare the rows the format reads. */
async function sameFile(format: FileFormat, actual: Buffer, wanted: Buffer): Promise<void> {
  if (format !== excel) {
    expect(actual.toString('utf8')).toBe(wanted.toString('utf8'));
    expect(actual.equals(wanted)).toBe(true);
    return;
  }
  const read = (file: Buffer) => excel.parse(file, { options: new Set() });
  expect(await read(actual)).toEqual(await read(wanted));
}

describe('streaming writers', () => {
  // PO writes the time of the export in its header.
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(Date.UTC(2024, 4, 6, 7, 8)));
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  describe.each(FORMATS.map((f) => [f.id, f] as const))('%s', (_id, format) => {
    const b = bundle(24);

    it.each(PAGINGS)(
      'written in pages (%s) gives the bytes of serialize and reads back to the keys',
      async (_name, sizes) => {
        for (const options of [[], ['INCLUDE_DESCRIPTIONS']] as ExportOption[][]) {
          const given = givenOptions(format, b, options);
          const { options: writerOptions, keys } = asTheEngine(format, b, given);
          const paged = await writePaged(format, writerOptions, keys, sizes);
          await sameFile(format, paged, await format.serialize(b, given));
          expect(await readBack(format, paged, given)).toEqual(expected(format, keys, given));
        }
      },
    );

    it('writes the file of one namespace of a split export in pages', async () => {
      for (const namespace of ['', 'web']) {
        const given = givenOptions(format, b, ['INCLUDE_DESCRIPTIONS'], namespace);
        const { options, keys } = asTheEngine(format, b, given);
        expect(keys.every((k) => k.namespace === namespace)).toBe(true);
        const paged = await writePaged(format, options, keys, [1, 0, 2]);
        await sameFile(format, paged, await format.serialize(b, given));
        expect(await readBack(format, paged, given)).toEqual(expected(format, keys, given));
      }
    });

    it('writes a file without keys from end() alone, or after empty pages', async () => {
      const empty: Bundle = { languages: LANGUAGES, keys: [] };
      const given = givenOptions(format, empty);
      const { options } = asTheEngine(format, empty, given);
      const wanted = await format.serialize(empty, given);
      await sameFile(format, await writePages(format.writer(options), []), wanted);
      await sameFile(format, await writePaged(format, options, [], [0, 0]), wanted);
      expect(await readBack(format, wanted, given)).toEqual([]);
    });
  });

  it('excel: one sheet per namespace with SHEETS_AS_NAMESPACES, pages crossing from one namespace to the next', async () => {
    const b = bundle(30, ['app', 'Web', 'zeta']);
    const given = givenOptions(excel, b, ['SHEETS_AS_NAMESPACES']);
    const { options, keys } = asTheEngine(excel, b, given);
    expect(excel.keyOrder?.(options)).toBe('namespace');
    const paged = await writePaged(excel, options, keys, [4, 0, 9, 10, 1]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(paged as unknown as ExcelJS.Buffer);
    // Code-point order, a header row and the namespace's keys on each sheet.
    const rows = (namespace: string) => 1 + keys.filter((k) => k.namespace === namespace).length;
    expect(wb.worksheets.map((w) => [w.name, w.rowCount])).toEqual([
      ['Web', rows('Web')],
      ['app', rows('app')],
      ['zeta', rows('zeta')],
    ]);
    expect(await readBack(excel, paged, given)).toEqual(expected(excel, keys, given));
    const bySheet = await excel.parse(paged, { options: new Set(['SHEETS_AS_NAMESPACES']) });
    expect(bySheet.keys.map((k) => [k.namespace, k.key])).toEqual(keys.map((k) => [k.namespace, k.key]));
  });

  it('excel: the zipped rows come out page by page, not all at the end', async () => {
    const b = bundle(6000);
    const { options, keys } = asTheEngine(excel, b, givenOptions(excel, b));
    const writer = excel.writer(options);
    let beforeEnd = 0;
    for (let at = 0; at < keys.length; at += 500)
      beforeEnd += chunkBytes((await writer.write(keys.slice(at, at + 500))) as FileChunk).length;
    const last = chunkBytes((await writer.end()) as FileChunk).length;
    // What zlib has not finished yet comes with the next call; most of the file is out before end().
    expect(beforeEnd).toBeGreaterThan(last * 2);
  });

  it('excel: a namespace whose keys do not come together is refused, not written as a second sheet', async () => {
    const writer = excel.writer({
      languages: [{ key: 'en' }],
      options: new Set(['SHEETS_AS_NAMESPACES']),
      namespacesInFile: ['a', 'b'],
    });
    const key = (namespace: string): BundleKey => ({ key: 'k', namespace, translations: { en: { text: 'x' } } });
    await writer.write([key('a'), key('b')]);
    await expect(writer.write([key('a')])).rejects.toThrow(/did not come grouped/);
  });

  it('csv: the namespace column follows the namespaces of the file, not those of a page', async () => {
    const keys: BundleKey[] = [
      { key: 'a', namespace: '', translations: { en: { text: 'A' } } },
      { key: 'b', namespace: 'web', translations: { en: { text: 'B' } } },
    ];
    const writer = csvTranslations.writer({
      languages: [{ key: 'en' }],
      options: new Set(),
      namespacesInFile: ['', 'web'],
    });
    expect(await writer.write(keys.slice(0, 1))).toBe('key,en,namespace\na,A,\n');
    expect(await writer.write(keys.slice(1))).toBe('b,B,web\n');
    expect(await writer.end()).toBe('');
  });
});

describe('JsonMembers', () => {
  it('writes what JSON.stringify(value, null, 2) writes, member by member', () => {
    const value = { a: 1, 'b"\n': [true, { c: null }], d: {}, e: [] };
    const doc = new JsonMembers('object');
    const items = new JsonMembers('array', doc.inner);
    const text =
      doc.open() +
      doc.member('a', 1) +
      doc.name('b"\n') +
      items.open() +
      items.item(true) +
      items.item({ c: null }) +
      items.close() +
      doc.member('d', {}) +
      doc.member('e', []) +
      doc.close();
    expect(text).toBe(JSON.stringify(value, null, 2));
    const empty = new JsonMembers('array');
    expect(empty.open() + empty.close()).toBe('[]');
  });
});

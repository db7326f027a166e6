// Imports of the formats read as a stream (JSON, java-properties, CSV, TSV, PO;
// IMPORT_CHUNK_CELLS texts per chunk, written as they come inside the
// import's transaction): the project ends as a one-chunk import leaves it,
// with the same result and history, and a file that fails after chunks were
// written leaves the project unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { importRequest, projectSnapshot, uploadedImport } from '../support/transfer.js';
import { importFile, previewImport, type ImportRequest } from '../../src/transfer/import.js';
import type { ImportOption } from '../../src/transfer/options.js';
import { corpusPath } from '../support/corpus.js';
import { cellEventsSql } from '../../src/content/cell-events.js';
import { Prisma } from '../../src/generated/prisma/client.js';

let service: TestService;
let account: Awaited<ReturnType<TestService['account']>>;

beforeAll(async () => {
  service = await startTestService({ env: { IMPORT_CHUNK_CELLS: '5' } });
  account = await service.account();
});
afterAll(() => service.close());

async function newProject() {
  const project = await account.project('stream');
  const { id } = await service.db.prisma.project.findUniqueOrThrow({
    where: { projectToken: project.projectToken },
    select: { id: true },
  });
  return { ...project, id };
}

/** importFile's request for a file (test/support/transfer.ts). */
const request = (projectId: number, content: string | Buffer, chunkCells: number, extra: Partial<ImportRequest> = {}) =>
  uploadedImport(service, projectId, content, chunkCells, extra);

/** What an import leaves, by names (ids and dates differ between projects). */
async function state(projectId: number) {
  const db = service.db.prisma;
  return {
    languages: await db.$queryRawUnsafe(
      `SELECT key, "order" FROM "Language" WHERE "projectId" = $1 ORDER BY "order"`,
      projectId,
    ),
    keys: await db.$queryRawUnsafe(
      `SELECT key, namespace, tags, lock, "charactersLimit", "filePath", description FROM "TranslationKey" WHERE "projectId" = $1 ORDER BY "importOrder"`,
      projectId,
    ),
    translations: await db.$queryRawUnsafe(
      `SELECT k.key, k.namespace, l.key AS language, t.text, t."reviewStatus"::text FROM "Translation" t
         JOIN "TranslationKey" k ON k.id = t."keyId" JOIN "Language" l ON l.id = t."languageId"
        WHERE t."projectId" = $1 ORDER BY k."importOrder", l."order"`,
      projectId,
    ),
    history: await db.$queryRaw(
      Prisma.sql`SELECT c.key, c.namespace, l.key AS language, c."oldText", c."newText" FROM ${cellEventsSql({ where: Prisma.sql`b."projectId" = ${projectId}` })} c JOIN "Language" l ON l.id = c."languageId"
        ORDER BY c.key, l.key, c.id`,
    ),
    changes: await db.$queryRawUnsafe(
      `SELECT kind, cells, edits, details::text FROM "Activity" WHERE "projectId" = $1 ORDER BY id`,
      projectId,
    ),
  };
}

const LANGUAGES = ['en', 'de', 'fr'];

/** A language-first file of `n` keys, nested two levels, some nulls, texts with spaces around. */
function file(n: number, variant: string, extra: Record<string, Record<string, unknown>> = {}): string {
  const doc: Record<string, Record<string, unknown>> = {};
  for (const language of LANGUAGES) {
    const tree: Record<string, Record<string, unknown>> = {};
    for (let i = 0; i < n; i++)
      (tree[`section${i % 4}`] ??= {})[`key${i}`] =
        i % 7 === 3 && language !== 'en' ? null : ` ${variant} ${language} ${i} `;
    doc[language] = { ...tree, ...extra[language] };
  }
  return JSON.stringify(doc, null, 2);
}

describe('an import read as a stream', () => {
  it('leaves the project as a one-chunk import does, with the same result, preview and history', async () => {
    const options: ImportOption[] = [
      'REPLACE_TRANSLATION_IF_FOUND',
      'DELETE_NOT_PRESENT_KEYS',
      'TRIM_LEADING_TRAILING_SPACES',
    ];
    const main = file(40, 'new', {
      en: { locked: 'changed', limited: 'far too long for the limit' },
      de: { 'section1.key1': undefined },
    });
    const outcomes = [];
    for (const chunkCells of [5, Number.POSITIVE_INFINITY]) {
      const project = await newProject();
      // Existing keys: some the file changes, a locked one, one with a charactersLimit, one the file lacks (deleted).
      const seed = file(20, 'old', { en: { locked: 'kept', limited: 'ok', gone: 'bye' } });
      await importFile(await request(project.id, seed, chunkCells, { namespace: 'app' }));
      await service.db.prisma.translationKey.updateMany({
        where: { projectId: project.id, key: 'locked' },
        data: { lock: true },
      });
      await service.db.prisma.translationKey.updateMany({
        where: { projectId: project.id, key: 'limited' },
        data: { charactersLimit: 5 },
      });
      const args = { options, namespace: 'app', tags: ['imported'] };
      const preview = await previewImport(await request(project.id, main, chunkCells, args));
      const result = await importFile(await request(project.id, main, chunkCells, args));
      outcomes.push({ preview, result, state: await state(project.id) });
    }
    const [streamed, whole] = outcomes;
    expect(streamed).toEqual(whole);
    expect(streamed!.result).toMatchObject({
      numberOfKeysFound: 42,
      numberOfUniqueKeysFound: 42,
      keysCreated: 20,
      keysDeleted: 1,
      translationsRefused: 2,
      foundLanguages: [{ key: 'en' }, { key: 'de' }, { key: 'fr' }].map((l) => expect.objectContaining(l)),
    });
    expect(streamed!.preview.keysToCreate.count).toBe(20);
    expect(
      (streamed!.state.keys as { key: string; tags: string[] }[]).find((k) => k.key === 'section0.key0')!.tags,
    ).toEqual(['imported']);
  });

  it('refuses a file broken after its first chunks, leaving the project unchanged', async () => {
    const project = await newProject();
    const good = file(100, 'v1');
    expect(
      (await importRequest(service, project.apiKey, good, { uploadFormat: 'multi-language-json' })).statusCode,
    ).toBe(200);
    const before = await projectSnapshot(service, project.projectToken);
    const maxKeyId = async () =>
      (await service.db.prisma.translationKey.aggregate({ where: { projectId: project.id }, _max: { id: true } }))._max
        .id!;
    const idBefore = await maxKeyId();
    // New keys first (created by the first chunks), then the problem at the very end.
    const more = file(100, 'v2').replace(/"key(\d+)"/g, '"new$1"');
    const broken: [string, string | Buffer, RegExp][] = [
      [
        'a syntax error',
        more.replace(/\}\s*\}\s*$/, '}'),
        /^The file is not a valid multi-language-json file: Malformed JSON: unexpected end of input \(line \d+, column \d+\)$/,
      ],
      [
        'a text given twice',
        more.replace(/\}\s*\}\s*$/, ', "section0": {"new0": "again"}}}'),
        /The key "section0\.new0" is defined twice in "fr"/,
      ],
      [
        'invalid UTF-8',
        Buffer.concat([
          Buffer.from(more.replace(/"\s*\}\s*\}\s*\}\s*$/, '')),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('"}}}'),
        ]),
        /^The file is not a valid multi-language-json file: The file is not valid UTF-8: invalid byte at offset \d+/,
      ],
      ['a text that cannot be stored', more.replace(/\}\s*\}\s*$/, ', "last": "nul \\u0000"}}'), /cannot|NUL|U\+0000/i],
      [
        'a nesting too deep',
        more.replace(/\}\s*\}\s*$/, `, "deep": ${'{"a": '.repeat(70)}"x"${'}'.repeat(70)}}}`),
        /nesting is deeper than 64 levels/,
      ],
    ];
    for (const [what, content, message] of broken) {
      const res = await importRequest(service, project.apiKey, content, {
        uploadFormat: 'multi-language-json',
        importOptions: ['REPLACE_TRANSLATION_IF_FOUND', 'DELETE_NOT_PRESENT_KEYS'],
      });
      expect(res.statusCode, what).toBe(400);
      expect(envelope(res).msg, what).toMatch(message);
      expect(await projectSnapshot(service, project.projectToken), what).toEqual(before);
    }
    // The keys of the first chunks were created, then rolled back: their ids are spent.
    const after = await importRequest(service, project.apiKey, JSON.stringify({ en: { fresh: 'x' } }), {
      uploadFormat: 'multi-language-json',
    });
    expect(after.statusCode).toBe(200);
    expect((await maxKeyId()) - idBefore).toBeGreaterThan(100);
  });
});

/** A CSV or TSV file of `n` keys: empty cells, quoted commas, quotes and line breaks, descriptions, CRLF; `extra` rows at the end. */
function table(delimiter: string, n: number, variant: string, extra: string[][] = []): string {
  const cell = (text: string) => (/[",\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const rows = [['key', ...LANGUAGES, 'description', 'namespace']];
  for (let i = 0; i < n; i++) {
    const texts = LANGUAGES.map((l) =>
      i % 7 === 3 && l !== 'en' ? '' : ` ${variant} ${l} ${i}${i % 5 === 0 ? ', "quoted"\nsecond line' : ''} `,
    );
    rows.push([`section${i % 4}.key${i}`, ...texts, i % 3 === 0 ? `note ${i}` : '', '']);
  }
  return [...rows, ...extra].map((r) => r.map(cell).join(delimiter)).join('\r\n') + '\r\n';
}

/** A .properties file of `n` keys: comments, continued lines, escapes; `extra` lines at the end. */
function properties(n: number, variant: string, extra: string[] = []): string {
  const lines = ['# A header, not a description', ''];
  for (let i = 0; i < n; i++) {
    if (i % 3 === 0) lines.push(`# note ${i}`);
    lines.push(
      i % 5 === 0
        ? `section${i % 4}.key${i} = ${variant} \\\n    continued ${i} caf\\u00e9 `
        : `section${i % 4}.key${i}=${variant} ${i} `,
    );
  }
  return [...lines, ...extra].join('\n') + '\n';
}

/** A PO file of `n` keys: comments, plurals, continued strings, the header entry last; `extra` entries at the end. */
function po(n: number, variant: string, extra: [string, string][] = []): string {
  const entries: string[] = [];
  for (let i = 0; i < n; i++) {
    const comment = i % 3 === 0 ? `# note ${i}\n` : '';
    entries.push(
      i % 5 === 0
        ? `${comment}msgid "section${i % 4}.key${i}"\nmsgid_plural "many"\nmsgstr[0] "%d ${variant} one ${i}"\nmsgstr[1] "%d ${variant} "\n"other ${i}"`
        : `${comment}msgid "section${i % 4}.key${i}"\nmsgstr " ${variant} ${i} "`,
    );
  }
  for (const [key, text] of extra) entries.push(`msgid "${key}"\nmsgstr "${text}"`);
  entries.push('msgid ""\nmsgstr ""\n"Language: en\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"');
  return entries.join('\n\n') + '\n';
}

interface LineFormat {
  uploadFormat: string;
  languageKey?: string;
  file(n: number, variant: string, extra: Record<string, string>): string;
}

/** The formats read line by line, each with a generator of files; `extra` maps keys to their en text, added at the end. */
const LINE_FORMATS: LineFormat[] = [
  ...(
    [
      ['csv-translations', ','],
      ['tsv', '\t'],
    ] as const
  ).map(([uploadFormat, delimiter]) => ({
    uploadFormat,
    file: (n: number, variant: string, extra: Record<string, string>) =>
      table(
        delimiter,
        n,
        variant,
        Object.entries(extra).map(([k, t]) => [k, t, '', '', '', '']),
      ),
  })),
  {
    uploadFormat: 'java-properties',
    languageKey: 'en',
    // A key given twice: the later line wins, as in Java, and the key moves there.
    file: (n, variant, extra) =>
      properties(n, variant, [
        ...Object.entries(extra).map(([k, t]) => `${k}=${t}`),
        `section1.key1 = ${variant} again`,
      ]),
  },
  // Its language comes from the header entry, at the end of the file.
  { uploadFormat: 'po-pot', file: (n, variant, extra) => po(n, variant, Object.entries(extra)) },
];

describe('line formats read as a stream', () => {
  for (const format of LINE_FORMATS) {
    it(`${format.uploadFormat}: leaves the project as a one-chunk import does, with the same result, preview and history`, async () => {
      const options: ImportOption[] = [
        'REPLACE_TRANSLATION_IF_FOUND',
        'DELETE_NOT_PRESENT_KEYS',
        'TRIM_LEADING_TRAILING_SPACES',
      ];
      const main = format.file(40, 'new', { locked: 'changed', limited: 'far too long for the limit' });
      const outcomes = [];
      for (const chunkCells of [5, Number.POSITIVE_INFINITY]) {
        const project = await newProject();
        const base = {
          uploadFormat: format.uploadFormat,
          ...(format.languageKey && { languageKey: format.languageKey }),
          namespace: 'app',
        };
        await importFile(
          await request(
            project.id,
            format.file(20, 'old', { locked: 'kept', limited: 'ok', gone: 'bye' }),
            chunkCells,
            base,
          ),
        );
        await service.db.prisma.translationKey.updateMany({
          where: { projectId: project.id, key: 'locked' },
          data: { lock: true },
        });
        await service.db.prisma.translationKey.updateMany({
          where: { projectId: project.id, key: 'limited' },
          data: { charactersLimit: 5 },
        });
        const args = { ...base, options, tags: ['imported'] };
        const preview = await previewImport(await request(project.id, main, chunkCells, args));
        const result = await importFile(await request(project.id, main, chunkCells, args));
        outcomes.push({ preview, result, state: await state(project.id) });
      }
      const [streamed, whole] = outcomes;
      expect(streamed).toEqual(whole);
      expect(streamed!.result).toMatchObject({
        numberOfKeysFound: 42,
        numberOfUniqueKeysFound: 42,
        keysCreated: 20,
        keysDeleted: 1,
        translationsRefused: 2,
      });
      expect(streamed!.preview.keysToCreate.count).toBe(20);
      const keys = streamed!.state.keys as { key: string; tags: string[]; description: string }[];
      expect(keys.find((k) => k.key === 'section0.key0')).toMatchObject({ tags: ['imported'], description: 'note 0' });
    });
  }

  const CORPUS: [string, string, string?][] = [
    ['csv-translations', 'csv/mollie-magento2_de_DE.csv', 'de_DE'],
    ['csv-translations', 'csv/godot-demo-projects_translation_text.csv'],
    ['java-properties', 'properties/jenkins_hudson_model_Messages_fr.properties', 'fr'],
    ['java-properties', 'properties/jenkins_LogRecorder_index_da.latin1.properties', 'da'],
    ['java-properties', 'properties/hibernate-validator_ValidationMessages_ja.properties', 'ja'],
    ['po-pot', 'po/gnome-clocks_th.po'],
    ['po-pot', 'po/uranium.pot', 'en'],
  ];
  it.skipIf(!existsSync(corpusPath()))(
    'imports the corpus files in chunks as in one',
    async () => {
      for (const [uploadFormat, path, languageKey] of CORPUS) {
        const content = readFileSync(corpusPath(path));
        const outcomes = [];
        for (const chunkCells of [5, Number.POSITIVE_INFINITY]) {
          const project = await newProject();
          const args = { uploadFormat, ...(languageKey && { languageKey }) };
          const preview = await previewImport(await request(project.id, content, chunkCells, args));
          const result = await importFile(await request(project.id, content, chunkCells, args));
          outcomes.push({ preview, result, state: await state(project.id) });
        }
        expect(outcomes[0], path).toEqual(outcomes[1]);
        expect(outcomes[0]!.result.numberOfKeysFound, path).toBeGreaterThan(2);
      }
      // Every corpus file imported four times (about 12 s on an idle machine): only a hang should fail here.
    },
    120_000,
  );

  const poMore = (extra: [string, string][] = [], after = '') =>
    `${po(100, 'v2', extra).replace(/key(\d+)/g, 'new$1')}${after}`;
  const BROKEN: Record<string, [string, string | Buffer, RegExp][]> = {
    'po-pot': [
      [
        'a message given twice',
        poMore([['section0.key0', 'again']]),
        /^The file is not a valid po-pot file: Duplicate message "section0\.new0" \(line \d+\)$/,
      ],
      [
        'a string not closed',
        poMore([], '\nmsgid "last"\nmsgstr "open\n'),
        /Unterminated string \(line \d+, column \d+\)/,
      ],
      ['a second header entry', poMore([], '\nmsgid ""\nmsgstr "z"\n'), /An entry with an empty msgid is not a key/],
      [
        'invalid UTF-8',
        Buffer.concat([
          Buffer.from(poMore([], '\nmsgid "last"\nmsgstr "')),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('"\n'),
        ]),
        /The file is not valid UTF-8: invalid byte at offset \d+/,
      ],
      ['a text that cannot be stored', poMore([['last', 'nul \\0']]), /cannot|NUL|U\+0000/i],
      ['a key too long', poMore([['k'.repeat(501), 'x']]), /must have at most 500 characters/],
    ],
    'csv-translations': csvBroken(','),
    tsv: csvBroken('\t'),
    'java-properties': [
      [
        'a malformed escape',
        properties(100, 'v2', ['last=x\\u12G4']).replace(/key(\d+)/g, 'new$1'),
        /^The file is not a valid java-properties file: Malformed \\uXXXX escape \(line \d+, column 7\)$/,
      ],
      [
        'an empty key',
        properties(100, 'v2', ['=value']).replace(/key(\d+)/g, 'new$1'),
        /Empty key \(line \d+, column 1\)/,
      ],
      [
        'odd UTF-16',
        Buffer.concat([
          Buffer.from([0xff, 0xfe]),
          Buffer.from(properties(100, 'v2').replace(/key(\d+)/g, 'new$1'), 'utf16le'),
          Buffer.from([0x41]),
        ]),
        /Invalid UTF-16LE file: odd number of bytes/,
      ],
      [
        'a text that cannot be stored',
        properties(100, 'v2', ['last=nul \\u0000']).replace(/key(\d+)/g, 'new$1'),
        /cannot|NUL|U\+0000/i,
      ],
      [
        'a key too long',
        properties(100, 'v2', [`${'k'.repeat(501)}=x`]).replace(/key(\d+)/g, 'new$1'),
        /must have at most 500 characters/,
      ],
    ],
  };

  function csvBroken(delimiter: string): [string, string | Buffer, RegExp][] {
    const name = delimiter === ',' ? 'CSV' : 'TSV';
    const more = (extra: string[][] = []) => table(delimiter, 100, 'v2', extra).replace(/key(\d+)/g, 'new$1');
    return [
      [
        'a key given twice',
        more([['section0.key0', 'again', '', '', '', '']]),
        /^The file is not a valid .+ file: Key "section0\.new0" appears twice \(line \d+\)$/,
      ],
      ['a quote not closed', `${more()}last${delimiter}"open\r\n`, new RegExp(`Invalid ${name}: Quote Not Closed`)],
      [
        'invalid UTF-8',
        Buffer.concat([
          Buffer.from(more()),
          Buffer.from('last'),
          Buffer.from(delimiter),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('\r\n'),
        ]),
        /The file is not valid UTF-8: invalid byte at offset \d+/,
      ],
      ['a text that cannot be stored', more([['last', 'nul \u0000', '', '', '', '']]), /cannot|NUL|U\+0000/i],
      ['a row without a key', more([['', 'orphan', '', '', '', '']]), /A row without a key \(line \d+\)/],
      ['a key too long', more([['k'.repeat(501), 'x', '', '', '', '']]), /must have at most 500 characters/],
    ];
  }

  for (const format of LINE_FORMATS) {
    it(`${format.uploadFormat}: refuses a file broken after its first chunks, leaving the project unchanged`, async () => {
      const project = await newProject();
      const query = {
        uploadFormat: format.uploadFormat,
        ...(format.languageKey && { languageKey: format.languageKey }),
      };
      expect((await importRequest(service, project.apiKey, format.file(100, 'v1', {}), query)).statusCode).toBe(200);
      const before = await projectSnapshot(service, project.projectToken);
      const maxKeyId = async () =>
        (await service.db.prisma.translationKey.aggregate({ where: { projectId: project.id }, _max: { id: true } }))
          ._max.id!;
      const idBefore = await maxKeyId();
      for (const [what, content, message] of BROKEN[format.uploadFormat]!) {
        const res = await importRequest(service, project.apiKey, content, {
          ...query,
          importOptions: ['REPLACE_TRANSLATION_IF_FOUND', 'DELETE_NOT_PRESENT_KEYS'],
        });
        expect(res.statusCode, what).toBe(400);
        expect(envelope(res).msg, what).toMatch(message);
        expect(await projectSnapshot(service, project.projectToken), what).toEqual(before);
      }
      // The keys of the first chunks were created, then rolled back: their ids are spent.
      expect(
        (await importRequest(service, project.apiKey, format.file(1, 'fresh', {}).replace(/key0/g, 'fresh'), query))
          .statusCode,
      ).toBe(200);
      expect((await maxKeyId()) - idBefore).toBeGreaterThan(100);
    });
  }
});

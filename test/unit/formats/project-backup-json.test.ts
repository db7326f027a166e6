import { describe, expect, it } from 'vitest';
import { FormatError, type Bundle, type BundleLanguage } from '../../../src/formats/model.js';
import { projectBackupJson } from '../../../src/formats/project-backup-json.js';

const parse = (source: string | Buffer | object, namespace?: string) =>
  projectBackupJson.parse(
    Buffer.isBuffer(source) ? source : Buffer.from(typeof source === 'string' ? source : JSON.stringify(source)),
    { namespace, options: new Set() },
  );
const serialize = async (bundle: Bundle, languages: BundleLanguage[] = bundle.languages, namespace?: string) =>
  (await projectBackupJson.serialize(bundle, { languages, options: new Set(), namespace })).toString('utf8');

async function formatError(promise: Promise<unknown>): Promise<FormatError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FormatError);
  return error as FormatError;
}

const full: Bundle = {
  languages: [
    { key: 'en', name: 'English', isDefault: true },
    { key: 'de', name: 'Deutsch', isDefault: false },
    { key: 'pt_BR' },
  ],
  customers: [{ key: 'acme', description: 'ACME Corp' }, { key: 'globex' }],
  keys: [
    {
      key: 'home.title',
      namespace: '',
      description: 'Title of the home page',
      codeDescription: 'src/Home.tsx:12',
      tags: ['ui', 'home'],
      charactersLimit: 40,
      lock: true,
      deprecated: false,
      translations: {
        en: { text: 'Welcome', reviewStatus: 'REVIEWED' },
        de: { text: 'Willkommen', reviewStatus: 'NOT_REVIEWED' },
        pt_BR: { text: 'Bem-vindo' },
      },
      customerTranslations: { acme: { en: { text: 'Welcome to ACME', reviewStatus: 'REVIEWED' } }, globex: {} },
    },
    {
      key: 'files',
      namespace: 'admin',
      charactersLimit: null,
      tags: [],
      translations: {
        en: { text: '{count, plural, one {# file} other {# files}}' },
        de: { text: "{count, plural, one {# Datei} other {# Dateien, '{'x'}'}}" },
      },
    },
    { key: 'files', namespace: 'app', translations: {} },
    { key: 'multi\nline "key"', namespace: 'ns with spaces', description: '', translations: { en: { text: '' } } },
  ],
};

describe('project-backup-json: lossless round trip', () => {
  it('gives back every field of the model exactly', async () => {
    expect(await parse(await serialize(full))).toStrictEqual(full);
  });

  it('keeps absent optional fields absent (no customers, no review status, no extras)', async () => {
    const minimal: Bundle = {
      languages: [{ key: 'en' }],
      keys: [{ key: 'a', namespace: '', translations: { en: { text: 'x' } } }],
    };
    const text = await serialize(minimal);
    expect(JSON.parse(text)).toEqual({
      format: 'project-backup-json',
      version: 1,
      languages: [{ key: 'en' }],
      keys: [{ key: 'a', namespace: '', translations: { en: { text: 'x' } } }],
    });
    expect(await parse(text)).toStrictEqual(minimal);
    const empty: Bundle = { languages: [], keys: [], customers: [] };
    expect(await parse(await serialize(empty))).toStrictEqual(empty);
  });

  it('writes the documented, versioned shape', async () => {
    const doc = JSON.parse(await serialize(full)) as Record<string, unknown>;
    // Streamed: the customers come after the keys, whose overrides may name more of them.
    expect(Object.keys(doc)).toEqual(['format', 'version', 'languages', 'keys', 'customers']);
    expect(doc.format).toBe('project-backup-json');
    expect(doc.version).toBe(1);
    expect((doc.keys as Record<string, unknown>[])[0]).toEqual({
      key: 'home.title',
      namespace: '',
      description: 'Title of the home page',
      codeDescription: 'src/Home.tsx:12',
      tags: ['ui', 'home'],
      charactersLimit: 40,
      lock: true,
      deprecated: false,
      translations: {
        en: { text: 'Welcome', reviewStatus: 'REVIEWED' },
        de: { text: 'Willkommen', reviewStatus: 'NOT_REVIEWED' },
        pt_BR: { text: 'Bem-vindo' },
      },
      customerTranslations: { acme: { en: { text: 'Welcome to ACME', reviewStatus: 'REVIEWED' } }, globex: {} },
    });
  });
});

describe('project-backup-json: export choices', () => {
  it('writes only the requested languages', async () => {
    const back = await parse(await serialize(full, [{ key: 'de', name: 'Deutsch', isDefault: false }]));
    expect(back.languages).toEqual([{ key: 'de', name: 'Deutsch', isDefault: false }]);
    expect(back.keys[0]!.translations).toEqual({ de: { text: 'Willkommen', reviewStatus: 'NOT_REVIEWED' } });
    expect(back.keys[0]!.customerTranslations).toEqual({ acme: {}, globex: {} });
  });

  it('writes only the namespace of a split export', async () => {
    const back = await parse(await serialize(full, full.languages, 'admin'));
    expect(back.keys.map((k) => [k.namespace, k.key])).toEqual([['admin', 'files']]);
  });

  it('declares a customer that has translations but is missing from the list', async () => {
    const bundle: Bundle = {
      languages: [{ key: 'en' }],
      keys: [{ key: 'a', namespace: '', translations: {}, customerTranslations: { initech: { en: { text: 'x' } } } }],
    };
    const back = await parse(await serialize(bundle));
    expect(back.customers).toEqual([{ key: 'initech' }]);
    expect(back.keys[0]!.customerTranslations).toEqual({ initech: { en: { text: 'x' } } });
  });
});

describe('project-backup-json: strict reading', () => {
  const valid = () =>
    JSON.parse(
      JSON.stringify({
        format: 'project-backup-json',
        version: 1,
        languages: [{ key: 'en' }, { key: 'de' }],
        customers: [{ key: 'acme' }],
        keys: [
          { key: 'a', namespace: '', translations: { en: { text: 'x' } } },
          { key: 'b', translations: { en: { text: 'y' }, de: { text: 'z' } } },
          { key: 'c', namespace: '', translations: {} },
          { key: 'd', namespace: '', translations: { de: { text: 'w' } } },
        ],
      }),
    ) as { [k: string]: any };

  it('uses the namespace of the request for keys without one', async () => {
    const b = await parse(valid(), 'imported');
    expect(b.keys.map((k) => k.namespace)).toEqual(['', 'imported', '', '']);
  });

  it.each<[string, (d: any) => void, string]>([
    [
      'keys not an array',
      (d) => {
        d.keys = 'x';
      },
      'keys must be an array',
    ],
    [
      'wrong format name',
      (d) => {
        d.format = 'other';
      },
      'format must be "project-backup-json"',
    ],
    [
      'unknown version',
      (d) => {
        d.version = 2;
      },
      'version must be 1',
    ],
    [
      'unknown top-level field',
      (d) => {
        d.extra = 1;
      },
      'extra is not a known field (expected one of: format, version, languages, customers, keys)',
    ],
    [
      'language without key',
      (d) => {
        d.languages[1] = { name: 'German' };
      },
      'languages[1].key must be a string',
    ],
    [
      'language name type',
      (d) => {
        d.languages[0].name = 5;
      },
      'languages[0].name must be a string',
    ],
    [
      'language isDefault type',
      (d) => {
        d.languages[0].isDefault = 'yes';
      },
      'languages[0].isDefault must be true or false',
    ],
    [
      'duplicate language',
      (d) => {
        d.languages.push({ key: 'en' });
      },
      'languages[2].key: the language "en" is declared twice',
    ],
    [
      '__proto__ language',
      (d) => {
        d.languages.push({ key: '__proto__' });
      },
      'languages[2].key must not be "__proto__"',
    ],
    [
      'customer description type',
      (d) => {
        d.customers[0].description = [];
      },
      'customers[0].description must be a string',
    ],
    [
      'key not an object',
      (d) => {
        d.keys[2] = 'c';
      },
      'keys[2] must be an object',
    ],
    [
      'empty key',
      (d) => {
        d.keys[0].key = '';
      },
      'keys[0].key must not be empty',
    ],
    [
      'key type',
      (d) => {
        d.keys[0].key = 7;
      },
      'keys[0].key must be a string',
    ],
    [
      'namespace type',
      (d) => {
        d.keys[1].namespace = null;
      },
      'keys[1].namespace must be a string',
    ],
    [
      'duplicate key',
      (d) => {
        d.keys[2].key = 'a';
      },
      'keys[2]: the key "a" appears twice in namespace ""',
    ],
    [
      'unknown key field',
      (d) => {
        d.keys[3].translation = {};
      },
      'keys[3].translation is not a known field',
    ],
    [
      'description type',
      (d) => {
        d.keys[0].description = 1;
      },
      'keys[0].description must be a string',
    ],
    [
      'codeDescription type',
      (d) => {
        d.keys[0].codeDescription = false;
      },
      'keys[0].codeDescription must be a string',
    ],
    [
      'tags type',
      (d) => {
        d.keys[0].tags = 'ui';
      },
      'keys[0].tags must be an array',
    ],
    [
      'tag type',
      (d) => {
        d.keys[0].tags = ['ui', 3];
      },
      'keys[0].tags[1] must be a string',
    ],
    [
      'negative limit',
      (d) => {
        d.keys[0].charactersLimit = -1;
      },
      'keys[0].charactersLimit must be a whole number of 0 or more, or null',
    ],
    [
      'fractional limit',
      (d) => {
        d.keys[0].charactersLimit = 1.5;
      },
      'keys[0].charactersLimit must be a whole number',
    ],
    [
      'lock type',
      (d) => {
        d.keys[0].lock = 'true';
      },
      'keys[0].lock must be true or false',
    ],
    [
      'deprecated type',
      (d) => {
        d.keys[0].deprecated = 0;
      },
      'keys[0].deprecated must be true or false',
    ],
    [
      'translations type',
      (d) => {
        d.keys[1].translations = [];
      },
      'keys[1].translations must be an object',
    ],
    [
      'text type',
      (d) => {
        d.keys[3].translations.de.text = 5;
      },
      'keys[3].translations.de.text must be a string',
    ],
    [
      'translation as a string',
      (d) => {
        d.keys[3].translations.de = 'w';
      },
      'keys[3].translations.de must be an object',
    ],
    [
      'review status',
      (d) => {
        d.keys[3].translations.de.reviewStatus = 'DONE';
      },
      'keys[3].translations.de.reviewStatus must be one of REVIEWED, NOT_REVIEWED',
    ],
    [
      'undeclared language',
      (d) => {
        d.keys[3].translations.fr = { text: 'x' };
      },
      'keys[3].translations.fr: language "fr" is not declared in languages',
    ],
    [
      'odd language name in path',
      (d) => {
        d.keys[3].translations['x y'] = { text: 'x' };
      },
      'keys[3].translations["x y"]: language "x y" is not declared',
    ],
    [
      'undeclared customer',
      (d) => {
        d.keys[0].customerTranslations = { initech: {} };
      },
      'keys[0].customerTranslations.initech: customer "initech" is not declared in customers',
    ],
    [
      'customer text type',
      (d) => {
        d.keys[0].customerTranslations = { acme: { en: { text: null } } };
      },
      'keys[0].customerTranslations.acme.en.text must be a string',
    ],
  ])('refuses %s with the JSON path of the problem', async (_name, change, message) => {
    const doc = valid();
    change(doc);
    const error = await formatError(parse(doc));
    expect(error.message).toContain(message);
  });

  it('accepts the valid document those cases start from', async () => {
    expect((await parse(valid())).keys).toHaveLength(4);
  });

  it('reads backups written when the format was called simplelocalize-json', async () => {
    const earlier = { ...valid(), format: 'simplelocalize-json' };
    expect(await parse(JSON.stringify(earlier))).toStrictEqual(await parse(valid()));
  });

  it('refuses a file that is not an object', async () => {
    expect((await formatError(parse('[]'))).message).toBe('Invalid project-backup-json: the file must be an object');
  });

  it('refuses deep nesting, malformed JSON (with line and column) and a __proto__ translation', async () => {
    await formatError(parse('{"keys": ' + '['.repeat(100_000) + ']'.repeat(100_000) + '}'));
    const malformed = await formatError(parse('{\n  "format": "project-backup-json",\n  "version": 1,,\n}'));
    expect(malformed.position).toMatchObject({ line: 3 });
    expect(malformed.message).toMatch(/line 3, column \d+/);
    const doc = valid();
    doc.keys[0].translations = JSON.parse('{"__proto__": {"text": "x"}}');
    expect((await formatError(parse(JSON.stringify(doc)))).message).toContain('language "__proto__" is not declared');
    expect(({} as Record<string, unknown>).text).toBeUndefined();
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatError, type Bundle, type ExportOption } from '../../../src/formats/model.js';
import { javaProperties } from '../../../src/formats/java-properties.js';
import { toIcuPlural } from '../../../src/formats/plural.js';
import { costRatio } from './support/linear-cost.js';
import { corpusPath } from '../../support/corpus.js';
import { generatedBundle } from './support/bundles.js';

/** n keys under shared prefixes, with plurals and descriptions. */

const CORPUS = corpusPath('properties');
const parse = (text: string | Buffer, languageKey = 'en', namespace?: string) =>
  javaProperties.parse(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), {
    languageKey,
    namespace,
    options: new Set(),
  });
const serialize = (bundle: Bundle, language = 'en', options: ExportOption[] = []) =>
  javaProperties.serialize(bundle, { languages: [{ key: language }], options: new Set(options) });
const text = (b: Bundle, key: string, lang = 'en') => b.keys.find((k) => k.key === key)?.translations[lang]?.text;

describe.skipIf(!existsSync(CORPUS))('java-properties: corpus files', () => {
  it('hibernate-validator (ASCII with \\u escapes, aligned separators)', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'hibernate-validator_ValidationMessages_ja.properties')), 'ja');
    expect(b.keys.length).toBe(44);
    expect(text(b, 'jakarta.validation.constraints.AssertFalse.message', 'ja')).toBe('false にしてください');
    expect(text(b, 'jakarta.validation.constraints.DecimalMax.message', 'ja')).toBe(
      "{value} ${inclusive == true ? '以下の値にしてください' : 'より小さな値にしてください'}",
    );
  });

  it('jenkins da (ISO-8859-1 bytes, escaped spaces in keys, license header not a description)', async () => {
    const raw = readFileSync(join(CORPUS, 'jenkins_LogRecorder_index_da.latin1.properties'));
    expect(raw.includes(0xe5)).toBe(true);
    const b = await parse(raw, 'da');
    expect(b.keys.map((k) => k.key)).toEqual([
      'Configure',
      'Delete',
      'Back to Loggers',
      'Log records',
      'delete.logrecorder',
    ]);
    expect(text(b, 'delete.logrecorder', 'da')).toBe('Er du sikker på at du vil slette denne logopsamler? ({0})');
    expect(b.keys[0]!.description).toBeUndefined();
  });

  it('jenkins fr (UTF-8, continuation lines, escaped leading space)', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'jenkins_hudson_model_Messages_fr.properties')), 'fr');
    expect(text(b, 'AbstractBuild.BuildingOnMaster', 'fr')).toBe('Construction sur le nœud contrôleur');
    expect(text(b, 'AbstractBuild.BuildingInWorkspace', 'fr')).toBe(' dans le répertoire de travail {0}');
    expect(text(b, 'AbstractItem.FailureToStopBuilds', 'fr')).toBe(
      "Echec de l''interruption et de l''arrêt de {0,choice,1#{0,number,integer} build|1<{0,number,integer} builds} de {1}",
    );
    expect(text(b, 'AbstractProject.ExtendedReadPermission.Description', 'fr')).toBe(
      'Ce droit permet de lire les configurations de projets. Notez que les informations sensibles dans les builds, comme les mots de passe, seront exposées à une plus grande audience en accordant ce droit.',
    );
    expect(b.keys.find((k) => k.key === 'AbstractProject.WipeOutPermission.Description')!.description).toContain(
      'hudson.security.WipeOutPermission is set to true',
    );
    expect(b.keys[0]!.description).toBeUndefined(); // the license header is separated by a blank line
    // Every key and description round-trips.
    const back = await parse(await serialize(b, 'fr', ['INCLUDE_DESCRIPTIONS']), 'fr');
    expect(back.keys).toEqual(b.keys);
  });
});

describe('java-properties: the Properties.load rules', () => {
  it('separators, whitespace, comments, continuation lines and escapes', async () => {
    const b = await parse(
      [
        '# header comment',
        '',
        '! bang comment for a',
        '# second line',
        'a=1',
        'b : 2',
        'c 3',
        '   d\t=\t4  ',
        'e\\ key\\:x\\=y = five',
        'f = first \\',
        '    second \\\\',
        'g = ends with backslash \\\\\\',
        '  continued',
        'h=\\u00e9\\t\\n\\r\\f\\q',
        'i',
        'j=',
        '# comment lines are never continued \\',
        'k=after',
        'l:=colon then equals',
      ].join('\n'),
    );
    expect(b.keys.map((k) => [k.key, k.translations.en!.text])).toEqual([
      ['a', '1'],
      ['b', '2'],
      ['c', '3'],
      ['d', '4  '],
      ['e key:x=y', 'five'],
      ['f', 'first second \\'],
      ['g', 'ends with backslash \\continued'],
      ['h', 'é\t\n\r\fq'],
      ['i', ''],
      ['j', ''],
      ['k', 'after'],
      ['l', '=colon then equals'],
    ]);
    expect(b.keys[0]!.description).toBe('bang comment for a\nsecond line');
    expect(b.keys[1]!.description).toBeUndefined();
    expect(b.keys.find((k) => k.key === 'k')!.description).toBe('comment lines are never continued \\');
  });

  it('a later duplicate replaces the value, as in Java; CRLF and CR line ends', async () => {
    const b = await parse('a=1\r\nb=2\ra=3\r\n');
    expect(b.keys.map((k) => [k.key, k.translations.en!.text])).toEqual([
      ['b', '2'],
      ['a', '3'],
    ]);
  });

  it('uses the import namespace', async () => {
    expect((await parse('a=1', 'en', 'web')).keys[0]!.namespace).toBe('web');
  });

  it('refuses a malformed \\u escape with its line and column, and an empty key', async () => {
    const err = await parse('a=1\nb=x\\u12G4\n').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).position).toEqual({ line: 2, column: 4 });
    const cont = await parse('a=1\nb=x\\\n   \\uZZZZ\n').catch((e: unknown) => e);
    expect((cont as FormatError).position).toEqual({ line: 3, column: 4 });
    await expect(parse('=value')).rejects.toThrow(FormatError);
  });

  it('reads invalid UTF-8 as ISO-8859-1 rather than failing', async () => {
    expect(text(await parse(Buffer.from([0x61, 0x3d, 0x63, 0x61, 0x66, 0xe9]), 'fr'), 'a', 'fr')).toBe('café');
  });
});

describe('java-properties: export', () => {
  const bundle: Bundle = {
    languages: [{ key: 'de' }],
    keys: [
      {
        key: 'greeting',
        namespace: '',
        description: 'Shown on start\n\nSecond paragraph: ü',
        translations: { de: { text: 'Grüß dich, 世界 😀' } },
      },
      { key: 'key with spaces=and:colons#!', namespace: '', translations: { de: { text: '  leading spaces kept' } } },
      { key: 'multi', namespace: '', translations: { de: { text: 'line 1\nline 2\ttab \\ backslash' } } },
      {
        key: 'plural',
        namespace: '',
        translations: { de: { text: toIcuPlural({ one: '# Datei', other: '# Dateien' }) } },
      },
      { key: 'missing', namespace: '', translations: {} },
      { key: 'ключ', namespace: '', translations: { de: { text: '#not a comment' } } },
    ],
  };

  it('writes ASCII only with \\uXXXX escapes, escaped keys and descriptions as comments', async () => {
    const out = await serialize(bundle, 'de', ['INCLUDE_DESCRIPTIONS']);
    expect([...out].every((byte) => byte < 0x80)).toBe(true);
    const s = out.toString('latin1');
    expect(s).toContain(
      '# Shown on start\n#\n# Second paragraph: \\u00FC\ngreeting=Gr\\u00FC\\u00DF dich, \\u4E16\\u754C \\uD83D\\uDE00\n',
    );
    expect(s).toContain('key\\ with\\ spaces\\=and\\:colons\\#\\!=\\  leading spaces kept\n');
    expect(s).toContain('multi=line 1\\nline 2\\ttab \\\\ backslash\n');
    expect(s).toContain('missing=\n');
    expect(s).toContain('\\u043A\\u043B\\u044E\\u0447=#not a comment\n');
  });

  it('round-trips keys, descriptions, plurals and texts', async () => {
    const back = await parse(await serialize(bundle, 'de', ['INCLUDE_DESCRIPTIONS']), 'de');
    expect(back.keys).toEqual(
      bundle.keys.map((k) => ({ ...k, translations: { de: { text: k.translations.de?.text ?? '' } } })),
    );
  });

  it('writes a key name once when several namespaces share it (the first wins)', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: [
        { key: 'a', namespace: 'x', translations: { en: { text: '1' } } },
        { key: 'a', namespace: 'y', translations: { en: { text: '2' } } },
      ],
    };
    expect((await serialize(b)).toString('latin1')).toBe('a=1\n');
  });

  it('export and import cost grow linearly with the number of keys', async () => {
    expect(await costRatio((n) => serialize(generatedBundle(n), 'en', ['INCLUDE_DESCRIPTIONS']))).toBeLessThan(32);
    expect(
      await costRatio(async (n) => parse(await serialize(generatedBundle(n), 'en', ['INCLUDE_DESCRIPTIONS'])), 500),
    ).toBeLessThan(32);
  }, 120_000);

  // Found by the fuzzer: a value continued over thousands of lines (a repeated
  // `text \` line) took seconds, the joined text being re-read at every line.
  it('reads a value continued over many lines in linear time, backslash runs across lines included', async () => {
    expect(await costRatio((n) => parse(`k = ${'word \\\n    '.repeat(n)}end\n`), 4000)).toBeLessThan(32);
    const b = await parse('a = one \\\n  two \\\\\n b = x\nc = \\\n\\\n\\\\\nd = y\n');
    expect(b.keys.map((k) => [k.key, k.translations.en!.text])).toEqual([
      ['a', 'one two \\'],
      ['b', 'x'],
      ['c', '\\'],
      ['d', 'y'],
    ]);
  }, 120_000);

  it('leaves descriptions out without INCLUDE_DESCRIPTIONS', async () => {
    expect((await serialize(bundle, 'de')).toString('latin1')).not.toContain('# Shown');
  });
});

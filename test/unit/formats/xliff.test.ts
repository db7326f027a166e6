import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  FormatError,
  type Bundle,
  type BundleLanguage,
  type ExportOption,
  type FileFormat,
} from '../../../src/formats/model.js';
import { xliff12, xliff12Export, xliff20, xliff20Export } from '../../../src/formats/xliff.js';
import { hasXmllint, xmllintErrors } from './support/xmllint.js';
import { costRatio, cpuClock, PATHOLOGICAL_CPU_MS, HOSTILE_TEST_TIMEOUT } from './support/linear-cost.js';
import { corpusPath } from '../../support/corpus.js';
import { bilingualBundle } from './support/bundles.js';

const CORPUS = corpusPath('xliff');
const parse = (
  input: string | Buffer,
  opts: { languageKey?: string; namespace?: string } = {},
  format: FileFormat = xliff12,
) => format.parse(typeof input === 'string' ? Buffer.from(input) : input, { ...opts, options: new Set() });
const serialize = (
  format: FileFormat,
  bundle: Bundle,
  languages: BundleLanguage[],
  options: ExportOption[] = ['INCLUDE_DESCRIPTIONS'],
) => format.serialize(bundle, { languages, options: new Set(options) });
const get = (b: Bundle, key: string, namespace = '') => b.keys.find((k) => k.key === key && k.namespace === namespace)!;

const xliff12Doc = (units: string, file = 'source-language="en" target-language="de"') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">\n<file ${file} datatype="plaintext" original="x">\n<body>\n${units}\n</body>\n</file>\n</xliff>`;
const xliff20Doc = (units: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">\n<file id="f1">\n${units}\n</file>\n</xliff>`;

/** n keys with plurals, namespaces, descriptions and review states. */

describe('xliff identifiers', () => {
  it('exports one object per contract identifier', () => {
    expect([xliff12.id, xliff12Export.id, xliff20.id, xliff20Export.id]).toEqual([
      'xliff-1.2',
      'xliff12',
      'xliff-2.0',
      'xliff20',
    ]);
    expect(xliff12.multiLanguage && xliff20.multiLanguage).toBe(true);
  });
});

describe.skipIf(!existsSync(CORPUS))('xliff: corpus', () => {
  it('reads the .resx-generated XLIFF 1.2 (BOM, states, notes)', async () => {
    const b = await parse(readFileSync(`${CORPUS}/command-line-api_StaticCompletions_Strings.de.xlf`));
    expect(b.languages).toEqual([{ key: 'en', isDefault: true }, { key: 'de' }]);
    expect(b.keys).toHaveLength(11);
    expect(get(b, 'BashShellProvider.HelpDescription')).toEqual({
      key: 'BashShellProvider.HelpDescription',
      namespace: '',
      description: '{Locked="Bourne Again SHell (bash)"}',
      translations: {
        en: { text: 'Generates a completion script for the Bourne Again SHell (bash).' },
        de: {
          text: 'Generiert ein Vervollständigungsskript für die Bourne Again SHell (bash).',
          reviewStatus: 'NOT_REVIEWED',
        },
      },
    });
    // <note /> is no description; "new" is an unreviewed (untranslated) copy of the source.
    expect(get(b, 'CompletionsCommand.Description').description).toBeUndefined();
    const warning = get(b, 'GenerateCommand.SuggestDirectiveDisabledWarning');
    expect(warning.translations.de).toEqual({ text: warning.translations.en!.text, reviewStatus: 'NOT_REVIEWED' });
    expect(warning.description).toBe('{Locked="[suggest]"}');
  });

  it('reads Kimai: resname as key, approved="yes" as reviewed, units without state', async () => {
    const b = await parse(readFileSync(`${CORPUS}/kimai_daterangepicker.de.xlf`));
    expect(b.keys).toHaveLength(11);
    expect(get(b, 'daterangepicker.today').translations).toEqual({
      en: { text: 'daterangepicker.today' },
      de: { text: 'Heute', reviewStatus: 'REVIEWED' },
    });
    expect(get(b, 'daterangepicker.thisYearUntilNow').translations.de).toEqual({ text: 'Dieses Jahr - bis heute' });
    expect(b.keys.some((k) => k.key === 's9Hdo7E')).toBe(false);
  });

  it('reads the Symfony validators (116 numeric ids, pipe plurals kept as text) and languageKey overrides the target', async () => {
    const b = await parse(readFileSync(`${CORPUS}/symfony-validator_validators.ru.xlf`), {
      languageKey: 'ru_RU',
      namespace: 'validators',
    });
    expect(b.keys).toHaveLength(116);
    expect(b.languages.map((l) => l.key)).toEqual(['en', 'ru_RU']);
    expect(get(b, '6', 'validators').translations).toEqual({
      en: { text: 'You must select at least {{ limit }} choice.|You must select at least {{ limit }} choices.' },
      ru_RU: {
        text: 'Вы должны выбрать хотя бы {{ limit }} вариант.|Вы должны выбрать хотя бы {{ limit }} варианта.|Вы должны выбрать хотя бы {{ limit }} вариантов.',
      },
    });
  });

  it('reads the XLIFF 2.0 fixtures: groups that are not namespaces, name attribute, notes', async () => {
    const b = await parse(readFileSync(`${CORPUS}/symfony-translation_fixture_resources-2.0.xlf`), {}, xliff20);
    expect(b.languages).toEqual([{ key: 'en-US', isDefault: true }, { key: 'ja-JP' }]);
    expect(
      b.keys.map((k) => [k.key, k.namespace, k.translations['en-US']!.text, k.translations['ja-JP']!.text]),
    ).toEqual([
      ['1', '', 'Quetzal', 'Quetzal'],
      ['2', '', 'foo', 'XLIFF 文書を編集、または処理 するアプリケーションです。'],
      ['3', '', 'bar', 'XLIFF データ・マネージャ'],
    ]);
    const notes = await parse(
      readFileSync(`${CORPUS}/symfony-translation_fixture_resources-notes-meta.xlf`),
      {},
      xliff20,
    );
    expect(notes.keys).toEqual([
      {
        key: 'foo',
        namespace: '',
        description: 'new\ntrue\nuser login',
        translations: { 'fr-FR': { text: 'foo' }, 'en-US': { text: 'bar' } },
      },
      {
        key: 'baz',
        namespace: '',
        description: 'x_content\nFuzzy',
        translations: { 'fr-FR': { text: 'baz' }, 'en-US': { text: 'biz' } },
      },
    ]);
  });

  it('round-trips every corpus file through both versions, and xmllint accepts the exports', async () => {
    for (const file of [
      'command-line-api_StaticCompletions_Strings.de.xlf',
      'kimai_daterangepicker.de.xlf',
      'symfony-translation_fixture_resources-2.0.xlf',
      'symfony-translation_fixture_resources-notes-meta.xlf',
      'symfony-validator_validators.ru.xlf',
    ]) {
      const b = await parse(readFileSync(`${CORPUS}/${file}`));
      for (const format of [xliff12Export, xliff20Export]) {
        const out = await serialize(format, b, b.languages);
        expect(await parse(out, {}, format)).toEqual(b);
        if (hasXmllint) expect(xmllintErrors(out)).toBe('');
      }
    }
  });
});

describe('xliff: rules', () => {
  const bundle: Bundle = {
    languages: [{ key: 'en' }, { key: 'de' }],
    keys: [
      {
        key: 'plain',
        namespace: '',
        description: 'Shown <here> & there',
        translations: { en: { text: 'Save' }, de: { text: 'Speichern', reviewStatus: 'REVIEWED' } },
      },
      {
        key: 'with spaces & "quotes"',
        namespace: '',
        translations: { en: { text: 'a < b && c > d' }, de: { text: 'a < b', reviewStatus: 'NOT_REVIEWED' } },
      },
      {
        key: 'plural',
        namespace: 'app',
        translations: {
          en: { text: '{count, plural, one {# file} other {# files}}' },
          de: { text: '{count, plural, one {# Datei} other {# Dateien}}' },
        },
      },
      { key: 'plain', namespace: 'app', translations: { en: { text: '  padded\nmulti-line  ' } } },
      { key: 'untranslated', namespace: '', translations: { en: { text: 'Only source' } } },
    ],
  };

  it('round-trips keys, namespaces, plurals, descriptions and review status in 1.2 and 2.0', async () => {
    for (const format of [xliff12Export, xliff20Export]) {
      const out = await serialize(format, bundle, bundle.languages);
      if (hasXmllint) expect(xmllintErrors(out)).toBe('');
      const again = await parse(out, {}, format);
      expect(again.languages).toEqual([{ key: 'en', isDefault: true }, { key: 'de' }]);
      expect(again.keys.sort((a, b) => (a.namespace + a.key).localeCompare(b.namespace + b.key))).toEqual(
        [...bundle.keys].sort((a, b) => (a.namespace + a.key).localeCompare(b.namespace + b.key)),
      );
    }
  });

  it('writes XLIFF 1.2 with states, approved, notes, namespace groups and unique ids', async () => {
    const out = (await serialize(xliff12Export, bundle, bundle.languages)).toString();
    expect(out).toContain('<file source-language="en" target-language="de" datatype="plaintext" original="messages">');
    expect(out).toContain(
      '<trans-unit id="plain" approved="yes">\n        <source>Save</source>\n        <target state="final">Speichern</target>\n        <note>Shown &lt;here&gt; &amp; there</note>',
    );
    expect(out).toContain('<target state="translated">a &lt; b</target>');
    expect(out).toContain('<group resname="app" restype="x-namespace">');
    // Each namespace has its own <file>, where ids need to be unique: the second "plain" (namespace app) keeps its key as id.
    expect(out.match(/<file /g)).toHaveLength(2);
    expect(out).toContain('<group resname="app" restype="x-namespace">\n        <trans-unit id="plural">');
    expect(out).toContain('<trans-unit id="plain" xml:space="preserve">');
    expect(out).toMatch(/<trans-unit id="untranslated">\s*<source>Only source<\/source>\s*<\/trans-unit>/);
    const noNotes = (await serialize(xliff12Export, bundle, bundle.languages, [])).toString();
    expect(noNotes).not.toContain('<note>');
  });

  it('writes XLIFF 2.0 with NMTOKEN ids, name for other keys, segment states and typed groups', async () => {
    const out = (await serialize(xliff20Export, bundle, bundle.languages)).toString();
    expect(out).toContain(
      '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">',
    );
    expect(out).toContain(
      '<unit id="plain">\n      <notes>\n        <note>Shown &lt;here&gt; &amp; there</note>\n      </notes>\n      <segment state="final">',
    );
    expect(out).toContain('<unit id="u1" name="with spaces &amp; &quot;quotes&quot;">');
    expect(out).toMatch(/<group id="u\d+" name="app" type="l10n:namespace">/);
    expect(out.match(/<file id="f\d">/g)).toEqual(['<file id="f1">', '<file id="f2">']);
  });

  it('writes one <file> per namespace, in code-point order, and one empty <file> without keys', async () => {
    const keys = [
      { key: 'b', namespace: 'zeta', translations: { en: { text: 'B' } } },
      { key: 'a', namespace: '', translations: { en: { text: 'A' } } },
      { key: 'c', namespace: 'alpha', translations: { en: { text: 'C' } } },
      { key: 'd', namespace: 'zeta', translations: { en: { text: 'D' } } },
    ];
    for (const format of [xliff12Export, xliff20Export]) {
      const out = (await serialize(format, { keys, languages: [{ key: 'en' }] }, [{ key: 'en' }])).toString();
      expect([...out.matchAll(/(?:resname|name)="(\w+)"(?= (?:restype|type))/g)].map((m) => m[1])).toEqual([
        'alpha',
        'zeta',
      ]);
      expect((await parse(out, {}, format)).keys.map((k) => `${k.namespace}/${k.key}`)).toEqual([
        '/a',
        'alpha/c',
        'zeta/b',
        'zeta/d',
      ]);
      const empty = (await serialize(format, { keys: [], languages: [{ key: 'en' }] }, [{ key: 'en' }])).toString();
      expect(empty.match(/<file /g)).toHaveLength(1);
      if (hasXmllint) expect(xmllintErrors(Buffer.from(empty))).toBe('');
      expect((await parse(empty, {}, format)).keys).toEqual([]);
    }
  });

  it('gives 2.0 keys that look like numbered ids a numbered id of their own', async () => {
    const keys = [
      { key: 'not an NMTOKEN', namespace: '', translations: { en: { text: 'x' } } },
      { key: 'u1', namespace: '', translations: { en: { text: 'y' } } },
      { key: 'u1x', namespace: '', translations: { en: { text: 'z' } } },
    ];
    const out = (await serialize(xliff20Export, { keys, languages: [{ key: 'en' }] }, [{ key: 'en' }])).toString();
    expect([...out.matchAll(/<unit [^>]*>/g)].map((m) => m[0])).toEqual([
      '<unit id="u1" name="not an NMTOKEN">',
      '<unit id="u2" name="u1">',
      '<unit id="u1x">',
    ]);
    expect((await parse(out, {}, xliff20)).keys.map((k) => k.key)).toEqual(['not an NMTOKEN', 'u1', 'u1x']);
  });

  it('writes the source only when one language is exported', async () => {
    const out = (await serialize(xliff12Export, bundle, [{ key: 'en' }])).toString();
    expect(out).not.toContain('target-language');
    expect(out).not.toContain('<target');
    const b = await parse(out);
    expect(b.languages).toEqual([{ key: 'en', isDefault: true }]);
    expect(get(b, 'plain').translations).toEqual({ en: { text: 'Save' } });
  });

  it('keeps inline markup verbatim and escapes other angle brackets', async () => {
    const input = xliff12Doc(
      [
        '<trans-unit id="markup"><source>Click <g id="1">here</g> &amp; <x id="2"/> go</source><target>Klicke <g id="1">hier</g> &amp; <x id="2"/> los</target></trans-unit>',
        '<trans-unit id="escaped"><source>&lt;b&gt;bold&lt;/b&gt; &amp; co</source></trans-unit>',
        '<trans-unit id="cdata"><source><![CDATA[<b>raw</b>]]></source></trans-unit>',
      ].join('\n'),
    );
    const b = await parse(input);
    expect(get(b, 'markup').translations).toEqual({
      en: { text: 'Click <g id="1">here</g> &amp; <x id="2"/> go' },
      de: { text: 'Klicke <g id="1">hier</g> &amp; <x id="2"/> los' },
    });
    expect(get(b, 'escaped').translations.en!.text).toBe('<b>bold</b> & co');
    expect(get(b, 'cdata').translations.en!.text).toBe('<b>raw</b>');
    const out = (await serialize(xliff12Export, b, b.languages)).toString();
    expect(out).toContain('<source>Click <g id="1">here</g> &amp; <x id="2"/> go</source>');
    expect(out).toContain('<source>&lt;b&gt;bold&lt;/b&gt; &amp; co</source>');
    expect(await parse(out)).toEqual(b);
  });

  it('reads 2.0 segments and ignorables joined, segment state, and namespace groups only when typed', async () => {
    const b = await parse(
      xliff20Doc(
        [
          '<unit id="multi"><segment state="reviewed"><source>One.</source><target>Un.</target></segment><ignorable><source> </source><target> </target></ignorable><segment><source>Two.</source><target>Deux.</target></segment></unit>',
          '<group id="g1" name="web" type="l10n:namespace"><unit id="k"><segment state="initial"><source>Key</source></segment></unit>',
          '<group id="g2" name="not-a-namespace"><unit id="deep"><segment state="translated"><source>Deep</source><target>Profond</target></segment></unit></group></group>',
        ].join('\n'),
      ),
      { namespace: 'default-ns' },
      xliff20,
    );
    expect(get(b, 'multi', 'default-ns').translations).toEqual({
      en: { text: 'One. Two.' },
      fr: { text: 'Un. Deux.', reviewStatus: 'REVIEWED' },
    });
    expect(get(b, 'k', 'web').translations).toEqual({ en: { text: 'Key' } });
    expect(get(b, 'deep', 'web').translations.fr).toEqual({ text: 'Profond', reviewStatus: 'NOT_REVIEWED' });
  });

  it('maps XLIFF 1.2 states to review status', async () => {
    const b = await parse(
      xliff12Doc(
        [
          ['signed', '<target state="signed-off">a</target>'],
          ['final', '<target state="final">a</target>'],
          ['review', '<target state="needs-review-translation">a</target>'],
          ['none', '<target>a</target>'],
        ]
          .map(([id, t]) => `<trans-unit id="${id}"><source>s</source>${t}</trans-unit>`)
          .concat(
            '<trans-unit id="rejected" approved="no"><source>s</source><target state="final">a</target></trans-unit>',
          )
          .join('\n'),
      ),
    );
    expect(Object.fromEntries(b.keys.map((k) => [k.key, k.translations.de!.reviewStatus]))).toEqual({
      signed: 'REVIEWED',
      final: 'REVIEWED',
      review: 'NOT_REVIEWED',
      none: undefined,
      rejected: 'NOT_REVIEWED',
    });
  });
});

describe('xliff: hostile and malformed input', () => {
  const error = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e,
    );

  it(
    'refuses an entity bomb quickly',
    async () => {
      const entities = [
        '<!ENTITY a "aaaaaaaaaa">',
        ...Array.from({ length: 9 }, (_, i) => `<!ENTITY a${i + 1} "${`&a${i === 0 ? '' : i};`.repeat(10)}">`),
      ];
      const bomb = `<?xml version="1.0"?>\n<!DOCTYPE xliff [\n${entities.join('\n')}\n]>\n${xliff12Doc('<trans-unit id="k"><source>&a9;</source></trans-unit>').replace(/^<\?xml[^>]*>\n/, '')}`;
      const start = cpuClock();
      const e = await error(parse(bomb));
      expect(e).toBeInstanceOf(FormatError);
      expect((e as Error).message).toMatch(/expands to more than/);
      expect(cpuClock() - start).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('refuses external and parameter entities', async () => {
    const xxe = `<!DOCTYPE xliff [<!ENTITY x SYSTEM "http://example.com/x">]>\n${xliff12Doc('<trans-unit id="k"><source>&x;</source></trans-unit>').replace(/^<\?xml[^>]*>\n/, '')}`;
    expect(await error(parse(xxe))).toMatchObject({
      name: 'FormatError',
      message: expect.stringMatching(/External entity "x" is not allowed/),
    });
    const param = '<!DOCTYPE xliff [<!ENTITY % p "x">]><xliff version="1.2"/>';
    expect(await error(parse(param))).toMatchObject({
      name: 'FormatError',
      message: expect.stringMatching(/Parameter entit/),
    });
  });

  it('reports malformed XML and missing XLIFF parts with their position', async () => {
    expect(
      await error(parse(xliff12Doc('<trans-unit id="k">\n<source>unclosed</target>\n</trans-unit>'))),
    ).toMatchObject({ name: 'FormatError', message: expect.stringMatching(/Malformed XML.*\(line 6, column \d+\)/) });
    expect(await error(parse('<?xml version="1.0"?>\n<resources/>'))).toMatchObject({
      message: 'Not an XLIFF file: the root element is <resources> (line 2, column 1)',
    });
    expect(await error(parse(xliff12Doc('<trans-unit><source>x</source></trans-unit>')))).toMatchObject({
      message: expect.stringMatching(/<trans-unit> has neither id nor resname \(line 5, column 1\)/),
    });
    expect(await error(parse(xliff12Doc('', 'target-language="de"')))).toMatchObject({
      message: expect.stringMatching(/<file> has no source-language \(line 3/),
    });
    expect(
      await error(
        parse(
          xliff12Doc('<trans-unit id="k"><source>x</source><target>y</target></trans-unit>', 'source-language="en"'),
        ),
      ),
    ).toMatchObject({
      message: expect.stringMatching(/no target language for the <target> of "k": give a languageKey/),
    });
    expect(
      (
        await parse(
          xliff12Doc('<trans-unit id="k"><source>x</source><target>y</target></trans-unit>', 'source-language="en"'),
          { languageKey: 'pl' },
        )
      ).keys[0]!.translations.pl,
    ).toEqual({ text: 'y' });
  });

  it('refuses deeply nested groups', async () => {
    const deep = xliff12Doc(
      `${'<group>'.repeat(100)}<trans-unit id="k"><source>x</source></trans-unit>${'</group>'.repeat(100)}`,
    );
    expect(await error(parse(deep))).toMatchObject({
      name: 'FormatError',
      message: expect.stringMatching(/nesting is deeper than 64/),
    });
  });
});

describe('xliff: cost', () => {
  it('exports and imports in time linear in the number of keys', async () => {
    for (const format of [xliff12Export, xliff20Export]) {
      expect(
        await costRatio((n) => serialize(format, bilingualBundle(n), [{ key: 'en' }, { key: 'de' }]), 500),
      ).toBeLessThan(32);
    }
    expect(
      await costRatio(
        async (n) => parse(await serialize(xliff12Export, bilingualBundle(n), [{ key: 'en' }, { key: 'de' }])),
        250,
      ),
    ).toBeLessThan(32);
  }, 60_000);
});

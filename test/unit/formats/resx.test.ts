import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FormatError, type Bundle, type ExportOption, type FileFormat } from '../../../src/formats/model.js';
import { resx, stringResources } from '../../../src/formats/resx.js';
import { hasXmllint, xmllintErrors } from './support/xmllint.js';
import { corpusPath } from '../../support/corpus.js';

const CORPUS = corpusPath('resx');

async function parse(
  xml: string | Buffer,
  languageKey = 'en',
  format: FileFormat = resx,
  namespace?: string,
): Promise<Bundle> {
  return format.parse(Buffer.isBuffer(xml) ? xml : Buffer.from(xml), { languageKey, namespace, options: new Set() });
}

async function serialize(
  bundle: Bundle,
  options: ExportOption[] = ['INCLUDE_DESCRIPTIONS'],
  format: FileFormat = resx,
  namespace?: string,
): Promise<string> {
  return (
    await format.serialize(bundle, { languages: bundle.languages, options: new Set(options), namespace })
  ).toString('utf8');
}

async function expectRoundTrip(bundle: Bundle, format: FileFormat = resx): Promise<string> {
  const out = await serialize(bundle, ['INCLUDE_DESCRIPTIONS'], format);
  expect(await parse(out, bundle.languages[0]!.key, format)).toEqual(bundle);
  if (hasXmllint) expect(xmllintErrors(Buffer.from(out))).toBe('');
  return out;
}

function texts(bundle: Bundle, lang = 'en'): Record<string, string | undefined> {
  return Object.fromEntries(bundle.keys.map((k) => [k.key, k.translations[lang]?.text]));
}

const root = (body: string): string => `<?xml version="1.0" encoding="utf-8"?>\n<root>\n${body}\n</root>\n`;

describe.skipIf(!existsSync(CORPUS))('.resx corpus files', () => {
  const file = (name: string): Buffer => readFileSync(`${CORPUS}/${name}`);

  it('command-line-api: BOM, schema header, trailing space, {Locked} comments', async () => {
    const b = await parse(file('command-line-api_StaticCompletions_Strings.resx'));
    expect(b.keys).toHaveLength(11);
    const t = texts(b);
    expect(t['CompletionsCommand.Description']).toBe(
      'Commands for generating and registering completions for supported shells',
    );
    expect(t['ShellDiscovery.ShellNotSupported']).toBe(
      "The shell application '{0}' is not supported. The following shells are supported by this application: {1} ",
    );
    expect(b.keys.some((k) => k.description?.includes('{Locked='))).toBe(true);
    await expectRoundTrip(b);
  });

  it('humanizer (ar): comments holding the English source become descriptions', async () => {
    const b = await parse(file('humanizer-v2.14.1_Resources.ar.resx'), 'ar');
    expect(b.keys).toHaveLength(82);
    expect(b.keys[0]).toEqual({
      key: 'DateHumanize_SingleSecondAgo',
      namespace: '',
      description: 'one second ago',
      translations: { ar: { text: 'منذ ثانية واحدة' } },
    });
    expect(b.keys.find((k) => k.key === 'DateHumanize_MultipleSecondsAgo')).toMatchObject({
      description: '{0} seconds ago',
      translations: { ar: { text: 'منذ {0} ثانية' } },
    });
    await expectRoundTrip(b);
  });

  it('sharex: skips file references and other non-string resources', async () => {
    const b = await parse(file('sharex_MediaLib_Resources.resx'));
    expect(b.keys).toHaveLength(15);
    const t = texts(b);
    expect(t.ThumbnailsSuccessfullyGenerated).toBe('Thumbnails successfully generated.');
    expect(t.AlignmentTop).toBe('Top');
    expect('document-copy' in t).toBe(false);
    // the <data> examples inside the schema's XML comment are not resources
    expect('Name1' in t).toBe(false);
    await expectRoundTrip(b);
  });
});

describe('.resx rules', () => {
  it('reads string resources and skips typed ones', async () => {
    const b = await parse(
      root(`
  <data name="plain"><value>Hello</value></data>
  <data name="preserved" xml:space="preserve"><value>  spaced  </value><comment>Greeting</comment></data>
  <data name="blank"><value>   </value></data>
  <data name="blank_kept" xml:space="preserve"><value> </value></data>
  <data name="typed_string" type="System.String, mscorlib"><value>typed</value></data>
  <data name="multiline" xml:space="preserve"><value>line 1
line 2 &amp; &lt;tag&gt;</value></data>
  <data name="no_value" />
  <data name="plain"><value>duplicate</value></data>
  <data name="color" type="System.Drawing.Color, System.Drawing"><value>Blue</value></data>
  <data name="icon" mimetype="application/x-microsoft.net.object.bytearray.base64"><value>AAAA</value></data>
  <metadata name="meta"><value>x</value></metadata>`),
    );
    expect(texts(b)).toEqual({
      plain: 'Hello',
      preserved: '  spaced  ',
      blank: '',
      blank_kept: ' ',
      typed_string: 'typed',
      multiline: 'line 1\nline 2 & <tag>',
      no_value: '',
    });
    expect(b.keys.find((k) => k.key === 'preserved')?.description).toBe('Greeting');
    await expectRoundTrip(b);
  });

  it('uses the import namespace', async () => {
    const b = await parse(root('<data name="a"><value>A</value></data>'), 'de', resx, 'Errors');
    expect(b.keys[0]).toEqual({ key: 'a', namespace: 'Errors', translations: { de: { text: 'A' } } });
  });

  it('writes the standard header, xml:space, comments only with INCLUDE_DESCRIPTIONS, and omits untranslated keys', async () => {
    const bundle: Bundle = {
      keys: [
        { key: 'Save', namespace: '', description: 'Button', translations: { de: { text: 'Speichern' } } },
        { key: 'Multi', namespace: '', translations: { de: { text: 'a\nb & <c>' } } },
        { key: 'OnlyEnglish', namespace: '', translations: { en: { text: 'x' } } },
        { key: 'Other', namespace: 'other', translations: { de: { text: 'y' } } },
      ],
      languages: [{ key: 'de' }],
    };
    const out = await serialize(bundle);
    expect(out.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<root>\n  <xsd:schema id="root"')).toBe(true);
    expect(out).toContain('<resheader name="resmimetype">\n    <value>text/microsoft-resx</value>\n  </resheader>');
    expect(out).toContain(
      '<resheader name="writer">\n    <value>System.Resources.ResXResourceWriter, System.Windows.Forms, Version=4.0.0.0',
    );
    expect(out).toContain(
      '  <data name="Save" xml:space="preserve">\n    <value>Speichern</value>\n    <comment>Button</comment>\n  </data>',
    );
    expect(out).toContain('<value>a\nb &amp; &lt;c&gt;</value>');
    expect(out).not.toContain('OnlyEnglish');
    expect(out).toContain('name="Other"');
    expect(await serialize(bundle, [])).not.toContain('<comment>');
    expect(await serialize(bundle, ['ESCAPE_NEW_LINES'])).toContain('<value>a\\nb &amp; &lt;c&gt;</value>');
    expect(await serialize(bundle, [], resx, 'other')).not.toContain('name="Save"');
    if (hasXmllint) expect(xmllintErrors(Buffer.from(out))).toBe('');
  });

  it('refuses broken and hostile files with FormatError', async () => {
    await expect(parse('<resources/>')).rejects.toThrow(/expected <root>/);
    await expect(parse(root('<data><value>x</value></data>'))).rejects.toThrow(
      /<data> without a name attribute \(line 3/,
    );
    await expect(parse(root('<data name="a"><value>x</value>\n</dat>'))).rejects.toThrow(/Malformed XML.*line 4/);
    await expect(
      parse(
        '<!DOCTYPE root [<!ENTITY x SYSTEM "file:///etc/passwd">]><root><data name="a"><value>&x;</value></data></root>',
      ),
    ).rejects.toThrow(/External entity/);
    await expect(
      parse(Buffer.from([0x3c, 0x72, 0x6f, 0x6f, 0x74, 0x3e, 0xff, 0x3c, 0x2f, 0x72, 0x6f, 0x6f, 0x74, 0x3e])),
    ).rejects.toBeInstanceOf(FormatError);
    await expect(resx.parse(Buffer.from(root('')), { options: new Set() })).rejects.toThrow(/languageKey is required/);
  });
});

describe('string-resources (.resw)', () => {
  it('is the .resx schema under its own identifier and extension', async () => {
    expect(stringResources.id).toBe('string-resources');
    expect(stringResources.extension).toBe('resw');
    expect(stringResources.multiLanguage).toBe(false);
    const resw = root(`
  <data name="Greeting.Text" xml:space="preserve"><value>Hallo</value><comment>TextBlock x:Uid="Greeting"</comment></data>
  <data name="Farewell" xml:space="preserve"><value>Tschüss</value></data>`);
    const b = await parse(resw, 'de-DE', stringResources);
    expect(b).toEqual({
      keys: [
        {
          key: 'Greeting.Text',
          namespace: '',
          description: 'TextBlock x:Uid="Greeting"',
          translations: { 'de-DE': { text: 'Hallo' } },
        },
        { key: 'Farewell', namespace: '', translations: { 'de-DE': { text: 'Tschüss' } } },
      ],
      languages: [{ key: 'de-DE' }],
    });
    await expectRoundTrip(b, stringResources);
  });
});

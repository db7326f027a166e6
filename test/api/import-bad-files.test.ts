// Files an import must refuse — malformed (with the position of the problem),
// too large, hostile (entity bombs, zip bombs, deep nesting, alias bombs,
// invalid encodings) — each with a 4xx envelope, never a 500, and each
// leaving the project exactly as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';
import { formatIds } from '../../src/formats/registry.js';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { importOk, importRequest, multipart, projectSnapshot } from '../support/transfer.js';

const MAX_UPLOAD_BYTES = 64 * 1024;

let service: TestService;
let apiKey: string;
let projectToken: string;
let before: unknown;

beforeAll(async () => {
  service = await startTestService({ env: { MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) } });
  const account = await service.account();
  ({ apiKey, projectToken } = await account.project('bad files'));
  await importOk(service, apiKey, JSON.stringify({ en: { hello: 'Hello', bye: 'Bye' }, de: { hello: 'Hallo' } }), {
    uploadFormat: 'multi-language-json',
  });
  before = await projectSnapshot(service, projectToken);
});
afterAll(() => service.close());

/** Imports a file that must be refused with `status`; returns the message. */
async function refused(content: string | Buffer, query: Record<string, string>, status = 400): Promise<string> {
  const res = await importRequest(service, apiKey, content, {
    importOptions: 'REPLACE_TRANSLATION_IF_FOUND',
    ...query,
  });
  expect(res.statusCode, res.body).toBe(status);
  const { msg } = envelope(res);
  expect(await projectSnapshot(service, projectToken)).toEqual(before);
  return msg;
}

const billionLaughs = (root: string) => `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
${root.replace('TEXT', '&lol9;')}`;

describe('malformed files are refused with the position of the problem', () => {
  const cases: [format: string, content: string, query?: Record<string, string>][] = [
    ['multi-language-json', '{\n  "hello": {"en": "Hi",}\n}'],
    ['single-language-json', '{\n  "a": "x"\n  "b": "y"\n}', { languageKey: 'en' }],
    ['yaml', 'a: b\nc: [unclosed\n', { languageKey: 'en' }],
    ['android', '<resources>\n  <string name="a">x</strin>\n</resources>', { languageKey: 'en' }],
    ['resx', '<root>\n<data name="a"><value>x</value>\n</root>', { languageKey: 'en' }],
    [
      'xliff-1.2',
      '<xliff version="1.2"><file source-language="en">\n<body><trans-unit id="a"><source>x</source></body></file></xliff>',
    ],
    ['qt-linguist', '<TS language="de">\n<context><message><source>a</message></context></TS>'],
    ['po-pot', 'msgid "a"\nmsgstr "b"\nmsgid "c\nmsgstr "d"\n', { languageKey: 'de' }],
    ['localizable-strings', '"a" = "b";\n"c" = ;\n', { languageKey: 'en' }],
    ['csv-translations', 'key,en\na,"unterminated\n', {}],
    ['php-array', "<?php\nreturn [\n  'a' => 'x',\n  'b' => ,\n];\n", { languageKey: 'en' }],
    ['javascript', 'export default {\n  a: "x",\n  b: "unterminated\n};\n', { languageKey: 'en' }],
  ];
  for (const [format, content, query] of cases) {
    it(format, async () => {
      const msg = await refused(content, { uploadFormat: format, ...query });
      expect(msg).toMatch(new RegExp(`^The file is not a valid ${format} file: `));
      expect(msg).toMatch(/line \d+/);
    });
  }
});

describe('files over MAX_UPLOAD_BYTES', () => {
  const big = JSON.stringify({ en: { big: 'x'.repeat(MAX_UPLOAD_BYTES) } });

  it('are refused with 413 through REST', async () => {
    const msg = await refused(big, { uploadFormat: 'multi-language-json' }, 413);
    expect(msg).toContain(`${MAX_UPLOAD_BYTES} bytes (MAX_UPLOAD_BYTES)`);
    // Far beyond the limit: refused from its Content-Length, before the body is read.
    expect(await refused('x'.repeat(4 * MAX_UPLOAD_BYTES), { uploadFormat: 'multi-language-json' }, 413)).toContain(
      'MAX_UPLOAD_BYTES',
    );
  });

  it('are refused with PAYLOAD_TOO_LARGE through GraphQL', async () => {
    const body = multipart([
      {
        name: 'operations',
        content: JSON.stringify({
          query:
            'mutation ($f: Upload!) { importFile(file: $f, uploadFormat: MULTI_LANGUAGE_JSON) { numberOfKeysFound } }',
          variables: { f: null },
        }),
      },
      { name: 'map', content: JSON.stringify({ 0: ['variables.f'] }) },
      { name: '0', fileName: 'big.json', content: big },
    ]);
    const res = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': apiKey, ...body.headers },
      payload: body.payload,
    });
    expect(res.json().errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    const huge = multipart([
      { name: 'operations', content: '{}' },
      { name: '0', fileName: 'huge.json', content: 'x'.repeat(4 * MAX_UPLOAD_BYTES) },
    ]);
    const refusedUnread = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': apiKey, ...huge.headers },
      payload: huge.payload,
    });
    expect(refusedUnread.statusCode).toBe(413);
    expect(envelope(refusedUnread).msg).toContain('MAX_UPLOAD_BYTES');
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });
});

describe('hostile files', () => {
  it('XML entity bombs', async () => {
    const roots: [string, string, Record<string, string>][] = [
      ['android', '<resources><string name="a">TEXT</string></resources>', { languageKey: 'en' }],
      ['resx', '<root><data name="a"><value>TEXT</value></data></root>', { languageKey: 'en' }],
      [
        'xliff-1.2',
        '<xliff version="1.2"><file source-language="en" target-language="de"><body><trans-unit id="a"><source>TEXT</source></trans-unit></body></file></xliff>',
        {},
      ],
      [
        'qt-linguist',
        '<TS language="de"><context><name>c</name><message><source>a</source><translation>TEXT</translation></message></context></TS>',
        {},
      ],
      [
        'localizable-strings-dict',
        '<plist version="1.0"><dict><key>a</key><string>TEXT</string></dict></plist>',
        { languageKey: 'en' },
      ],
    ];
    for (const [format, root, query] of roots) {
      const msg = await refused(billionLaughs(root), { uploadFormat: format, ...query });
      expect(msg, format).toMatch(/entit/i);
    }
  });

  it('XML external entities', async () => {
    const xxe =
      '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<resources><string name="a">&xxe;</string></resources>';
    await refused(xxe, { uploadFormat: 'android', languageKey: 'en' });
  });

  it('zip bombs in xlsx, and files that are no zip', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
    zip.file('xl/worksheets/sheet1.xml', ' '.repeat(8 * 1024 * 1024));
    const bomb = await zip.generateAsync({
      type: 'nodebuffer',
      compression: 'DEFLATE',
      compressionOptions: { level: 9 },
    });
    expect(bomb.length).toBeLessThan(MAX_UPLOAD_BYTES);
    const msg = await refused(bomb, { uploadFormat: 'excel' });
    expect(msg).toMatch(/compress|ratio/i);
    await refused('key,en\na,b\n', { uploadFormat: 'excel' });
  });

  it('deeply nested JSON, YAML, PHP and JavaScript', async () => {
    const depth = 5000;
    await refused(`${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`, { uploadFormat: 'multi-language-json' });
    await refused(`${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`, {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
    });
    await refused(`${'['.repeat(depth)}${']'.repeat(depth)}`, { uploadFormat: 'arb', languageKey: 'en' });
    await refused(`a: ${'['.repeat(depth)}${']'.repeat(depth)}\n`, { uploadFormat: 'yaml', languageKey: 'en' });
    await refused(Array.from({ length: 200 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' x\n', {
      uploadFormat: 'yaml',
      languageKey: 'en',
    });
    await refused(`<?php return ${"['a' => ".repeat(depth)}'x'${']'.repeat(depth)};`, {
      uploadFormat: 'php-array',
      languageKey: 'en',
    });
    await refused(`export default ${'{a: '.repeat(depth)}"x"${'}'.repeat(depth)};`, {
      uploadFormat: 'javascript',
      languageKey: 'en',
    });
    await refused(`<resources>${'<string-array name="a">'.repeat(2000)}</resources>`, {
      uploadFormat: 'android',
      languageKey: 'en',
    });
  });

  it('YAML alias bombs', async () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const next = String.fromCharCode(97 + i);
      lines.push(
        `${next}: &${next} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`,
      );
    }
    await refused(lines.join('\n') + '\n', { uploadFormat: 'yaml', languageKey: 'en' });
  });

  it('invalid encodings', async () => {
    const invalid = Buffer.concat([Buffer.from('{"a": "'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    const msg = await refused(invalid, { uploadFormat: 'single-language-json', languageKey: 'en' });
    expect(msg).toMatch(/UTF-8|encoding/i);
    await refused(Buffer.concat([Buffer.from('a: '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('\n')]), {
      uploadFormat: 'yaml',
      languageKey: 'en',
    });
    await refused(Buffer.concat([Buffer.from('key,en\na,'), Buffer.from([0xfe, 0xfe]), Buffer.from('\n')]), {
      uploadFormat: 'csv-translations',
    });
    await refused(
      Buffer.concat([
        Buffer.from('<resources><string name="a">'),
        Buffer.from([0x80]),
        Buffer.from('</string></resources>'),
      ]),
      { uploadFormat: 'android', languageKey: 'en' },
    );
  });

  it('texts that cannot be stored (NUL characters), and keys over the limits', async () => {
    expect(
      await refused(JSON.stringify({ a: 'x\u0000y' }), { uploadFormat: 'single-language-json', languageKey: 'en' }),
    ).toContain('NUL character');
    expect(
      await refused(JSON.stringify({ ['k'.repeat(501)]: 'x' }), {
        uploadFormat: 'single-language-json',
        languageKey: 'en',
      }),
    ).toContain('at most 500 characters');
    expect(
      await refused(JSON.stringify({ 'en-this-is-far-too-long-for-a-language': { a: 'x' } }), {
        uploadFormat: 'multi-language-json',
      }),
    ).toMatch(/language/);
  });

  it('empty files', async () => {
    expect(await refused('', { uploadFormat: 'multi-language-json' })).toBe('The file is empty');
  });
});

describe('garbage never answers 500', () => {
  it('for any registered format', async () => {
    const xlsx = Buffer.from(await new ExcelJS.Workbook().xlsx.writeBuffer());
    const garbage = [
      Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)),
      Buffer.from('\u00ff\u00fe<{["\'\\'),
      xlsx.subarray(0, 200),
      Buffer.from('<?xml version="1.0"?><a><b></a>'),
      Buffer.from('{"format": "project-backup-json", "version": 99, "keys": 3}'),
    ];
    const scratch = await (await service.account()).project('scratch');
    for (const format of formatIds()) {
      for (const [i, content] of garbage.entries()) {
        const res = await importRequest(service, scratch.apiKey, content, { uploadFormat: format, languageKey: 'en' });
        expect([200, 400], `${format} #${i}: ${res.body}`).toContain(res.statusCode);
        envelope(res);
      }
    }
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { javascript, moduleExports } from '../../../src/formats/javascript.js';
import { readJsModule } from '../../../src/formats/js-module-reader.js';
import { FormatError, type Bundle, type ExportOption, type FileFormat } from '../../../src/formats/model.js';
import { corpusPath } from '../../support/corpus.js';

const CORPUS = corpusPath('js');
const hasCorpus = existsSync(CORPUS);

const parse = (source: string | Buffer, format: FileFormat = javascript, language = 'en', namespace?: string) =>
  format.parse(typeof source === 'string' ? Buffer.from(source) : source, {
    languageKey: language,
    namespace,
    options: new Set(),
  });
const serialize = async (format: FileFormat, bundle: Bundle, language: string, options: ExportOption[] = []) =>
  (await format.serialize(bundle, { languages: [{ key: language }], options: new Set(options) })).toString('utf8');
const texts = (bundle: Bundle, language = 'en') =>
  Object.fromEntries(bundle.keys.map((k) => [k.key, k.translations[language]?.text]));
const text = (bundle: Bundle, key: string, language = 'en') =>
  bundle.keys.find((k) => k.key === key)?.translations[language]?.text;
const descriptions = (bundle: Bundle) =>
  Object.fromEntries(bundle.keys.filter((k) => k.description !== undefined).map((k) => [k.key, k.description]));

async function formatError(promise: Promise<unknown>): Promise<FormatError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FormatError);
  return error as FormatError;
}

describe.skipIf(!hasCorpus)('javascript: corpus files', () => {
  it('reads element-ui (export default, unquoted keys, nested objects, an array, trailing comments)', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'element-ui_de.js')), javascript, 'de');
    expect(b.keys).toHaveLength(89);
    expect(text(b, 'el.colorpicker.confirm', 'de')).toBe('OK');
    expect(text(b, 'el.datepicker.selectDate', 'de')).toBe('Datum wählen');
    expect(text(b, 'el.datepicker.weeks.sun', 'de')).toBe('So');
    expect(text(b, 'el.datepicker.year', 'de')).toBe('');
    expect(text(b, 'el.upload.continue', 'de')).toBe('Fortsetzen');
    expect(text(b, 'el.transfer.titles[0]', 'de')).toBe('Liste 1');
    expect(text(b, 'el.transfer.titles[1]', 'de')).toBe('Liste 2');
    expect(text(b, 'el.transfer.hasCheckedFormat', 'de')).toBe('{checked}/{total} ausgewählt');
    // `// to be translated` after a value is not a description of the next member.
    expect(descriptions(b)).toEqual({});
  });

  it('reads uppy (code, not a literal): strings assigned to a declared object, plural objects, pluralize skipped', async () => {
    const source = readFileSync(join(CORPUS, 'uppy-1.31.1_ru_RU.js'));
    const b = await parse(source, moduleExports, 'ru');
    expect(b.keys).toHaveLength(114);
    expect(text(b, 'strings.addMoreFiles', 'ru')).toBe('Добавить еще файлы');
    expect(text(b, 'strings.filesUploadedOfTotal.0', 'ru')).toBe('%{complete} из %{smart_count} файла загружено');
    expect(text(b, 'strings.filesUploadedOfTotal.2', 'ru')).toBe('%{complete} из %{smart_count} файлов загружено');
    expect(text(b, 'strings.openFolderNamed', 'ru')).toBe('Открыть папку %{name}');
    expect(descriptions(b)).toEqual({
      'strings.complete':
        '«Готово» вместо «загрузка завершена», потому что кроме загрузки бывает encoding — транскодирование файлов',
      'strings.connectedToInternet': '«Нет подключения к интернету» — «Подключено к интернету»',
    });
    expect(b.keys.some((k) => k.key.startsWith('pluralize'))).toBe(false);
    expect(readJsModule(source.toString('utf8')).skipped).toEqual([
      { path: 'ru_RU.pluralize', line: 144, column: 19, reason: 'a function' },
    ]);
    // Accepted by the `javascript` format too.
    expect((await parse(source, javascript, 'ru')).keys).toHaveLength(114);
  });

  it("reads validatorjs (module.exports, \\' escapes, nested objects, an empty object)", async () => {
    const b = await parse(readFileSync(join(CORPUS, 'validatorjs_fr.js')), moduleExports, 'fr');
    expect(b.keys).toHaveLength(28);
    expect(text(b, 'confirmed', 'fr')).toBe("Le champ :attribute n'est pas confirmé.");
    expect(text(b, 'min.numeric', 'fr')).toBe('Le champ :attribute doit être supérieur à :min.');
    expect(text(b, 'size.string', 'fr')).toBe('Le champ :attribute doit contenir :size caractères.');
    expect(b.keys.some((k) => k.key.startsWith('attributes'))).toBe(false);
  });

  it.each(readdirSync(hasCorpus ? CORPUS : '.').filter((f) => f.endsWith('.js')))(
    'round-trips %s through both formats, flat and nested',
    async (file) => {
      const original = await parse(readFileSync(join(CORPUS, file)), javascript, 'xx');
      for (const format of [javascript, moduleExports]) {
        for (const options of [
          ['INCLUDE_DESCRIPTIONS'],
          ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS'],
        ] as ExportOption[][]) {
          const again = await parse(await serialize(format, original, 'xx', options), format, 'xx');
          expect(texts(again, 'xx')).toEqual(texts(original, 'xx'));
          expect(descriptions(again)).toEqual(descriptions(original));
        }
      }
    },
  );
});

describe('javascript: reading literals', () => {
  it('understands the quoting, escapes, keys and punctuation of object literals', async () => {
    const b = await parse(String.raw`
      /* header comment */
      export default {
        plain: 'single',
        "double": "dou\"ble",
        back: ${'`'}multi
line${'`'},
        escapes: 'a\nb\t\x41\u0042\u{1F600}\\ \'q\' \0',
        cont: 'one \
two',
        'quoted key': 'q',
        42: 'number key',
        0x10: 'hex key',
        ['computed']: 'c',
        nested: { deep: { er: 'x', }, },
        list: ['a', "b", ],
        concat: 'long ' +
          'text ' + 3,
        count: 5,
        negative: -2,
        flag: false,
        none: null,
        default: 'keyword key',
      };`);
    expect(texts(b)).toEqual({
      plain: 'single',
      double: 'dou"ble',
      back: 'multi\nline',
      escapes: "a\nb\tAB\u{1F600}\\ 'q' \0",
      cont: 'one two',
      'quoted key': 'q',
      '42': 'number key',
      '16': 'hex key',
      computed: 'c',
      'nested.deep.er': 'x',
      'list[0]': 'a',
      'list[1]': 'b',
      concat: 'long text 3',
      count: '5',
      negative: '-2',
      flag: 'false',
      none: undefined,
      default: 'keyword key',
    });
  });

  it('follows declared names: const x = {…}; x.a = …; export default x, shorthand, spread, Object.freeze, TypeScript types', async () => {
    const b = await parse(`
      const common: Record<string, string> = { ok: 'OK', cancel: 'Cancel' };
      const title = 'Title';
      const messages = { ...common, title, nested: common.ok };
      messages.extra = { more: 'More' };
      messages['quoted'] = "Q";
      export default Object.freeze(messages) as const;
    `);
    expect(texts(b)).toEqual({
      ok: 'OK',
      cancel: 'Cancel',
      title: 'Title',
      nested: 'OK',
      'extra.more': 'More',
      quoted: 'Q',
    });
  });

  it('reads export { name as default }', async () => {
    const b = await parse(`const messages = { hello: 'Hello' };\nexport { messages as default };\n`);
    expect(texts(b)).toEqual({ hello: 'Hello' });
  });

  it('reads exports.x = … and module.exports.x = …', async () => {
    const b = await parse(`exports.a = 'A';\nmodule.exports.b = { c: 'C' };\n`, moduleExports);
    expect(texts(b)).toEqual({ a: 'A', 'b.c': 'C' });
  });

  it('prefers its own wrapper when a file has both', async () => {
    const source = `module.exports = { cjs: 'x' };\nexport default { esm: 'y' };\n`;
    expect(texts(await parse(source, javascript))).toEqual({ esm: 'y' });
    expect(texts(await parse(source, moduleExports))).toEqual({ cjs: 'x' });
  });

  it('takes the comments right above a member as its description', async () => {
    const b = await parse(`export default {
      // Section header, followed by a blank line

      // Shown on the button
      // that saves
      save: 'Save', // not a description
      cancel: 'Cancel',
      /**
       * Title of the page
       */
      title: 'Title',
      list: [
        // first item
        'one',
      ],
    };`);
    expect(descriptions(b)).toEqual({
      save: 'Shown on the button\nthat saves',
      title: 'Title of the page',
      'list[0]': 'first item',
    });
  });

  it('skips functions, calls, templates with ${} and other code, reporting each, and imports the rest', async () => {
    const source = `
      const helper = (n) => n;
      export default {
        text: 'kept',
        fn: function (n) { return n > 1 ? 'many' : 'one'; },
        arrow: (n) => \`\${n} items\`,
        shortArrow: n => n + 1,
        method(n) { return { nested: [n] }; },
        get getter() { return 'x'; },
        call: translate('key'),
        template: \`Hello \${user.name}, \${\`nested \${deeper}\`}\`,
        expr: 'a' + suffix,
        unknownName: somewhere,
        undef: undefined,
        [dynamic]: 'computed from code',
        after: 'also kept',
      };`;
    const b = await parse(source);
    expect(texts(b)).toEqual({ text: 'kept', after: 'also kept' });
    const skipped = readJsModule(source).skipped;
    expect(skipped.map((s) => [s.path, s.reason])).toEqual([
      ['helper', 'a function'],
      ['fn', 'a function'],
      ['arrow', 'a function'],
      ['shortArrow', 'a function'],
      ['method', 'a method'],
      ['getter', 'a method'],
      ['call', 'a function call'],
      ['template', 'a template literal with ${…}'],
      ['expr', 'an expression that is not a literal'],
      ['unknownName', 'a name that is not declared above (somewhere)'],
      ['undef', 'undefined'],
      ['[…]', 'a computed property name'],
    ]);
    expect(skipped[1]).toMatchObject({ line: 5, column: 13 });
  });

  it('steps over statements it does not understand', async () => {
    const b = await parse(
      `
      import something from './x.js';
      function helper() { const inner = { a: 'not exported' }; module.exports = inner; }
      if (typeof window !== 'undefined') { window.locale = { x: 'y' }; }
      const re = /['"\`{]/g;
      const s = a / b / c;
      module.exports = { ok: 'yes' };
    `,
      moduleExports,
    );
    expect(texts(b)).toEqual({ ok: 'yes' });
  });
});

describe('javascript: refused input', () => {
  it('refuses a module without export, or whose export is not an object literal', async () => {
    expect((await formatError(parse('const x = { a: "b" };'))).message).toMatch(/No `export default/);
    const call = await formatError(parse('\nexport default defineMessages({ a: "b" });'));
    expect(call.message).toMatch(/default export must be an object literal of translations, found a function call/);
    expect(call.position).toMatchObject({ line: 2, column: 16 });
    expect((await formatError(parse('module.exports = `hi ${name}`;', moduleExports))).message).toMatch(
      /found a template literal with \$\{…\}/,
    );
    expect((await formatError(parse('export default "just text";'))).message).toMatch(/found a single text/);
    expect((await formatError(parse('export default ["a"];'))).message).toMatch(/found an array/);
  });

  // Syntax errors are @babel/parser's own messages, with their position.
  it.each([
    ["export default { a: 'x' b: 'y' };", /JavaScript syntax error: Unexpected token, expected ",".*line 1, column 25/],
    ["export default { a: { b: 'x' } c: 'y' };", /Unexpected token, expected ",".*column 32/],
    ["export default { a: 'x', ; };", /Unexpected token.*column 26/],
    ["export default { a: ['x' 'y'] };", /Unexpected token, expected ","/],
    ["export default { a: 'x\n' };", /Unterminated string constant.*line 1/],
    ['export default { a: "x };', /Unterminated string constant/],
    ['export default { a: `x };', /Unterminated template/],
    ["export default { a: 'x' ", /Unexpected token/],
    ["export default { a: 'x', ", /Unexpected token/],
    ["export default { a: '\\1' };", /only valid numeric escape in strict mode/],
    ["export default { a: '\\u12' };", /Bad character escape sequence/],
    ['export default { a: "x" }; /* open', /Unterminated comment/],
    ["export default { a 'x' };", /Unexpected token, expected ","/],
    ['const messages = {};\nexport { other, messages as default };', /Export 'other' is not defined.*line 2/],
  ])('refuses malformed code with a position: %s', async (source, message) => {
    const error = await formatError(parse(source));
    expect(error.message).toMatch(message);
    expect(error.position?.line).toBeGreaterThan(0);
  });
});

describe('javascript: hostile input', () => {
  it('refuses literals nested deeper than 64 levels', async () => {
    expect((await formatError(parse(`export default { a: ${'['.repeat(65)}${']'.repeat(65)} };`))).message).toMatch(
      /nested deeper than 64 levels/,
    );
    expect(texts(await parse(`export default { a: ${'['.repeat(20)}'x'${']'.repeat(20)} };`))).toEqual({
      [`a${'[0]'.repeat(20)}`]: 'x',
    });
  });

  it('refuses 100,000 levels of nesting, in literals or in code, without overflowing the stack', async () => {
    const cases = [
      `export default { a: ${'['.repeat(100_000)}${']'.repeat(100_000)} };`,
      `export default ${'{ a: '.repeat(100_000)}'x'${' }'.repeat(100_000)};`,
      `function f() { return ${'('.repeat(100_000)}1${')'.repeat(100_000)}; }\nexport default { kept: 'yes' };`,
      `const t = ${'`${'.repeat(10_000)}x${'}`'.repeat(10_000)};\nexport default { kept: 'yes' };`,
      `export default ${'Object.freeze('.repeat(100_000)}{ a: 'x' }${')'.repeat(100_000)};`,
    ];
    for (const source of cases)
      expect((await formatError(parse(source))).message).toMatch(/nests code too deeply|nested deeper than 64 levels/);
  });

  it('steps over code nested moderately deep outside the exported literals', async () => {
    const code = `function f() { return ${'('.repeat(100)}1${')'.repeat(100)}; }\n`;
    const b = await parse(`${code}export default { kept: 'yes', skipped: ${'['.repeat(10)}f()${']'.repeat(10)} };`);
    expect(texts(b)).toEqual({ kept: 'yes' });
  });

  it('keeps __proto__ and constructor as ordinary keys without polluting prototypes', async () => {
    const b = await parse(
      `export default { __proto__: { polluted: 'yes' }, ['__proto__']: 'x', constructor: { prototype: 'p' } };`,
    );
    expect(b.keys.map((k) => k.key).sort()).toEqual(['__proto__', 'constructor.prototype']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const nested = await serialize(javascript, b, 'en', ['WRITE_NESTED']);
    expect(texts(await parse(nested))).toEqual(texts(b));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a few lines that reference one object so often they would expand into billions of keys', async () => {
    const lines = ["const a0 = { t: 'x' };"];
    for (let i = 1; i <= 40; i++) lines.push(`const a${i} = { l: a${i - 1}, r: a${i - 1} };`);
    lines.push('export default a40;');
    expect((await formatError(parse(lines.join('\n')))).message).toMatch(/too many values/);
  });

  it('refuses 100 nested Object.freeze calls and spreads repeated into quadratic work', async () => {
    const freezes = `export default ${'Object.freeze('.repeat(100)}{ a: 'x' }${')'.repeat(100)};`;
    expect((await formatError(parse(freezes))).message).toMatch(/nested deeper than 64 levels/);
    const big = Array.from({ length: 5000 }, (_, i) => `k${i}: 'v'`).join(', ');
    const spreads = `const a = { ${big} };\nexport default { ${'...a, '.repeat(20_000)} };`;
    expect((await formatError(parse(spreads))).message).toMatch(/copies objects with \.\.\. too often/);
  });

  it('refuses a circular reference', async () => {
    await formatError(parse(`const a = { t: 'x' };\na.self = a;\nexport default a;`));
  });

  it.skipIf(!hasCorpus)('answers damaged files with either keys or a FormatError, never another error', async () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      '(',
      ')',
      "'",
      '"',
      '`',
      '${',
      '\\',
      '/',
      '/*',
      '//',
      ',',
      ':',
      '.',
      '...',
      '\n',
      '=',
      'function',
      '=>',
      '0x',
      '\\u{',
    ];
    const sources = readdirSync(CORPUS).map((f) => readFileSync(join(CORPUS, f), 'utf8'));
    for (let i = 0; i < 300; i++) {
      let source = sources[i % sources.length]!;
      for (let m = 0; m <= rand(3); m++) {
        const at = rand(source.length);
        source = rand(2)
          ? source.slice(0, at) + pieces[rand(pieces.length)] + source.slice(at)
          : source.slice(0, at) + source.slice(at + 1 + rand(5));
      }
      const outcome = await parse(source).then(
        () => 'parsed',
        (e: unknown) => (e instanceof FormatError ? 'refused' : e),
      );
      expect(['parsed', 'refused']).toContain(outcome);
    }
  });

  it('never runs the code', async () => {
    const marker = join(tmpdir(), `js-format-never-run-${process.pid}`);
    await parse(
      `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nmodule.exports = { a: 'b' };`,
      moduleExports,
    );
    expect(existsSync(marker)).toBe(false);
  });
});

describe('javascript: export', () => {
  const bundle: Bundle = {
    languages: [{ key: 'en' }],
    keys: [
      { key: 'a', namespace: '', description: 'Leaf\nwith two lines', translations: { en: { text: 'leaf' } } },
      { key: 'a.b', namespace: '', translations: { en: { text: 'child' } } },
      { key: 'files', namespace: '', translations: { en: { text: '{count, plural, one {# file} other {# files}}' } } },
      { key: 'list[0]', namespace: '', translations: { en: { text: 'first' } } },
      { key: 'list[1]', namespace: '', translations: { en: { text: 'second' } } },
      {
        key: 'odd',
        namespace: '',
        description: 'ends here\u2028*/ injected();',
        translations: { en: { text: 'quotes \' " \\ and \u2028 separators\n' } },
      },
      { key: 'missing', namespace: '', translations: {} },
    ],
  };

  it('writes the javascript wrapper with JSON-compatible literals, "" for a missing translation', async () => {
    const out = await serialize(javascript, bundle, 'en');
    expect(out.startsWith('export default {\n  "a": "leaf",\n  "a.b": "child",\n')).toBe(true);
    expect(out.endsWith('  "missing": ""\n};\n')).toBe(true);
    expect(out).toContain('\\u2028');
    expect(JSON.parse(out.slice('export default '.length, -2))).toMatchObject({ missing: '', 'list[0]': 'first' });
  });

  it('writes the module.exports wrapper, nested with WRITE_NESTED and descriptions as // comments', async () => {
    const out = await serialize(moduleExports, bundle, 'en', ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS']);
    expect(out).toBe(
      'module.exports = {\n' +
        '  // Leaf\n  // with two lines\n  "a": "leaf",\n' +
        '  "a.b": "child",\n' +
        '  "files": "{count, plural, one {# file} other {# files}}",\n' +
        '  "list": [\n    "first",\n    "second"\n  ],\n' +
        '  "missing": "",\n' +
        '  // ends here\n  // */ injected();\n' +
        '  "odd": "quotes \' \\" \\\\ and \\u2028 separators\\n"\n' +
        '};\n',
    );
  });

  it('round-trips keys, plurals and descriptions', async () => {
    for (const format of [javascript, moduleExports]) {
      for (const options of [['INCLUDE_DESCRIPTIONS'], ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS']] as ExportOption[][]) {
        const again = await parse(await serialize(format, bundle, 'en', options), format);
        // A nested module lists its keys in path order.
        expect(again.keys.map((k) => k.key).sort()).toEqual(bundle.keys.map((k) => k.key).sort());
        expect(texts(again)).toEqual({ ...texts(bundle), missing: '' });
        // Line separators in a description come back as \n.
        expect(descriptions(again)).toEqual({ a: 'Leaf\nwith two lines', odd: 'ends here\n*/ injected();' });
      }
    }
  });

  const work = mkdtempSync(join(tmpdir(), 'js-format-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('writes modules that Node itself loads to the same object', async () => {
    for (const [format, file] of [
      [javascript, 'out.mjs'],
      [moduleExports, 'out.cjs'],
    ] as const) {
      const path = join(work, file);
      writeFileSync(path, await serialize(format, bundle, 'en', ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS']));
      const loader = file.endsWith('.mjs')
        ? `import(${JSON.stringify(path)}).then((m) => m.default)`
        : `Promise.resolve(require(${JSON.stringify(path)}))`;
      const run = spawnSync(
        process.execPath,
        ['-e', `${loader}.then((v) => process.stdout.write(JSON.stringify(v)))`],
        { encoding: 'utf8' },
      );
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({
        a: 'leaf',
        'a.b': 'child',
        files: '{count, plural, one {# file} other {# files}}',
        list: ['first', 'second'],
        odd: 'quotes \' " \\ and \u2028 separators\n',
        missing: '',
      });
    }
  });
});

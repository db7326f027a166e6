import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatError, type Bundle, type ExportOption } from '../../../src/formats/model.js';
import { phpArray } from '../../../src/formats/php-array.js';
import { toIcuPlural } from '../../../src/formats/plural.js';
import { costRatio, cpuClock, PATHOLOGICAL_CPU_MS, HOSTILE_TEST_TIMEOUT } from './support/linear-cost.js';
import { corpusPath } from '../../support/corpus.js';
import { generatedBundle } from './support/bundles.js';

/** n keys under shared prefixes, with plurals and descriptions. */

const CORPUS = corpusPath('php');
const hasPhp = (() => {
  try {
    execFileSync('php', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const parse = (text: string | Buffer, languageKey = 'en', namespace?: string) =>
  phpArray.parse(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), {
    languageKey,
    namespace,
    options: new Set(),
  });
const serialize = async (bundle: Bundle, language = 'en', options: ExportOption[] = []) =>
  (await phpArray.serialize(bundle, { languages: [{ key: language }], options: new Set(options) })).toString('utf8');
const pairs = (b: Bundle, lang = 'en') => b.keys.map((k) => [k.key, k.translations[lang]?.text]);
const text = (b: Bundle, key: string, lang = 'en') => b.keys.find((k) => k.key === key)?.translations[lang]?.text;

async function expectError(src: string, message: string | RegExp, line: number, column?: number) {
  const err = await parse(src).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(FormatError);
  expect((err as FormatError).message).toMatch(message);
  expect((err as FormatError).position?.line).toBe(line);
  if (column !== undefined) expect((err as FormatError).position?.column).toBe(column);
}

describe.skipIf(!existsSync(CORPUS))('php-array: corpus files', () => {
  it('bookstack de validation: doc comment, aligned =>, nested arrays', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'bookstack_de_validation.php')), 'de');
    expect(b.keys.length).toBe(81);
    expect(text(b, 'accepted', 'de')).toBe(':attribute muss akzeptiert werden.');
    expect(text(b, 'between.file', 'de')).toBe(':attribute muss zwischen :min und :max Kilobytes groß sein.');
    // The file's doc comment is before `return`, and `//` section comments are not descriptions.
    expect(b.keys.every((k) => k.description === undefined)).toBe(true);
  });

  it('bookstack ru entities: escaped quotes, pipe plurals kept verbatim, # inside strings', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'bookstack_ru_entities.php')), 'ru');
    expect(b.keys.length).toBe(400);
    expect(text(b, 'books_delete_explain', 'ru')).toBe(
      "Это удалит книги с именем ':bookName'. Все разделы и страницы будут удалены.",
    );
    expect(text(b, 'x_shelves', 'ru')).toBe(':count полка|:count полки|:count полок');
    expect(text(b, 'meta_revision', 'ru')).toBe('Версия #:revisionCount');
  });

  it('filament import: five levels of nesting', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'filament_actions_en_import.php')));
    expect(text(b, 'modal.form.file.rules.duplicate_columns')).toBe(
      '{0} The file must not contain more than one empty column header.|{1,*} The file must not contain duplicate column headers: :columns.',
    );
    expect(text(b, 'failure_csv.file_name')).toBe('import-:import_id-:csv_name-failed-rows');
  });

  it('every corpus file round-trips flat and nested', async () => {
    for (const file of ['bookstack_de_validation.php', 'bookstack_ru_entities.php', 'filament_actions_en_import.php']) {
      const b = await parse(readFileSync(join(CORPUS, file)));
      for (const options of [[], ['WRITE_NESTED']] as ExportOption[][]) {
        // A nested file lists its keys in path order.
        expect(sortedPairs(await parse(await serialize(b, 'en', options)))).toEqual(sortedPairs(b));
      }
    }
  });
});

/** What PHP's own `require` gives for a file, flattened to sorted [dotted key, text] pairs. */
function phpPairs(source: string): string[][] {
  const dir = mkdtempSync(join(tmpdir(), 'php-'));
  const file = join(dir, 'in.php');
  writeFileSync(file, source);
  const json = execFileSync('php', ['-r', `echo json_encode(require $argv[1], JSON_FORCE_OBJECT);`, file]).toString();
  const out: string[][] = [];
  const walk = (v: unknown, path: string | null) => {
    if (v !== null && typeof v === 'object')
      for (const [k, c] of Object.entries(v)) walk(c, path === null ? k : `${path}.${k}`);
    else out.push([path!, String(v)]);
  };
  walk(JSON.parse(json), null);
  return out.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}
const sortedPairs = (b: Bundle) => (pairs(b) as string[][]).sort((a, c) => (a[0]! < c[0]! ? -1 : 1));

const SYNTAX_SAMPLE = `<?php
declare(strict_types=1);
# hash comment
return array(
    'single' => 'it\\'s a \\\\ backslash, \\n stays, "double" fine', // trailing comment
    "double" => "tab\\t nl\\n dollar\\$ quote\\" oct\\101 hex\\x41 uni\\u{1F600} unknown\\q",
    'nested' => [
        'a' => 'A',
        /* block
           comment */
        'b' => ['c' => 'C',],
    ],
    'list' => ['zero', 'one', 5 => 'five', 'six'],
    7 => 'seven',
    'num' => 42,
    'neg' => -1.5,
    'concat' => 'Hello, ' . "world" . '!',
);
?>
`;

describe('php-array: syntax', () => {
  it('reads both array syntaxes, quotes, escapes, comments, trailing commas, integer keys, concatenation', async () => {
    const b = await parse(SYNTAX_SAMPLE);
    expect(pairs(b)).toEqual([
      ['single', 'it\'s a \\ backslash, \\n stays, "double" fine'],
      ['double', 'tab\t nl\n dollar$ quote" octA hexA uni😀 unknown\\q'],
      ['nested.a', 'A'],
      ['nested.b.c', 'C'],
      ['list.0', 'zero'],
      ['list.1', 'one'],
      ['list.5', 'five'],
      ['list.6', 'six'],
      ['7', 'seven'],
      ['num', '42'],
      ['neg', '-1.5'],
      ['concat', 'Hello, world!'],
    ]);
    if (hasPhp) expect(phpPairs(SYNTAX_SAMPLE)).toEqual(sortedPairs(b));
  });

  it.skipIf(!hasPhp || !existsSync(CORPUS))('agrees with PHP on every corpus file', async () => {
    for (const file of ['bookstack_de_validation.php', 'bookstack_ru_entities.php', 'filament_actions_en_import.php']) {
      const source = readFileSync(join(CORPUS, file), 'utf8');
      expect(phpPairs(source)).toEqual(sortedPairs(await parse(source)));
    }
  });

  it('doc comments directly before an entry are descriptions; plain comments and detached doc comments are not', async () => {
    const b = await parse(`<?php
/** File doc */
return [
    // Section
    'a' => 'A',
    /** Describes b */
    'b' => 'B',
    /**
     * Two lines,
     * with *\\/ escaped end
     */
    'c' => 'C',
    /** Detached by a blank line */

    'd' => 'D',
    /** Parent doc is ignored */
    'e' => ['f' => 'F'],
];`);
    expect(b.keys.map((k) => [k.key, k.description])).toEqual([
      ['a', undefined],
      ['b', 'Describes b'],
      ['c', 'Two lines,\nwith */ escaped end'],
      ['d', undefined],
      ['e.f', undefined],
    ]);
  });

  it('a duplicate key keeps the last value at the first position, as PHP does', async () => {
    expect(pairs(await parse("<?php return ['a' => '1', 'b' => '2', 'a' => '3'];"))).toEqual([
      ['a', '3'],
      ['b', '2'],
    ]);
  });

  it('uses the import namespace', async () => {
    expect((await parse("<?php return ['a' => 'x'];", 'en', 'admin')).keys[0]!.namespace).toBe('admin');
  });

  it('refuses code with the line and column', async () => {
    await expectError("<?php\nreturn [\n  'a' => __('x'),\n];", /Function calls/, 3, 10);
    await expectError("<?php\nreturn [\n  'a' => SOME_CONSTANT,\n];", /Only string and number literals/, 3, 10);
    await expectError('<?php\nreturn [\n  \'a\' => "hi $name",\n];', /Variables/, 3, 14);
    await expectError("<?php\nreturn [\n  'a' => true,\n];", /literals/, 3, 10);
    await expectError("<?php\n$x = ['a' => 'b'];\n", /Unexpected character|Expected "return/, 2, 1);
    await expectError("<?php\nreturn [\n  'a' => 'b'\n  'c' => 'd',\n];", /Expected "," or "]"/, 4, 3);
    await expectError("<?php\nreturn [\n  'a' => 'unterminated,\n];", /Unterminated string/, 3, 10);
    await expectError("<?php\nreturn ['a' => 'b'];\necho 'x';", /after the returned array/, 3, 1);
    await expectError("<?php\nreturn ['a' => <<<EOT\nx\nEOT];", /Heredoc/, 2, 16);
    await expectError("<?php\nreturn ['a' => ['b' => 'c'], 'a.b' => 'd'];", /defined twice/, 2, 30);
    await expectError('no php tag', /must start with <\?php/, 1, 1);
    await expectError("<?php\nreturn ['a' => 'b']; /* open", /Unterminated comment/, 2, 22);
    await expectError("<?php\nreturn ['a' => \"open];", /Unterminated string/, 2, 16);
  });

  it(
    'refuses nesting deeper than 64 levels quickly, without a stack overflow',
    async () => {
      const deep = `<?php return ${'['.repeat(100_000)}${']'.repeat(100_000)};`;
      const t = cpuClock();
      await expect(parse(deep)).rejects.toThrow(/nested deeper/);
      await expect(parse(`<?php return ${'array('.repeat(100_000)}${')'.repeat(100_000)};`)).rejects.toThrow(
        /nested deeper/,
      );
      // 64 levels below the returned array are fine.
      expect(pairs(await parse(`<?php return ${'['.repeat(64)}'x'${']'.repeat(64)};`))).toEqual([
        [Array(64).fill('0').join('.'), 'x'],
      ]);
      await expect(parse(`<?php return ${'['.repeat(65)}'x'${']'.repeat(65)};`)).rejects.toThrow(
        /nested deeper than 64/,
      );
      expect(cpuClock() - t).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('refuses invalid UTF-8', async () => {
    await expect(
      parse(Buffer.concat([Buffer.from("<?php return ['a' => '"), Buffer.from([0xff]), Buffer.from("'];")])),
    ).rejects.toThrow(/not valid UTF-8/);
  });
});

describe('php-array: export', () => {
  const bundle: Bundle = {
    languages: [{ key: 'en' }],
    keys: [
      { key: 'a', namespace: '', description: 'Leaf and parent', translations: { en: { text: 'A' } } },
      { key: 'a.b', namespace: '', translations: { en: { text: 'A.B' } } },
      { key: 'a.c.d', namespace: '', translations: { en: { text: "it's \\ here" } } },
      {
        key: 'x.y',
        namespace: '',
        description: 'multi\nline with */ inside',
        translations: { en: { text: 'line 1\nline 2' } },
      },
      { key: 'x.z', namespace: '', translations: { en: { text: toIcuPlural({ one: '# item', other: '# items' }) } } },
      { key: 'missing', namespace: '', translations: {} },
      { key: 'slashes', namespace: '', translations: { en: { text: "\\\\ \\' end\\" } } },
    ],
  };

  it('writes flat keys by default', async () => {
    const out = await serialize(bundle);
    expect(out).toBe(`<?php

return [
    'a' => 'A',
    'a.b' => 'A.B',
    'a.c.d' => 'it\\'s \\ here',
    'x.y' => 'line 1
line 2',
    'x.z' => '{count, plural, one {# item} other {# items}}',
    'missing' => '',
    'slashes' => '\\\\\\ \\\\\\' end\\\\',
];
`);
  });

  it('writes nested arrays, keeping a leaf that is also a parent and its children flat at its level', async () => {
    const out = await serialize(bundle, 'en', ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS', 'ESCAPE_NEW_LINES']);
    expect(out).toBe(`<?php

return [
    /** Leaf and parent */
    'a' => 'A',
    'a.b' => 'A.B',
    'a.c.d' => 'it\\'s \\ here',
    'missing' => '',
    'slashes' => '\\\\\\ \\\\\\' end\\\\',
    'x' => [
        /**
         * multi
         * line with *\\/ inside
         */
        'y' => 'line 1\\nline 2',
        'z' => '{count, plural, one {# item} other {# items}}',
    ],
];
`);
  });

  it('round-trips keys, descriptions and texts, flat and nested', async () => {
    const expected = bundle.keys.map((k) => ({
      key: k.key,
      description: k.description,
      text: k.translations.en?.text ?? '',
    }));
    for (const options of [['INCLUDE_DESCRIPTIONS'], ['INCLUDE_DESCRIPTIONS', 'WRITE_NESTED']] as ExportOption[][]) {
      const back = await parse(await serialize(bundle, 'en', options));
      const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : 1);
      expect(
        back.keys.map((k) => ({ key: k.key, description: k.description, text: k.translations.en?.text })).sort(byKey),
      ).toEqual([...expected].sort(byKey));
    }
  });

  it('export and import cost grow linearly with the number of keys', async () => {
    expect(
      await costRatio((n) => serialize(generatedBundle(n), 'en', ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS'])),
    ).toBeLessThan(32);
    expect(
      await costRatio(async (n) => parse(await serialize(generatedBundle(n), 'en', ['WRITE_NESTED'])), 500),
    ).toBeLessThan(32);
  }, 120_000);

  it('keeps dotted keys whose prefix is a key deep in the tree', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: ['p.q', 'p.q.r.s', 'p.q.r.t', 'p.u', '.lead', 'trail.', 'd..d'].map((key) => ({
        key,
        namespace: '',
        translations: { en: { text: key } },
      })),
    };
    const out = await serialize(b, 'en', ['WRITE_NESTED']);
    expect(sortedPairs(await parse(out))).toEqual(sortedPairs(b));
    expect(out).toContain("'p' => [\n        'q' => 'p.q',\n        'q.r.s' => 'p.q.r.s',");
  });

  it('keeps JSON-style `t[0]` keys as literal names, and writes a key name once across namespaces', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: [
        { key: 't[0]', namespace: '', translations: { en: { text: 'zero' } } },
        { key: 't[1].y', namespace: '', translations: { en: { text: 'one-y' } } },
        { key: 'dup', namespace: 'a', translations: { en: { text: 'first' } } },
        { key: 'dup', namespace: 'b', translations: { en: { text: 'second' } } },
      ],
    };
    for (const options of [[], ['WRITE_NESTED']] as ExportOption[][]) {
      const out = await serialize(b, 'en', options);
      expect(sortedPairs(await parse(out))).toEqual([
        ['dup', 'first'],
        ['t[0]', 'zero'],
        ['t[1].y', 'one-y'],
      ]);
    }
    expect(await serialize(b, 'en', ['WRITE_NESTED'])).toContain(
      "    't[0]' => 'zero',\n    't[1]' => [\n        'y' => 'one-y',\n    ],\n",
    );
  });

  it.skipIf(!hasPhp)('PHP itself reads exported files (flat and nested) as the same keys and texts', async () => {
    for (const options of [
      [],
      ['WRITE_NESTED', 'INCLUDE_DESCRIPTIONS'],
      ['WRITE_NESTED', 'ESCAPE_NEW_LINES'],
    ] as ExportOption[][]) {
      const out = await serialize(bundle, 'en', options);
      expect(phpPairs(out)).toEqual(sortedPairs(await parse(out)));
    }
  });
});

// The fuzzer in CI (scripts/fuzz.ts runs the full one): a fixed seed and a
// small count over every registered format, which must find nothing; the
// inputs it once found, kept as regressions; and the runner's own handling of
// hangs, heap exhaustion, crashes and bad judgements, so a broken runner
// cannot pass by finding nothing.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, type FuzzInput } from '../../scripts/fuzz-check.js';
import { judgeInputs, runFuzz } from '../../scripts/fuzz-runner.js';
import { defineFormat } from '../../src/formats/define.js';
import { FormatError, type Bundle } from '../../src/formats/model.js';
import { formatIds, type RegisteredFormat } from '../../src/formats/registry.js';

const CI_CASES = 1400;
const CI_SEED = 20261124;

describe('fuzzing every parser (fixed seed, small count)', () => {
  it(
    `${CI_CASES} mutated corpus files and exports: no hang, crash, untyped exception or changing round trip`,
    { timeout: 120_000 },
    async () => {
      const report = await runFuzz({ count: CI_CASES, seed: CI_SEED, workers: 2 });
      expect(report.findings.map((f) => `${f.verdict} in ${f.formatId}, case ${f.caseNumber}: ${f.detail}`)).toEqual(
        [],
      );
      expect(report.cases).toBe(CI_CASES);
      // Every format got its share, and both sides of each parser were reached.
      expect(Object.keys(report.perFormat).sort()).toEqual([...formatIds()].sort());
      for (const [id, figures] of Object.entries(report.perFormat)) {
        expect(figures.cases, id).toBeGreaterThanOrEqual(Math.floor(CI_CASES / formatIds().length));
        expect(figures.rejected, `${id} rejected nothing`).toBeGreaterThan(0);
      }
      expect(report.verdicts.accepted).toBeGreaterThan(CI_CASES / 10);
    },
  );
});

const input = (formatId: string, text: string | Buffer, languageKey?: string): FuzzInput => ({
  formatId,
  bytes: Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'),
  languageKey,
  options: [],
});
const androidFile = (value: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n  <string name="a">${value}</string>\n</resources>\n`;

describe('inputs the fuzzer found (regressions)', () => {
  it('XML: a raw control character or U+FFFE is refused, not turned into U+FFFD by the export', async () => {
    for (const formatId of ['android', 'android-xml', 'resx']) {
      const raw =
        formatId === 'resx'
          ? '<root><data name="a"><value>Import to DuckD\u001fckGo</value></data></root>'
          : androidFile('Import to DuckD\u001fckGo');
      expect(await check(input(formatId, raw, 'de'))).toMatchObject({
        verdict: 'rejected',
        detail: expect.stringContaining('U+001F is not allowed in XML'),
      });
    }
    const xliff =
      '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="de"><file id="f"><unit id="today"><segment><source>Today</source><target>Heut\uFFFEe</target></segment></unit></file></xliff>';
    expect(await check(input('xliff-2.0', xliff))).toMatchObject({
      verdict: 'rejected',
      detail: expect.stringContaining('U+FFFE'),
    });
  });

  it('PHP: a character the lexer has no token for (NUL) is a FormatError at its line, not a plain Error', async () => {
    const file = "<?php\nreturn [\n  'a' => 'x',\n\u0000 'b' => 'y',\n];\n";
    expect(await check(input('php-array', file, 'de'))).toMatchObject({
      verdict: 'rejected',
      detail: 'FormatError: PHP syntax error: Bad terminal sequence "\\0" (a NUL character) (line 4)',
    });
  });

  it(
    "PHP: white space at the end of an unclosed attribute (`#[`) no longer hangs php-parser's lexer",
    { timeout: 60_000 },
    async () => {
      const files = [
        "<?php\n\nreturn [\n    'group' =>#[\n        'sub1' => [\n        ],\n    ",
        '<?php #[\n',
        "<?php return ['a' => #[ [] \n\t ",
      ];
      const results = await judgeInputs(
        files.map((file) => input('php-array', file, 'de')),
        { timeoutMs: 5000 },
      );
      expect(results.map((r) => r.verdict)).toEqual(['rejected', 'rejected', 'rejected']);
    },
  );

  it('an escape that decodes to half a surrogate pair is refused (the database would store U+FFFD)', async () => {
    expect(await check(input('android', androidFile('ог\\ud800раничение'), 'de'))).toMatchObject({
      verdict: 'rejected',
      detail: expect.stringContaining('half of a UTF-16 surrogate pair (U+D800)'),
    });
    expect(await check(input('single-language-json', '{"a": "x\\udc00"}', 'de'))).toMatchObject({
      verdict: 'rejected',
      detail: expect.stringContaining('U+DC00'),
    });
    // A whole pair written as two escapes is one character, and fine.
    expect(await check(input('single-language-json', '{"a": "\\ud83d\\ude00"}', 'de'))).toMatchObject({
      verdict: 'accepted',
    });
  });
});

/** A made-up JSON-ish format whose parser and writer misbehave as told. */
function fakeFormat(
  parse: (input: Buffer) => Promise<Bundle>,
  write: (keys: Bundle['keys']) => string,
): RegisteredFormat {
  const format = defineFormat({
    id: 'fake',
    multiLanguage: false,
    namespaces: false,
    extension: 'json',
    contentType: 'application/json',
    parse,
    writer: () => {
      const keys: Bundle['keys'] = [];
      return { write: (page) => (keys.push(...page), ''), end: () => write(keys) };
    },
  });
  return { format, reads: ['json'], name: 'fake' };
}
const bundleOf = (texts: Record<string, unknown>): Bundle => ({
  languages: [{ key: 'de' }],
  keys: Object.entries(texts).map(([key, text]) => ({
    key,
    namespace: '',
    translations: { de: { text: text as string } },
  })),
});
const parseJson = async (b: Buffer) => bundleOf(JSON.parse(b.toString()));
const writeJson = (keys: Bundle['keys']) =>
  JSON.stringify(Object.fromEntries(keys.map((k) => [k.key, k.translations.de!.text])));

describe('the judgement of one case', () => {
  const judge = (format: RegisteredFormat, text = '{"a": "x", "b": "y"}') => check(input('fake', text, 'de'), format);

  it('accepts a faithful format and counts a FormatError as a clean refusal', async () => {
    expect(await judge(fakeFormat(parseJson, writeJson))).toMatchObject({ verdict: 'accepted', keys: 2 });
    expect(
      await judge(
        fakeFormat(async () => {
          throw new FormatError('bad file', { line: 3 });
        }, writeJson),
      ),
    ).toMatchObject({ verdict: 'rejected' });
  });

  it('flags an exception other than FormatError, and a bundle later steps cannot take', async () => {
    expect(
      await judge(
        fakeFormat(async () => {
          throw new TypeError("Cannot read properties of undefined (reading 'x')");
        }, writeJson),
      ),
    ).toMatchObject({ verdict: 'untyped', detail: expect.stringContaining('TypeError') });
    expect(await judge(fakeFormat(async () => bundleOf({ a: 5 }), writeJson))).toMatchObject({
      verdict: 'untyped',
      detail: expect.stringContaining('is number'),
    });
  });

  it('flags a writer that throws, or loses or changes data its parser accepted', async () => {
    expect(
      await judge(
        fakeFormat(parseJson, () => {
          throw new RangeError('Invalid string length');
        }),
      ),
    ).toMatchObject({ verdict: 'export-failed' });
    expect(await judge(fakeFormat(parseJson, (keys) => writeJson(keys.slice(1))))).toMatchObject({
      verdict: 'round-trip',
      detail: 'key "/a" is lost',
    });
    expect(await judge(fakeFormat(parseJson, (keys) => writeJson(keys).replace('"y"', '"Y"')))).toMatchObject({
      verdict: 'round-trip',
      detail: expect.stringContaining('"y" became "Y"'),
    });
    expect(await judge(fakeFormat(parseJson, () => '{"a": "x", "b": "y'))).toMatchObject({
      verdict: 'round-trip',
      detail: expect.stringContaining('the export does not parse'),
    });
  });

  it('compares plurals by what they show: a form equal to `other` may appear or go, a changed form may not', async () => {
    const plural = '{"a": "{count, plural, other {# files}}"}';
    const expand = (keys: Bundle['keys']) =>
      writeJson(keys).replace('{count, plural, other {# files}}', '{count, plural, one {# files} other {# files}}');
    expect(await judge(fakeFormat(parseJson, expand), plural)).toMatchObject({ verdict: 'accepted' });
    const change = (keys: Bundle['keys']) =>
      writeJson(keys).replace('{count, plural, other {# files}}', '{count, plural, one {# file} other {# files}}');
    expect(await judge(fakeFormat(parseJson, change), plural)).toMatchObject({ verdict: 'round-trip' });
  });
});

describe('the runner', () => {
  it(
    'records a hang, an exhausted heap and a dead worker, replaces the worker and carries on',
    { timeout: 90_000 },
    async () => {
      const report = await runFuzz({
        count: 8,
        seed: 1,
        workers: 2,
        // Long enough for the allocating case to exhaust 48 MiB first on a loaded machine.
        timeoutMs: 6000,
        heapMb: 48,
        formats: ['android', 'android-strings', 'android-xml', 'yaml'],
        checkModule: join(import.meta.dirname, 'fuzz-fixture-check.ts'),
      });
      expect(report.cases).toBe(8);
      expect(report.findings.map((f) => [f.caseNumber, f.verdict])).toEqual([
        [0, 'hang'],
        [1, 'heap'],
        [2, 'crash'],
        [4, 'hang'],
        [5, 'heap'],
        [6, 'crash'],
      ]);
      expect(report.verdicts.accepted).toBe(2);
      expect(report.findings[2]!.detail).toContain('escaped from a callback');
    },
  );
});

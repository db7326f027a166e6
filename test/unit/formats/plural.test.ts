// The one mapping of the plural number between ICU (`#`) and each platform's
// placeholder (plural.ts), tested on its own; each platform format's tests
// check it in their files.
import { describe, expect, it } from 'vitest';
import { buildIcuMessage, parseIcuMessage } from '../../../src/formats/icu-embedded.js';
import {
  ANDROID_NUMBER,
  APPLE_NUMBER,
  appleNumber,
  GETTEXT_NUMBER,
  pluralFromPlatform,
  pluralToPlatform,
  parseIcuPlural,
  QT_NUMBER,
  toIcuPlural,
  type NumberPlaceholder,
} from '../../../src/formats/plural.js';

const SPECS: [string, NumberPlaceholder][] = [
  ['Android', ANDROID_NUMBER],
  ['gettext', GETTEXT_NUMBER],
  ['Qt', QT_NUMBER],
  ['Apple', APPLE_NUMBER],
];

describe('plural numbers: ICU # <-> platform placeholder', () => {
  it("writes # as each platform's number", () => {
    const text = '{count, plural, one {# file} other {# files}}';
    expect(pluralToPlatform(text, ANDROID_NUMBER)?.forms).toEqual({ one: '%d file', other: '%d files' });
    expect(pluralToPlatform(text, GETTEXT_NUMBER)?.forms).toEqual({ one: '%d file', other: '%d files' });
    expect(pluralToPlatform(text, QT_NUMBER)?.forms).toEqual({ one: '%n file', other: '%n files' });
    expect(pluralToPlatform(text, APPLE_NUMBER)?.forms).toEqual({ one: '%lld file', other: '%lld files' });
    expect(pluralToPlatform(text, appleNumber('d'))?.forms).toEqual({ one: '%d file', other: '%d files' });
    expect(pluralToPlatform(text, appleNumber('@'))?.forms).toEqual({ one: '%lld file', other: '%lld files' });
    expect(pluralToPlatform('plain text', ANDROID_NUMBER)).toBeNull();
  });

  it("reads each platform's count placeholders as #", () => {
    const read = (spec: NumberPlaceholder, other: string) => pluralFromPlatform({ other }, spec);
    expect(read(ANDROID_NUMBER, '%d files')).toBe('{count, plural, other {# files}}');
    expect(read(ANDROID_NUMBER, '%1$d files')).toBe('{count, plural, other {# files}}');
    expect(read(ANDROID_NUMBER, '%1$s: %2$d files')).toBe('{count, plural, other {%1$s: # files}}');
    expect(read(ANDROID_NUMBER, '%s files')).toBe('{count, plural, other {%s files}}');
    for (const token of ['%d', '%i', '%u', '%ld', '%lu', '%2$d'])
      expect(read(GETTEXT_NUMBER, `${token} files`)).toBe('{count, plural, other {# files}}');
    expect(read(QT_NUMBER, '%n files, %1 %L1')).toBe('{count, plural, other {# files, %1 %L1}}');
    for (const token of ['%d', '%lld', '%li', '%u', '%ld', '%qd', '%zd'])
      expect(read(APPLE_NUMBER, `${token} files`)).toBe('{count, plural, other {# files}}');
    // A positional Apple token is a different argument: kept as written.
    expect(read(APPLE_NUMBER, '%1$d files')).toBe('{count, plural, other {%1$d files}}');
  });

  it('escapes literal # and % per platform', () => {
    const text = "{count, plural, other {'#'# = 100% of %s, %%d}}";
    expect(pluralToPlatform(text, ANDROID_NUMBER)?.forms.other).toBe('#%d = 100%% of %s, %%d');
    expect(pluralToPlatform(text, QT_NUMBER)?.forms.other).toBe('#%n = 100% of %s, %%d');
    expect(pluralFromPlatform({ other: '#%d = 100%% of %s, %%d' }, ANDROID_NUMBER)).toBe(text);
    expect(pluralFromPlatform({ other: '#%n = 100% of %s, %%d' }, QT_NUMBER)).toBe(text);
  });

  it('keeps named arguments and nested messages, quotes other braces', () => {
    expect(
      pluralToPlatform('{count, plural, other {{name} has # {kind, select, a {A} other {B}}}}', ANDROID_NUMBER)?.forms
        .other,
    ).toBe('{name} has %d {kind, select, a {A} other {B}}');
    expect(pluralFromPlatform({ other: '{name} has %d {kind, select, a {A} other {B}}' }, ANDROID_NUMBER)).toBe(
      '{count, plural, other {{name} has # {kind, select, a {A} other {B}}}}',
    );
    expect(pluralFromPlatform({ other: 'a {b c} {1} {' }, ANDROID_NUMBER)).toBe(
      "{count, plural, other {a '{'b c'}' '{'1'}' '{'}}",
    );
    // A brace pair around one word is an argument (documented: `{word}` reads back as an argument).
    expect(pluralFromPlatform({ other: 'a { b } c' }, ANDROID_NUMBER)).toBe('{count, plural, other {a { b } c}}');
  });

  it('normalizes a printf count already in the ICU text to # (Android, gettext, Apple)', () => {
    for (const spec of [ANDROID_NUMBER, GETTEXT_NUMBER, APPLE_NUMBER]) {
      const out = pluralToPlatform('{count, plural, one {%d file} other {%d files}}', spec)!;
      expect(pluralFromPlatform(out.forms, spec)).toBe('{count, plural, one {# file} other {# files}}');
    }
  });

  // Seeded fuzz: ICU texts made of pieces that need escaping on some platform
  // come back unchanged after platform and back, for every platform.
  it.each(SPECS)('round-trips ICU branches through %s (seeded fuzz)', (_name, spec) => {
    const pieces = [
      '#',
      "'#'",
      '%',
      '%s',
      '%1$s',
      '%2$s',
      '%.2f',
      '%@',
      ' ',
      'a',
      'd',
      'n',
      'x',
      "''",
      '{name}',
      '{count}',
      '{g, select, m {M} other {O}}',
      'é',
      '日本',
      'عربي',
      '😀',
      '\n',
      '"',
      '@',
      '?',
      '|',
    ];
    let seed = 4242; // mulberry32
    const random = (n: number): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    // Texts the mapping normalizes on purpose are left out: a printf count token
    // already in the ICU text (read back as #), and `%%` where a lone % would do.
    const normalized = (icu: string): boolean =>
      new RegExp(spec.count.source).test(icu) ||
      (spec.printf && /%%(?![-+0]*\d*(?:\.\d+)?(?:hh|h|ll|l|q|j|z|t|L)?[diouxXfFeEgGaAcCsSpn@bBhH])/.test(icu));
    let checked = 0;
    let numbers = 0;
    for (let i = 0; i < 1500; i++) {
      const branch = () => Array.from({ length: 1 + random(7) }, () => pieces[random(pieces.length)]).join('');
      const icu = `{count, plural, one {${branch()}} other {${branch()}}}`;
      if (normalized(icu)) continue;
      checked++;
      const platform = pluralToPlatform(icu, spec);
      expect(platform, icu).not.toBeNull();
      if (/(?<!')#(?!')/.test(icu)) {
        numbers++;
        expect(Object.values(platform!.forms).join('|'), icu).toMatch(
          spec.positional ? /%(\d\$)?d/ : new RegExp(spec.number),
        );
      }
      const back = pluralFromPlatform(platform!.forms, spec);
      // Pieces joined can quote differently than apart ('#' then '' is '#'''): compare with the canonical source of the same message.
      expect(back, `${icu} -> ${JSON.stringify(platform!.forms)}`).toBe(buildIcuMessage(parseIcuMessage(icu)!));
      if (back !== icu) expect(parseIcuMessage(back)).toEqual(parseIcuMessage(icu));
    }
    expect(checked).toBeGreaterThan(700);
    expect(numbers).toBeGreaterThan(200);
  });

  it("quotes a literal brace or # followed by an apostrophe so that it reads back ('{'' is not '{' + ')", () => {
    const forms = { one: "{'x} '#'", other: "#'s" };
    const icu = toIcuPlural(forms);
    expect(icu).toBe("{count, plural, one {'{'''x'}' ''#''} other {#''s}}");
    expect(parseIcuPlural(icu)?.forms).toEqual(forms);
    const platform = pluralFromPlatform({ other: "#'s {'" }, QT_NUMBER);
    expect(platform).toBe("{count, plural, other {'#'''s '{'''}}");
    expect(pluralToPlatform(platform, QT_NUMBER)?.forms.other).toBe("#'s {'");
  });

  it('builds plain forms like toIcuPlural when there is no number', () => {
    const forms = { one: "it's one", other: 'many' };
    expect(pluralFromPlatform(forms, ANDROID_NUMBER)).toBe(toIcuPlural(forms));
  });
});

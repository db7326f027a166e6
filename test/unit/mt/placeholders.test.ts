import { describe, expect, it } from 'vitest';
import { escapeIcuText, parseIcu } from '../../../src/mt/icu.js';
import { assembleText, decodeUnit, prepareText, unescapeMarkup } from '../../../src/mt/placeholders.js';
import type { Markup } from '../../../src/mt/types.js';

/** Runs a text through prepare -> fake provider -> decode -> assemble. */
function roundTrip(text: string, markup: Markup, provider: (encoded: string) => string): string | null {
  const prepared = prepareText(text, markup);
  const translations = prepared.units.map((u) => (u.translatable ? decodeUnit(provider(u.encoded), u, markup) : null));
  if (prepared.units.some((u, i) => u.translatable && !translations[i])) return null;
  return assembleText(prepared, translations);
}

const upper = (encoded: string) => encoded.replace(/(^|>)([^<]*)/g, (_m, a: string, t: string) => a + t.toUpperCase());

describe('placeholder protection', () => {
  it.each<[string, string[]]>([
    ['Hello {name}!', ['{name}']],
    ['%1$d of %2$s, %s %d %@ %.2f %% %(user)s', ['%1$d', '%2$s', '%s', '%d', '%@', '%.2f', '%%', '%(user)s']],
    ['Hi {{user}} and {{{raw}}} and ${x}', ['{{user}}', '{{{raw}}}', '${x}']],
    ['Press <b>Save</b> or <a href="/x">cancel</a><br/>', ['<b>', '</b>', '<a href="/x">', '</a>', '<br/>']],
    ['Tom &amp; Jerry &#169;', ['&amp;', '&#169;']],
  ])('keeps the placeholders of %j', (text, expected) => {
    for (const markup of ['xml', 'html'] as const) {
      const out = roundTrip(text, markup, upper)!;
      expect(out).not.toBeNull();
      for (const p of expected) expect(out).toContain(p);
    }
  });

  it('encodes for DeepL (xml) with numbered x/g elements and for Google (html) with translate="no" spans', () => {
    const text = 'Hello {name}, you have %1$d new <b>messages</b> & more';
    expect(prepareText(text, 'xml').units[0]!.encoded).toBe(
      'Hello <x id="0"/>, you have <x id="1"/> new <g id="2">messages</g> &amp; more',
    );
    expect(prepareText(text, 'html').units[0]!.encoded).toBe(
      'Hello <span translate="no" id="x0">{name}</span>, you have <span translate="no" id="x1">%1$d</span> new <span id="g2">messages</span> &amp; more',
    );
  });

  it('follows placeholders the provider moved and ignores attributes it added', () => {
    const prepared = prepareText('<b>Save</b> {name}', 'html');
    const unit = prepared.units[0]!;
    expect(unit.encoded).toBe('<span id="g0">Save</span> <span translate="no" id="x1">{name}</span>');
    const answer =
      '<span translate="no" id="x1">{NAME?}</span> <span style=";text-align:right;direction:rtl" id="g0">Speichern</span>';
    expect(assembleText(prepared, [decodeUnit(answer, unit, 'html')])).toBe('{name} <b>Speichern</b>');
  });

  it('refuses an answer with a lost, repeated or invented placeholder (the text fails, nothing is guessed)', () => {
    const unit = prepareText('Hello {name}, <b>welcome</b>', 'xml').units[0]!;
    expect(decodeUnit('Hallo <x id="0"/>, <g id="1">willkommen</g>', unit, 'xml')).not.toBeNull();
    expect(decodeUnit('Hallo, <g id="1">willkommen</g>', unit, 'xml')).toBeNull();
    expect(decodeUnit('Hallo <x id="0"/> <x id="0"/>, <g id="1">willkommen</g>', unit, 'xml')).toBeNull();
    expect(decodeUnit('Hallo <x id="0"/>, <g id="1">willkommen', unit, 'xml')).toBeNull();
    expect(decodeUnit('Hallo <x id="0"/>, <g id="1">willkommen</g><x id="7"/>', unit, 'xml')).toBeNull();
    expect(decodeUnit('Hallo <x id="0"/>, <i>willkommen</i>', unit, 'xml')).toBeNull();
  });

  it('accepts an emptied pair and a protected element written out in full', () => {
    const prepared = prepareText('Hi {name} <b>x</b>', 'xml');
    const segments = decodeUnit('Hallo <x id="0"></x> <g id="1"/>', prepared.units[0]!, 'xml');
    expect(assembleText(prepared, [segments])).toBe('Hallo {name} <b></b>');
  });

  it('unescapes the entities providers answer with', () => {
    expect(unescapeMarkup('l&#39;ami &amp; &lt;3 &quot;x&quot; &#x263A; &nbsp;')).toBe('l\'ami & <3 "x" ☺ \u00a0');
    const prepared = prepareText("It's", 'html');
    const segments = decodeUnit('C&#39;est', prepared.units[0]!, 'html');
    expect(assembleText(prepared, [segments])).toBe("C'est");
  });

  it('keeps newlines as placeholders for the html markup and the white space around a unit', () => {
    const prepared = prepareText('  Line one\nline two  ', 'html');
    const unit = prepared.units[0]!;
    expect(unit.encoded).toBe('Line one<br id="x0">line two');
    expect(assembleText(prepared, [decodeUnit('Zeile eins<br id="x0">Zeile zwei', unit, 'html')])).toBe(
      '  Zeile eins\nZeile zwei  ',
    );
  });

  it('leaves a text without letters untouched and unsent', () => {
    const prepared = prepareText('{count} / %d', 'xml');
    expect(prepared.units.every((u) => !u.translatable)).toBe(true);
    expect(assembleText(prepared, [])).toBe('{count} / %d');
  });
});

describe('ICU messages', () => {
  it('splits a plural into its branch texts and reassembles a valid plural', () => {
    const text = '{count, plural, one {# file} other {# files}}';
    const prepared = prepareText(text, 'xml');
    expect(prepared.units.map((u) => u.encoded)).toEqual(['<x id="0"/>', '<x id="0"/> file', '<x id="0"/> files']);
    const out = roundTrip(text, 'xml', (e) => e.replace('files', 'Dateien').replace('file', 'Datei'))!;
    expect(out).toBe('{count, plural, one {# Datei} other {# Dateien}}');
    expect(parseIcu(out)).not.toBeNull();
  });

  it('handles text around plurals, selects, nesting, offset and exact matches', () => {
    const text =
      'Hi {name}: {gender, select, female {She has {n, plural, offset:1 =0 {no file} other {# files}}} other {They have {n, number} files}}.';
    const prepared = prepareText(text, 'xml');
    expect(prepared.units[0]!.encoded).toBe('Hi <x id="0"/>: <x id="1"/>.');
    const out = roundTrip(text, 'xml', upper)!;
    expect(out).toBe(
      'HI {name}: {gender, select, female {SHE HAS {n, plural, offset:1 =0 {NO FILE} other {# FILES}}} other {THEY HAVE {n, number} FILES}}.',
    );
    expect(parseIcu(out)).not.toBeNull();
  });

  it('quotes ICU special characters in translated branch text', () => {
    const out = roundTrip('{n, plural, one {# item} other {# items}}', 'xml', (e) =>
      e.replace('items', "l'item {x} #").replace(/item$/, 'it'),
    )!;
    expect(out).toBe("{n, plural, one {# it} other {# l''item '{'x'}' '#'}}");
    expect(parseIcu(out)).not.toBeNull();
    expect(escapeIcuText("it's {x}", false)).toBe("it''s '{'x'}'");
  });

  it('reads quoted literals and falls back to plain text for invalid ICU', () => {
    const nodes = parseIcu("{n, plural, other {'{'literal'}' it''s # '#'}}")!;
    expect(nodes).not.toBeNull();
    expect(parseIcu('{n, plural, one {# file} other {# files}')).toBeNull();
    // Not ICU: only the innermost {...} is a placeholder, the rest is text.
    const out = roundTrip('Broken {n, plural, one {# file}', 'xml', upper)!;
    expect(out).toBe('BROKEN {N, PLURAL, ONE {# file}');
  });
});

import { describe, expect, it } from 'vitest';
import {
  appleCategoryBranches,
  decodeVarSpecs,
  encodeVarSpecs,
  expandTokens,
  inferValueType,
} from '../../../src/formats/apple-plurals.js';
import { buildIcuMessage, hasChoice, parseIcuMessage } from '../../../src/formats/icu-embedded.js';
import { parseIcuPlural, toIcuPlural } from '../../../src/formats/plural.js';

describe('ICU messages with embedded plurals', () => {
  it('builds a lone flat plural exactly like toIcuPlural, and parseIcuPlural reads it back', () => {
    const forms = { one: '%d file in {dir}', other: "%d files, it's {dir}", '=0': 'none' };
    const built = buildIcuMessage([
      {
        type: 'choice',
        kind: 'plural',
        argument: 'files',
        branches: Object.entries(forms).map(([key, value]) => ({ key, parts: [{ type: 'text', value }] })),
      },
    ]);
    expect(built).toBe(toIcuPlural(forms, 'files'));
    expect(parseIcuPlural(built)).toEqual({ argument: 'files', forms });
  });

  it('parses text around plurals, nested plurals and quoted characters', () => {
    const text = "It''s '{'x'}' {n, plural, one {# {m, plural, one {a} other {b}}} other {many}} {name} done";
    const parts = parseIcuMessage(text)!;
    expect(parts.map((p) => p.type)).toEqual(['text', 'choice', 'text', 'raw', 'text']);
    expect(parts[0]).toEqual({ type: 'text', value: "It's {x} " });
    const n = parts[1]!;
    if (n.type !== 'choice') throw new Error('expected a choice');
    expect(n.argument).toBe('n');
    // `#` in a plural branch is the number, not text.
    expect(n.branches[0]!.parts[0]).toEqual({ type: 'number' });
    expect(n.branches[0]!.parts[2]).toMatchObject({ type: 'choice', argument: 'm' });
    expect(parts[3]).toEqual({ type: 'raw', value: '{name}' });
    expect(buildIcuMessage(parts)).toBe(text);
  });

  it('tells the plural number # from a quoted literal # (plural branches only)', () => {
    const text = "Tag #1: {n, plural, one {'#'# item} other {# items, #{x}}} and #";
    const parts = parseIcuMessage(text)!;
    expect(parts[0]).toEqual({ type: 'text', value: 'Tag #1: ' });
    const n = parts[1]!;
    if (n.type !== 'choice') throw new Error('expected a choice');
    expect(n.branches[0]!.parts).toEqual([
      { type: 'text', value: '#' },
      { type: 'number' },
      { type: 'text', value: ' item' },
    ]);
    expect(n.branches[1]!.parts).toEqual([
      { type: 'number' },
      { type: 'text', value: ' items, ' },
      { type: 'number' },
      { type: 'raw', value: '{x}' },
    ]);
    expect(parts[2]).toEqual({ type: 'text', value: ' and #' });
    // Outside a plural a # is plain text and stays unquoted.
    expect(buildIcuMessage(parts)).toBe("Tag #1: {n, plural, one {'#'# item} other {# items, #{x}}} and #");
    // ICU's rule: an apostrophe quotes `#` only inside a plural branch; elsewhere it is literal.
    expect(parseIcuMessage("Tag '#'1")).toEqual([{ type: 'text', value: "Tag '#'1" }]);
    // In a select at the top level, # is text.
    const select = parseIcuMessage('{g, select, other {#}}')!;
    expect(select[0]).toMatchObject({ branches: [{ parts: [{ type: 'text', value: '#' }] }] });
  });

  it('keeps select branches in source order and offsets', () => {
    const text = '{device, select, mac {Mac} iphone {iPhone} other {Device}}';
    expect(buildIcuMessage(parseIcuMessage(text)!)).toBe(text);
    const withOffset = '{n, plural, offset:1 one {a} other {b}}';
    expect(buildIcuMessage(parseIcuMessage(withOffset)!)).toBe(withOffset);
  });

  it('returns null for malformed messages and reports plain text as choice-free', () => {
    expect(parseIcuMessage('{n, plural, one {a}')).toBeNull();
    expect(parseIcuMessage('stray } brace')).toBeNull();
    expect(parseIcuMessage('{n, plural, }')).toBeNull();
    expect(parseIcuMessage('x'.repeat(10) + '{a, plural, other {'.repeat(40) + '}'.repeat(40) + '}')).toBeNull();
    expect(hasChoice(parseIcuMessage('Hello {name}')!)).toBe(false);
  });
});

describe('Apple plural variables', () => {
  it('splits a format at its tokens, keeping unknown ones literal', () => {
    const parts = expandTokens('A %1$#@x@ B %#@unknown@ C', (name, position) =>
      name === 'x'
        ? {
            type: 'choice',
            kind: 'plural',
            argument: name,
            branches: [{ key: 'other', parts: [{ type: 'text', value: position }] }],
          }
        : null,
    );
    expect(parts).toEqual([
      { type: 'text', value: 'A ' },
      {
        type: 'choice',
        kind: 'plural',
        argument: 'x',
        branches: [{ key: 'other', parts: [{ type: 'text', value: '1$' }] }],
      },
      { type: 'text', value: ' B %#@unknown@ C' },
    ]);
  });

  it('round-trips specs through codeDescription and ignores foreign codeDescriptions', () => {
    const specs = new Map([
      ['files', { position: '1$', type: 'ld' }],
      ['n', { type: 'lld', argNum: 2 }],
    ]);
    const text = encodeVarSpecs(specs)!;
    expect(text).toBe('Plural variables: {"files":{"position":"1$","type":"ld"},"n":{"type":"lld","argNum":2}}');
    expect(decodeVarSpecs(text).get('files')).toEqual({ position: '1$', type: 'ld', argNum: undefined });
    expect(decodeVarSpecs('{"placeholders":{}}').size).toBe(0);
    expect(decodeVarSpecs('Plural variables: not json').size).toBe(0);
  });

  it('infers the value type and maps exact matches to Apple categories', () => {
    expect(inferValueType(['no number', '100%% of %2$lu items'])).toBe('lu');
    expect(inferValueType(['%@ only'])).toBe('d');
    expect(
      appleCategoryBranches([
        { key: 'other', parts: 'o' },
        { key: '=0', parts: 'z' },
        { key: '=5', parts: 'x' },
        { key: 'one', parts: '1' },
        { key: '=1', parts: 'e' },
      ]),
    ).toEqual([
      { key: 'zero', parts: 'z' },
      { key: 'one', parts: '1' },
      { key: 'other', parts: 'o' },
    ]);
  });
});

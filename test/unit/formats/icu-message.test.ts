import { describe, expect, it } from 'vitest';
import { MAX_ICU_DEPTH, parseIcuMessage } from '../../../src/formats/icu-message.js';
import { parseIcuPlural } from '../../../src/formats/plural.js';
import { parseIcu } from '../../../src/mt/icu.js';
import { cpuClock, HOSTILE_TEST_TIMEOUT, PATHOLOGICAL_CPU_MS } from './support/linear-cost.js';

// The one ICU reader (over @formatjs/icu-messageformat-parser) and the three views of it.
describe('icu-message: the one ICU reader', () => {
  it('keeps simple arguments verbatim, # as the number only in plural branches, and unquotes literals', () => {
    const text =
      "It''s '{x}' {n, number, ::currency/EUR} {d,  date, short} {g, select, a {#} other {{c, selectordinal, offset:1 one {#st} other {#th}}}}";
    expect(parseIcuMessage(text)).toEqual([
      { type: 'text', value: "It's {x} " },
      { type: 'raw', value: '{n, number, ::currency/EUR}' },
      { type: 'text', value: ' ' },
      { type: 'raw', value: '{d,  date, short}' },
      { type: 'text', value: ' ' },
      {
        type: 'choice',
        kind: 'select',
        argument: 'g',
        branches: [
          { key: 'a', parts: [{ type: 'text', value: '#' }] },
          {
            key: 'other',
            parts: [
              {
                type: 'choice',
                kind: 'selectordinal',
                argument: 'c',
                offset: 1,
                branches: [
                  { key: 'one', parts: [{ type: 'number' }, { type: 'text', value: 'st' }] },
                  { key: 'other', parts: [{ type: 'number' }, { type: 'text', value: 'th' }] },
                ],
              },
            ],
          },
        ],
      },
    ]);
    // An unclosed quote runs to the end (ICU's rule); tags are text.
    expect(parseIcuMessage("a '{b} c")).toEqual([{ type: 'text', value: 'a {b} c' }]);
    expect(parseIcuMessage('<b>{x}</b>')).toEqual([
      { type: 'text', value: '<b>' },
      { type: 'raw', value: '{x}' },
      { type: 'text', value: '</b>' },
    ]);
  });

  it('returns null for what is not a message', () => {
    for (const bad of [
      '{a}}',
      '}',
      'x {',
      '{a, plural, }',
      '{a, plural, one {x} one {y} other {z}}',
      '{n, spellout}',
      '{a, plural, one {x} offset:1 other {y}}',
    ]) {
      expect(parseIcuMessage(bad), bad).toBeNull();
    }
    // A quoted brace is text, not an unbalanced one.
    expect(parseIcuMessage("a '}' b")).toEqual([{ type: 'text', value: 'a } b' }]);
    expect(parseIcuMessage("{n, plural, other {'}'''}}")).toMatchObject([
      { branches: [{ parts: [{ type: 'text', value: "}'" }] }] },
    ]);
  });

  it(
    `refuses choices nested deeper than ${MAX_ICU_DEPTH}, and very deep nesting quickly`,
    () => {
      const nest = (n: number) => '{a, select, other {'.repeat(n) + 'x' + '}}'.repeat(n);
      expect(parseIcuMessage(nest(MAX_ICU_DEPTH))).not.toBeNull();
      expect(parseIcuMessage(nest(MAX_ICU_DEPTH + 2))).toBeNull();
      const start = cpuClock();
      expect(parseIcuMessage(nest(100_000))).toBeNull();
      expect(parseIcuMessage('{'.repeat(200_000))).toBeNull();
      expect(cpuClock() - start).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('the views agree: plural.ts whole-text plurals and the MT node view', () => {
    const text = "{count, plural, =0 {none} one {'#'# {name}} other {# items}}";
    expect(parseIcuPlural(text)).toEqual({
      argument: 'count',
      forms: { '=0': 'none', one: '## {name}', other: '# items' },
    });
    expect(parseIcuPlural(`x ${text}`)).toBeNull();
    expect(parseIcuPlural('{count, plural, foo {a} other {b}}')).toBeNull();
    expect(parseIcu(text)).toEqual([
      {
        type: 'complex',
        name: 'count',
        kind: 'plural',
        offset: undefined,
        branches: [
          { selector: '=0', nodes: [{ type: 'text', value: 'none' }] },
          {
            selector: 'one',
            nodes: [
              { type: 'text', value: '#' },
              { type: 'pound' },
              { type: 'text', value: ' ' },
              { type: 'arg', raw: '{name}' },
            ],
          },
          { selector: 'other', nodes: [{ type: 'pound' }, { type: 'text', value: ' items' }] },
        ],
      },
    ]);
  });
});

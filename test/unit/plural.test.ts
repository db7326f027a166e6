import { describe, expect, it } from 'vitest';
import { categoryForIndex, parseIcuPlural, pluralCategories, toIcuPlural } from '../../src/formats/plural.js';

describe('ICU plural representation', () => {
  it('round-trips forms with braces and apostrophes', () => {
    const forms = { one: '%d file in {dir}', other: "%d files, it's {dir}" };
    const icu = toIcuPlural(forms);
    expect(icu).toBe("{count, plural, one {%d file in '{'dir'}'} other {%d files, it''s '{'dir'}'}}");
    expect(parseIcuPlural(icu)).toEqual({ argument: 'count', forms });
  });
  it('keeps nested arguments of hand-written ICU', () => {
    expect(parseIcuPlural('{n, plural, =0 {none} one {# {name}} other {# items}}')?.forms).toEqual({
      '=0': 'none',
      one: '# {name}',
      other: '# items',
    });
  });
  it('rejects plain text and text around a plural', () => {
    expect(parseIcuPlural('hello')).toBeNull();
    expect(parseIcuPlural('{n, plural, one {a} other {b}} tail')).toBeNull();
    expect(parseIcuPlural('{n, plural, one {a}}')).toBeNull();
  });
  it('knows CLDR categories', () => {
    expect(pluralCategories('en')).toEqual(['one', 'other']);
    expect(pluralCategories('ar')).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    expect(pluralCategories('ja')).toEqual(['other']);
    expect(categoryForIndex('ru', 2)).toBe('many');
  });
});

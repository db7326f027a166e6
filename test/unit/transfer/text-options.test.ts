import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../../src/formats/model.js';
import { applyTextOptions } from '../../../src/transfer/text-options.js';
import type { ImportOption } from '../../../src/transfer/options.js';

const bundle = (text: string): Bundle => ({
  languages: [{ key: 'en' }],
  keys: [{ key: 'k', namespace: '', translations: { en: { text } }, customerTranslations: { acme: { en: { text } } } }],
});

function apply(text: string, ...options: ImportOption[]): [string, string] {
  const b = bundle(text);
  applyTextOptions(b, new Set(options));
  return [b.keys[0]!.translations.en!.text, b.keys[0]!.customerTranslations!.acme!.en!.text];
}

describe('generic import text options', () => {
  it('leave texts alone without options', () => {
    expect(apply("  a\\nb \\'c\\' ")).toEqual(["  a\\nb \\'c\\' ", "  a\\nb \\'c\\' "]);
  });

  it('trim white space at both ends, line breaks included', () => {
    expect(apply(' \t hello world \n', 'TRIM_LEADING_TRAILING_SPACES')[0]).toBe('hello world');
  });

  it('unescape \\n and \\r\\n into line breaks', () => {
    expect(apply('a\\nb\\r\\nc\\\\', 'UNESCAPE_NEW_LINES')[0]).toBe('a\nb\nc\\\\');
  });

  it("unescape \\' into '", () => {
    expect(apply('It\\\'s \\"x\\"', 'UNESCAPE_SINGLE_QUOTES')[0]).toBe('It\'s \\"x\\"');
  });

  it('unescape before trimming, and treat customer overrides alike', () => {
    expect(
      apply("  It\\'s\\n", 'TRIM_LEADING_TRAILING_SPACES', 'UNESCAPE_NEW_LINES', 'UNESCAPE_SINGLE_QUOTES'),
    ).toEqual(["It's", "It's"]);
  });

  it('ignore the options that are not about texts', () => {
    expect(apply(' x ', 'REPLACE_TRANSLATION_IF_FOUND', 'MULTI_LANGUAGE')[0]).toBe(' x ');
  });
});

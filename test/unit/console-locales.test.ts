// The console's languages (web/src/locales/*.json) say the same things: every
// language has exactly English's keys, a plural in exactly the forms its own
// plural rules have (German: _one, _other; French would add _many), each text
// holds the same placeholders ({{name}}, {{count, number}}) and the same markup
// of <Trans> components (<code>, <a>) as the English one, and no text is empty.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const LOCALES = join(import.meta.dirname, '..', '..', 'web', 'src', 'locales');

function flatten(node: unknown, path: string[] = [], out: Record<string, string> = {}): Record<string, string> {
  if (typeof node === 'string') out[path.join('.')] = node;
  else if (node && typeof node === 'object')
    for (const [name, value] of Object.entries(node)) flatten(value, [...path, name], out);
  else throw new Error(`${path.join('.')}: not a text (${JSON.stringify(node)})`);
  return out;
}

const load = (language: string) => flatten(JSON.parse(readFileSync(join(LOCALES, `${language}.json`), 'utf8')));
/**
 * The placeholders and component tags of a text, sorted (their order may differ between languages). A
 * placeholder's case formatting is the language's grammar ("the {{role, lowercase}} link", "Link für {{role}}").
 */
const tokens = (text: string) =>
  [...text.matchAll(/\{\{[^}]*\}\}|<\/?[a-z]+\s*\/?>/g)]
    .map((m) => m[0].replace(/,\s*(lowercase|uppercase)\s*\}\}$/, '}}'))
    .sort();

const en = load('en');
const PLURAL = /_(zero|one|two|few|many|other)$/;
/** The key of a plural form without its suffix (English has its plurals as _one and _other), else null. */
const pluralBase = (key: string) => {
  if (!PLURAL.test(key)) return null;
  const base = key.replace(PLURAL, '');
  return `${base}_other` in en ? base : null;
};
const others = readdirSync(LOCALES)
  .filter((name) => name.endsWith('.json') && name !== 'en.json')
  .map((name) => name.slice(0, -'.json'.length));

describe('console locales', () => {
  it('has German besides English', () => {
    expect(others).toContain('de');
  });

  for (const language of others)
    describe(language, () => {
      const texts = load(language);
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      it("has exactly English's keys, each plural in the language's own forms", () => {
        const expected = Object.keys(en).flatMap((key) => {
          const base = pluralBase(key);
          if (base === null) return [key];
          return key.endsWith('_other') ? categories.map((category) => `${base}_${category}`) : [];
        });
        expect(Object.keys(texts).sort()).toEqual(expected.sort());
      });
      it('has the same placeholders and tags per key as English', () => {
        // A plural form is compared with English's "other" form.
        const english = (key: string) => en[key] ?? en[`${pluralBase(key)}_other`] ?? '';
        const differing = Object.keys(texts)
          .filter((key) => tokens(texts[key]!).join(' ') !== tokens(english(key)).join(' '))
          .map((key) => `${key}: ${tokens(english(key)).join(' ')} ≠ ${tokens(texts[key]!).join(' ')}`);
        expect(differing).toEqual([]);
      });
      it('has no empty text', () => {
        expect(Object.entries(texts).filter(([, text]) => text.trim() === '')).toEqual([]);
      });
    });

  it('states every English plural in both forms', () => {
    const bases = Object.keys(en)
      .filter((key) => /_(one|other)$/.test(key))
      .map((key) => key.replace(/_(one|other)$/, ''));
    for (const base of new Set(bases))
      expect(
        [`${base}_one`, `${base}_other`].every((key) => key in en),
        base,
      ).toBe(true);
  });
});

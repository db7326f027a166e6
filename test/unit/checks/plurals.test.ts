// Plural forms by the target language's CLDR categories (Intl.PluralRules).
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../../src/checks/index.js';
import { pluralNeeds } from '../../../src/checks/plurals.js';

const plural = (source: string, target: string, targetLanguage: string) =>
  runChecks({ source, target, sourceLanguage: 'en', targetLanguage })
    .filter((f) => f.check.startsWith('plural'))
    .map((f) => `${f.check}: ${f.message}`);

const FILES = '{count, plural, one {# file} other {# files}}';

describe('plural forms', () => {
  it('knows which categories each language needs, and which only fractions or millions reach', () => {
    expect(pluralNeeds('pl').needed).toEqual(['one', 'few', 'many', 'other']);
    expect(pluralNeeds('ar').needed).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    expect(pluralNeeds('ja').needed).toEqual(['other']);
    // French `many` (millions) and Czech `many` (fractions) fall back to `other` correctly.
    expect(pluralNeeds('fr').needed).toEqual(['one', 'other']);
    expect(pluralNeeds('fr').all).toContain('many');
    expect(pluralNeeds('cs').needed).toEqual(['one', 'few', 'other']);
    expect(pluralNeeds('en', true).needed).toEqual(['one', 'two', 'few', 'other']);
  });

  it('Polish: one, few, many, other', () => {
    expect(plural(FILES, '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}', 'pl')).toEqual(
      [],
    );
    expect(plural(FILES, '{count, plural, one {# plik} other {# pliki}}', 'pl')).toEqual([
      'plural-missing: Add the plural forms "few", "many" to {count}: pl needs "one", "few", "many", "other"',
    ]);
  });

  it('Arabic: six forms; an exact =0 covers zero, a form left empty is missing', () => {
    const complete =
      '{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}';
    expect(plural(FILES, complete, 'ar')).toEqual([]);
    expect(plural(FILES, complete.replace('zero {', '=0 {'), 'ar')).toEqual([]);
    expect(
      plural(
        FILES,
        '{count, plural, zero {لا ملفات} one {ملف واحد} two {} few {# ملفات} many {# ملفًا} other {# ملف}}',
        'ar',
      ),
    ).toEqual(['plural-missing: The plural form "two" of {count} is empty: write it']);
  });

  it('Japanese: other only; a one form is superfluous', () => {
    expect(plural(FILES, '{count, plural, other {#個のファイル}}', 'ja')).toEqual([]);
    expect(plural(FILES, '{count, plural, one {#個のファイル} other {#個のファイル}}', 'ja')).toEqual([
      'plural-superfluous: ja never uses the plural form "one" of {count}: remove it (its forms are "other")',
    ]);
  });

  it("keeps a platform's zero form the source has too (Apple's zero), as Weblate keeps it", () => {
    const source = '{count, plural, zero {No commands found} one {# command found} other {# commands found}}';
    expect(
      plural(
        source,
        '{count, plural, zero {Keinen Befehl gefunden} one {Einen Befehl gefunden} other {# Befehle gefunden}}',
        'de',
      ),
    ).toEqual([]);
  });

  it('English =1 covers one (1 only); Russian =1 does not (one is also 21, 31…)', () => {
    const exact = '{count, plural, =1 {one file} other {# files}}';
    expect(plural(exact, exact, 'en')).toEqual([]);
    expect(
      plural(exact, '{count, plural, =1 {один файл} few {# файла} many {# файлов} other {# файла}}', 'ru'),
    ).toEqual(['plural-missing: Add the plural form "one" to {count}: ru needs "one", "few", "many", "other"']);
  });

  it('# lost in a form for many numbers; a form for one number may say it in words', () => {
    expect(plural(FILES, '{count, plural, one {eine Datei} other {# Dateien}}', 'de')).toEqual([]);
    expect(plural(FILES, '{count, plural, one {# Datei} other {Dateien}}', 'de')).toEqual([
      'plural-number: The plural form "other" of {count} lost the number: write # where the source has it',
    ]);
    // Russian `one` is 1, 21, 31…: it needs the number.
    expect(
      plural(FILES, '{count, plural, one {один файл} few {# файла} many {# файлов} other {# файла}}', 'ru'),
    ).toEqual(['plural-number: The plural form "one" of {count} lost the number: write # where the source has it']);
  });

  it('selectordinal: English ordinals need one, two, few, other', () => {
    const source = '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}';
    expect(plural(source, source, 'en')).toEqual([]);
    expect(plural(source, '{n, selectordinal, other {#.}}', 'de')).toEqual([]);
    expect(plural(source, '{n, selectordinal, one {#st} other {#th}}', 'en')).toEqual([
      'plural-missing: Add the plural forms "two", "few" to {n}: en needs "one", "two", "few", "other"',
    ]);
  });
});

// Placeholders by dialect: each case a real-world pattern, the wrong
// translation beside the right one (a true and a false positive side by side).
import { describe, expect, it } from 'vitest';
import { runChecks, type Dialect } from '../../../src/checks/index.js';
import { readPlaceholders } from '../../../src/checks/placeholders.js';

const ids = (source: string, target: string, targetLanguage = 'de', dialect: Dialect = 'auto') =>
  runChecks({ source, target, sourceLanguage: 'en', targetLanguage, dialect })
    .map((f) => f.check)
    .filter((c) => c.startsWith('placeholders') || c === 'icu-syntax');

// [dialect, source, good translation, bad translation, checks the bad one raises]
const CASES: [string, string, string, string, string[], string?, Dialect?][] = [
  ['ICU argument', 'Hello {name}', 'Hallo {name}', 'Hallo {nom}', ['placeholders-missing', 'placeholders-extra']],
  [
    'ICU typed argument',
    'Paid {amount, number, ::currency/EUR}',
    'Bezahlt {amount, number, ::currency/EUR}',
    'Bezahlt {amount}',
    ['placeholders-type'],
  ],
  [
    'ICU select',
    '{gender, select, male {He} female {She} other {They}} liked it',
    '{gender, select, male {Er} female {Sie} other {Sie}} mochte es',
    '{sex, select, male {Er} other {Sie}} mochte es',
    ['placeholders-missing', 'placeholders-extra'],
  ],
  [
    'ICU nested plural in select',
    '{g, select, other {{n, plural, one {# file} other {# files}}}}',
    '{g, select, other {{n, plural, one {# Datei} other {# Dateien}}}}',
    '{g, select, other {{n, select, one {# Datei} other {# Dateien}}}}',
    ['placeholders-type'],
  ],
  [
    'ICU syntax',
    '{n, plural, one {# file} other {# files}}',
    '{n, plural, one {# Datei} other {# Dateien}}',
    '{n, plural, one {# Datei} other {# Dateien}',
    ['placeholders-missing', 'icu-syntax'],
  ],
  ['C printf', '%s has %d files', '%s hat %d Dateien', '%s hat %s Dateien', ['placeholders-type']],
  ['C printf reordered', '%s has %d files', '%s hat %d Dateien', '%d Dateien hat %s', ['placeholders-order']],
  ['printf positional', '%1$s has %2$d files', '%2$d Dateien hat %1$s', '%2$s Dateien hat %1$s', ['placeholders-type']],
  [
    'printf unnumbered as positional',
    'Passwords imported: %d',
    'Импортировано паролей: %1$d',
    'Импортировано паролей: %2$d',
    ['placeholders-missing', 'placeholders-extra'],
    'ru',
  ],
  ['Java printf width', 'Total: %5.2f EUR', 'Summe: %5.2f EUR', 'Summe: %5.2d EUR', ['placeholders-type']],
  [
    'Python %(name)s',
    'Field must be at least %(min)d characters long.',
    'يجب أن يكون الحقل %(min)d حرفًا على الأقل.',
    'يجب أن يكون الحقل %(min)s حرفًا على الأقل.',
    ['placeholders-type'],
    'ar',
  ],
  [
    'Python {name}',
    'Hello {user}, you have {0} messages',
    'Hallo {user}, du hast {0} Nachrichten',
    'Hallo {benutzer}, du hast {0} Nachrichten',
    ['placeholders-missing', 'placeholders-extra'],
  ],
  ['Python {} auto-numbered', 'Copy {} to {}', 'Kopiere {} nach {}', 'Kopiere {} nach', ['placeholders-missing']],
  [
    'i18next {{x}}',
    'Welcome, {{name}}!',
    'Willkommen, {{ name }}!',
    'Willkommen, {{Name}}!',
    ['placeholders-missing', 'placeholders-extra'],
  ],
  [
    'i18next formatting',
    'Total {{amount, currency}}',
    'Summe {{amount, currency}}',
    'Summe {{amount}}',
    ['placeholders-type'],
  ],
  ['i18next nesting', 'See $t(common.help)', 'Siehe $t(common.help)', 'Siehe Hilfe', ['placeholders-missing']],
  [
    'Ruby %{x}',
    'Hello %{name}',
    'Bonjour %{name}',
    'Bonjour %{nom}',
    ['placeholders-missing', 'placeholders-extra'],
    'fr',
  ],
  [
    'Laravel :name',
    'The :attribute must be at least :min characters.',
    'Das Feld :attribute muss mindestens :min Zeichen haben.',
    'Das Feld :attribut muss mindestens :min Zeichen haben.',
    ['placeholders-missing', 'placeholders-extra'],
  ],
  [
    'Angular pipes',
    'Updated {{ date | date:"short" }}',
    'Aktualisiert {{ date | date:"short" }}',
    'Aktualisiert {{ date }}',
    ['placeholders-type'],
  ],
  [
    'Symfony {{ limit }}',
    'It should have {{ limit }} characters or more.',
    'Оно должно содержать {{ limit }} символов или больше.',
    'Оно должно содержать {{ max }} символов или больше.',
    ['placeholders-missing', 'placeholders-extra'],
    'ru',
  ],
  [
    'Qt %1 %n',
    '%n file(s) in %1',
    '%n Datei(en) in %1',
    '%n Datei(en) in %2',
    ['placeholders-missing', 'placeholders-extra'],
  ],
  ['iOS %@', '%@ %@ is now available', '%1$@ %2$@ ist verfügbar', '%1$@ ist verfügbar', ['placeholders-missing']],
  ['iOS %lld', '%lld commands found', '%lld Befehle gefunden', '%d Befehle gefunden', ['placeholders-type']],
  [
    'stringsdict variable',
    'You have %#@items@',
    'Sie haben %#@items@',
    'Sie haben %#@count@',
    ['placeholders-missing', 'placeholders-extra'],
  ],
  ['.NET format', 'Total {0:N2} of {1}', 'Summe {0:N2} von {1}', 'Summe {0:C} von {1}', ['placeholders-type']],
  ['.NET alignment', 'Name: {0,-10}', 'Name: {0,-10}', 'Name: {1,-10}', ['placeholders-missing', 'placeholders-extra']],
  [
    'gettext %d with space flag',
    'Deleted % d items',
    'Gelöscht % d Elemente',
    'Gelöscht Elemente',
    ['placeholders-missing'],
    'de',
    'gettext',
  ],
];

describe('placeholders by dialect', () => {
  for (const [name, source, good, bad, expected, language = 'de', dialect = 'auto'] of CASES) {
    it(`${name}: flags "${bad}", not "${good}"`, () => {
      expect(ids(source, good, language, dialect)).toEqual([]);
      expect(ids(source, bad, language, dialect).sort()).toEqual([...expected].sort());
    });
  }

  it('reads prose as prose: a percent sign, a colon, an apostrophe, escaped braces', () => {
    expect(ids('100% sure', '100 % sicher')).toEqual([]);
    expect(ids('Note:it works', 'Hinweis:es geht')).toEqual([]);
    expect(ids('Time 10:30', 'Zeit 10:30')).toEqual([]);
    expect(ids('Send :smile: to {name}', 'Envoyer :smile: à {name}', 'fr')).toEqual([]);
    // A French elision before a placeholder is not ICU quoting; .NET quotes its arguments with apostrophes.
    expect(ids('Edit {name}', "Modifier l'{name}", 'fr')).toEqual([]);
    expect(ids("The shell '{0}' is not supported.", 'Die Shell „{0}“ wird nicht unterstützt.')).toEqual([]);
    // %% is a percent sign in printf.
    expect(ids('%d%% done', '%d%% fertig')).toEqual([]);
    expect(ids('%d%% done', '%d fertig')).toEqual([]);
  });

  it('gives the span of an extra placeholder in the translation', () => {
    const [finding] = runChecks({
      source: 'Hi',
      target: 'Hallo {name}',
      sourceLanguage: 'en',
      targetLanguage: 'de',
    }).filter((f) => f.check === 'placeholders-extra');
    expect(finding).toMatchObject({ severity: 'error', span: { start: 6, end: 12 } });
  });

  it('tokenises each dialect with its name and type', () => {
    const read = (text: string) => readPlaceholders(text).tokens.map((t) => [t.key, t.type]);
    expect(read('%1$s %(n)d %@ %lld %s')).toEqual([
      ['printf:1', 's'],
      ['printf:n', 'd'],
      ['', '@'],
      ['', 'lld'],
      ['', 's'],
    ]);
    expect(read('{{x, number}} %{y} ${z} $t(a.b)')).toEqual([
      ['mustache:x', 'number'],
      ['ruby:y', ''],
      ['template:z', ''],
      ['nesting:a.b', ''],
    ]);
    expect(read('{0:N2} {1}')).toEqual([
      ['brace:0', 'N2'],
      ['brace:1', ''],
    ]);
    expect(read('{n, plural, one {# x} other {# xs}}').map(([k]) => k)).toEqual(['icu:n', 'icu:#', 'icu:#']);
  });
});

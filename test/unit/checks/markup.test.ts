// Markup: tags, attributes, character references, Markdown; right and wrong side by side.
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../../src/checks/index.js';

const found = (source: string, target: string, targetLanguage = 'de') =>
  runChecks({ source, target, sourceLanguage: 'en', targetLanguage })
    .filter((f) => f.check.startsWith('markup') || f.check === 'markdown')
    .map((f) => f.check);

describe('markup', () => {
  it('tags must be those of the source, properly nested', () => {
    expect(
      found(
        'Click <a href="/help">here</a> for <b>help</b>.',
        'Klicken Sie <a href="/help">hier</a>, um <b>Hilfe</b> zu erhalten.',
      ),
    ).toEqual([]);
    expect(found('Click <b>here</b>.', 'Klicken Sie hier.')).toEqual(['markup-tags']);
    expect(found('Click <b>here</b>.', 'Klicken Sie <b>hier</i>.')).toEqual([
      'markup-tags',
      'markup-tags',
      'markup-unbalanced',
    ]);
    expect(found('<b><i>Bold italic</i></b>', '<b><i>Fett kursiv</b></i>')).toEqual(['markup-unbalanced']);
    // Void elements and self-closing tags need no end tag.
    expect(found('Line<br>break<br/>', 'Zeilen<br>umbruch<br/>')).toEqual([]);
  });

  it("react-i18next's numbered tags (the corpus' broken Czech one)", () => {
    expect(
      found('You can also <2>force close</2> the account', 'Můžete také <2>vynutit uzavření</2> účtu', 'cs'),
    ).toEqual([]);
    expect(
      found('You can also <2>force close</2> the account', 'Můžete také <2>vynutit uzavření<2> účtu', 'cs'),
    ).toEqual(['markup-tags', 'markup-tags', 'markup-unbalanced']);
  });

  it('link targets, classes and ids stay; alt and title are translated', () => {
    expect(
      found('<a href="https://x.org" title="Home">Home</a>', '<a href="https://x.org" title="Startseite">Start</a>'),
    ).toEqual([]);
    expect(found('<img src="a.png" alt="A cat">', '<img src="a.png" alt="Eine Katze">')).toEqual([]);
    expect(found('<a href="https://x.org">Home</a>', '<a href="https://x.de">Start</a>')).toEqual([
      'markup-attributes',
    ]);
  });

  it('character references are known names or real code points', () => {
    expect(found('Tom &amp; Jerry&nbsp;&#8230;', 'Tom &amp; Jerry&nbsp;&#8230;')).toEqual([]);
    expect(found('Tom &amp; Jerry', 'Tom &amb; Jerry')).toEqual(['markup-entities']);
    expect(found('Tom &amp; Jerry', 'Tom &#1114112; Jerry')).toEqual(['markup-entities']);
    expect(found('Tom &amp; Jerry', 'Tom &amp Jerry')).toEqual(['markup-entities']);
    // An ampersand in prose is not a reference.
    expect(found('Tom & Jerry', 'Tom & Jerry')).toEqual([]);
  });

  it('Markdown links, bold and code spans are kept', () => {
    expect(
      found(
        'Read the [guide](https://x.org/guide) **now**, run `npm ci`.',
        'Lesen Sie die [Anleitung](https://x.org/guide) **jetzt**, führen Sie `npm ci` aus.',
      ),
    ).toEqual([]);
    expect(found('Read the [guide](https://x.org/guide).', 'Lesen Sie die Anleitung (https://x.org/guide).')).toEqual([
      'markdown',
    ]);
    expect(found('Run `bin/magento setup:di:compile`.', 'Führen Sie `bin/magento setup:di:compile‘ aus.')).toEqual([
      'markdown',
    ]);
  });
});

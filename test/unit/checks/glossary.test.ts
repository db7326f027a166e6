// The glossary check: required translations and forbidden terms on word
// boundaries in English, German and Japanese; each case beside the one that
// must not be flagged.
import { describe, expect, it } from 'vitest';
import { pairOf, runChecks } from '../../../src/checks/index.js';
import { glossaryCheck, glossaryProblems, type GlossaryCheckTerm } from '../../../src/checks/glossary.js';

const t = (term: string, translation: string | null, flags: Partial<GlossaryCheckTerm> = {}): GlossaryCheckTerm => ({
  term,
  translation,
  caseSensitive: false,
  abbreviation: false,
  forbidden: false,
  doNotTranslate: false,
  ...flags,
});
const messages = (source: string, target: string, terms: GlossaryCheckTerm[], targetLanguage = 'de') =>
  glossaryProblems(source, target, 'en', targetLanguage, terms).map((p) => p.message);

describe('glossary check', () => {
  const file = t('file', 'Datei');
  it('German: flags a missing required translation, accepts it inflected, refuses it inside a compound', () => {
    expect(messages('Delete the file', 'Das Dokument löschen', [file])).toEqual([
      'The glossary translates "file" as "Datei": it is not in the translation',
    ]);
    expect(messages('Delete the files', 'Die Dateien löschen', [file])).toEqual([]);
    expect(messages('Delete the file', 'Dateiname löschen', [file])).toHaveLength(1);
    // Not in the source: nothing required.
    expect(messages('Delete the profile', 'Das Profil löschen', [file])).toEqual([]);
  });

  it('flags a forbidden term in the translation with its span, not a word that contains it', () => {
    const banned = t('kill', 'töten', { forbidden: true });
    const [problem] = glossaryProblems('Stop the process', 'Den Prozess töten', 'en', 'de', [banned]);
    expect(problem).toEqual({
      message: '"töten" is a forbidden term in the glossary',
      text: { id: 'glossary.forbidden', params: { term: 'töten' } },
      span: { start: 12, end: 17 },
    });
    expect(messages('Stop the process', 'Den Prozess beenden', [banned])).toEqual([]);
    // English target, no translation given: the term itself is forbidden; "skill" is another word.
    expect(glossaryProblems('x', 'Kill it', 'en', 'en-GB', [t('kill', null, { forbidden: true })])).toHaveLength(1);
    expect(glossaryProblems('x', 'A new skill', 'en', 'en-GB', [t('kill', null, { forbidden: true })])).toEqual([]);
  });

  it('do-not-translate terms must stay as written', () => {
    const brand = t('Acme Cloud', null, { doNotTranslate: true });
    expect(messages('Open Acme Cloud', 'Acme Cloud öffnen', [brand])).toEqual([]);
    expect(messages('Open Acme Cloud', 'Acme Wolke öffnen', [brand])).toEqual([
      'The glossary says "Acme Cloud" is not translated: keep it as written',
    ]);
    expect(messages('Open Acme Cloud', 'ACME CLOUD öffnen', [brand])).toHaveLength(1);
  });

  it('Japanese: words found without spaces, not inside a longer word', () => {
    const jp = t('file', 'ファイル');
    expect(messages('Open the file', 'ファイルを開く', [jp], 'ja')).toEqual([]);
    expect(messages('Open the file', 'プロファイルを開く', [jp], 'ja')).toHaveLength(1);
    expect(glossaryProblems('Delete', '削除する', 'en', 'ja', [t('erase', '消去', { forbidden: true })])).toEqual([]);
    expect(glossaryProblems('Delete', '消去する', 'en', 'ja', [t('erase', '消去', { forbidden: true })])).toHaveLength(
      1,
    );
  });

  it('runs in the registry when the pair carries the glossary, and finds nothing without it', () => {
    const input = {
      source: 'Delete the file',
      target: 'Das Dokument löschen',
      sourceLanguage: 'en',
      targetLanguage: 'de',
    };
    expect(runChecks(input).map((f) => f.check)).not.toContain('glossary');
    expect(glossaryCheck.run({ ...pairOf(input), glossary: [file] } as never)).toHaveLength(1);
  });
});

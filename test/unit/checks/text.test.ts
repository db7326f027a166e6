// Text checks, language-aware; each with a translation that must pass beside one that must not.
import { describe, expect, it } from 'vitest';
import { activeChecks, CHECKS, runChecks, type CheckSettings } from '../../../src/checks/index.js';

const found = (
  source: string,
  target: string,
  targetLanguage = 'de',
  settings: CheckSettings = {},
  charactersLimit: number | null = null,
) => runChecks({ source, target, sourceLanguage: 'en', targetLanguage, charactersLimit }, settings).map((f) => f.check);

describe('text checks', () => {
  it('same as source: sentences, not names, shortcuts or single words', () => {
    expect(found('Help us improve!', 'Help us improve!', 'ru')).toEqual(['same-as-source']);
    expect(found('Help us improve!', 'Помогите нам стать лучше!', 'ru')).toEqual([]);
    for (const name of ['Apple Pay', 'The GNOME Project', 'Ctrl+Shift+S', 'OK', 'PDF', '@string/app_name'])
      expect(found(name, name)).toEqual([]);
    // British English may well read as the source.
    expect(
      runChecks({
        source: 'Open the file now',
        target: 'Open the file now',
        sourceLanguage: 'en',
        targetLanguage: 'en-GB',
      }),
    ).toEqual([]);
  });

  it('white space: only blanks, leading and trailing spaces, line breaks, double spaces', () => {
    expect(found('Save', '   ')).toEqual(['blank']);
    expect(found('Save', 'Speichern ')).toEqual(['trailing-space']);
    expect(found(' Save', 'Speichern')).toEqual(['leading-space']);
    expect(found('Save ', 'Speichern ')).toEqual([]);
    expect(found('Save\n', 'Speichern')).toEqual(['newlines']);
    expect(found('Save the file', 'Datei  speichern')).toEqual(['double-space']);
    expect(found('Save  the file', 'Datei  speichern')).toEqual([]);
  });

  it('end punctuation by language: 。 and ？ in Japanese, none needed in Thai, ; is a question in Greek', () => {
    expect(found('Are you sure?', 'Sind Sie sicher?')).toEqual([]);
    expect(found('Are you sure?', 'Sind Sie sicher.')).toEqual(['end-punctuation']);
    expect(found('Are you sure?', 'よろしいですか？', 'ja')).toEqual([]);
    expect(found('File saved.', 'ファイルを保存しました。', 'ja')).toEqual([]);
    expect(found('File saved.', 'ファイルを保存しました', 'ja')).toEqual([]);
    expect(found('Are you sure?', 'よろしいですか。', 'ja')).toEqual(['end-punctuation']);
    expect(found('File saved.', 'บันทึกไฟล์แล้ว', 'th')).toEqual([]);
    expect(found('Are you sure?', 'Είστε σίγουροι;', 'el')).toEqual([]);
    expect(found('Are you sure?', 'هل أنت متأكد؟', 'ar')).toEqual([]);
    // A placeholder at the end: "Last updated %s" may become "Last updated: %s".
    expect(found('Last updated %1$s', 'Последнее обновление: %1$s', 'ru')).toEqual([]);
  });

  it('Spanish opens questions and exclamations with ¿ and ¡', () => {
    expect(found('Are you sure?', '¿Estás seguro?', 'es')).toEqual([]);
    expect(found('Are you sure?', 'Estás seguro?', 'es')).toEqual(['inverted-marks']);
    expect(found('Welcome!', 'Bienvenido!', 'es')).toEqual(['inverted-marks']);
  });

  it('French spacing before : ; ! ? (off by default; Canadian French only before the colon)', () => {
    const on: CheckSettings = { 'french-spacing': 'info' };
    expect(found('Are you sure?', 'Êtes-vous sûr ?', 'fr')).toEqual([]);
    expect(found('Are you sure?', 'Êtes-vous sûr\u202f?', 'fr', on)).toEqual([]);
    expect(found('Are you sure?', 'Êtes-vous sûr?', 'fr', on)).toEqual(['french-spacing']);
    expect(found('Are you sure?', 'Êtes-vous sûr ?', 'fr', on)).toEqual(['french-spacing']);
    expect(found('Are you sure?', 'Êtes-vous sûr?', 'fr-CA', on)).toEqual([]);
    expect(found('Name:', 'Nom:', 'fr-CA', on)).toEqual(['french-spacing']);
  });

  it('brackets and quotes balanced, whatever the language pairs them with', () => {
    expect(found('Open (new)', 'Öffnen (neu)')).toEqual([]);
    expect(found('Open (new)', 'Öffnen (neu')).toEqual(['brackets']);
    expect(found('Say "hi"', 'Sag „hallo“')).toEqual([]);
    expect(found('Say "hi"', 'Скажи «привет»', 'ru')).toEqual([]);
    expect(found('Say "hi"', 'Скажи «привет', 'ru')).toEqual(['brackets']);
  });

  it('repeated words, except where the language doubles them', () => {
    expect(found('Delete the file', 'Löschen Sie die die Datei')).toEqual(['repeated-words']);
    expect(found('We wash', 'Nous nous lavons', 'fr')).toEqual([]);
  });

  it('URLs and e-mail addresses unchanged', () => {
    expect(found('See https://example.com/help.', 'Siehe https://example.com/help.')).toEqual([]);
    expect(found('See https://example.com/help.', 'Siehe https://example.de/hilfe.')).toEqual(['urls']);
    expect(found('Write to help@example.com.', 'Schreiben Sie an help@example.com.')).toEqual([]);
    expect(found('Write to help@example.com.', 'Schreiben Sie an hilfe@example.com.')).toEqual(['emails']);
  });

  it('numbers (off by default): separators and digits of other scripts are the same number', () => {
    const on: CheckSettings = { numbers: 'warning' };
    expect(found('Up to 1,000.5 MB', 'Bis zu 1.000,5 MB', 'de', on)).toEqual([]);
    expect(found('Up to 1,000 MB', 'حتى ١٬٠٠٠ ميغابايت', 'ar', on)).toEqual([]);
    expect(found('Delete 5 items', 'Удалить 6 элементов', 'ru', on)).toEqual(['numbers']);
    expect(found('Delete 5 items', 'Удалить 6 элементов', 'ru')).toEqual([]);
  });

  it('length: the characters limit counts characters; a text far longer than its source', () => {
    expect(found('Save', 'Speichern', 'de', {}, 9)).toEqual([]);
    expect(found('Save', 'Speichern!', 'de', {}, 9)).toEqual(['characters-limit', 'end-punctuation']);
    expect(found('😀 ok', '😀 gut', 'de', {}, 5)).toEqual([]);
    expect(found('Save file', 'Speichern Sie die Datei jetzt bitte sofort auf Ihrer Festplatte, danke')).toEqual([
      'length-ratio',
    ]);
    expect(found('保存', 'Speichern Sie die Datei')).toEqual([]);
  });

  it('invisible characters, except where the script needs them', () => {
    expect(found('Save', 'Spei\u200bchern')).toEqual(['invisible-characters']);
    expect(found('Save', '\u202eSpeichern')).toEqual(['invisible-characters']);
    expect(found('Save', 'می\u200cخواهم', 'fa')).toEqual([]);
    expect(found('Developer', 'מפתח\u200f', 'he')).toEqual([]);
    expect(found('Developer 👩‍💻', 'Entwicklerin 👩\u200d💻')).toEqual([]);
  });

  it('mixed scripts: a Cyrillic look-alike inside a Latin word', () => {
    expect(found('Password', 'P\u0430sswort')).toEqual(['mixed-scripts']);
    expect(found('Open in Chrome', 'Открыть в Chrome', 'ru')).toEqual([]);
  });
});

describe('settings', () => {
  it('turns checks off, on and to another severity', () => {
    expect(activeChecks().map((c) => c.definition.id)).not.toContain('numbers');
    expect(activeChecks({ numbers: 'info' }).find((c) => c.definition.id === 'numbers')?.severity).toBe('info');
    expect(activeChecks({ 'same-as-source': 'off' }).map((c) => c.definition.id)).not.toContain('same-as-source');
    const [finding] = runChecks(
      { source: 'Hi {name}', target: 'Hallo', sourceLanguage: 'en', targetLanguage: 'de' },
      { 'placeholders-missing': 'warning' },
    );
    expect(finding).toMatchObject({ check: 'placeholders-missing', severity: 'warning', span: null });
  });

  it('every check has an id, a title and a default severity', () => {
    expect(new Set(CHECKS.map((c) => c.id)).size).toBe(CHECKS.length);
    for (const c of CHECKS)
      expect(c).toMatchObject({
        id: expect.stringMatching(/^[a-z-]+$/),
        title: expect.any(String),
        severity: expect.stringMatching(/^(error|warning|info)$/),
      });
  });
});

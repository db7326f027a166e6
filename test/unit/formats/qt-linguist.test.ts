import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FormatError, type Bundle, type BundleKey, type ExportOption } from '../../../src/formats/model.js';
import { qtLinguist } from '../../../src/formats/qt-linguist.js';
import { hasXmllint, xmllintErrors } from './support/xmllint.js';
import { corpusPath } from '../../support/corpus.js';
import { cpuClock, PATHOLOGICAL_CPU_MS, HOSTILE_TEST_TIMEOUT } from './support/linear-cost.js';

const CORPUS = corpusPath('qt-ts');

async function parse(xml: string | Buffer, languageKey?: string, namespace?: string): Promise<Bundle> {
  return qtLinguist.parse(Buffer.isBuffer(xml) ? xml : Buffer.from(xml), {
    languageKey,
    namespace,
    options: new Set(),
  });
}

async function serialize(
  bundle: Bundle,
  options: ExportOption[] = ['INCLUDE_DESCRIPTIONS'],
  namespace?: string,
): Promise<string> {
  return (
    await qtLinguist.serialize(bundle, { languages: bundle.languages, options: new Set(options), namespace })
  ).toString('utf8');
}

function find(bundle: Bundle, namespace: string, key: string): BundleKey {
  const found = bundle.keys.find((k) => k.namespace === namespace && k.key === key);
  if (!found) throw new Error(`no key ${namespace}/${key}`);
  return found;
}

async function expectRoundTrip(bundle: Bundle, languageKey?: string): Promise<string> {
  const out = await serialize(bundle);
  expect(await parse(out, languageKey)).toEqual(bundle);
  if (hasXmllint) expect(xmllintErrors(Buffer.from(out))).toBe('');
  return out;
}

const ts = (language: string, contexts: string): string =>
  `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1"${language ? ` language="${language}"` : ''}>\n${contexts}\n</TS>\n`;

describe.skipIf(!existsSync(CORPUS))('Qt Linguist corpus files', () => {
  const file = (name: string): Buffer => readFileSync(`${CORPUS}/${name}`);

  it('lxqt-archiver (ar): contexts, escaped HTML, six Arabic numerus forms', async () => {
    const b = await parse(file('lxqt-archiver_ar.ts'));
    expect(b.languages).toEqual([{ key: 'ar' }]);
    expect(b.keys).toHaveLength(170);
    expect(new Set(b.keys.map((k) => k.namespace)).size).toBe(11);
    expect(find(b, 'AboutDialog', 'About').translations).toEqual({ ar: { text: 'عن' } });
    const html = b.keys.find((k) => k.key.startsWith('<html><head/><body><p><span style=" font-size:16pt'));
    expect(html?.translations.ar?.text).toBe('<span style=" font-size:16pt; font-weight:600;">مؤرشف لكسكيوتي</span>');
    expect(find(b, 'MainWindow', '%n file(s)').translations.ar?.text).toBe(
      '{count, plural, zero {ملف} one {# ملف} two {ملفان} few {# ملفات} many {# ملفات} other {# ملفات}}',
    );
    const out = await expectRoundTrip(b);
    expect(out).toContain('<numerusform>ملفان</numerusform>');
    expect(out).toContain('<numerusform>%n ملفات</numerusform>');
    expect(out).not.toMatch(/<numerusform>[^<]*#/);
    // the languageKey of the import wins over the file's language attribute
    expect((await parse(file('lxqt-archiver_ar.ts'), 'ar-EG')).languages).toEqual([{ key: 'ar-EG' }]);
  });

  it('lxqt-panel kbindicator (de): disambiguation comments and entities', async () => {
    const b = await parse(file('lxqt-panel_kbindicator_de.ts'));
    expect(b.keys).toHaveLength(21);
    expect(find(b, 'Content', 'C')).toEqual({
      key: 'C',
      namespace: 'Content',
      description: 'Label for CapsLock indicator',
      codeDescription: 'Label for CapsLock indicator',
      translations: { de: { text: 'C' } },
    });
    expect(find(b, 'Content', 'ScrollLock').translations.de?.text).toBe('Rollen-Taste');
    expect(find(b, 'KbdStateConfig', 'Show Caps Lock').translations.de?.text).toBe('Feststelltaste anzeigen');
    const flags = b.keys.find((k) => k.key.startsWith('File path pattern for country flags.'));
    expect(flags?.key).toContain('Must contain <strong>%1</strong> which');
    const out = await expectRoundTrip(b);
    expect(out).toContain(
      '        <source>C</source>\n        <comment>Label for CapsLock indicator</comment>\n        <translation>C</translation>',
    );
  });

  it('qtox (en): no language attribute, untranslated numerus messages', async () => {
    await expect(parse(file('qtox_en.ts'))).rejects.toThrow(/no language attribute: a languageKey is required/);
    const b = await parse(file('qtox_en.ts'), 'en');
    expect(b.keys.map((k) => `${k.namespace}/${k.key}`)).toEqual([
      'AddFriendForm/Ready to import %n contact(s), click send to confirm',
      'GroupChatForm/%n user(s) in chat',
      'GroupWidget/%n user(s) in chat',
      'NotificationEdgeWidget/Unread message(s)',
      'Widget/%n new friend request(s)',
      'Widget/%n new group invite(s)',
    ]);
    expect(b.keys.every((k) => Object.keys(k.translations).length === 0)).toBe(true);
    expect(find(b, 'GroupChatForm', '%n user(s) in chat').description).toBe('Number of users in chat');
    const out = await expectRoundTrip(b, 'en');
    expect(out).toContain(
      '<message numerus="yes">\n        <source>%n user(s) in chat</source>\n        <comment>Number of users in chat</comment>\n        <translation type="unfinished">\n            <numerusform></numerusform>\n            <numerusform></numerusform>\n        </translation>',
    );
  });
});

describe('Qt Linguist rules', () => {
  it('maps translation types to review status and deprecation; only an empty translation is unfinished', async () => {
    const b = await parse(
      ts(
        'de',
        `<context><name>Main</name>
    <message><source>Done</source><translation>Fertig</translation></message>
    <message><source>Draft</source><translation type="unfinished">Entwurf</translation></message>
    <message><source>Empty</source><translation type="unfinished"></translation></message>
    <message><source>Gone</source><translation type="vanished">Weg</translation></message>
    <message><source>Old</source><translation type="obsolete">Alt</translation></message>
</context>`,
      ),
    );
    expect(b.keys).toEqual([
      // Finished says nothing about the team's review: no status (the service keeps its own).
      { key: 'Done', namespace: 'Main', translations: { de: { text: 'Fertig' } } },
      { key: 'Draft', namespace: 'Main', translations: { de: { text: 'Entwurf', reviewStatus: 'NOT_REVIEWED' } } },
      { key: 'Empty', namespace: 'Main', translations: {} },
      { key: 'Gone', namespace: 'Main', deprecated: true, translations: { de: { text: 'Weg' } } },
      {
        key: 'Old',
        namespace: 'Main',
        deprecated: true,
        translations: { de: { text: 'Alt', reviewStatus: 'NOT_REVIEWED' } },
      },
    ]);
    const out = await serialize(b);
    // A non-empty text is finished whatever its review status: lrelease -nounfinished keeps it.
    expect(out).toContain('<source>Done</source>\n        <translation>Fertig</translation>');
    expect(out).toContain('<source>Draft</source>\n        <translation>Entwurf</translation>');
    expect(out).toContain('<source>Empty</source>\n        <translation type="unfinished"></translation>');
    expect(out).toContain('<translation type="vanished">Weg</translation>');
    expect(out).toContain('<translation type="vanished">Alt</translation>');
    expect(out).not.toContain('type="unfinished">E');
    const again = await parse(out);
    expect(again.keys.map((k) => [k.key, k.translations.de])).toEqual([
      ['Done', { text: 'Fertig' }],
      ['Draft', { text: 'Entwurf' }],
      ['Empty', undefined],
      ['Gone', { text: 'Weg' }],
      ['Old', { text: 'Alt' }],
    ]);
    const reviewed: Bundle = {
      languages: [{ key: 'de' }],
      keys: [
        { key: 'R', namespace: '', translations: { de: { text: 'Ja', reviewStatus: 'REVIEWED' } } },
        { key: 'N', namespace: '', translations: { de: { text: 'Nein', reviewStatus: 'NOT_REVIEWED' } } },
        { key: 'E', namespace: '', deprecated: true, translations: { de: { text: '', reviewStatus: 'REVIEWED' } } },
      ],
    };
    const written = await serialize(reviewed);
    expect(written).toContain('<translation>Ja</translation>');
    expect(written).toContain('<translation>Nein</translation>');
    expect(written).toContain('<source>E</source>\n        <translation type="obsolete"></translation>');
  });

  it('keeps comments, extra comments and messages told apart only by disambiguation', async () => {
    const b = await parse(
      ts(
        'fr',
        `<context><name>Menu</name>
    <message><location filename="a.cpp" line="3"/><source>Open</source><comment>verb</comment><extracomment>File menu item</extracomment><translatorcomment>mine</translatorcomment><translation>Ouvrir</translation></message>
    <message><source>Open</source><comment>adjective</comment><translation>Ouvert</translation></message>
    <message><source>Close</source><extracomment>Only for translators</extracomment><translation>Fermer</translation></message>
</context>`,
      ),
    );
    expect(b.keys).toEqual([
      {
        key: 'Open',
        namespace: 'Menu',
        description: 'verb\nFile menu item',
        codeDescription: 'verb',
        translations: { fr: { text: 'Ouvrir' } },
      },
      {
        key: 'Open [adjective]',
        namespace: 'Menu',
        description: 'adjective',
        codeDescription: 'adjective',
        translations: { fr: { text: 'Ouvert' } },
      },
      {
        key: 'Close',
        namespace: 'Menu',
        description: 'Only for translators',
        translations: { fr: { text: 'Fermer' } },
      },
    ]);
    const out = await expectRoundTrip(b);
    expect(out).toContain('<source>Open</source>\n        <comment>adjective</comment>');
    expect(out).toContain(
      '<source>Open</source>\n        <comment>verb</comment>\n        <extracomment>File menu item</extracomment>',
    );
    // extra comments only with INCLUDE_DESCRIPTIONS; the disambiguation always (it identifies the message)
    const plain = await serialize(b, []);
    expect(plain).not.toContain('<extracomment>');
    expect(plain).toContain('<comment>verb</comment>');
  });

  it('maps numerus forms by CLDR order with the last form as other', async () => {
    const numerus = (forms: string[]): string =>
      `<context><name>C</name><message numerus="yes"><source>%n file(s)</source><translation>${forms.map((f) => `<numerusform>${f}</numerusform>`).join('')}</translation></message></context>`;
    const ru = await parse(ts('ru', numerus(['%n файл', '%n файла', '%n файлов'])));
    // Qt's %n is ICU's #.
    expect(ru.keys[0]!.translations.ru?.text).toBe('{count, plural, one {# файл} few {# файла} other {# файлов}}');
    const fr = await parse(ts('fr_FR', numerus(['%n fichier', '%n fichiers'])));
    expect(fr.keys[0]!.translations.fr_FR?.text).toBe('{count, plural, one {# fichier} other {# fichiers}}');
    const ja = await parse(ts('ja', numerus(['%n ファイル'])));
    expect(ja.keys[0]!.translations.ja?.text).toBe('{count, plural, other {# ファイル}}');
    for (const b of [ru, fr, ja]) await expectRoundTrip(b);
    expect(await serialize(ru)).toContain(
      '<numerusform>%n файл</numerusform>\n            <numerusform>%n файла</numerusform>\n            <numerusform>%n файлов</numerusform>\n        </translation>',
    );
  });

  it("writes one numerus form per Qt form of the language, by Qt's rules where they differ from CLDR's", async () => {
    const plural = (language: string, text: string): Bundle => ({
      languages: [{ key: language }],
      keys: [{ key: '%n file(s)', namespace: '', translations: { [language]: { text } } }],
    });
    const forms = (out: string) => [...out.matchAll(/<numerusform>([^<]*)<\/numerusform>/g)].map((m) => m[1]);
    // French: Qt's forms are n <= 1 and the rest; CLDR's many (a million "de fichiers") has no form of its own.
    const fr = await serialize(
      plural('fr', '{count, plural, one {# fichier} many {# de fichiers} other {# fichiers}}'),
    );
    expect(forms(fr)).toEqual(['%n fichier', '%n fichiers']);
    // Latvian: Qt's first form is the singular, its third n = 0 (CLDR orders zero, one, other).
    const lv = await serialize(plural('lv', '{count, plural, zero {# failu} one {# fails} other {# faili}}'));
    expect(forms(lv)).toEqual(['%n fails', '%n faili', '%n failu']);
    expect((await parse(lv)).keys[0]!.translations.lv?.text).toBe(
      '{count, plural, zero {# failu} one {# fails} other {# faili}}',
    );
    // Hungarian: one Qt form (CLDR has one and other).
    expect(forms(await serialize(plural('hu', '{count, plural, one {# fájl} other {# fájl}}')))).toEqual(['%n fájl']);
    // Russian: Qt's third form is CLDR's many; a text without many gives it its other.
    expect(
      forms(await serialize(plural('ru', '{count, plural, one {# файл} few {# файла} other {# файлов}}'))),
    ).toEqual(['%n файл', '%n файла', '%n файлов']);
    // An untranslated numerus message has Qt's number of forms.
    const untranslated = await serialize({
      languages: [{ key: 'fr' }],
      keys: [{ key: '%n file(s)', namespace: '', translations: {} }],
    });
    expect(forms(untranslated)).toEqual(['', '']);
  });

  it('writes ICU plurals from other formats as numerus forms of the target language', async () => {
    const bundle: Bundle = {
      keys: [
        {
          key: '%n item(s)',
          namespace: 'List',
          translations: {
            pl: { text: '{count, plural, =0 {brak} one {# element} few {# elementy} other {# elementów}}' },
          },
        },
        { key: 'Title', namespace: '', description: 'Window title', translations: { pl: { text: 'Tytuł\nnowy' } } },
        { key: 'Untranslated', namespace: '', translations: { en: { text: 'x' } } },
      ],
      languages: [{ key: 'pl' }],
    };
    const out = await serialize(bundle, ['INCLUDE_DESCRIPTIONS', 'ESCAPE_NEW_LINES']);
    expect(out).toContain(
      '<message numerus="yes">\n        <source>%n item(s)</source>\n        <translation>\n            <numerusform>%n element</numerusform>\n            <numerusform>%n elementy</numerusform>\n            <numerusform>%n elementów</numerusform>\n        </translation>',
    );
    expect(out).toContain(
      '<context>\n    <name></name>\n    <message>\n        <source>Title</source>\n        <extracomment>Window title</extracomment>\n        <translation>Tytuł\\nnowy</translation>',
    );
    expect(out).toContain('<source>Untranslated</source>\n        <translation type="unfinished"></translation>');
    if (hasXmllint) expect(xmllintErrors(Buffer.from(out))).toBe('');
    const split = await serialize(bundle, [], 'List');
    expect(split).not.toContain('Title');
  });

  it('round-trips plural numbers (# <-> %n), literal # and %, named arguments and apostrophes', async () => {
    const texts: [string, string][] = [
      ['en', "{count, plural, one {'#'# item, 100% done} other {'#'# items, 100% done}}"],
      ['en', '{count, plural, one {{name} has # file} other {{name} has # files}}'],
      ['en', "{count, plural, one {It''s # \"file\" %1} other {It''s # files %1}}"],
      // Japanese has one Qt form.
      ['ja', '{count, plural, other {#個のファイル 😀}}'],
    ];
    for (const [language, text] of texts) {
      const b: Bundle = {
        languages: [{ key: language }],
        keys: [{ key: '%n file(s)', namespace: 'C', translations: { [language]: { text } } }],
      };
      const out = await serialize(b);
      expect(out).toContain('%n');
      expect((await parse(out)).keys[0]!.translations[language]?.text).toBe(text);
      if (hasXmllint) expect(xmllintErrors(Buffer.from(out))).toBe('');
    }
    const out = await serialize({
      languages: [{ key: 'en' }],
      keys: [{ key: 'k', namespace: '', translations: { en: { text: texts[0]![1] } } }],
    });
    expect(out).toContain(
      '<numerusform>#%n item, 100% done</numerusform>\n            <numerusform>#%n items, 100% done</numerusform>',
    );
    // Every %n of a form is the number (Qt fills them all).
    const twice = await parse(
      ts(
        'en',
        '<context><name>C</name><message numerus="yes"><source>s</source><translation><numerusform>%n of %n</numerusform><numerusform>%n of %n, %1</numerusform></translation></message></context>',
      ),
    );
    expect(twice.keys[0]!.translations.en?.text).toBe('{count, plural, one {# of #} other {# of #, %1}}');
  });

  it('decodes <byte/> control characters and length variants, and writes bytes back', async () => {
    const b = await parse(
      ts(
        'de',
        `<context><name>C</name>
    <message><source>Bell<byte value="x7"/>!</source><translation variants="yes"><lengthvariant>Lange Fassung</lengthvariant><lengthvariant>Kurz</lengthvariant></translation></message>
</context>`,
      ),
    );
    expect(b.keys[0]).toMatchObject({ key: 'Bell\u0007!', translations: { de: { text: 'Lange Fassung' } } });
    const out = await expectRoundTrip(b);
    expect(out).toContain('<source>Bell<byte value="x7"/>!</source>');
  });

  it('uses the import namespace for contexts without a name', async () => {
    const b = await parse(
      ts('de', '<context><name></name><message><source>A</source><translation>B</translation></message></context>'),
      undefined,
      'ns',
    );
    expect(b.keys[0]!.namespace).toBe('ns');
  });

  it(
    'refuses broken and hostile files with FormatError',
    async () => {
      await expect(parse('<resources/>', 'de')).rejects.toThrow(/expected <TS>/);
      await expect(
        parse(ts('de', '<context><name>C</name><message><translation>x</translation></message></context>')),
      ).rejects.toThrow(/<message> without <source> \(line 4/);
      await expect(
        parse(ts('de', '<context><name>C</name>\n<message><source>x</source></mesage></context>')),
      ).rejects.toThrow(/Malformed XML.*line 5/);
      await expect(
        parse(ts('de', '<context><name>C</name><message><source><byte value="zz"/></source></message></context>')),
      ).rejects.toBeInstanceOf(FormatError);
      const bomb = `<!DOCTYPE TS [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 8 }, (_, i) => `<!ENTITY ${'b'.repeat(i + 1)} "${`&${i ? 'b'.repeat(i) : 'a'};`.repeat(10)}">`).join('')}]><TS language="de"><context><name>&bbbbbbbb;</name></context></TS>`;
      const start = cpuClock();
      await expect(parse(bomb)).rejects.toThrow(/expands to more than/);
      expect(cpuClock() - start).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );
});

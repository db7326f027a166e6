import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatError, type Bundle, type ExportOption, type ImportOption } from '../../../src/formats/model.js';
import { poPot } from '../../../src/formats/po.js';
import {
  compilePluralExpression,
  indexCategories,
  parsePluralFormsHeader,
  pluralFormsHeaderFor,
} from '../../../src/formats/gettext-plural.js';
import { parseIcuPlural, toIcuPlural } from '../../../src/formats/plural.js';
import { costRatio, cpuClock, PATHOLOGICAL_CPU_MS, HOSTILE_TEST_TIMEOUT } from './support/linear-cost.js';
import { corpusPath } from '../../support/corpus.js';
import { generatedBundle } from './support/bundles.js';

/** n keys under shared prefixes, with plurals and descriptions. */

const CORPUS = corpusPath('po');
const hasMsgfmt = (() => {
  try {
    execFileSync('msgfmt', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const parse = (text: string | Buffer, languageKey?: string, options: ImportOption[] = [], namespace?: string) =>
  poPot.parse(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), {
    languageKey,
    namespace,
    options: new Set(options),
  });
const serialize = async (bundle: Bundle, language: string, options: ExportOption[] = [], namespace?: string) =>
  (
    await poPot.serialize(bundle, {
      languages: [{ key: language }],
      options: new Set(options),
      ...(namespace !== undefined ? { namespace } : {}),
    })
  ).toString('utf8');
const find = (b: Bundle, key: string, namespace = '') => b.keys.find((k) => k.key === key && k.namespace === namespace);

function msgfmtCheck(po: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'po-'));
  const file = join(dir, 'out.po');
  writeFileSync(file, po);
  execFileSync('msgfmt', ['-c', '-o', join(dir, 'out.mo'), file], { stdio: 'pipe' });
}

/** What a PO import gives back for an export of `b` (reviewStatus aside). */
function comparable(b: Bundle, language: string) {
  return b.keys.map((k) => ({
    key: k.key,
    namespace: k.namespace,
    description: k.description,
    codeDescription: k.codeDescription,
    text: k.translations[language]?.text ?? '',
  }));
}

describe.skipIf(!existsSync(CORPUS))('po-pot: corpus files', () => {
  it('gnome-clocks_th.po: msgctxt namespaces, Thai single plural form, fuzzy, extracted comments, obsolete entries', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'gnome-clocks_th.po')), 'th');
    expect(b.languages).toEqual([{ key: 'th' }]);
    expect(find(b, 'Clocks')?.translations.th).toEqual({ text: 'นาฬิกา', reviewStatus: 'REVIEWED' });
    expect(find(b, 'General', 'shortcut window')?.translations.th?.text).toBe('ทั่วไป');
    expect(find(b, 'M', 'Alarm|Repeat-On|Monday')).toBeDefined();
    // nplurals=1: index 0 is CLDR `other` for Thai.
    expect(find(b, '%s hour behind')?.translations.th?.text).toBe(toIcuPlural({ other: 'ช้ากว่า %s ชั่วโมง' }));
    expect(find(b, '%s hour ahead')?.codeDescription).toBe(
      'Translators: The (possibly fractical) number hours in the\nfuture (relative to local) the clock/location is',
    );
    // Active fuzzy entry with a previous msgid.
    expect(find(b, 'Mystery')?.translations.th).toEqual({ text: 'เมื่อวานนี้', reviewStatus: 'NOT_REVIEWED' });
    // Untranslated entry: key with an empty text.
    expect(find(b, 'Beep-Beep')?.translations.th).toEqual({ text: '' });
    // Multi-line msgid / msgstr are joined.
    expect(
      find(b, 'A simple and elegant clock application. It includes world clocks, alarms, a stopwatch, and timers.')
        ?.translations.th?.text,
    ).toBe('แอปพลิเคชันนาฬิกาที่เรียบง่ายและสวยงาม ซึ่งรวมถึงนาฬิกาทั่วโลก, นาฬิกาปลุก, นาฬิกาจับเวลา และนาฬิกานับถอยหลัง');
    // Obsolete (#~) entries and the header are not keys.
    expect(find(b, ' and ')).toBeUndefined();
    expect(find(b, '%s day')).toBeUndefined();
    expect(find(b, '')).toBeUndefined();
    expect(b.keys.filter((k) => k.namespace !== '').length).toBe(27);
  });

  it('wtforms_ar.po: language from the header, six Arabic forms mapped through Plural-Forms, fuzzy plural', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'wtforms_ar.po')));
    expect(b.languages).toEqual([{ key: 'ar' }]);
    const forms = parseIcuPlural(
      find(b, 'Field must be at least %(min)d character long.')!.translations.ar!.text,
    )!.forms;
    expect(forms).toEqual({
      zero: 'لا يمكن للحقل ان يحتوي على اقل من %(min)d حرف.',
      one: 'لا يمكن للحقل ان يحتوي على اقل من %(min)d حروف.',
      two: '',
      few: '',
      many: '',
      other: '',
    });
    expect(find(b, 'This field cannot be edited.')?.translations.ar?.reviewStatus).toBe('NOT_REVIEWED');
    const fuzzyPlural = find(b, "'%(value)s' is not a valid choice for this field.")!.translations.ar!;
    expect(fuzzyPlural.reviewStatus).toBe('NOT_REVIEWED');
    expect(parseIcuPlural(fuzzyPlural.text)?.forms.zero).toBe("القيمة '%(value)s' ليست باختيار صحيح لهذا الحقل.");
    expect(find(b, "Invalid field name '%s'.")?.translations.ar).toEqual({
      text: "اسم الحقل '%s' غير صالح.",
      reviewStatus: 'REVIEWED',
    });
  });

  it('uranium.pot: a template imports keys with empty texts, msgctxt kept, placeholder Plural-Forms tolerated', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'uranium.pot')), 'en');
    expect(b.keys.length).toBe(170);
    expect(b.keys.every((k) => k.translations.en?.text === '' && k.translations.en.reviewStatus === undefined)).toBe(
      true,
    );
    expect(find(b, 'Abort', '@option')).toBeDefined();
    expect(find(b, '{0} hour', '@label Long duration format. {0} is hours')?.translations.en?.text).toBe('');
  });

  it('wtforms.pot: Babel template without Plural-Forms', async () => {
    const b = await parse(readFileSync(join(CORPUS, 'wtforms.pot')), 'en');
    expect(b.keys.length).toBe(36);
    expect(find(b, 'Field must be equal to %(other_name)s.')?.translations.en?.text).toBe('');
  });

  it.skipIf(!hasMsgfmt)('every corpus file exports to a file msgfmt -c accepts, and re-imports the same', async () => {
    for (const [file, lang] of [
      ['gnome-clocks_th.po', 'th'],
      ['wtforms_ar.po', 'ar'],
      ['uranium.pot', 'en'],
      ['wtforms.pot', 'en'],
    ] as const) {
      const b = await parse(readFileSync(join(CORPUS, file)), lang);
      const out = await serialize(b, lang, ['INCLUDE_DESCRIPTIONS']);
      msgfmtCheck(out);
      const again = await parse(out, lang);
      expect(comparable(again, lang)).toEqual(comparable(b, lang));
    }
  });
});

describe('po-pot: hand-written files', () => {
  const file = `# translator notes on the header are ignored
msgid ""
msgstr ""
"Language: ru\\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

# A translator comment
#  indented second line
#. An extracted comment
#: src/app.c:10
#, c-format
msgctxt "menu"
msgid "Open"
msgstr "Открыть"

#, fuzzy
msgid "Close"
msgstr "Закрыть"

msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d файл"
msgstr[1] "%d файла"
msgstr[2] "%d файлов"

msgid "Tab\\tquote\\" backslash\\\\ newline\\n"
msgstr "a\\tb\\"c\\\\d\\ne\\101"

msgid "Untranslated"
msgstr ""
`;

  it('reads namespaces, comments, review status, escapes', async () => {
    const b = await parse(file, 'ru');
    expect(b.keys.map((k) => k.key)).toEqual([
      'Open',
      'Close',
      '%d file',
      'Tab\tquote" backslash\\ newline\n',
      'Untranslated',
    ]);
    expect(find(b, 'Open', 'menu')).toEqual({
      key: 'Open',
      namespace: 'menu',
      description: 'A translator comment\n indented second line',
      codeDescription: 'An extracted comment',
      translations: { ru: { text: 'Открыть', reviewStatus: 'REVIEWED' } },
    });
    expect(find(b, 'Close')?.translations.ru?.reviewStatus).toBe('NOT_REVIEWED');
    expect(find(b, 'Tab\tquote" backslash\\ newline\n')?.translations.ru?.text).toBe('a\tb"c\\d\neA');
    expect(find(b, 'Untranslated')?.translations.ru).toEqual({ text: '' });
  });

  it('maps Russian msgstr[n] to one/few/many and fills `other` (ICU needs it) from the last form', async () => {
    const b = await parse(file, 'ru');
    // gettext's %d is ICU's #.
    expect(find(b, '%d file')!.translations.ru!.text).toBe(
      '{count, plural, one {# файл} few {# файла} many {# файлов} other {# файлов}}',
    );
  });

  it('maps French (n > 1) forms to one/other, not to CLDR position one/many', async () => {
    const fr =
      'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\nmsgid "%d cat"\nmsgid_plural "%d cats"\nmsgstr[0] "%d chat"\nmsgstr[1] "%d chats"\n';
    const b = await parse(fr);
    expect(parseIcuPlural(find(b, '%d cat')!.translations.fr!.text)?.forms).toEqual({
      one: '# chat',
      other: '# chats',
    });
  });

  it('the languageKey option wins over the Language header; the import namespace applies without msgctxt', async () => {
    const b = await parse(
      'msgid ""\nmsgstr "Language: de\\n"\n\nmsgid "a"\nmsgstr "b"\n\nmsgctxt "x"\nmsgid "a"\nmsgstr "c"\n',
      'de-AT',
      [],
      'web',
    );
    expect(b.languages).toEqual([{ key: 'de-AT' }]);
    expect(find(b, 'a', 'web')?.translations['de-AT']?.text).toBe('b');
    expect(find(b, 'a', 'x')?.translations['de-AT']?.text).toBe('c');
  });

  it('accepts CRLF line ends and a BOM', async () => {
    const b = await parse(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('msgid "a"\r\nmsgstr "b"\r\n')]),
      'en',
    );
    expect(find(b, 'a')?.translations.en?.text).toBe('b');
  });

  it('decodes a file in its declared legacy charset', async () => {
    const latin = Buffer.concat([
      Buffer.from('msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\nmsgid "a"\nmsgstr "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"\n'),
    ]);
    expect(find(await parse(latin, 'fr'), 'a')?.translations.fr?.text).toBe('café');
  });
});

describe('po-pot: export', () => {
  const bundle: Bundle = {
    languages: [{ key: 'ru' }, { key: 'en' }],
    keys: [
      {
        key: 'Open',
        namespace: 'menu',
        description: 'Shown in the menu\n\nsecond paragraph',
        codeDescription: 'from code',
        translations: { ru: { text: 'Открыть', reviewStatus: 'NOT_REVIEWED' } },
      },
      // Russian gettext forms are one/few/many: `other` can only come back as the last form.
      {
        key: 'files',
        namespace: '',
        translations: {
          ru: { text: toIcuPlural({ one: '# файл', few: '# файла', many: '# файлов', other: '# файлов' }) },
          en: { text: toIcuPlural({ one: '# file', other: '# files' }) },
        },
      },
      { key: 'multi', namespace: '', translations: { ru: { text: 'line 1\nline 2 "quoted" \\ back\tslash' } } },
      { key: 'only-en-plural', namespace: '', translations: { en: { text: toIcuPlural({ one: 'a', other: 'b' }) } } },
      { key: 'missing', namespace: '', translations: {} },
    ],
  };

  it("writes a header with Language and the language's Plural-Forms, msgctxt, plural forms and comments", async () => {
    const out = await serialize(bundle, 'ru', ['INCLUDE_DESCRIPTIONS']);
    expect(out).toContain('"Language: ru\\n"');
    expect(out).toContain(`"Plural-Forms: ${pluralFormsHeaderFor('ru')}\\n"`);
    expect(out).toContain(
      '# Shown in the menu\n#\n# second paragraph\n#. from code\nmsgctxt "menu"\nmsgid "Open"\nmsgstr "Открыть"\n',
    );
    expect(out).toContain(
      'msgid "files"\nmsgid_plural "%d файлов"\nmsgstr[0] "%d файл"\nmsgstr[1] "%d файла"\nmsgstr[2] "%d файлов"\n',
    );
    expect(out).not.toMatch(/msgstr\[\d\] "[^"\n]*#/);
    expect(out).toContain('msgid "multi"\nmsgstr ""\n"line 1\\n"\n"line 2 \\"quoted\\" \\\\ back\\tslash"\n');
    // Plural in another language: plural shape with empty forms.
    expect(out).toContain(
      'msgid "only-en-plural"\nmsgid_plural "only-en-plural"\nmsgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n',
    );
    expect(out).toContain('msgid "missing"\nmsgstr ""\n');
    expect(out).not.toContain('fuzzy');
  });

  it('leaves descriptions out without INCLUDE_DESCRIPTIONS, and msgctxt out for the namespace the file is split by', async () => {
    const out = await serialize({ languages: [{ key: 'ru' }], keys: [bundle.keys[0]!] }, 'ru', [], 'menu');
    expect(out).not.toContain('msgctxt');
    expect(out).not.toContain('Shown in the menu');
    const back = await parse(out, 'ru', [], 'menu');
    expect(find(back, 'Open', 'menu')?.translations.ru?.text).toBe('Открыть');
  });

  it('round-trips keys, namespaces, plural forms, descriptions and texts', async () => {
    for (const lang of ['ru', 'en']) {
      const out = await serialize(bundle, lang, ['INCLUDE_DESCRIPTIONS']);
      const back = await parse(out, lang);
      expect(comparable(back, lang)).toEqual(comparable(bundle, lang));
    }
  });

  it('round-trips plurals of many languages through their Plural-Forms', async () => {
    for (const lang of ['ar', 'cy', 'ga', 'pl', 'cs', 'fr', 'ja', 'lv', 'sl', 'he', 'pt-BR', 'xx-unknown']) {
      const cats = indexCategories(parsePluralFormsHeader(pluralFormsHeaderFor(lang))!, lang).filter((c) => c !== null);
      const forms: Record<string, string> = Object.fromEntries(cats.map((c) => [c, `${lang} ${c}`]));
      // Where `other` is not a gettext form (ru, pl, ...), it reads back as the last form.
      forms.other ??= forms[cats[cats.length - 1]!]!;
      const b: Bundle = {
        languages: [{ key: lang }],
        keys: [{ key: 'k', namespace: '', translations: { [lang]: { text: toIcuPlural(forms) } } }],
      };
      const back = await parse(await serialize(b, lang), lang);
      expect(parseIcuPlural(back.keys[0]!.translations[lang]!.text)?.forms, lang).toEqual(forms);
    }
  });

  it('export and import cost grow linearly with the number of keys', async () => {
    expect(await costRatio((n) => serialize(generatedBundle(n), 'en', ['INCLUDE_DESCRIPTIONS']))).toBeLessThan(32);
    expect(await costRatio(async (n) => parse(await serialize(generatedBundle(n), 'en'), 'en'), 500)).toBeLessThan(32);
  }, 120_000);

  it.skipIf(!hasMsgfmt)('exported files pass msgfmt -c', async () => {
    for (const lang of ['ru', 'en', 'ar', 'fr', 'ja', 'pt-BR', 'cy', 'xx'])
      msgfmtCheck(await serialize(bundle, lang, ['INCLUDE_DESCRIPTIONS']));
    msgfmtCheck(await serialize({ languages: [], keys: [] }, 'de'));
  });
});

describe('po-pot: Plural-Forms table and expression interpreter', () => {
  it('every table entry agrees with CLDR for the integers 0..300', () => {
    for (const lang of [
      'en',
      'de',
      'fr',
      'pt',
      'pt-PT',
      'es',
      'it',
      'ru',
      'uk',
      'pl',
      'cs',
      'sk',
      'ro',
      'lt',
      'lv',
      'he',
      'sl',
      'gd',
      'ga',
      'ar',
      'cy',
      'is',
      'mk',
      'hr',
      'ja',
      'zh',
      'hi',
      'tr',
    ]) {
      const h = parsePluralFormsHeader(pluralFormsHeaderFor(lang))!;
      const f = compilePluralExpression(h.expression!);
      const cats = indexCategories(h, lang);
      const rules = new Intl.PluralRules(lang);
      for (let n = 0; n <= 300; n++) expect(cats[f(n)], `${lang} n=${n}`).toBe(rules.select(n));
    }
  });

  it('interprets C operators and precedence, rejects garbage and very deep nesting', () => {
    expect(compilePluralExpression('n%10==1 && n%100!=11 ? 0 : 1')(21)).toBe(0);
    expect(compilePluralExpression('!(n > 1) + 2 * 3 - 1')(0)).toBe(6);
    expect(compilePluralExpression('(n != 1)')(1)).toBe(0);
    expect(() => compilePluralExpression('n; rm -rf')).toThrow();
    expect(() => compilePluralExpression('EXPRESSION')).toThrow();
    expect(() => compilePluralExpression('('.repeat(500) + 'n' + ')'.repeat(500))).toThrow(/deeply/);
  });
});

describe('po-pot: malformed input', () => {
  const cases: [string, string, number][] = [
    ['msgid "a"\nmsgstr "b\n', 'Unterminated string', 2],
    ['msgid "a"\n\nmsgid "b"\nmsgstr ""\n', 'Second msgid', 3],
    ['msgstr "x"\nmsgid "a"\n', 'msgstr without msgid', 1],
    ['msgid "a"\nmsgstr "b"\n\nmsgid "c"\n', 'has no msgstr', 4],
    ['msgid "a"\nmsgstr "b"\nfoo "c"\n', 'Unexpected text', 3],
    ['msgid "a"\nmsgstr "b\\q"\n', 'Invalid escape', 2],
    ['msgid "a"\nmsgid_plural "as"\nmsgstr[1] "x"\n', 'Expected msgstr[0]', 3],
    ['msgid "a"\nmsgstr[0] "x"\n', 'without msgid_plural', 2],
    ['msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n', 'Duplicate message', 4],
    ['"orphan"\n', 'String without a keyword', 1],
  ];
  it.each(cases)('%j -> %s at line %i', async (text, message, line) => {
    const err = await parse(text, 'en').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).message).toContain(message);
    expect((err as FormatError).position?.line).toBe(line);
  });

  it('rejects invalid UTF-8 with its offset', async () => {
    const err = await parse(Buffer.from([0x6d, 0x73, 0x67, 0x69, 0x64, 0x20, 0x22, 0xc3, 0x28, 0x22]), 'en').catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).message).toContain('offset 7');
  });

  it('refuses a file without a language', async () => {
    await expect(parse('msgid "a"\nmsgstr "b"\n')).rejects.toThrow(FormatError);
  });

  it(
    'stays linear on a large file',
    async () => {
      const big = Array.from({ length: 50_000 }, (_, i) => `msgid "key ${i}"\nmsgstr "value ${i}"\n`).join('\n');
      const t = cpuClock();
      const b = await parse(big, 'en');
      expect(b.keys.length).toBe(50_000);
      expect(cpuClock() - t).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );
});

describe('po-pot: plural numbers (ICU # <-> %d)', () => {
  const one = (text: string, language = 'en'): Bundle => ({
    languages: [{ key: language }],
    keys: [{ key: 'k', namespace: '', translations: { [language]: { text } } }],
  });
  const msgstrs = (out: string): string[] =>
    [...out.matchAll(/^msgstr\[\d\] (".*")$/gm)].map((m) => JSON.parse(m[1]!) as string);

  it('writes # as %d (a literal % as %%) and reads the first integer placeholder back as #', async () => {
    const cases = [
      "{count, plural, one {'#'# file, 100% done} other {'#'# files, 100% done}}",
      '{count, plural, one {{name} has # file} other {{name} has # files}}',
      '{count, plural, one {%1$s has # file} other {%1$s has # files}}',
      "{count, plural, one {It''s # \"file\"} other {It''s # files}}",
    ];
    for (const text of cases) {
      const out = await serialize(one(text), 'en');
      expect(out).not.toMatch(/msgstr\[\d\] "[^"\n]*[^']#[^']/);
      expect((await parse(out, 'en')).keys[0]!.translations.en!.text).toBe(text);
    }
    expect(msgstrs(await serialize(one(cases[0]!), 'en'))).toEqual(['#%d file, 100%% done', '#%d files, 100%% done']);
    expect(msgstrs(await serialize(one(cases[2]!), 'en'))).toEqual(['%1$s has %2$d file', '%1$s has %2$d files']);
    const ar = '{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}';
    expect((await parse(await serialize(one(ar, 'ar'), 'ar'), 'ar')).keys[0]!.translations.ar!.text).toBe(ar);
    const read = await parse(
      'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\nmsgid "a"\nmsgid_plural "as"\nmsgstr[0] "%ld Datei (%%)"\nmsgstr[1] "%ld Dateien, %s"\n',
      'de',
    );
    expect(read.keys[0]!.translations.de!.text).toBe('{count, plural, one {# Datei (%)} other {# Dateien, %s}}');
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { android, androidStrings, androidXml } from '../../../src/formats/android.js';
import { isPlainAndroidText } from '../../../src/formats/android-text.js';
import {
  FormatError,
  type Bundle,
  type BundleKey,
  type ExportOption,
  type ImportOption,
} from '../../../src/formats/model.js';
import { hasXmllint, xmllintErrors } from './support/xmllint.js';
import { corpusPath } from '../../support/corpus.js';
import { cpuClock, PATHOLOGICAL_CPU_MS, HOSTILE_TEST_TIMEOUT } from './support/linear-cost.js';

const CORPUS = corpusPath('android');

async function parse(
  xml: string | Buffer,
  languageKey = 'en',
  options: ImportOption[] = [],
  namespace?: string,
): Promise<Bundle> {
  return android.parse(Buffer.isBuffer(xml) ? xml : Buffer.from(xml), {
    languageKey,
    namespace,
    options: new Set(options),
  });
}

async function serialize(
  bundle: Bundle,
  options: ExportOption[] = ['INCLUDE_DESCRIPTIONS'],
  namespace?: string,
): Promise<string> {
  return (
    await android.serialize(bundle, { languages: bundle.languages, options: new Set(options), namespace })
  ).toString('utf8');
}

function texts(bundle: Bundle, lang = 'en'): Record<string, string | undefined> {
  return Object.fromEntries(bundle.keys.map((k) => [k.key, k.translations[lang]?.text]));
}

function key(bundle: Bundle, name: string): BundleKey {
  const found = bundle.keys.find((k) => k.key === name);
  if (!found) throw new Error(`no key ${name}`);
  return found;
}

const res = (body: string): string => `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n${body}\n</resources>\n`;

/** The bundle as export writes it: string-array items after the strings and plurals (arrays come last). */
function arraysLast(bundle: Bundle): Bundle {
  const isItem = (k: BundleKey): boolean => /\[\d+\]$/.test(k.key);
  return { ...bundle, keys: [...bundle.keys.filter((k) => !isItem(k)), ...bundle.keys.filter(isItem)] };
}

async function expectRoundTrip(bundle: Bundle): Promise<string> {
  const out = await serialize(bundle);
  const again = await parse(out, bundle.languages[0]!.key);
  expect(again).toEqual(arraysLast(bundle));
  if (hasXmllint) expect(xmllintErrors(Buffer.from(out))).toBe('');
  return out;
}

describe.skipIf(!existsSync(CORPUS))('Android corpus files', () => {
  const file = (name: string): Buffer => readFileSync(`${CORPUS}/${name}`);

  it('termux: DOCTYPE entities, multi-line values, escapes and section comments', async () => {
    const b = await parse(file('termux_app_values_strings.xml'));
    expect(b.languages).toEqual([{ key: 'en' }]);
    expect(b.keys).toHaveLength(105);
    const t = texts(b);
    expect(t.application_name).toBe('Termux');
    expect(t.permission_run_command_description).toBe(
      'execute arbitrary commands within Termux environment and access files',
    );
    expect(t.bootstrap_error_not_primary_user_message).toBe(
      'Termux can only be run as the primary user. \nBootstrap binaries compiled for Termux have hardcoded $PREFIX path and cannot be installed under any path other than:\n%1$s.',
    );
    expect(t.error_display_over_other_apps_permission_not_granted_to_start_terminal).toContain(
      'requires "Display over other apps" permission',
    );
    expect(t.error_styling_not_installed).toBe('The Termux:Styling Plugin App is not installed.');
    expect(key(b, 'permission_run_command_label').description).toBe('Termux RUN_COMMAND permission');
    expect(key(b, 'shared_user_label').description).toBeUndefined();
    await expectRoundTrip(b);
  });

  it('duckduckgo (en): plurals, translatable=false, CDATA, inline markup, apostrophes', async () => {
    const b = await parse(file('duckduckgo_autofill_values_strings.xml'));
    const t = texts(b);
    expect(t.saveLoginDialogNotNow).toBe("Don't Save");
    expect(t.managementDisabledModeCta).toBe('<b>Set up in Settings</b>');
    expect(t.syncCredentialInvalidItemsWarningLink).toBe(
      '<annotation type="manage_passwords">Manage Passwords</annotation>',
    );
    expect(t.credentialManagementDeleteAllPasswordsSnackbarConfirmation).toBe(
      '{count, plural, one {# password deleted} other {# passwords deleted}}',
    );
    expect(t.credentialManagementDeleteAllPasswordsDialogFirstInstructionNotSyncedPlural).toBe(
      '{count, plural, other {Your passwords will be deleted from this device.}}',
    );
    expect(t.syncCredentialInvalidItemsWarning).toContain('exceeds the character limit.\n\n} other {');
    // CDATA wrapped in literal double quotes: the quotes are Android quoting; CDATA is stored without its wrapper.
    expect(t.autofillManagementImportPasswordsImportFromDesktopInstructionTwo).toBe(
      'Go to <b>Settings</b> > <b>Passwords</b>',
    );
    expect(t.importPasswordsProcessingResultDialogResultDuplicatesSkipped).toBe(
      'Skipped (duplicate or invalid): <b>%d</b>',
    );
    expect(key(b, 'importPasswordsProcessingResultDialogResultDuplicatesSkipped').tags).toEqual(['cdata=true']);
    // `&lt;br /&gt;` in the file is text, not markup, and must stay text on export.
    expect(t.passwords_import_promo_title).toBe('Bring your passwords from&lt;br /&gt;Google to DuckDuckGo');
    const survey = key(b, 'autofillManagementSurveyPromptTitle');
    expect(survey.tags).toEqual(['translatable=false']);
    expect(survey.description).toBe(
      'Autofill Management Survey Prompt, shown only to English locale so marked as not translatable',
    );
    const out = await expectRoundTrip(b);
    expect(out).toContain(
      '<string name="autofillManagementSurveyPromptTitle" translatable="false">Help us improve!</string>',
    );
    expect(out).toContain(
      '<string name="passwords_import_promo_title">Bring your passwords from&lt;br /&gt;Google to DuckDuckGo</string>',
    );
    expect(out).toContain('<string name="saveLoginDialogNotNow">Don\\\'t Save</string>');
    // Literal HTML stays literal: written back as one CDATA section.
    expect(out).toContain(
      '<string name="importPasswordsProcessingResultDialogResultDuplicatesSkipped"><![CDATA[Skipped (duplicate or invalid): <b>%d</b>]]></string>',
    );
    expect(out).toContain(
      '<string name="autofillManagementImportPasswordsImportFromDesktopInstructionTwo"><![CDATA[Go to <b>Settings</b> > <b>Passwords</b>]]></string>',
    );
  });

  it('duckduckgo (ru): four Russian plural forms', async () => {
    const b = await parse(file('duckduckgo_autofill_values-ru_strings.xml'), 'ru');
    expect(texts(b, 'ru').credentialManagementDeleteAllPasswordsSnackbarConfirmation).toBe(
      '{count, plural, one {Удален # пароль} few {Удалено # пароля} many {Удалено # паролей} other {Удалено паролей: #}}',
    );
    const out = await expectRoundTrip(b);
    // The count is `%d` again (alone in its item, `%1$d` and `%d` are the same argument).
    expect(out).toContain('<item quantity="few">Удалено %d пароля</item>');
  });

  it('thunderbird: string-arrays become name[i] keys and are regrouped on export', async () => {
    const b = await parse(file('thunderbird_arrays_general_settings_strings.xml'));
    const t = texts(b);
    expect(t['language_entries[0]']).toBe('@string/setting_language_system');
    expect(t['language_entries[1]']).toBe('Afrikaans');
    expect(t['language_entries[19]']).toBe('Ɛʋɛ');
    expect(key(b, 'language_entries[0]').tags).toEqual(['translatable=false']);
    expect(new Set(b.keys.map((k) => k.key.replace(/\[\d+\]$/, ''))).size).toBe(17);
    const out = await expectRoundTrip(b);
    expect(out.match(/<string-array /g)).toHaveLength(17);
    expect(out).toContain(
      '<string-array name="language_entries" translatable="false">\n        <item>@string/setting_language_system</item>\n        <item>Afrikaans</item>',
    );
  });
});

describe('Android values (aapt2 rules)', () => {
  it('resolves escapes', async () => {
    const b = await parse(
      res(String.raw`
    <string name="apos">Don\'t \"quote\" me</string>
    <string name="at">\@home</string>
    <string name="question">\?maybe</string>
    <string name="nl">one\ntwo\tthree</string>
    <string name="uni">caf\u00e9 \u2026 \\ back</string>
    <string name="other">\a\#</string>`),
    );
    expect(texts(b)).toEqual({
      apos: `Don't "quote" me`,
      at: '@home',
      question: '?maybe',
      nl: 'one\ntwo\tthree',
      uni: 'café … \\ back',
      other: 'a#',
    });
    await expectRoundTrip(b);
  });

  it('collapses whitespace outside double quotes and keeps it inside', async () => {
    const b = await parse(
      res(`
    <string name="collapsed">
        a   b
        c
    </string>
    <string name="quoted">"  two  spaces  "</string>
    <string name="mixed">keep "  this  " and   that</string>
    <string name="apostrophe_in_quotes">"it's"</string>
    <string name="escaped_nl_kept">line\\n</string>`),
    );
    expect(texts(b)).toEqual({
      collapsed: 'a b c',
      quoted: '  two  spaces  ',
      mixed: 'keep   this   and that',
      apostrophe_in_quotes: "it's",
      escaped_nl_kept: 'line\n',
    });
    const out = await expectRoundTrip(b);
    expect(out).toContain('<string name="quoted">"  two  spaces  "</string>');
  });

  it('keeps inline markup as an XML fragment, and CDATA content without its wrapper', async () => {
    const b = await parse(`<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="bold">Hello <b>bold\\'s</b> &amp; <i>it</i></string>
    <string name="xliff">Value: <xliff:g id="count" example="5">%1$d</xliff:g></string>
    <string name="cdata"><![CDATA[<a href=\\"https://x.example\\">link</a>]]></string>
    <string name="quoted_markup">" <b>x</b> "</string>
    <string name="entity">a &lt;b&gt; c</string>
</resources>`);
    expect(texts(b)).toEqual({
      bold: "Hello <b>bold's</b> &amp; <i>it</i>",
      xliff: 'Value: <xliff:g id="count" example="5">%1$d</xliff:g>',
      cdata: '<a href="https://x.example">link</a>',
      quoted_markup: ' <b>x</b> ',
      entity: 'a <b> c', // not a well-formed fragment: plain text
    });
    const out = await expectRoundTrip(b);
    // The prefix is declared where it is used: a streamed export writes <resources> before the texts.
    expect(out).toContain('<resources>\n');
    expect(out).toContain(
      '<string name="xliff" xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">Value: <xliff:g id="count" example="5">%1$d</xliff:g></string>',
    );
    expect(out).toContain('<string name="bold">Hello <b>bold\\\'s</b> &amp; <i>it</i></string>');
    expect(key(b, 'cdata').tags).toEqual(['cdata=true']);
    expect(key(b, 'bold').tags).toBeUndefined();
    expect(out).toContain('<string name="cdata"><![CDATA[<a href=\\"https://x.example\\">link</a>]]></string>');
    expect(out).toContain('<string name="entity">a &lt;b&gt; c</string>');
    expect(out).toContain('<string name="quoted_markup">" "<b>x</b>" "</string>');
  });

  it('takes the comment right before an element as its description', async () => {
    const b = await parse(
      res(`
    <!-- Section header -->

    <!-- Greeting on the home screen -->
    <string name="hello">Hello</string>
    <string name="no_comment">x</string>
    <!-- Detached comment -->

    <string name="after_blank_line">y</string>
    <!-- Counts files -->
    <plurals name="files"><item quantity="one">%d file</item><item quantity="other">%d files</item></plurals>
    <!-- Colors -->
    <string-array name="colors">
        <item>Red</item>
        <!-- Not the fruit -->
        <item>Orange</item>
    </string-array>`),
    );
    expect(b.keys.map((k) => [k.key, k.description])).toEqual([
      ['hello', 'Greeting on the home screen'],
      ['no_comment', undefined],
      ['after_blank_line', undefined],
      ['files', 'Counts files'],
      ['colors[0]', 'Colors'],
      ['colors[1]', 'Not the fruit'],
    ]);
    const out = await expectRoundTrip(b);
    expect(out).toContain('    <!-- Greeting on the home screen -->\n    <string name="hello">Hello</string>');
    expect(await serialize(b, [])).not.toContain('<!--');
  });

  it('imports plurals as ICU and string-arrays as indexed keys, with their flags', async () => {
    const b = await parse(
      res(`
    <plurals name="apples" translatable="false">
        <item quantity="one">%d apple</item>
        <item quantity="few">%d apples (few)</item>
        <item quantity="other">%d apples</item>
    </plurals>
    <plurals name="no_other"><item quantity="one">just one</item></plurals>
    <string name="fmt" formatted="false">100% %s</string>
    <string-array name="planets"><item>Mercury</item><item>"  Venus"</item><item/></string-array>
    <integer-array name="numbers"><item>1</item></integer-array>
    <dimen name="margin">4dp</dimen>
    <string name="empty"/>`),
    );
    expect(texts(b)).toEqual({
      apples: '{count, plural, one {# apple} few {# apples (few)} other {# apples}}',
      no_other: '{count, plural, one {just one} other {just one}}',
      fmt: '100% %s',
      'planets[0]': 'Mercury',
      'planets[1]': '  Venus',
      'planets[2]': '',
      empty: '',
    });
    expect(key(b, 'apples').tags).toEqual(['translatable=false']);
    expect(key(b, 'fmt').tags).toEqual(['formatted=false']);
    const out = await expectRoundTrip(b);
    expect(out).toContain('<plurals name="apples" translatable="false">');
    expect(out).toContain('<string name="fmt" formatted="false">100% %s</string>');
    expect(out).toContain(
      '<string-array name="planets">\n        <item>Mercury</item>\n        <item>"  Venus"</item>\n        <item></item>\n    </string-array>',
    );
  });

  it('uses the namespace of the import', async () => {
    const b = await parse(res('<string name="a">A</string>'), 'de', [], 'settings');
    expect(b.keys[0]).toMatchObject({ key: 'a', namespace: 'settings', translations: { de: { text: 'A' } } });
    expect((await parse(res('<string name="a">A</string>'))).keys[0]!.namespace).toBe('');
  });
});

describe('Android export', () => {
  const bundle = (keys: Array<Partial<BundleKey> & { key: string }>, lang = 'en'): Bundle => ({
    keys: keys.map((k) => ({ namespace: '', translations: {}, ...k })),
    languages: [{ key: lang }],
  });
  const en = (text: string) => ({ en: { text } });

  it('escapes what aapt2 would otherwise interpret', async () => {
    const b = bundle([
      { key: 'a', translations: en(`It's "fine" \\ ok`) },
      { key: 'b', translations: en('@not_a_reference') },
      { key: 'c', translations: en('@string/app_name') },
      { key: 'd', translations: en('?question') },
      { key: 'e', translations: en('  padded  ') },
      { key: 'f', translations: en('line1\nline2\ttab\r') },
      { key: 'g', translations: en('1 < 2 && 3 > 2') },
      { key: 'h', translations: en('Use <b> carefully') },
      { key: 'i', translations: en('Press <b>OK</b>') },
    ]);
    const out = await serialize(b);
    expect(out).toContain(String.raw`<string name="a">It\'s \"fine\" \\ ok</string>`);
    expect(out).toContain(String.raw`<string name="b">\@not_a_reference</string>`);
    expect(out).toContain('<string name="c">@string/app_name</string>');
    expect(out).toContain(String.raw`<string name="d">\?question</string>`);
    expect(out).toContain('<string name="e">"  padded  "</string>');
    expect(out).toContain(String.raw`<string name="f">line1\nline2\ttab\u000d</string>`);
    expect(out).toContain('<string name="g">1 &lt; 2 &amp;&amp; 3 &gt; 2</string>');
    expect(out).toContain('<string name="h">Use &lt;b&gt; carefully</string>');
    expect(out).toContain('<string name="i">Press <b>OK</b></string>');
    expect(texts(await parse(out))).toEqual(texts(b));
    if (hasXmllint) expect(xmllintErrors(Buffer.from(out))).toBe('');
  });

  it('writes a text as it is only when nothing in it needs escaping, quoting or reads as markup', async () => {
    // Every ASCII character, a few others, and the places where aapt2 treats them apart (first, last, doubled).
    const units = [
      ...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)),
      '\u00a0',
      'é',
      '😀',
      '\ud800',
      '\udc00',
      '\ufffe',
      '\uffff',
    ];
    const candidates = units.flatMap((c) => [c, `a${c}b`, `${c}x`, `x${c}`, `x${c}${c}y`]);
    const plain = candidates.filter(isPlainAndroidText);
    const out = await serialize(bundle(plain.map((text, i) => ({ key: `k${i}`, translations: en(text) }))));
    const read = texts(await parse(out));
    plain.forEach((text, i) => {
      expect(out).toContain(`<string name="k${i}">${text}</string>`);
      expect(read[`k${i}`]).toBe(text);
    });
    // What the escaping changes is never let through.
    for (const text of [
      "It's",
      'a"b',
      'a\\b',
      'a&b',
      'a<b',
      'a>b',
      'a\nb',
      'a\tb',
      'a\rb',
      '@x',
      '?x',
      '#x',
      ' x',
      'x ',
      'a  b',
      'a\ufffeb',
      'a\ud800b',
    ]) {
      expect(isPlainAndroidText(text), JSON.stringify(text)).toBe(false);
    }
    expect(plain).toContain('aéb');
    expect(plain).toContain('a{b');
  });

  it('reads back every plain text exactly, and markup after one normalisation (seeded fuzz)', async () => {
    const pieces = [
      ' ',
      '  ',
      '\n',
      '\t',
      '"',
      "'",
      '\\',
      '@',
      '?',
      'a',
      'é',
      '😀',
      '%1$s',
      '\\u',
      '<',
      '>',
      '&',
      '&amp;',
      '<b>',
      '</b>',
      '<br/>',
      '<![CDATA[x "y"]]>',
    ];
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const samples = Array.from({ length: 400 }, () =>
      Array.from({ length: 1 + random(8) }, () => pieces[random(pieces.length)]).join(''),
    );
    const b = bundle(samples.map((text, i) => ({ key: `k${i}`, translations: en(text) })));
    const once = await parse(await serialize(b));
    const twice = await parse(await serialize(once));
    expect(twice).toEqual(once);
    samples.forEach((text, i) => {
      if (!/[<&]/.test(text)) expect(once.keys[i]!.translations.en?.text).toBe(text);
    });
    if (hasXmllint) expect(xmllintErrors(Buffer.from(await serialize(b)))).toBe('');
  });

  it('quotes whitespace at the edges of markup values', async () => {
    const b = bundle([
      { key: 'a', translations: en(' Hello <b>World</b> ') },
      { key: 'b', translations: en('<b> spaced  out </b>') },
      { key: 'c', translations: en('a &amp;amp; b') },
    ]);
    const out = await serialize(b);
    expect(out).toContain('<string name="a">" Hello "<b>World</b>" "</string>');
    expect(texts(await parse(out))).toEqual(texts(b));
  });

  it('writes ICU plurals as <plurals>, omits untranslated keys and exact-number branches', async () => {
    const b = bundle([
      { key: 'files', translations: en('{count, plural, =0 {none} one {# file} other {# files}}') },
      { key: 'missing', translations: { de: { text: 'nur Deutsch' } } },
      { key: 'list[1]', translations: en('second') },
      { key: 'list[0]', translations: en('first') },
      { key: 'list[3]', translations: {} },
    ]);
    const out = await serialize(b);
    expect(out).toBe(
      res(`    <plurals name="files">
        <item quantity="one">%d file</item>
        <item quantity="other">%d files</item>
    </plurals>
    <string-array name="list">
        <item>first</item>
        <item>second</item>
        <item></item>
    </string-array>`).replace('\n\n', '\n'),
    );
  });

  it('writes only the namespace of a split export and skips duplicate names', async () => {
    const b = bundle([
      { key: 'a', namespace: 'one', translations: en('A1') },
      { key: 'a', namespace: 'two', translations: en('A2') },
    ]);
    expect(await serialize(b, [], 'two')).toContain('<string name="a">A2</string>');
    const all = await serialize(b);
    expect(all.match(/<string /g)).toHaveLength(1);
    expect(all).toContain('<string name="a">A1</string>');
  });

  it('makes descriptions safe for XML comments', async () => {
    const out = await serialize(bundle([{ key: 'a', description: 'use -- carefully', translations: en('x') }]));
    expect(out).toContain('<!-- use - - carefully -->');
    if (hasXmllint) expect(xmllintErrors(Buffer.from(out))).toBe('');
  });

  it('has the same behaviour under its three identifiers', async () => {
    expect([android.id, androidStrings.id, androidXml.id]).toEqual(['android', 'android-strings', 'android-xml']);
    for (const f of [android, androidStrings, androidXml]) {
      expect(f.multiLanguage).toBe(false);
      expect(f.extension).toBe('xml');
      const b = await f.parse(Buffer.from(res('<string name="k">v</string>')), {
        languageKey: 'fr',
        options: new Set(),
      });
      expect(b).toEqual({
        keys: [{ key: 'k', namespace: '', translations: { fr: { text: 'v' } } }],
        languages: [{ key: 'fr' }],
      });
    }
  });
});

describe('Android bad input', () => {
  const error = async (xml: string | Buffer): Promise<FormatError> => {
    try {
      await parse(xml);
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      return e as FormatError;
    }
    throw new Error('expected a FormatError');
  };

  it('refuses files that are not Android resources, with positions', async () => {
    expect((await error('<root/>')).message).toMatch(/expected <resources>/);
    expect((await error(res('<string>no name</string>'))).message).toMatch(
      /<string> without a name attribute \(line 3/,
    );
    expect((await error(res('<plurals name="p"><item quantity="lots">x</item></plurals>'))).message).toMatch(
      /invalid quantity "lots"/,
    );
    expect((await error(res('<string name="a">x</string>\n<string name="b">y</strin>'))).message).toMatch(
      /Malformed XML.*line 4/,
    );
    await expect(android.parse(Buffer.from(res('')), { options: new Set() })).rejects.toThrow(
      /languageKey is required/,
    );
  });

  it(
    'refuses entity bombs and external entities quickly',
    async () => {
      const lol = [
        '<!ENTITY l0 "lolololololol">',
        ...Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`),
      ].join('');
      const start = cpuClock();
      expect(
        (await error(`<!DOCTYPE resources [${lol}]><resources><string name="a">&l9;</string></resources>`)).message,
      ).toMatch(/expands to more than/);
      expect(cpuClock() - start).toBeLessThan(PATHOLOGICAL_CPU_MS);
      expect(
        (
          await error(
            '<!DOCTYPE resources [<!ENTITY x SYSTEM "file:///etc/hostname">]><resources><string name="a">&x;</string></resources>',
          )
        ).message,
      ).toMatch(/External entity/);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('refuses invalid UTF-8', async () => {
    const bytes = Buffer.concat([
      Buffer.from(res('<string name="a">caf')),
      Buffer.from([0xe9]),
      Buffer.from('</string>'),
    ]);
    expect((await error(bytes)).message).toMatch(/not valid UTF-8/);
  });
});

describe('Android plural placeholders (ICU # <-> %d)', () => {
  const one = (text: string): Bundle => ({
    languages: [{ key: 'en' }],
    keys: [{ key: 'p', namespace: '', translations: { en: { text } } }],
  });
  const items = (out: string): string[] =>
    [...out.matchAll(/<item quantity="(\w+)">(.*?)<\/item>/g)].map((m) => `${m[1]}: ${m[2]}`);

  it('writes # as %d and reads %d / %1$d back as #', async () => {
    const out = await serialize(one('{count, plural, one {# file} other {# files}}'));
    expect(items(out)).toEqual(['one: %d file', 'other: %d files']);
    expect(out).not.toMatch(/>[^<]*#/);
    const b = await parse(
      res('<plurals name="p"><item quantity="one">%1$d file</item><item quantity="other">%d files</item></plurals>'),
    );
    expect(texts(b).p).toBe('{count, plural, one {# file} other {# files}}');
  });

  it('takes only the first number placeholder of an item as the count', async () => {
    const b = await parse(
      res('<plurals name="p"><item quantity="other">%1$d of %2$d, %1$d again, %s</item></plurals>'),
    );
    expect(texts(b).p).toBe('{count, plural, other {# of %2$d, # again, %s}}');
    await expectRoundTrip(b);
  });

  it('uses a free position when the item has positional placeholders or the number twice (aapt refuses mixed ones)', async () => {
    expect(items(await serialize(one('{count, plural, one {%1$s has # file} other {%1$s has # files}}')))).toEqual([
      'one: %1$s has %2$d file',
      'other: %1$s has %2$d files',
    ]);
    expect(items(await serialize(one('{count, plural, other {# of #}}')))).toEqual(['other: %1$d of %1$d']);
    for (const text of [
      '{count, plural, one {%1$s has # file} other {%1$s has # files}}',
      '{count, plural, other {# of #}}',
    ]) {
      expect(texts(await parse(await serialize(one(text)))).p).toBe(text);
    }
  });

  it('round-trips literal #, %, apostrophes, named arguments and non-Latin text', async () => {
    const cases = [
      "{count, plural, one {'#'# item, 100% done} other {'#'# items, 100% done}}",
      '{count, plural, one {{name} has # file} other {{name} has # files}}',
      "{count, plural, one {It''s # \"file\" @home?} other {It''s # files}}",
      '{count, plural, zero {لا ملفات} one {ملف #} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}',
      '{count, plural, other {#個のファイル 😀}}',
      '{count, plural, one {50% of #} other {%%d and %s}}',
    ];
    for (const text of cases) {
      const out = await serialize(one(text));
      expect(texts(await parse(out)).p, out).toBe(text);
      if (hasXmllint) expect(xmllintErrors(Buffer.from(out))).toBe('');
    }
    const out = await serialize(one(cases[0]!));
    // A leading # is escaped: aapt reads a plural item starting with # as a color.
    expect(items(out)).toEqual(['one: \\#%d item, 100%% done', 'other: \\#%d items, 100%% done']);
    expect(items(await serialize(one(cases[1]!)))).toEqual(['one: {name} has %d file', 'other: {name} has %d files']);
    expect(items(await serialize(one(cases[5]!)))).toEqual(['one: 50%% of %d', 'other: %%d and %s']);
    // A printf count already in the stored ICU text is normalized to #, not lost.
    expect(texts(await parse(await serialize(one('{count, plural, one {%d file} other {%d files}}')))).p).toBe(
      '{count, plural, one {# file} other {# files}}',
    );
  });

  it('reads %% as a literal percent sign and a literal # as quoted ICU', async () => {
    const b = await parse(
      res('<plurals name="p"><item quantity="one">%d%% #1</item><item quantity="other">%d%% {x} {</item></plurals>'),
    );
    expect(texts(b).p).toBe("{count, plural, one {#% '#'1} other {#% {x} '{'}}");
  });
});

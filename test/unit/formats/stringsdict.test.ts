import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FormatError, type Bundle, type ExportOption } from '../../../src/formats/model.js';
import { parseIcuPlural } from '../../../src/formats/plural.js';
import { localizableStringsDict } from '../../../src/formats/stringsdict.js';
import { parseXml, childElements, textContent } from '../../../src/formats/xml-safe.js';
import { hasXmllint, xmllintErrors } from './support/xmllint.js';
import { costRatio, cpuClock, PATHOLOGICAL_CPU_MS, HOSTILE_TEST_TIMEOUT } from './support/linear-cost.js';
import { corpusPath } from '../../support/corpus.js';
import { bilingualBundle } from './support/bundles.js';

const CORPUS = corpusPath('stringsdict');
const parse = (input: string | Buffer, languageKey = 'en') =>
  localizableStringsDict.parse(typeof input === 'string' ? Buffer.from(input) : input, {
    languageKey,
    options: new Set(),
  });
const serialize = (bundle: Bundle, language: string, options: ExportOption[] = []) =>
  localizableStringsDict.serialize(bundle, { languages: [{ key: language }], options: new Set(options) });
const get = (b: Bundle, key: string) => b.keys.find((k) => k.key === key);

const plist = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n${body}\n</dict>\n</plist>\n`;
const pluralVar = (name: string, type: string | null, forms: Record<string, string>) =>
  `<key>${name}</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>${type ? `<key>NSStringFormatValueTypeKey</key><string>${type}</string>` : ''}${Object.entries(
    forms,
  )
    .map(([k, v]) => `<key>${k}</key><string>${v}</string>`)
    .join('')}</dict>`;
const entry = (key: string, format: string, ...vars: string[]) =>
  `<key>${key}</key><dict><key>NSStringLocalizedFormatKey</key><string>${format}</string>${vars.join('')}</dict>`;

/** The plist of an export as nested objects, to check the structure independently of our reader. */
function plistObject(xml: Buffer): unknown {
  const read = (el: ReturnType<typeof parseXml>['root']): unknown => {
    if (el.name === 'string' || el.name === 'key') return textContent(el);
    const kids = childElements(el);
    const out: Record<string, unknown> = {};
    for (let i = 0; i < kids.length; i += 2) out[textContent(kids[i]!)] = read(kids[i + 1]!);
    return out;
  };
  return read(childElements(parseXml(xml).root)[0]!);
}

/** n keys with plurals, namespaces, descriptions and review states. */

describe.skipIf(!existsSync(CORPUS))('localizable-strings-dict: corpus', () => {
  it('reads the DuckDuckGo Russian file: one/few/many/other, positional tokens, nested variables', async () => {
    const b = await parse(readFileSync(`${CORPUS}/duckduckgo-ios_ru_Localizable.stringsdict`), 'ru');
    expect(b.keys).toHaveLength(13);
    const items = get(b, 'bookmark.deleteFolderAlert.message')!;
    expect(parseIcuPlural(items.translations.ru!.text)).toEqual({
      argument: 'items',
      forms: {
        one: 'Вы точно хотите удалить эту папку с %1$d объектом?',
        few: 'Вы точно хотите удалить эту папку с %1$d объектами?',
        many: 'Вы точно хотите удалить эту папку с %1$d объектами?',
        other: 'Вы точно хотите удалить эту папку с объектами (%1$d)?',
      },
    });
    expect(items.codeDescription).toBe('Plural variables: {"items":{"type":"d"}}');
    const trackers = get(b, 'dax.onboarding.browsing.multiple.trackers')!;
    expect(trackers.codeDescription).toBe('Plural variables: {"count":{"position":"1","type":"d"}}');
    expect(parseIcuPlural(trackers.translations.ru!.text)?.forms.few).toContain('*%2$@, %3$@* и еще *%1$d сервиса*');
    expect(parseIcuPlural(trackers.translations.ru!.text)?.forms.few).toContain('\n\nНо мы их заблокировали!\n\n☝️');
    // %2$#@accounts@ inside each branch of %1$#@passwords@.
    const body = get(b, 'autofill.delete.all.passwords.confirmation.body')!;
    const outer = parseIcuPlural(body.translations.ru!.text)!;
    expect(outer.argument).toBe('passwords');
    expect(outer.forms.one).toBe(
      'Ваши пароли будут удалены с этого устройства. Убедитесь, что вы по-прежнему можете войти в свою {accounts, plural, one {учетную запись} few {учетные записи} many {учетные записи} other {учетные записи}}.',
    );
    expect(body.codeDescription).toBe(
      'Plural variables: {"passwords":{"position":"1$","type":"d"},"accounts":{"position":"2$","type":"d"}}',
    );
  });

  it('reads the Mastodon Arabic file: six categories, ld, text around and two variables', async () => {
    const b = await parse(readFileSync(`${CORPUS}/mastodon-ios_ar_Localizable.stringsdict`), 'ar');
    expect(b.keys).toHaveLength(30);
    const unread = parseIcuPlural(get(b, 'a11y.plural.count.unread.notification')!.translations.ar!.text)!;
    expect(Object.keys(unread.forms)).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    // The variable's number (%ld, its value type) is ICU's #.
    expect(unread.forms.few).toBe('# إشعارات غير مقروءة');
    expect(get(b, 'a11y.plural.count.unread.notification')!.codeDescription).toBe(
      'Plural variables: {"notification_count_unread_notification":{"type":"ld"}}',
    );
    expect(get(b, 'plural.count.metric_formatted.post')!.translations.ar!.text).toBe(
      '%@ {post_count, plural, zero {لا منشور} one {منشور} two {منشوران} few {منشورات} many {منشورًا} other {منشور}}',
    );
    const mutual = get(b, 'plural.count.followed_by_and_mutual')!.translations.ar!.text;
    expect(
      mutual.startsWith(
        '{names, plural, zero {} one {} two {} few {} many {} other {}}{count_mutual, plural, zero {مُتابَعٌ مِن قِبَلِ لَا أحَد}',
      ),
    ).toBe(true);
  });

  it('exports the corpus files back to equivalent plists (checked with xmllint and a generic reader)', async () => {
    for (const [file, lang] of [
      ['duckduckgo-ios_ru_Localizable.stringsdict', 'ru'],
      ['mastodon-ios_ar_Localizable.stringsdict', 'ar'],
    ] as const) {
      const input = readFileSync(`${CORPUS}/${file}`);
      const b = await parse(input, lang);
      const out = await serialize(b, lang, ['INCLUDE_DESCRIPTIONS']);
      expect(await parse(out, lang)).toEqual(b);
      // Same plist content as the original, apart from the order of keys inside variable dicts.
      const sortDeep = (v: unknown): unknown =>
        v && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .sort(([a], [c]) => a.localeCompare(c))
                .map(([k, x]) => [k, sortDeep(x)]),
            )
          : v;
      expect(sortDeep(plistObject(out))).toEqual(sortDeep(plistObject(input)));
    }
  });

  it.skipIf(!hasXmllint)('exports XML that xmllint accepts', async () => {
    const b = await parse(readFileSync(`${CORPUS}/mastodon-ios_ar_Localizable.stringsdict`), 'ar');
    expect(xmllintErrors(await serialize(b, 'ar'))).toBe('');
  });
});

describe('localizable-strings-dict: rules', () => {
  it('exports plain ICU plurals from other formats as %#@count@ with an inferred value type', async () => {
    const bundle: Bundle = {
      languages: [{ key: 'en' }],
      keys: [
        {
          key: 'files',
          namespace: '',
          translations: { en: { text: '{count, plural, one {%ld file} other {%ld files}}' } },
        },
        {
          key: 'arb.style',
          namespace: '',
          translations: { en: { text: '{n, plural, =0 {none} =1 {one item} =7 {seven} other {{n} items}}' } },
        },
        {
          key: 'embedded',
          namespace: '',
          translations: { en: { text: "Found {files, plural, one {%u file} other {%u files}} in '{'dir'}'" } },
        },
        { key: 'untranslated', namespace: '', translations: { de: { text: 'x' } } },
      ],
    };
    const out = await serialize(bundle, 'en');
    expect(plistObject(out)).toEqual({
      files: {
        NSStringLocalizedFormatKey: '%#@count@',
        count: {
          NSStringFormatSpecTypeKey: 'NSStringPluralRuleType',
          NSStringFormatValueTypeKey: 'ld',
          one: '%ld file',
          other: '%ld files',
        },
      },
      'arb.style': {
        NSStringLocalizedFormatKey: '%#@n@',
        n: {
          NSStringFormatSpecTypeKey: 'NSStringPluralRuleType',
          NSStringFormatValueTypeKey: 'd',
          zero: 'none',
          one: 'one item',
          other: '{n} items',
        },
      },
      embedded: {
        NSStringLocalizedFormatKey: 'Found %#@files@ in {dir}',
        files: {
          NSStringFormatSpecTypeKey: 'NSStringPluralRuleType',
          NSStringFormatValueTypeKey: 'u',
          one: '%u file',
          other: '%u files',
        },
      },
    });
    const again = await parse(out);
    // The printf count of the stored text reads back as ICU's number.
    expect(get(again, 'embedded')!.translations.en!.text).toBe(
      "Found {files, plural, one {# file} other {# files}} in '{'dir'}'",
    );
  });

  it('keeps formats without variables as plain text and reads device-specific rules as a select', async () => {
    const b = await parse(
      plist(
        [
          entry('plain', 'Just {text} &amp; 100%'),
          entry('unknown.var', 'Has %#@missing@ token'),
          '<key>device</key><dict><key>NSStringDeviceSpecificRuleType</key><dict><key>iphone</key><string>Tap</string><key>mac</key><string>Click</string><key>other</key><string>Press</string></dict></dict>',
          '<key>ignored</key><dict><key>Something</key><string>else</string></dict>',
        ].join('\n'),
      ),
    );
    expect(b.keys.map((k) => [k.key, k.translations.en!.text])).toEqual([
      ['plain', 'Just {text} & 100%'],
      ['unknown.var', 'Has %#@missing@ token'],
      ['device', '{device, select, iphone {Tap} mac {Click} other {Press}}'],
    ]);
    // Export writes plural/device entries only: plain texts belong in Localizable.strings.
    const out = await serialize(b, 'en');
    expect(Object.keys(plistObject(out) as object)).toEqual(['device']);
    const again = await parse(out);
    expect(again.keys).toEqual(b.keys.filter((k) => k.key === 'device'));
  });

  it('reads an XML comment before a key as description and writes it back with INCLUDE_DESCRIPTIONS', async () => {
    const b = await parse(
      plist(
        `<!-- Shown in the toolbar -->\n${entry('k', '%#@n@', pluralVar('n', 'd', { one: 'one -- dash', other: '%d' }))}`,
      ),
    );
    expect(get(b, 'k')).toEqual({
      key: 'k',
      namespace: '',
      description: 'Shown in the toolbar',
      codeDescription: 'Plural variables: {"n":{"type":"d"}}',
      translations: { en: { text: '{n, plural, one {one -- dash} other {#}}' } },
    });
    const plain = (await serialize(b, 'en')).toString();
    expect(plain).not.toContain('<!--');
    const withComments = await serialize({ ...b, keys: [{ ...b.keys[0]!, description: 'a -- b -' }] }, 'en', [
      'INCLUDE_DESCRIPTIONS',
    ]);
    expect(withComments.toString()).toContain('<!-- a - - b -  -->');
    expect(get(await parse(withComments), 'k')!.description).toBe('a - - b -');
  });

  it('round-trips several variables, positions, value types and descriptions', async () => {
    const input = plist(
      entry(
        'two',
        'Deleted %1$#@files@ from %2$#@folders@.',
        pluralVar('files', 'lu', { one: '%1$lu file', other: '%1$lu files' }),
        pluralVar('folders', 'lld', { zero: 'no folder', one: 'one folder', other: '%2$lld folders' }),
      ),
    );
    const b = await parse(input);
    expect(get(b, 'two')!.translations.en!.text).toBe(
      'Deleted {files, plural, one {%1$lu file} other {%1$lu files}} from {folders, plural, zero {no folder} one {one folder} other {%2$lld folders}}.',
    );
    const out = await serialize(b, 'en');
    expect(plistObject(out)).toEqual(plistObject(Buffer.from(input)));
    expect(await parse(out)).toEqual(b);
  });
});

describe('localizable-strings-dict: hostile and malformed input', () => {
  const error = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e,
    );

  it(
    'refuses a billion-laughs file quickly',
    async () => {
      const entities = [
        '<!ENTITY lol "lol">',
        ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
      ];
      const bomb = `<?xml version="1.0"?>\n<!DOCTYPE plist [\n${entities.join('\n')}\n]>\n<plist version="1.0"><dict><key>k</key><string>&lol9;</string></dict></plist>`;
      const start = cpuClock();
      const e = await error(parse(bomb));
      expect(e).toBeInstanceOf(FormatError);
      expect((e as Error).message).toMatch(/expands to more than/);
      expect(cpuClock() - start).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('refuses external entities', async () => {
    const xxe =
      '<?xml version="1.0"?>\n<!DOCTYPE plist [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<plist version="1.0"><dict><key>k</key><string>&xxe;</string></dict></plist>';
    expect(await error(parse(xxe))).toMatchObject({
      name: 'FormatError',
      message: expect.stringMatching(/External entity "xxe" is not allowed/),
    });
  });

  it(
    'refuses variables that expand exponentially',
    async () => {
      const vars = Array.from({ length: 40 }, (_, i) =>
        pluralVar(`v${i}`, 'd', { other: i === 39 ? 'end' : `%#@v${i + 1}@ and %#@v${i + 1}@` }),
      );
      const start = cpuClock();
      const e = await error(parse(plist(entry('bomb', '%#@v0@', ...vars))));
      expect(e).toBeInstanceOf(FormatError);
      expect((e as Error).message).toMatch(/plural variables of "bomb" expand to too much text/);
      expect(cpuClock() - start).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('keeps a self-referencing variable as a literal token', async () => {
    const b = await parse(plist(entry('loop', '%#@a@', pluralVar('a', 'd', { other: 'again %#@a@' }))));
    expect(b.keys[0]!.translations.en!.text).toBe("{a, plural, other {again %'#'@a@}}");
  });

  it('reports malformed XML and wrong plist structure with a position', async () => {
    expect(
      await error(parse('<plist version="1.0">\n<dict>\n<key>k</key>\n<string>unclosed</dict>\n</plist>')),
    ).toMatchObject({ name: 'FormatError', message: expect.stringMatching(/line 4/) });
    expect(await error(parse('<?xml version="1.0"?>\n<resources/>'))).toMatchObject({
      message: expect.stringMatching(/Not a property list.*<resources>.*\(line 2, column 1\)/),
    });
    expect(await error(parse(plist('<key>k</key>')))).toMatchObject({
      message: expect.stringMatching(/<key>k<\/key> has no value/),
    });
    expect(await error(parse(plist('<string>no key</string>')))).toMatchObject({
      message: expect.stringMatching(/Expected <key> in <dict>, found <string> \(line 5/),
    });
    expect(
      await error(
        parse(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<plist/>', 'utf16le'), Buffer.from([0x20])])),
      ),
    ).toMatchObject({ message: expect.stringMatching(/odd number of bytes/) });
  });
});

describe('localizable-strings-dict: cost', () => {
  it('exports in time linear in the number of keys', async () => {
    expect(await costRatio((n) => serialize(bilingualBundle(n), 'en', ['INCLUDE_DESCRIPTIONS']), 500)).toBeLessThan(32);
  }, 60_000);
});

describe('localizable-strings-dict: plural numbers (ICU # <-> %lld)', () => {
  const one = (text: string, codeDescription?: string): Bundle => ({
    languages: [{ key: 'en' }],
    keys: [
      { key: 'k', namespace: '', ...(codeDescription ? { codeDescription } : {}), translations: { en: { text } } },
    ],
  });

  it('writes # as %lld (Xcode) with value type lld, and reads it back as #', async () => {
    const text = "{count, plural, one {# file, 100% '#'1} other {# files, 100% '#'1 {name}}}";
    const out = await serialize(one(text), 'en');
    expect(plistObject(out)).toEqual({
      k: {
        NSStringLocalizedFormatKey: '%#@count@',
        count: {
          NSStringFormatSpecTypeKey: 'NSStringPluralRuleType',
          NSStringFormatValueTypeKey: 'lld',
          one: '%lld file, 100%% #1',
          other: '%lld files, 100%% #1 {name}',
        },
      },
    });
    expect((await parse(out)).keys[0]!.translations.en!.text).toBe(text);
  });

  it('reads %d, %i, %u, %ld and %lld as # and writes the recorded value type back', async () => {
    for (const type of ['d', 'i', 'u', 'ld', 'lld']) {
      const input = plist(
        entry('k', '%#@n@', pluralVar('n', type, { one: `%${type} item`, other: `%${type} items (%%)` })),
      );
      const b = await parse(input);
      expect(b.keys[0]!.translations.en!.text).toBe('{n, plural, one {# item} other {# items (%)}}');
      expect(plistObject(await serialize(b, 'en'))).toEqual(plistObject(Buffer.from(input)));
    }
  });

  it('keeps the number in text around and inside nested variables', async () => {
    const text = 'In {dirs, plural, one {# folder} other {# folders}}: {files, plural, one {# file} other {# files}}';
    const out = await serialize(one(text), 'en');
    const obj = plistObject(out) as Record<string, Record<string, Record<string, string>>>;
    expect(obj.k!.dirs!.other).toBe('%lld folders');
    expect(obj.k!.files!.one).toBe('%lld file');
    expect((await parse(out)).keys[0]!.translations.en!.text).toBe(text);
  });
});

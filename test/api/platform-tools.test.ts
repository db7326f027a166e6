// The platforms' own tools accept our exports. A project with plurals,
// placeholders ({name}, %s, %1$s, %d), apostrophes, double quotes, a leading
// @ ? #, a literal %, newlines and Japanese, Arabic and emoji text is imported
// and exported through the real service (/api/v2/import, /api/v4/export), and
// each exported file is handed to the tool that reads it on its platform:
//
//   aapt package / aapt2 compile  Android strings.xml (3 format ids): compiled
//                                 into a throw-away resource set; the compiled
//                                 values (aapt dump --values) are the texts
//   lrelease (+ -nounfinished)    Qt .ts: every translation compiled, none
//                                 unfinished; lconvert reads the .qm back
//   msgfmt -c --statistics        gettext PO: every translation compiled
//   plistutil                     .stringsdict: xml -> binary -> xml, then the
//                                 structure of the result is checked
//   php -l, php                   PHP array: lints, and PHP's own values
//   node import()                 javascript (.mjs) and module-exports (.cjs)
//   xmllint --noout               every XML format
//
// Each tool is also fed a known-bad file, to prove the check can fail.
// Locally a missing tool is a reported skip; in CI (CI=true) it is a failure:
// .ci/run installs the Debian packages.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseXml, type XmlElement } from '../../src/formats/xml-safe.js';
import { startTestService, type TestService } from '../support/service.js';
import { exportFiles, importOk } from '../support/transfer.js';

// ---- Tools -------------------------------------------------------------------

const IN_CI = process.env.CI === 'true';

/**
 * The first candidate whose `<tool> <probe>` succeeds, else null. (Debian's
 * /usr/bin/lrelease is qtchooser's wrapper, which fails when the Qt 5 tools
 * themselves are missing.)
 */
function findTool(candidates: string[], probe: string[]): string | null {
  for (const c of candidates) {
    const r = spawnSync(c, probe, { encoding: 'utf8', timeout: 10_000 });
    if (!r.error && r.status === 0) return c;
  }
  return null;
}

const TOOLS = {
  aapt: findTool(['aapt'], ['version']),
  aapt2: findTool(['aapt2'], ['version']),
  lrelease: findTool(['lrelease', '/usr/lib/qt5/bin/lrelease'], ['-version']),
  lconvert: findTool(['lconvert', '/usr/lib/qt5/bin/lconvert'], ['-h']),
  msgfmt: findTool(['msgfmt'], ['--version']),
  msgunfmt: findTool(['msgunfmt'], ['--version']),
  plistutil: findTool(['plistutil'], ['-h']),
  php: findTool(['php'], ['-v']),
  xmllint: findTool(['xmllint'], ['--version']),
};
type Tool = keyof typeof TOOLS;
const MISSING = (Object.keys(TOOLS) as Tool[]).filter((t) => !TOOLS[t]);
if (MISSING.length && !IN_CI) {
  console.warn(
    `platform-tools.test.ts: skipping the checks that need ${MISSING.join(', ')} (not installed; CI installs them, see .ci/run)`,
  );
}

/** `it` for a check needing tools: skipped (and saying so) locally when one is missing, run (and failing) in CI. */
function withTools(names: Tool[], title: string, fn: () => Promise<void> | void): void {
  const missing = names.filter((n) => !TOOLS[n]);
  if (missing.length && !IN_CI) {
    it.skip(`${title} [SKIPPED: ${missing.join(', ')} not installed; apt-get install aapt qttools5-dev-tools gettext libplist-utils php-cli libxml2-utils]`, () => {});
    return;
  }
  it(title, async () => {
    if (missing.length) throw new Error(`${missing.join(', ')} not installed: CI must install it (.ci/run)`);
    await fn();
  });
}

function run(tool: Tool, args: string[], cwd?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(TOOLS[tool]!, args, { encoding: 'utf8', cwd, timeout: 30_000 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

let work: string;
let counter = 0;
/** A fresh directory under the test's temp dir. */
function dir(name: string): string {
  const d = join(work, `${++counter}-${name}`);
  mkdirSync(d, { recursive: true });
  return d;
}

// ---- The project -------------------------------------------------------------

const PLURAL_KEYS = ['files', 'messages', 'done', 'sent'];

const TEXTS: Record<string, Record<string, string>> = {
  en: {
    greeting: 'Hello {name}!',
    apostrophe: `It's "quoted" & <fine>`,
    at_start: '@home',
    question_start: '?maybe',
    hash_start: '#1 choice',
    percent: '100% sure',
    printf_s: 'Hello %s',
    printf_positional: '%1$s sent %2$d photos',
    printf_d: '%d left',
    multiline: 'Line one\nLine two',
    emoji: 'Party 🎉',
    files: '{count, plural, one {# file} other {# files}}',
    messages: '{count, plural, one {{name} has # new message} other {{name} has # new messages}}',
    done: "{count, plural, one {'#'# item, 100% done} other {'#'# items, 100% done}}",
    sent: '{count, plural, one {%1$s sent # photo, it\'\'s "new"} other {%1$s sent # photos, it\'\'s "new"}}',
  },
  ja: {
    greeting: 'こんにちは、{name}さん！',
    apostrophe: "「引用」と'アポストロフィ' & <fine>",
    at_start: '@ホーム',
    question_start: '?たぶん',
    hash_start: '#1 の選択',
    percent: '100% 確実',
    printf_s: 'こんにちは %s',
    printf_positional: '%1$s が %2$d 枚の写真を送信しました',
    printf_d: '残り %d',
    multiline: '一行目\n二行目',
    emoji: 'パーティー 🎉',
    files: '{count, plural, other {#個のファイル}}',
    messages: '{count, plural, other {{name}さんに # 件の新着メッセージ}}',
    done: "{count, plural, other {'#'# 件、100% 完了}}",
    sent: '{count, plural, other {%1$s が # 枚の写真を送信}}',
  },
  ar: {
    greeting: 'مرحبا {name}!',
    apostrophe: 'إنها "مقتبسة" \' & <fine>',
    percent: '100% متأكد',
    printf_positional: 'أرسل %1$s %2$d صور',
    multiline: 'السطر الأول\nالسطر الثاني',
    files: '{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}',
    messages:
      '{count, plural, zero {لا رسائل لـ {name}} one {رسالة جديدة لـ {name}} two {رسالتان لـ {name}} few {# رسائل لـ {name}} many {# رسالة لـ {name}} other {# رسالة لـ {name}}}',
    done: "{count, plural, zero {لا شيء} one {عنصر '#'#} two {عنصران '#'#} few {# عناصر، 100%} many {# عنصرًا، 100%} other {# عنصر، 100%}}",
    // sent, emoji, at_start, question_start, hash_start, printf_s, printf_d: untranslated in Arabic
  },
};
const LANGUAGES = Object.keys(TEXTS);
const KEYS = Object.keys(TEXTS.en!);
/** Non-empty translations of a language. */
const translated = (language: string): string[] => KEYS.filter((k) => TEXTS[language]![k]);

/** What Android (getString / getQuantityString's pattern) must hold after compiling. */
const ANDROID_PLURALS: Record<string, Record<string, Record<string, string>>> = {
  en: {
    files: { one: '%d file', other: '%d files' },
    messages: { one: '{name} has %d new message', other: '{name} has %d new messages' },
    done: { one: '#%d item, 100%% done', other: '#%d items, 100%% done' },
    sent: { one: `%1$s sent %2$d photo, it's "new"`, other: `%1$s sent %2$d photos, it's "new"` },
  },
  ja: {
    files: { other: '%d個のファイル' },
    messages: { other: '{name}さんに %d 件の新着メッセージ' },
    done: { other: '#%d 件、100%% 完了' },
    sent: { other: '%1$s が %2$d 枚の写真を送信' },
  },
  ar: {
    files: { zero: 'لا ملفات', one: 'ملف واحد', two: 'ملفان', few: '%d ملفات', many: '%d ملفًا', other: '%d ملف' },
    messages: {
      zero: 'لا رسائل لـ {name}',
      one: 'رسالة جديدة لـ {name}',
      two: 'رسالتان لـ {name}',
      few: '%d رسائل لـ {name}',
      many: '%d رسالة لـ {name}',
      other: '%d رسالة لـ {name}',
    },
    done: {
      zero: 'لا شيء',
      one: 'عنصر #%d',
      two: 'عنصران #%d',
      few: '%d عناصر، 100%%',
      many: '%d عنصرًا، 100%%',
      other: '%d عنصر، 100%%',
    },
  },
};

let service: TestService;
let apiKey: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'platform-tools-'));
  service = await startTestService();
  const account = await service.account();
  ({ apiKey } = await account.project('platform tools'));
  for (const language of LANGUAGES) {
    const texts = Object.fromEntries(Object.entries(TEXTS[language]!).filter(([, t]) => t));
    await importOk(service, apiKey, JSON.stringify(texts), {
      uploadFormat: 'single-language-json',
      languageKey: language,
    });
  }
});
afterAll(async () => {
  await service?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The exported file of each language (single-language formats: one file per language). */
async function exportByLanguage(downloadFormat: string): Promise<Map<string, Buffer>> {
  const files = await exportFiles(service, apiKey, { downloadFormat });
  const out = new Map<string, Buffer>();
  for (const f of files) out.set(f.language ?? '', f.content);
  return out;
}

// ---- Android -----------------------------------------------------------------

const MANIFEST = '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.check"/>\n';
const QUANTITY: Record<string, string> = {
  '0x01000004': 'other',
  '0x01000005': 'zero',
  '0x01000006': 'one',
  '0x01000007': 'two',
  '0x01000008': 'few',
  '0x01000009': 'many',
};

/** Compiles a strings.xml into a throw-away resource set with aapt and aapt2. */
function compileAndroid(xml: Buffer | string): {
  aapt: ReturnType<typeof run>;
  aapt2: ReturnType<typeof run>;
  apk: string;
} {
  const d = dir('android');
  mkdirSync(join(d, 'res', 'values'), { recursive: true });
  writeFileSync(join(d, 'AndroidManifest.xml'), MANIFEST);
  writeFileSync(join(d, 'res', 'values', 'strings.xml'), xml);
  const aapt = run('aapt', ['package', '-f', '-M', 'AndroidManifest.xml', '-S', 'res', '-F', 'out.apk'], d);
  mkdirSync(join(d, 'compiled'));
  const aapt2 = run('aapt2', ['compile', join('res', 'values', 'strings.xml'), '-o', 'compiled'], d);
  return { aapt, aapt2, apk: join(d, 'out.apk') };
}

/** aapt's quoted dump text back to the string. */
function unescapeDump(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, e: string) =>
    e[0] === 'u' && e.length === 5
      ? String.fromCharCode(parseInt(e.slice(1), 16))
      : (({ n: '\n', t: '\t' } as Record<string, string>)[e] ?? e),
  );
}

/** The compiled values of an apk: strings by name, plurals by name and quantity. */
function compiledValues(apk: string): {
  strings: Record<string, string>;
  plurals: Record<string, Record<string, string>>;
} {
  const dump = run('aapt', ['dump', '--values', 'resources', apk]);
  expect(dump.status, dump.stderr).toBe(0);
  const strings: Record<string, string> = {};
  const plurals: Record<string, Record<string, string>> = {};
  let current: { kind: 'string' | 'plurals'; name: string } | null = null;
  for (const line of dump.stdout.split('\n')) {
    const res = /resource 0x[0-9a-f]+ [\w.]+:(string|plurals)\/(\w+):/.exec(line);
    if (res && !line.includes('spec resource')) {
      current = { kind: res[1] as 'string' | 'plurals', name: res[2]! };
      continue;
    }
    const item = /^\s+#\d+ \(Key=(0x[0-9a-f]+)\): \(string(?:8|16)\) "(.*)"$/.exec(line);
    if (item && current?.kind === 'plurals') {
      (plurals[current.name] ??= {})[QUANTITY[item[1]!]!] = unescapeDump(item[2]!);
      continue;
    }
    const str = /^\s+\(string(?:8|16)\) "(.*)"$/.exec(line);
    if (str && current?.kind === 'string') strings[current.name] = unescapeDump(str[1]!);
  }
  return { strings, plurals };
}

describe('Android: aapt compiles our strings.xml', () => {
  for (const format of ['android', 'android-strings', 'android-xml']) {
    withTools(
      ['aapt', 'aapt2'],
      `${format}: aapt package and aapt2 compile accept every language, and the compiled values are the texts`,
      async () => {
        const files = await exportByLanguage(format);
        expect([...files.keys()]).toEqual(LANGUAGES);
        for (const language of LANGUAGES) {
          const xml = files.get(language)!;
          expect(xml.toString()).not.toMatch(/<item quantity="\w+">[^<]*(?<![\\%])#(?!%)/); // no ICU # left in a plural item
          const { aapt, aapt2, apk } = compileAndroid(xml);
          expect(aapt.status, `aapt (${language}): ${aapt.stderr}`).toBe(0);
          expect(aapt2.status, `aapt2 (${language}): ${aapt2.stderr}`).toBe(0);
          const { strings, plurals } = compiledValues(apk);
          const expectedStrings = Object.fromEntries(
            translated(language)
              .filter((k) => !PLURAL_KEYS.includes(k))
              .map((k) => [k, TEXTS[language]![k]!]),
          );
          expect(strings).toEqual(expectedStrings);
          expect(plurals).toEqual(ANDROID_PLURALS[language]);
        }
      },
    );
  }

  withTools(
    ['aapt', 'aapt2'],
    'the check fails on known-bad files (literal # item, bare apostrophe, bare @, mixed non-positional placeholders)',
    () => {
      const res = (body: string) => `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    ${body}\n</resources>\n`;
      const bad = [
        [
          'plural item with ICU #',
          res('<plurals name="p"><item quantity="one"># file</item><item quantity="other"># files</item></plurals>'),
          'Color value not valid',
        ],
        ['unescaped apostrophe', res(`<string name="a">It's</string>`), 'Apostrophe not preceded by'],
        ['unescaped leading @', res('<string name="a">@home</string>'), 'No resource type specified'],
        ['several non-positional placeholders', res('<string name="a">%s sent %d</string>'), 'non-positional'],
      ] as const;
      for (const [what, xml, message] of bad) {
        const { aapt } = compileAndroid(xml);
        expect(aapt.status, what).not.toBe(0);
        expect(aapt.stderr, what).toContain(message);
      }
      // aapt2 compile alone catches the apostrophe too (references are only resolved when linking).
      expect(compileAndroid(bad[1][1]).aapt2.status).not.toBe(0);
    },
  );
});

// ---- Qt ----------------------------------------------------------------------

/** lrelease's summary: Generated N translation(s) (F finished and U unfinished). */
function lrelease(
  ts: Buffer | string,
  extra: string[] = [],
): { generated: number; finished: number; unfinished: number; qm: string; output: string } {
  const d = dir('qt');
  writeFileSync(join(d, 'app.ts'), ts);
  const r = run('lrelease', [...extra, 'app.ts', '-qm', 'app.qm'], d);
  const output = r.stdout + r.stderr;
  expect(r.status, output).toBe(0);
  const m = /Generated (\d+) translation\(s\) \((\d+) finished and (\d+) unfinished\)/.exec(output);
  if (!m) throw new Error(`unexpected lrelease output: ${output}`);
  return { generated: Number(m[1]), finished: Number(m[2]), unfinished: Number(m[3]), qm: join(d, 'app.qm'), output };
}

describe('Qt: lrelease compiles every translation', () => {
  withTools(
    ['lrelease', 'lconvert', 'xmllint'],
    'qt-linguist: every non-empty translation is compiled, also with -nounfinished, and %n is the number',
    async () => {
      const files = await exportByLanguage('qt-linguist');
      expect([...files.keys()]).toEqual(LANGUAGES);
      for (const language of LANGUAGES) {
        const ts = files.get(language)!;
        const n = translated(language).length;
        const all = lrelease(ts);
        expect(all, all.output).toMatchObject({ generated: n, finished: n, unfinished: 0 });
        const strict = lrelease(ts, ['-nounfinished']);
        expect(strict.generated, strict.output).toBe(n);
        // The compiled catalog read back by Qt's own converter: numerus forms carry %n, never #.
        const back = dir('qt-back');
        const conv = run('lconvert', ['-i', strict.qm, '-o', join(back, 'back.ts')]);
        expect(conv.status, conv.stderr).toBe(0);
        const { root } = parseXml(readFileSync(join(back, 'back.ts')));
        // Every compiled text: the numerus forms, or the translation (Japanese has one form, and lconvert writes it plain).
        const forms = elements(root, 'translation').flatMap((t) =>
          (elements(t, 'numerusform').length ? elements(t, 'numerusform') : [t]).map(text),
        );
        expect(elements(root, 'message')).toHaveLength(n);
        expect(forms).not.toContain(language === 'en' ? '# files' : language === 'ja' ? '#個のファイル' : '# ملف');
        expect(forms).toContain(language === 'en' ? '%n files' : language === 'ja' ? '%n個のファイル' : '%n ملف');
        expect(forms).toContain(
          language === 'en' ? '#%n item, 100% done' : language === 'ja' ? '#%n 件、100% 完了' : 'عنصر #%n',
        );
      }
    },
  );

  withTools(
    ['lrelease', 'lconvert'],
    "qt-linguist: plurals have Qt's forms where its rules are not CLDR's (French, Latvian, Hungarian): lrelease removes none, and reads back each form's text",
    async () => {
      const plurals: [string, string, string[]][] = [
        // CLDR's many (a million "de fichiers") has no Qt form: lrelease dropped the real plural after it.
        [
          'fr',
          '{count, plural, one {# fichier} many {# de fichiers} other {# fichiers}}',
          ['%n fichier', '%n fichiers'],
        ],
        // Qt's first Latvian form is the singular, its last n = 0.
        ['lv', '{count, plural, zero {# failu} one {# fails} other {# faili}}', ['%n fails', '%n faili', '%n failu']],
        // One Qt form.
        ['hu', '{count, plural, one {# fájl} other {# fájl}}', ['%n fájl']],
      ];
      const { apiKey } = await (await service.account()).project('qt-numerus-rules');
      await importOk(
        service,
        apiKey,
        JSON.stringify({
          format: 'project-backup-json',
          version: 1,
          languages: plurals.map(([language]) => ({ key: language })),
          keys: [
            {
              key: '%n file(s)',
              translations: Object.fromEntries(plurals.map(([language, text]) => [language, { text }])),
            },
          ],
        }),
        { uploadFormat: 'project-backup-json' },
      );
      const files = await exportFiles(service, apiKey, { downloadFormat: 'qt-linguist' });
      for (const [language, , expected] of plurals) {
        const compiled = lrelease(files.find((f) => f.language === language)!.content);
        expect(compiled.output).not.toMatch(/Removed plural forms/);
        const back = dir('qt-rules');
        const conv = run('lconvert', ['-i', compiled.qm, '-o', join(back, 'back.ts')]);
        expect(conv.status, conv.stderr).toBe(0);
        const { root } = parseXml(readFileSync(join(back, 'back.ts')));
        const translation = elements(root, 'translation')[0]!;
        const forms = elements(translation, 'numerusform').length
          ? elements(translation, 'numerusform').map(text)
          : [text(translation)];
        expect(forms, language).toEqual(expected);
      }
    },
  );

  withTools(
    ['lrelease'],
    'the check fails on the old export (non-empty NOT_REVIEWED texts marked unfinished are dropped by -nounfinished)',
    () => {
      const old = `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="de">\n<context>\n    <name></name>\n    <message>\n        <source>a</source>\n        <translation type="unfinished">A</translation>\n    </message>\n    <message>\n        <source>b</source>\n        <translation>B</translation>\n    </message>\n</context>\n</TS>\n`;
      expect(lrelease(old)).toMatchObject({ generated: 2, unfinished: 1 });
      expect(lrelease(old, ['-nounfinished']).generated).toBe(1);
    },
  );
});

// ---- gettext -----------------------------------------------------------------

describe('gettext: msgfmt -c compiles every translation', () => {
  withTools(
    ['msgfmt', 'msgunfmt'],
    'po-pot: msgfmt -c accepts every language and counts every translation; msgunfmt reads %d back',
    async () => {
      const files = await exportByLanguage('po-pot');
      expect([...files.keys()]).toEqual(LANGUAGES);
      for (const language of LANGUAGES) {
        const d = dir('po');
        const po = files.get(language)!;
        expect(po.toString()).not.toMatch(/^msgstr\[\d\] "(?:[^"\\]|\\.)*(?<!\\")#(?!%)/m);
        writeFileSync(join(d, 'app.po'), po);
        const r = run('msgfmt', ['-c', '--statistics', '-o', 'app.mo', 'app.po'], d);
        expect(r.status, r.stderr).toBe(0);
        const n = translated(language).length;
        const untranslated = KEYS.length - n;
        expect(r.stderr.trim()).toBe(
          `${n} translated messages${untranslated ? `, ${untranslated} untranslated messages` : ''}.`,
        );
        // The compiled catalog, read back by gettext itself: the plural forms carry %d.
        const back = run('msgunfmt', ['app.mo'], d);
        expect(back.status, back.stderr).toBe(0);
        const plural =
          language === 'en'
            ? ['msgstr[0] "%d file"', 'msgstr[1] "%d files"']
            : language === 'ja'
              ? ['msgstr[0] "%d個のファイル"']
              : ['msgstr[3] "%d ملفات"', 'msgstr[5] "%d ملف"'];
        for (const line of plural) expect(back.stdout).toContain(line);
        expect(back.stdout).toContain(
          language === 'ar'
            ? 'msgstr[1] "عنصر #%d"'
            : language === 'en'
              ? 'msgstr[1] "#%d items, 100%% done"'
              : 'msgstr[0] "#%d 件、100%% 完了"',
        );
      }
    },
  );

  withTools(['msgfmt'], 'the check fails on a known-bad file (plural forms not matching the header)', () => {
    const d = dir('po-bad');
    writeFileSync(
      join(d, 'bad.po'),
      'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=6; plural=(n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n%100 >= 3 && n%100 <= 10 ? 3 : n%100 >= 11 ? 4 : 5);\\n"\n\nmsgid "a"\nmsgid_plural "as"\nmsgstr[0] "x"\nmsgstr[1] "y"\n',
    );
    const r = run('msgfmt', ['-c', '-o', 'bad.mo', 'bad.po'], d);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/plural/);
  });
});

// ---- Apple -------------------------------------------------------------------

function elements(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (c.type !== 'element') continue;
    if (c.name === name) out.push(c);
    out.push(...elements(c, name));
  }
  return out;
}

function text(el: XmlElement): string {
  return el.children
    .map((c) => (c.type === 'text' || c.type === 'cdata' ? c.value : c.type === 'element' ? text(c) : ''))
    .join('');
}

/** A plist <dict> as an object (strings and nested dicts). */
function plistDict(el: XmlElement): Record<string, unknown> {
  const kids = el.children.filter((c): c is XmlElement => c.type === 'element');
  const out: Record<string, unknown> = {};
  for (let i = 0; i < kids.length; i += 2)
    out[text(kids[i]!)] = kids[i + 1]!.name === 'dict' ? plistDict(kids[i + 1]!) : text(kids[i + 1]!);
  return out;
}

describe('Apple: plistutil reads our .stringsdict', () => {
  withTools(
    ['plistutil'],
    'localizable-strings-dict: converts to binary and back; only plural keys, %lld for the number',
    async () => {
      const files = await exportByLanguage('localizable-strings-dict');
      expect([...files.keys()]).toEqual(LANGUAGES);
      for (const language of LANGUAGES) {
        const d = dir('plist');
        writeFileSync(join(d, 'Localizable.stringsdict'), files.get(language)!);
        const toBin = run('plistutil', ['-i', 'Localizable.stringsdict', '-o', 'bin.plist', '-f', 'bin'], d);
        expect(toBin.stdout + toBin.stderr).toBe('');
        expect(readFileSync(join(d, 'bin.plist')).subarray(0, 8).toString('latin1')).toBe('bplist00');
        const toXml = run('plistutil', ['-i', 'bin.plist', '-o', 'back.xml', '-f', 'xml'], d);
        expect(toXml.stdout + toXml.stderr).toBe('');
        const { root } = parseXml(readFileSync(join(d, 'back.xml')));
        const top = plistDict(root.children.find((c): c is XmlElement => c.type === 'element')!);
        expect(Object.keys(top)).toEqual(PLURAL_KEYS.filter((k) => TEXTS[language]![k]));
        for (const [key, entry] of Object.entries(top) as [string, Record<string, unknown>][]) {
          expect(entry.NSStringLocalizedFormatKey, key).toBe('%#@count@');
          const variable = entry.count as Record<string, string>;
          expect(variable.NSStringFormatSpecTypeKey).toBe('NSStringPluralRuleType');
          expect(variable.NSStringFormatValueTypeKey).toBe('lld');
          expect(variable.other).toBeTruthy();
        }
        const files_ = (top.files as Record<string, Record<string, string>>).count!;
        expect(files_.other).toBe(
          language === 'en' ? '%lld files' : language === 'ja' ? '%lld個のファイル' : '%lld ملف',
        );
        const done = (top.done as Record<string, Record<string, string>>).count!;
        expect(done.other).toBe(
          language === 'en'
            ? '#%lld items, 100%% done'
            : language === 'ja'
              ? '#%lld 件、100%% 完了'
              : '%lld عنصر، 100%%',
        );
      }
    },
  );

  withTools(['plistutil'], 'the check fails on a known-bad file (malformed plist)', () => {
    const d = dir('plist-bad');
    writeFileSync(
      join(d, 'bad.stringsdict'),
      '<?xml version="1.0"?>\n<plist version="1.0"><dict><key>a</key><string>x</dict></plist>\n',
    );
    const r = run('plistutil', ['-i', 'bad.stringsdict', '-o', 'bin.plist', '-f', 'bin'], d);
    // plistutil exits 0 even when it fails: the message and the missing output say so.
    expect(r.stdout + r.stderr).toContain('ERROR');
    expect(existsSync(join(d, 'bin.plist'))).toBe(false);
  });
});

// ---- PHP ---------------------------------------------------------------------

describe('PHP: php -l and PHP itself read our arrays', () => {
  withTools(['php'], 'php-array: lints and returns exactly the texts', async () => {
    const files = await exportByLanguage('php-array');
    for (const language of LANGUAGES) {
      const d = dir('php');
      writeFileSync(join(d, 'lang.php'), files.get(language)!);
      const lint = run('php', ['-l', 'lang.php'], d);
      expect(lint.status, lint.stdout + lint.stderr).toBe(0);
      expect(lint.stdout).toContain('No syntax errors detected');
      const values = run('php', [
        '-r',
        'echo json_encode(include $argv[1], JSON_UNESCAPED_UNICODE);',
        join(d, 'lang.php'),
      ]);
      expect(values.status, values.stderr).toBe(0);
      expect(JSON.parse(values.stdout)).toEqual(Object.fromEntries(KEYS.map((k) => [k, TEXTS[language]![k] ?? ''])));
    }
  });

  withTools(['php'], 'the check fails on a known-bad file (unescaped quote)', () => {
    const d = dir('php-bad');
    writeFileSync(join(d, 'bad.php'), "<?php\nreturn ['a' => 'It's'];\n");
    const lint = run('php', ['-l', 'bad.php'], d);
    expect(lint.status).not.toBe(0);
    expect(lint.stdout + lint.stderr).toMatch(/syntax error/i);
  });
});

// ---- JavaScript --------------------------------------------------------------

/** Imports a module with Node itself (not through the test runner) and returns its export as JSON. */
function nodeImport(file: string, commonjs: boolean): { status: number | null; value?: unknown; stderr: string } {
  const script = `const m = await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(JSON.stringify(${commonjs ? 'm.default' : 'm.default'}));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, value: r.status === 0 ? JSON.parse(r.stdout) : undefined, stderr: r.stderr };
}

describe('JavaScript: Node imports our modules', () => {
  for (const [format, extension] of [
    ['javascript', 'mjs'],
    ['module-exports', 'cjs'],
  ] as const) {
    it(`${format}: import() of the .${extension} gives exactly the texts`, async () => {
      const files = await exportByLanguage(format);
      for (const language of LANGUAGES) {
        const file = join(dir('js'), `${language}.${extension}`);
        writeFileSync(file, files.get(language)!);
        const r = nodeImport(file, extension === 'cjs');
        expect(r.status, r.stderr).toBe(0);
        expect(r.value).toEqual(Object.fromEntries(KEYS.map((k) => [k, TEXTS[language]![k] ?? ''])));
      }
    });
  }

  it('the check fails on a known-bad module', () => {
    const file = join(dir('js-bad'), 'bad.mjs');
    writeFileSync(file, "export default { a: 'It's' };\n");
    const r = nodeImport(file, false);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('SyntaxError');
  });
});

// ---- XML ---------------------------------------------------------------------

describe('XML formats: xmllint accepts every export', () => {
  const XML_FORMATS = [
    'android',
    'android-strings',
    'android-xml',
    'resx',
    'string-resources',
    'qt-linguist',
    'xliff12',
    'xliff20',
    'localizable-strings-dict',
  ];
  withTools(['xmllint'], `${XML_FORMATS.join(', ')}: well-formed`, async () => {
    for (const format of XML_FORMATS) {
      const files = await exportFiles(service, apiKey, { downloadFormat: format });
      expect(files.length, format).toBeGreaterThan(0);
      for (const f of files) {
        const file = join(dir('xml'), `${format}-${f.language ?? 'all'}.xml`);
        writeFileSync(file, f.content);
        const r = run('xmllint', ['--noout', '--nonet', file]);
        expect(r.status, `${format} ${f.language}: ${r.stderr}`).toBe(0);
        expect(r.stderr).toBe('');
      }
    }
  });

  withTools(['xmllint'], 'the check fails on a known-bad file', () => {
    const file = join(dir('xml-bad'), 'bad.xml');
    writeFileSync(file, '<resources><string name="a">Tom & Jerry</string></resources>\n');
    const r = run('xmllint', ['--noout', '--nonet', file]);
    expect(r.status).not.toBe(0);
  });
});

// What an upload plainly is (src/formats/sniff.ts): real files of every kind
// from the corpus, and the shapes that stay ambiguous on purpose.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentMismatch, sniffContent, SNIFF_BYTES } from '../../../src/formats/sniff.js';

const CORPUS = '/work/shared/corpus';
const corpus = (path: string) => readFileSync(join(CORPUS, path));
const text = (value: string) => Buffer.from(value, 'utf8');

describe('sniffContent', () => {
  it.each([
    ['android/termux_app_values_strings.xml', 'xml'],
    ['android/duckduckgo_autofill_values_strings.xml', 'xml'],
    ['qt-ts/qtox_en.ts', 'xml'],
    ['resx/command-line-api_StaticCompletions_Strings.resx', 'xml'],
    ['stringsdict/mastodon-ios_ar_Localizable.stringsdict', 'xml'],
    ['xliff/symfony-translation_fixture_resources-2.0.xlf', 'xml'],
    ['json/excalidraw_ru-RU.json', 'json'],
    ['json/actualbudget_cs.json', 'json'],
    ['arb/flutter-gallery_intl_de.arb', 'json'],
    ['arb/aves_app_ckb.arb', 'arb'],
    ['arb/aves_app_en.arb', 'arb'],
    ['xcstrings/netnewswire_DefaultAccountNames.xcstrings', 'string-catalog'],
    ['yaml/rails-i18n_ru.yml', 'yaml'],
    ['yaml/devise_en.yml', 'yaml'],
    ['yaml/discourse-solved_server.ar.yml', 'yaml'],
    ['po/gnome-clocks_th.po', 'po'],
    ['po/wtforms.pot', 'po'],
    ['properties/jenkins_hudson_model_Messages_fr.properties', 'properties'],
    ['properties/jenkins_LogRecorder_index_da.latin1.properties', 'properties'],
    ['properties/hibernate-validator_ValidationMessages_ja.properties', 'properties'],
    ['csv/godot-demo-projects_translation_text.csv', 'csv'],
    ['php/filament_actions_en_import.php', 'php'],
    ['js/element-ui_de.js', 'javascript'],
    ['js/uppy-1.31.1_ru_RU.js', 'javascript'],
    ['js/validatorjs_fr.js', 'javascript'],
    ['localizable-strings/sparkle_de_Sparkle.strings', 'strings'],
    ['localizable-strings/researchkit_ja_ResearchKit.strings', 'strings'],
    ['localizable-strings/sparkle-1.27.1_de_SUUpdateAlert.utf16le.strings', 'strings'],
    ['screenshots/pontoon_tm_tab.png', 'binary'],
  ])('%s is %s', (path, kind) => {
    expect(sniffContent(corpus(path))).toBe(kind);
  });

  it('tells zip containers, tables and backups', () => {
    expect(sniffContent(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]))).toBe('zip');
    expect(sniffContent(text('key\ten\tde\nhello\tHello\tHallo\n'))).toBe('tsv');
    expect(sniffContent(text('key,en,de\nhello,Hello,Hallo\n'))).toBe('csv');
    expect(sniffContent(text('{\n  "format": "project-backup-json",\n  "version": 1,\n  "keys": []\n}'))).toBe(
      'project-backup',
    );
    expect(sniffContent(text('[{"key": "a"}]'))).toBe('json');
  });

  it('a NUL or two in a text file leave it a text file (the import names the key that holds it)', () => {
    expect(sniffContent(text('key,en\na,x\u0000y\nb,z\n'))).toBe('csv');
    expect(sniffContent(Buffer.concat([text('a=b\n'), Buffer.alloc(64)]))).toBe('binary');
  });

  it('leaves ambiguous or unknown shapes to the parser', () => {
    // `key: value` lines are YAML and Java properties alike; plain lines are anything.
    expect(sniffContent(text('hello: Hello\nbye: Bye\n'))).toBeUndefined();
    expect(sniffContent(text('just some words\n'))).toBeUndefined();
    // A properties file whose values hold commas is not a table.
    expect(sniffContent(text('a=one, two\nb=three, four\n'))).toBe('properties');
    // A CSV record over several lines (quoted line break) is not recognised as a table: the CSV parser decides.
    expect(sniffContent(corpus('csv/mollie-magento2_de_DE.csv'))).toBeUndefined();
  });

  it('looks at the first SNIFF_BYTES only, a character cut at the end included', () => {
    const big = Buffer.concat([text('{\n'), Buffer.alloc(SNIFF_BYTES * 2, ' '), text('"a": "é"}')]);
    expect(sniffContent(big)).toBe('json');
    const cut = Buffer.concat([text('a=b\n'.repeat(SNIFF_BYTES / 4 - 1)), text('c=é')]).subarray(0, SNIFF_BYTES);
    expect(sniffContent(cut)).toBe('properties');
  });
});

describe('contentMismatch', () => {
  it('names what the file looks like and the format chosen', () => {
    const json = corpus('json/excalidraw_ru-RU.json');
    expect(contentMismatch(json, 'java-properties', ['properties'])).toBe(
      'The file looks like JSON, not java-properties: choose the uploadFormat of the file',
    );
    expect(contentMismatch(json, 'yaml', ['yaml', 'json'])).toBeUndefined();
    expect(contentMismatch(text('hello: Hello\n'), 'java-properties', ['properties'])).toBeUndefined();
  });
});

// An untranslated message of a plural key keeps its plural shape in the
// single-language formats that have one (PO msgid_plural and msgstr[n], Qt
// numerus forms), so that a translator working in the file fills in every
// form. Each file of such an export holds one language: the export reads the
// project's default language too, and tells each file whether the key is a
// plural there (RegisteredFormat.pluralShapeOfUntranslated).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { exportFiles, importOk } from '../support/transfer.js';

let service: TestService;
let apiKey: string;

const ITEMS = '{count, plural, one {# item} other {# items}}';

beforeAll(async () => {
  service = await startTestService();
  ({ apiKey } = await (await service.account()).project('plural-shape'));
  await importOk(
    service,
    apiKey,
    JSON.stringify({
      format: 'project-backup-json',
      version: 1,
      languages: [{ key: 'en', isDefault: true }, { key: 'de' }, { key: 'fr' }],
      keys: [
        { key: 'items', translations: { en: { text: ITEMS } } },
        { key: 'hello', translations: { en: { text: 'Hello' } } },
      ],
    }),
    { uploadFormat: 'project-backup-json' },
  );
});
afterAll(() => service.close());

async function fileOf(format: string, language: string, languages?: string): Promise<string> {
  const files = await exportFiles(service, apiKey, { downloadFormat: format, ...(languages ? { languages } : {}) });
  const file = files.find((f) => f.language === language);
  if (!file) throw new Error(`no ${language} file in ${files.map((f) => f.language).join(', ')}`);
  return file.content.toString('utf8');
}

const msgfmt = spawnSync('msgfmt', ['--version']).status === 0;

describe('an untranslated message of a plural key', () => {
  for (const languages of [undefined, 'de']) {
    it(`is a plural entry with empty forms in PO${languages ? ', in an export of that language alone' : ''}`, async () => {
      const po = await fileOf('po-pot', 'de', languages);
      expect(po).toContain('\nmsgid "items"\nmsgid_plural "items"\nmsgstr[0] ""\nmsgstr[1] ""\n');
      expect(po).toContain('\nmsgid "hello"\nmsgstr ""\n');
      if (msgfmt || process.env.CI) {
        // gettext's own check: the entry has the forms the header's Plural-Forms asks for, and counts as untranslated.
        const dir = mkdtempSync(join(tmpdir(), 'lms-po-'));
        try {
          writeFileSync(join(dir, 'de.po'), po);
          const r = spawnSync('msgfmt', ['-c', '--statistics', '-o', join(dir, 'de.mo'), join(dir, 'de.po')], {
            encoding: 'utf8',
          });
          expect(r.status, r.stderr).toBe(0);
          expect(r.stderr.trim()).toBe('0 translated messages, 2 untranslated messages.');
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    });

    it(`is a numerus message with unfinished forms in Qt Linguist${languages ? ', in an export of that language alone' : ''}`, async () => {
      const ts = await fileOf('qt-linguist', 'de', languages);
      expect(ts).toMatch(
        /<message numerus="yes">\s*<source>items<\/source>\s*<translation type="unfinished">\s*<numerusform><\/numerusform>\s*<numerusform><\/numerusform>\s*<\/translation>/,
      );
      expect(ts).toMatch(/<message>\s*<source>hello<\/source>\s*<translation type="unfinished"><\/translation>/);
    });
  }

  it('keeps the translated forms where the file has them', async () => {
    const po = await fileOf('po-pot', 'en');
    expect(po).toContain('\nmsgid "items"\nmsgid_plural "%d items"\nmsgstr[0] "%d item"\nmsgstr[1] "%d items"\n');
  });
});

// Exports stream: a service process whose V8 heap is capped far below what
// the project's texts take as objects exports it, in flat, nested (path
// order), XML, table and zipped forms, and each file holds every key.
// Runs in the postgres test project (a real server holds the large project).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import { openDatabase, type Database } from '../../src/db/client.js';
import { createPostgresDatabase } from '../support/pg-database.js';
import { startServiceProcess, type ServiceProcess } from '../support/process.js';
import { projectIdOf } from '../support/content.js';

const TOKEN = 'lms_pat_export_memory_token_0123456789';
const KEYS = 60_000;
const LANGUAGES = ['en', 'de', 'fr', 'es', 'it'];
/**
 * MiB of V8 heap: the service's own needs (about 110 MiB live after start-up,
 * measured after a forced GC; 90 before teams, history, limits and metrics
 * were added) plus room for the export's pages and GC under load, well under
 * the ~300 MiB the texts take as objects.
 */
const HEAP_MIB = 160;

describe.runIf(process.env.TEST_DB_KIND === 'postgres')(
  `exports of ${KEYS * LANGUAGES.length} translations under a ${HEAP_MIB} MiB heap`,
  { timeout: 300_000 },
  () => {
    let database: { url: string; drop(): Promise<void> };
    let db: Database;
    let service: ServiceProcess;
    let apiKey: string;

    beforeAll(async () => {
      database = await createPostgresDatabase();
      db = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 });
      service = await startServiceProcess({
        DATABASE_URL: database.url,
        ADMIN_EMAIL: 'ops@example.com',
        ADMIN_PASSWORD: 'ops-password',
        ADMIN_TOKEN: TOKEN,
        JOB_WORKERS: '0',
        NODE_OPTIONS: `--max-old-space-size=${HEAP_MIB}`,
      });
      const res = await fetch(`${service.url}/api/v2/projects`, {
        method: 'POST',
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'large' }),
      });
      if (res.status !== 200) throw new Error(`project creation answered ${res.status}: ${await res.text()}`);
      const project = (await res.json()).data as { projectToken: string; apiKey: string };
      apiKey = project.apiKey;
      const projectId = await projectIdOf(db, project.projectToken);
      // Set-based seeding: nested key paths (section.group.item), 40-odd characters per text.
      await db.prisma.$executeRawUnsafe(
        `INSERT INTO "Language" ("projectId", key, name, "order", "isDefault")
       SELECT $1, l, l, o::int, o = 1 FROM unnest($2::text[]) WITH ORDINALITY AS t(l, o)
       ON CONFLICT ("projectId", key) DO UPDATE SET "order" = EXCLUDED."order", "isDefault" = EXCLUDED."isDefault"`,
        projectId,
        LANGUAGES,
      );
      await db.prisma.$executeRawUnsafe(
        `INSERT INTO "TranslationKey" ("projectId", key, description)
       SELECT $1, 'section' || (i % 50) || '.group' || (i % 997) || '.item' || i, 'Where item ' || i || ' is shown' FROM generate_series(1, $2::int) i`,
        projectId,
        KEYS,
      );
      await db.prisma.$executeRawUnsafe(
        `INSERT INTO "Translation" ("keyId", "languageId", "projectId", text)
       SELECT k.id, l.id, $1, l.key || ': the text of ' || k.key || ' with some words'
         FROM "TranslationKey" k CROSS JOIN "Language" l WHERE k."projectId" = $1 AND l."projectId" = $1`,
        projectId,
      );
    }, 300_000);
    afterAll(async () => {
      await service?.kill();
      await db?.close();
      await database?.drop();
    });

    async function exportFiles(query: Record<string, string>): Promise<Buffer[]> {
      const res = await fetch(`${service.url}/api/v4/export?${new URLSearchParams(query)}`, {
        headers: { 'x-service-token': apiKey },
      });
      const body = await res.json();
      expect(res.status, JSON.stringify(body) + service.output()).toBe(200);
      const files: Buffer[] = [];
      for (const file of body.data.files as { url: string }[])
        files.push(Buffer.from(await (await fetch(file.url)).arrayBuffer()));
      return files;
    }

    it('writes a flat multi-language JSON file with every key and language', async () => {
      const [file] = await exportFiles({ downloadFormat: 'multi-language-json' });
      const content = JSON.parse(file!.toString('utf8')) as Record<string, Record<string, string>>;
      expect(Object.keys(content)).toEqual(LANGUAGES);
      for (const l of LANGUAGES) {
        expect(Object.keys(content[l]!)).toHaveLength(KEYS);
        expect(content[l]!['section1.group1.item1']).toBe(`${l}: the text of section1.group1.item1 with some words`);
      }
    });

    it('writes nested JSON in path order, one file per language', async () => {
      const files = await exportFiles({ downloadFormat: 'single-language-json', downloadOptions: 'WRITE_NESTED' });
      expect(files).toHaveLength(LANGUAGES.length);
      const content = JSON.parse(files[1]!.toString('utf8')) as Record<string, Record<string, Record<string, string>>>;
      expect(Object.keys(content)).toHaveLength(50);
      expect(Object.keys(content).slice(0, 3)).toEqual(['section0', 'section1', 'section10']);
      expect(content.section7!.group7!.item7).toBe('de: the text of section7.group7.item7 with some words');
      expect(
        Object.values(content).reduce(
          (n, groups) => n + Object.values(groups).reduce((m, items) => m + Object.keys(items).length, 0),
          0,
        ),
      ).toBe(KEYS);
    });

    it('writes Android XML with descriptions, and a zip of CSV files split by language', async () => {
      const [android] = await exportFiles({
        downloadFormat: 'android',
        languageKeys: 'fr',
        downloadOptions: 'SELECTED_LANGUAGES,INCLUDE_DESCRIPTIONS',
      });
      const xml = android!.toString('utf8');
      expect(xml.match(/<string name=/g)).toHaveLength(KEYS);
      expect(xml).toContain('<!-- Where item 42 is shown -->');
      expect(xml.trimEnd().endsWith('</resources>')).toBe(true);

      const [zip] = await exportFiles({
        downloadFormat: 'csv-translations',
        downloadOptions: 'SPLIT_BY_LANGUAGES,ZIP_FILES',
      });
      const archive = await JSZip.loadAsync(zip!);
      expect(Object.keys(archive.files).sort()).toEqual(LANGUAGES.map((l) => `${l}.csv`).sort());
      const csv = await archive.file('it.csv')!.async('string');
      expect(csv.trimEnd().split('\n')).toHaveLength(KEYS + 1);
    });

    it('is still the same process: no export ran out of heap', async () => {
      expect(service.child.exitCode).toBeNull();
      expect((await fetch(`${service.url}/healthz`)).ok).toBe(true);
    });
  },
);

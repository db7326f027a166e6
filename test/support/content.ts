// Small data builders for API tests: keys and translations written through the
// set-based store, the same path the bulk endpoints use.
import type { Database } from '../../src/db/client.js';
import { ensureKeys, keyRefId, type Cell } from '../../src/content/translations/store.js';
import { ensureLanguages } from '../../src/content/languages.js';
import { writeTranslations } from '../../src/content/translations/gate.js';
import { openChange } from '../../src/content/changes.js';

export interface SeedOptions {
  projectToken: string;
  /** language key -> key -> text ('' keeps the cell empty). */
  translations: Record<string, Record<string, string>>;
  namespace?: string;
}

export async function projectIdOf(db: Database, projectToken: string): Promise<number> {
  return (await db.prisma.project.findUniqueOrThrow({ where: { projectToken }, select: { id: true } })).id;
}

export async function seedTranslations(
  db: Database,
  { projectToken, translations, namespace = '' }: SeedOptions,
): Promise<number> {
  const projectId = await projectIdOf(db, projectToken);
  const keys = [...new Set(Object.values(translations).flatMap((t) => Object.keys(t)))];
  const { ids } = await ensureKeys(
    db.prisma,
    projectId,
    keys.map((key) => ({ key, namespace })),
    { create: true },
  );
  const langs = await ensureLanguages(
    db.prisma,
    projectId,
    Object.keys(translations).map((key) => ({ key })),
    { create: true },
  );
  const cells: Cell[] = [];
  for (const [language, texts] of Object.entries(translations)) {
    for (const [key, text] of Object.entries(texts)) {
      if (text !== '')
        cells.push({
          keyId: ids.get(keyRefId({ key, namespace }))!,
          languageId: langs.ids.get(language)!,
          customerId: null,
          text,
        });
    }
  }
  await writeTranslations(db.prisma, projectId, cells, {
    replace: true,
    change: await openChange(db.prisma, projectId, 'TRANSLATIONS'),
  });
  return projectId;
}

/** language key -> key -> text of a project's base translations. */
export async function readTranslations(
  db: Database,
  projectToken: string,
): Promise<Record<string, Record<string, string>>> {
  const rows = await db.prisma.$queryRawUnsafe<{ language: string; key: string; text: string }[]>(
    `SELECT l.key AS language, k.key, t.text FROM "Translation" t JOIN "Language" l ON l.id = t."languageId"
       JOIN "TranslationKey" k ON k.id = t."keyId" JOIN "Project" p ON p.id = t."projectId" WHERE p."projectToken" = $1`,
    projectToken,
  );
  const out: Record<string, Record<string, string>> = {};
  for (const r of rows) (out[r.language] ??= {})[r.key] = r.text;
  return out;
}

// The languages of a project. Translations reference a language by id, so a
// renamed language keeps its translations; deleting one deletes its
// translations (foreign-key cascade). A project always keeps one language,
// and exactly one default language.
import { lockProject, lockProjectContent, prisma, type Db } from '../db.js';
import { Prisma, type Language } from '../generated/prisma/client.js';
import { arrayLiteral } from '../db/array-literal.js';
import { readRows } from '../db/read-rows.js';
import { badRequest, conflict, isUniqueViolation, notFound, said } from '../errors.js';
import { openChange, recordDeletedCells, type Change } from './changes.js';
import { identifier, LIMITS, optionalText } from './translations/fields.js';
import { languageNameOrDefault } from './language-name.js';
import { noteSourceTextsReplaced } from './written-keys.js';
import { enqueueProject, noteQueued } from './findings-queue.js';

export interface LanguageInput {
  key?: string | null;
  name?: string | null;
  isDefault?: boolean | null;
}

async function languageOfProject(projectId: number, key: string) {
  const language = await prisma().language.findUnique({ where: { projectId_key: { projectId, key } } });
  if (!language) throw notFound(said('language-not-found', { language: key }));
  return language;
}

export async function createLanguage(projectId: number, input: LanguageInput): Promise<{ id: number }> {
  const key = identifier(input.key, 'key', LIMITS.languageKey);
  const name = languageNameOrDefault(key, optionalText(input.name, 'name', LIMITS.languageName));
  try {
    return await prisma().$transaction(async (tx) => {
      if (await tx.language.findUnique({ where: { projectId_key: { projectId, key } }, select: { id: true } })) {
        throw conflict(said('language-exists', { language: key }));
      }
      const change = await openChange(
        tx,
        projectId,
        'LANGUAGES',
        { action: 'CREATE_LANGUAGE', language: key, name },
        { edits: 1 },
      );
      const { ids, created } = await ensureLanguages(tx, projectId, [{ key, name }], { create: true, change });
      // Created by another request since the lookup (PostgreSQL runs them side by side).
      if (created.length === 0) throw conflict(said('language-exists', { language: key }));
      return { id: ids.get(key)! };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(said('language-exists', { language: key }));
    throw error;
  }
}

/** A language to look up or create: its key (checked by the caller) and, optionally, its name. */
export interface LanguageRef {
  key: string;
  name?: string | null;
}

/**
 * Returns language key → id of `languages`, creating the missing ones when
 * `create` is set: the one creator of languages, for every path (the API's
 * createLanguage, v1 POST translations, import). One INSERT for any number of
 * languages: they come after the existing ones, in the order given; a language
 * created without a name gets its English (CLDR) name (language-name.ts); the
 * project's first language is its default. `change` is recorded as their
 * creator (for its revert).
 */
export async function ensureLanguages(
  db: Db,
  projectId: number,
  languages: readonly LanguageRef[],
  options: { create: boolean; change?: { id: bigint } },
): Promise<{ ids: Map<string, number>; created: string[] }> {
  const unique = [...new Map(languages.map((l) => [l.key, l])).values()];
  let created: string[] = [];
  const ids = new Map<string, number>();
  if (options.create && unique.length > 0) {
    const keys = unique.map((l) => l.key);
    const names = unique.map((l) => languageNameOrDefault(l.key, l.name));
    const rows = await db.$queryRaw<{ id: number; key: string }[]>(
      Prisma.sql`/* languages:create */ INSERT INTO "Language" ("projectId", key, name, "order", "isDefault", "createdByChange")
       SELECT ${projectId}::int, k, n, (SELECT coalesce(max("order"), -1) FROM "Language" WHERE "projectId" = ${projectId}) + row_number() OVER (ORDER BY ord),
              row_number() OVER (ORDER BY ord) = 1 AND NOT EXISTS (SELECT 1 FROM "Language" WHERE "projectId" = ${projectId}),
              ${options.change?.id ?? null}::bigint
         FROM unnest(${keys}::text[], ${names}::text[]) WITH ORDINALITY AS t(k, n, ord)
        WHERE NOT EXISTS (SELECT 1 FROM "Language" l WHERE l."projectId" = ${projectId} AND l.key = t.k)
       ON CONFLICT ("projectId", key) DO NOTHING
       RETURNING id, key`,
    );
    created = rows.map((r) => r.key);
    for (const r of rows) ids.set(r.key, r.id);
  }
  // The ids of the languages that existed (none left when every one was just created: no statement).
  const existing = unique.filter((l) => !ids.has(l.key));
  if (existing.length) {
    const rows = await db.$queryRaw<{ id: number; key: string }[]>(
      Prisma.sql`/* languages:ids */ SELECT id, key FROM "Language" WHERE "projectId" = ${projectId} AND key = ANY(${existing.map((l) => l.key)}::text[])`,
    );
    for (const r of rows) ids.set(r.key, r.id);
  }
  return { ids, created };
}

/** Renames (translations follow), renames the display name, or makes the language the default one. */
export async function updateLanguage(
  projectId: number,
  currentKey: string,
  input: LanguageInput,
): Promise<{ id: number }> {
  const language = await languageOfProject(projectId, currentKey);
  const key =
    input.key === undefined || input.key === null ? undefined : identifier(input.key, 'key', LIMITS.languageKey);
  const name = optionalText(input.name, 'name', LIMITS.languageName);
  if (input.isDefault === false && language.isDefault) {
    throw badRequest('isDefault: a project needs a default language; make another language the default instead');
  }
  try {
    await prisma().$transaction(async (tx) => {
      if (
        key !== undefined &&
        key !== language.key &&
        (await tx.language.findUnique({ where: { projectId_key: { projectId, key } }, select: { id: true } }))
      ) {
        throw conflict(said('language-exists', { language: key }));
      }
      await openChange(
        tx,
        projectId,
        'LANGUAGES',
        {
          action: 'CHANGE_LANGUAGE',
          language: language.key,
          ...(key !== undefined && key !== language.key ? { newKey: key } : {}),
          ...(name !== undefined ? { name } : {}),
          ...(input.isDefault === true ? { isDefault: true } : {}),
        },
        { edits: 1 },
      );
      if (input.isDefault === true && !language.isDefault) {
        await tx.language.updateMany({ where: { projectId, isDefault: true }, data: { isDefault: false } });
        // Every cell has another source text now: its quality checks (and consistency groups) are computed again.
        if (await enqueueProject(tx, projectId)) noteQueued();
      }
      await tx.language.update({
        where: { id: language.id },
        data: {
          ...(key !== undefined ? { key } : {}),
          ...(name !== undefined ? { name } : {}),
          ...(input.isDefault === true ? { isDefault: true } : {}),
        },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(said('language-exists', { language: key ?? '' }));
    throw error;
  }
  // Another default language changes every source text of the project's translation memory.
  if (input.isDefault === true && !language.isDefault) noteSourceTextsReplaced();
  return { id: language.id };
}

/** Deletes a language with every translation in it; the first remaining language becomes the default if needed. */
export async function deleteLanguage(projectId: number, key: string): Promise<void> {
  const wasDefault = await prisma().$transaction(async (tx) => {
    // Serializes deletions within the project, so two concurrent requests cannot remove the last two languages.
    await lockProject(tx, projectId);
    const language = await tx.language.findUnique({ where: { projectId_key: { projectId, key } } });
    if (!language) throw notFound(said('language-not-found', { language: key }));
    if ((await tx.language.count({ where: { projectId } })) === 1) {
      throw conflict(said('only-language', { language: key }));
    }
    const change = await openChange(
      tx,
      projectId,
      'LANGUAGES',
      { action: 'DELETE_LANGUAGE', language: key },
      { edits: 1 },
    );
    await removeLanguages(tx, change, [language.id]);
    if (language.isDefault) {
      const next = await tx.language.findFirstOrThrow({
        where: { projectId },
        orderBy: [{ order: 'asc' }, { id: 'asc' }],
        select: { id: true },
      });
      await tx.language.update({ where: { id: next.id }, data: { isDefault: true } });
      if (await enqueueProject(tx, projectId)) noteQueued();
    }
    return language.isDefault;
  });
  // The next language's texts are the project's source texts now (as when another default is chosen).
  if (wasDefault) noteSourceTextsReplaced();
}

/**
 * Deletes languages (by id) with their translations, after recording the texts
 * in `change`; callers pick them (never every language of the project) and
 * make another language the default if one of them was, in the same transaction.
 */
export async function removeLanguages(db: Db, change: Change, languageIds: number[]): Promise<void> {
  if (languageIds.length === 0) return;
  await lockProjectContent(db, change.projectId);
  for (const languageId of languageIds) await recordDeletedCells(db, change, { languageId });
  await db.$executeRaw(
    Prisma.sql`/* languages:remove */ DELETE FROM "Language" WHERE id = ANY(${arrayLiteral(languageIds)}::int[])`,
  );
}

/**
 * Sets the order of the project's languages (the editor's columns, the order
 * of language lists in REST and GraphQL answers and of exports): the languages
 * listed come first, in that order; the others follow in their order so far.
 */
export async function setLanguageOrder(projectId: number, keys: readonly string[]): Promise<void> {
  await prisma().$transaction(async (tx) => {
    const existing = (
      await tx.language.findMany({
        where: { projectId },
        select: { key: true },
        orderBy: [{ order: 'asc' }, { id: 'asc' }],
      })
    ).map((l) => l.key);
    const duplicate = keys.find((k, i) => keys.indexOf(k) !== i);
    if (duplicate) throw badRequest(`keys lists language '${duplicate}' more than once`);
    const unknown = keys.find((k) => !existing.includes(k));
    if (unknown) throw notFound(said('language-not-found', { language: unknown }));
    const order = [...keys, ...existing.filter((k) => !keys.includes(k))];
    await openChange(tx, projectId, 'LANGUAGES', { action: 'REORDER_LANGUAGES', languages: order });
    await tx.$executeRaw(Prisma.sql`/* languages:order */
      UPDATE "Language" l SET "order" = t.ord - 1 FROM unnest(${order}::text[]) WITH ORDINALITY AS t(key, ord)
        WHERE l."projectId" = ${projectId} AND l.key = t.key`);
  });
}

/** Every column of the model, with the types the ORM gives them (read outside the ORM below). */
const LANGUAGE_COLUMNS = Prisma.sql`id, "projectId", key, name, "isDefault", "order", "createdAt", "createdByChange"`;

/**
 * The languages of a project in their order (GET /api/v1/languages, the
 * GraphQL `languages` list): one named statement, read through the driver
 * adapter (src/db/read-rows.ts). Through the ORM the same read cost the
 * process about 300 µs of CPU more per request, and PostgreSQL a parse and
 * plan each time; through the client's `$queryRaw` the whole request cost
 * about 170 µs of CPU more (docs/benchmarks.md, "The service's own cost of a
 * small read").
 */
export async function projectLanguages(projectId: number): Promise<Language[]> {
  return readRows<Language>(Prisma.sql`/* languages:of-project */
    SELECT ${LANGUAGE_COLUMNS} FROM "Language" WHERE "projectId" = ${projectId} ORDER BY "order", id`);
}

/**
 * The languages of several projects, each list in its order (the GraphQL
 * `Project.languages`, batched per request by a loader: src/context.ts): one
 * named statement for a project or a list of them, through the driver adapter
 * like projectLanguages, instead of one more ORM statement per project read.
 */
export async function languagesOfProjects(projectIds: readonly number[]): Promise<Language[][]> {
  const rows = await readRows<Language>(Prisma.sql`/* languages:of-projects */
    SELECT ${LANGUAGE_COLUMNS} FROM "Language" WHERE "projectId" = ANY(${arrayLiteral(projectIds)}::int[]) ORDER BY "projectId", "order", id`);
  const byProject = new Map<number, Language[]>(projectIds.map((id) => [id, []]));
  for (const row of rows) byProject.get(row.projectId)?.push(row);
  return projectIds.map((id) => byProject.get(id)!);
}

/** Non-empty texts in a language (base and customer-specific): what deleting it removes. */
export async function languageTranslationCount(projectId: number, languageId: number): Promise<number> {
  const [row] = await prisma().$queryRaw<{ n: number }[]>(Prisma.sql`/* languages:translation-count */
    SELECT ((SELECT count(*) FROM "Translation" WHERE "projectId" = ${projectId} AND "languageId" = ${languageId} AND text <> '')
           + (SELECT count(*) FROM "CustomerTranslation" WHERE "projectId" = ${projectId} AND "languageId" = ${languageId} AND text <> ''))::int AS n`);
  return row!.n;
}

// The translation memory as a project's member or API key asks it: a source
// text (or a key, whose default-language text is the source) and a target
// language of the project; the scope of what it may see is the credential's
// (scope.ts).
import { Prisma } from '../generated/prisma/client.js';
import type { Principal } from '../auth/principal.js';
import { prisma, type Db } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { cellEventsFromSql } from '../history/activity-log.js';
import { selectEvents } from '../content/cell-events.js';
import { resolveProject } from '../projects/access.js';
import { memoryScope } from './scope.js';
import { suggest, type Suggestion } from './suggest.js';

export interface SuggestionsInput {
  projectToken?: string | null;
  /** The text to translate; or a key (by id, or name and namespace) whose default-language text is. */
  sourceText?: string | null;
  keyId?: number | null;
  key?: string | null;
  namespace?: string | null;
  targetLanguage: string;
  limit?: number | null;
  minScore?: number | null;
}

export interface SuggestionsResult {
  projectId: number;
  sourceLanguage: string;
  sourceText: string;
  suggestions: Suggestion[];
}

export async function suggestionsFor(
  principal: Principal,
  input: SuggestionsInput,
  db: Db = prisma(),
): Promise<SuggestionsResult> {
  const projectId = await resolveProject(principal, input.projectToken, 'READ');
  return suggestionsInProject(principal, projectId, input, db);
}

/** The same for a project the caller already reached (the pre-translate job, the editor). */
export async function suggestionsInProject(
  principal: Principal,
  projectId: number,
  input: SuggestionsInput,
  db: Db = prisma(),
): Promise<SuggestionsResult> {
  const byKey = input.keyId != null || input.key != null;
  if (input.sourceText == null && !byKey)
    throw badRequest('sourceText or a key (keyId, or key and namespace) is required');
  const [row] = await db.$queryRaw<
    {
      source: string | null;
      target: string | null;
      keyId: number | null;
      key: string | null;
      namespace: string | null;
      text: string | null;
    }[]
  >(Prisma.sql`/* memory:lookup-context */
    SELECT (SELECT key FROM "Language" WHERE "projectId" = ${projectId} AND "isDefault") AS source,
           (SELECT key FROM "Language" WHERE "projectId" = ${projectId} AND key = ${input.targetLanguage}) AS target,
           k.id AS "keyId", k.key, k.namespace, t.text
      FROM (SELECT 1) one
      LEFT JOIN "TranslationKey" k ON ${byKey} AND k."projectId" = ${projectId}
            AND (k.id = ${input.keyId ?? null}::int OR (${input.keyId ?? null}::int IS NULL AND k.key = ${input.key ?? ''} AND k.namespace = ${input.namespace ?? ''}))
      LEFT JOIN "Language" l ON l."projectId" = ${projectId} AND l."isDefault"
      LEFT JOIN "Translation" t ON t."keyId" = k.id AND t."languageId" = l.id`);
  if (!row?.target) throw notFound(`language '${input.targetLanguage}' not found`);
  if (!row.source) throw notFound('the project has no default language');
  if (byKey && row.keyId === null)
    throw notFound(input.keyId != null ? `key ${input.keyId} not found` : `key '${input.key}' not found`);
  const sourceText = input.sourceText ?? row.text ?? '';
  const scope = await memoryScope(principal, projectId, db);
  const suggestions = await suggest(
    scope,
    {
      text: sourceText,
      sourceLanguage: row.source,
      targetLanguage: row.target,
      key: row.keyId !== null ? { id: row.keyId, key: row.key!, namespace: row.namespace! } : null,
      ...(input.limit != null && { limit: input.limit }),
      ...(input.minScore != null && { minScore: input.minScore }),
    },
    db,
  );
  return { projectId, sourceLanguage: row.source, sourceText, suggestions };
}

/** Who last wrote a project text (its history's newest event): the origin's "by whom", read only when asked. */
export async function lastEditorOf(
  projectId: number,
  keyId: number,
  languageId: number,
  db: Db = prisma(),
): Promise<string | null> {
  const cell = selectEvents.ofCell(Prisma.sql`${keyId}`, Prisma.sql`${languageId}`, Prisma.sql`${projectId}`);
  const rows = await db.$queryRaw<{ actorName: string | null; actorKind: string }[]>(
    Prisma.sql`/* memory:last-editor */ SELECT coalesce(nullif(acc.name, ''), acc.email) AS "actorName", a."actorKind"
       FROM ${cellEventsFromSql(cell)} WHERE c."customerId" IS NULL ORDER BY c.id DESC LIMIT 1`,
  );
  const r = rows[0];
  if (!r) return null;
  return (
    r.actorName ?? (r.actorKind === 'API_KEY' ? 'API key' : r.actorKind === 'JOB' ? 'job' : r.actorKind.toLowerCase())
  );
}

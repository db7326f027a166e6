// Reverting a change of a project glossary (docs/glossary.md): each term the
// change touched goes back to what the change found (a created term is
// deleted, a deleted one comes back with its id, an edited one gets its fields
// and translations back), but only where the term is still as the change left
// it: a term changed since keeps the newer state and is counted. The revert is
// itself a change (REVERT) with its own term history, so it can be reverted
// in turn. Set-based, in one transaction.
import { Prisma } from '../generated/prisma/client.js';
import { arrayLiteral } from '../db/array-literal.js';
import { prisma } from '../db.js';
import { conflict, isUniqueViolation, notFound } from '../errors.js';
import { amendChange, openChange } from '../content/changes.js';
import { recordAfter, recordBefore, termSnapshot } from './history.js';

export interface GlossaryRevertResult {
  activityId: bigint;
  /** Terms given back what the change found. */
  restored: number;
  /** Terms changed after the reverted change: kept as they are. */
  changedSince: number;
}

/** Whether a change of the project is a glossary change with a term history (revertable here). */
export async function isGlossaryChange(projectId: number, activityId: bigint): Promise<boolean> {
  const [row] = await prisma().$queryRaw<{ n: number }[]>(Prisma.sql`/* glossary:is-glossary-change */
    SELECT count(*)::int AS n FROM "GlossaryTermChange" c JOIN "Activity" a ON a.id = c."activityId"
     WHERE c."activityId" = ${activityId}::bigint AND a."projectId" = ${projectId}`);
  return (row?.n ?? 0) > 0;
}

interface Row {
  termId: number;
  glossaryId: number;
  before: Prisma.JsonValue | null;
  unchanged: boolean;
}

export async function revertGlossaryChange(projectId: number, activityId: bigint): Promise<GlossaryRevertResult> {
  try {
    return await prisma().$transaction(async (tx) => {
      const [target] = await tx.$queryRaw<{ id: bigint }[]>(Prisma.sql`/* glossary:revert-lock */
        SELECT id FROM "Activity" WHERE id = ${activityId}::bigint AND "projectId" = ${projectId} FOR UPDATE`);
      if (!target) throw notFound(`change ${activityId} not found`);
      // Only the project's own glossary: a term history of another glossary is not this project's to revert.
      const rows = await tx.$queryRaw<Row[]>(Prisma.sql`/* glossary:revert-read */
        SELECT c."termId", c."glossaryId", c.before,
               (c.after IS NOT DISTINCT FROM (SELECT ${termSnapshot('t')} FROM "GlossaryTerm" t WHERE t.id = c."termId")) AS unchanged
          FROM "GlossaryTermChange" c JOIN "Glossary" g ON g.id = c."glossaryId" AND g."projectId" = ${projectId}
         WHERE c."activityId" = ${activityId}::bigint
         ORDER BY c."termId"`);
      const eligible = rows.filter((r) => r.unchanged);
      const glossaryId = rows[0]?.glossaryId ?? 0;
      const change = await openChange(
        tx,
        projectId,
        'REVERT',
        { activityId: String(activityId), glossary: { glossaryId } },
        { revertOf: activityId },
      );
      const ids = eligible.map((r) => r.termId);
      await recordBefore(tx, change, ids);
      const created = eligible.filter((r) => r.before === null).map((r) => r.termId);
      const restore = eligible
        .filter((r) => r.before !== null)
        .map((r) => ({ id: r.termId, glossaryId: r.glossaryId, ...(r.before as Record<string, unknown>) }));
      if (created.length) {
        await tx.$executeRaw(
          Prisma.sql`/* glossary:revert-delete-created */ DELETE FROM "GlossaryTerm" WHERE id = ANY(${arrayLiteral(created)}::int[])`,
        );
      }
      if (restore.length) {
        const json = JSON.stringify(restore);
        await tx.$executeRaw(Prisma.sql`/* glossary:revert-restore-terms */
          INSERT INTO "GlossaryTerm" (id, "glossaryId", term, description, "partOfSpeech", forbidden, "doNotTranslate", "caseSensitive", abbreviation, "updatedAt")
          SELECT (j->>'id')::int, (j->>'glossaryId')::int, j->>'term', j->>'description', j->>'partOfSpeech', (j->>'forbidden')::boolean,
                 (j->>'doNotTranslate')::boolean, (j->>'caseSensitive')::boolean, (j->>'abbreviation')::boolean, now()
            FROM jsonb_array_elements(${json}::jsonb) AS j
          ON CONFLICT (id) DO UPDATE SET term = EXCLUDED.term, description = EXCLUDED.description, "partOfSpeech" = EXCLUDED."partOfSpeech",
            forbidden = EXCLUDED.forbidden, "doNotTranslate" = EXCLUDED."doNotTranslate", "caseSensitive" = EXCLUDED."caseSensitive",
            abbreviation = EXCLUDED.abbreviation, "updatedAt" = now()`);
        await tx.$executeRaw(Prisma.sql`/* glossary:revert-clear-translations */
          DELETE FROM "GlossaryTranslation" WHERE "termId" = ANY(${arrayLiteral(restore.map((r) => r.id))}::int[])`);
        await tx.$executeRaw(Prisma.sql`/* glossary:revert-restore-translations */
          INSERT INTO "GlossaryTranslation" ("termId", language, text)
          SELECT (j->>'id')::int, tr.key, tr.value FROM jsonb_array_elements(${json}::jsonb) AS j, jsonb_each_text(j->'translations') AS tr`);
      }
      await recordAfter(tx, change, glossaryId, ids);
      const result = { restored: eligible.length, changedSince: rows.length - eligible.length };
      await amendChange(tx, change, { glossary: { glossaryId, ...result } }, eligible.length);
      return { activityId: change.id, ...result };
    });
  } catch (error) {
    // A deleted term given back whose name was taken by a new term since.
    if (isUniqueViolation(error))
      throw conflict(
        'A term the change deleted was created again since: delete or rename that term first, then revert',
      );
    throw error;
  }
}

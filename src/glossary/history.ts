// The write side of a project glossary's history: each change of its terms
// (one term created, edited or deleted; a file imported) keeps every term it
// touched as it found it and as it left it (GlossaryTermChange), in the
// change's transaction, so the change can be reverted (revert.ts). Set-based:
// an import records each chunk in two statements. A shared glossary has no
// project log and so no history (docs/glossary.md).
import { Prisma } from '../generated/prisma/client.js';
import { arrayLiteral } from '../db/array-literal.js';
import type { Db } from '../db.js';
import type { Change } from '../content/changes.js';

/** A term's fields and translations as one JSON object: what a change found or left. */
export function termSnapshot(alias: string): Prisma.Sql {
  const t = Prisma.raw(alias);
  return Prisma.sql`jsonb_build_object(
    'term', ${t}.term, 'description', ${t}.description, 'partOfSpeech', ${t}."partOfSpeech",
    'forbidden', ${t}.forbidden, 'doNotTranslate', ${t}."doNotTranslate", 'caseSensitive', ${t}."caseSensitive", 'abbreviation', ${t}.abbreviation,
    'translations', coalesce((SELECT jsonb_object_agg(gt.language, gt.text) FROM "GlossaryTranslation" gt WHERE gt."termId" = ${t}.id), '{}'::jsonb))`;
}

/** Before a change writes these terms: each as it is now (terms that do not exist yet are recorded by recordAfter). */
export async function recordBefore(tx: Db, change: Change | null, termIds: readonly number[]): Promise<void> {
  if (!change || termIds.length === 0) return;
  await tx.$executeRaw(Prisma.sql`/* glossary:history-before */
    INSERT INTO "GlossaryTermChange" ("activityId", "glossaryId", "termId", before)
    SELECT ${change.id}::bigint, t."glossaryId", t.id, ${termSnapshot('t')} FROM "GlossaryTerm" t WHERE t.id = ANY(${arrayLiteral(termIds)}::int[])
    ON CONFLICT ("activityId", "termId") DO NOTHING`);
}

/** After a change wrote these terms: each as it is now (null for a term it deleted); a term without a `before` row was created by it. */
export async function recordAfter(
  tx: Db,
  change: Change | null,
  glossaryId: number,
  termIds: readonly number[],
): Promise<void> {
  if (!change || termIds.length === 0) return;
  await tx.$executeRaw(Prisma.sql`/* glossary:history-after */
    INSERT INTO "GlossaryTermChange" ("activityId", "glossaryId", "termId", after)
    SELECT ${change.id}::bigint, ${glossaryId}, id, (SELECT ${termSnapshot('t')} FROM "GlossaryTerm" t WHERE t.id = ids.id)
      FROM unnest(${arrayLiteral(termIds)}::int[]) AS ids(id)
    ON CONFLICT ("activityId", "termId") DO UPDATE SET after = EXCLUDED.after`);
}

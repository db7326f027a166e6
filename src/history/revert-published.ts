// A revert that gives a cell back the text it had at the last publication
// leaves nothing unpublished in that cell. The unpublished-changes count
// (src/projects/stats.ts) counts cells modified after the publication, and
// the write gate has just stamped the cell with now(): for each cell the
// revert wrote back whose earlier value is the published one — the reverted
// change came after the publication to _latest and no other change wrote the
// cell in between — the last-modified time goes back to the publication's.
// (The exact earlier time is not kept anywhere; the publication's is the
// latest it can have been.) One statement, whatever the number of cells.
import { Prisma } from '../generated/prisma/client.js';
import type { Db } from '../db.js';
import { arrayLiteral } from '../db/array-literal.js';

export interface RestoredCell {
  keyId: number;
  languageId: number;
  customerId: number | null;
  /** The value written back. */
  text: string;
  status: 'REVIEWED' | 'NOT_REVIEWED';
}

/** Returns how many cells are as published again. */
export async function markPublishedAgain(
  db: Db,
  projectId: number,
  reverted: bigint,
  cells: RestoredCell[],
): Promise<number> {
  if (cells.length === 0) return 0;
  const keys = arrayLiteral(cells, (c) => c.keyId);
  const [row] = await db.$queryRaw<[{ n: number }]>(Prisma.sql`/* revert:published-again */
    WITH pub AS (
      SELECT p."createdAt" AS at FROM "Environment" e JOIN "Publication" p ON p.id = e."currentPublicationId"
       WHERE e.key = '_latest' AND e."projectId" = ${projectId}
         AND p."createdAt" < (SELECT at FROM "Activity" WHERE id = ${reverted})
    ), restored AS (
      SELECT * FROM unnest(${keys}::int[], ${arrayLiteral(cells, (c) => c.languageId)}::int[], ${arrayLiteral(cells, (c) => c.customerId)}::int[],
                           ${arrayLiteral(cells, (c) => c.text)}::text[], ${arrayLiteral(cells, (c) => c.status)}::text[])
             AS r(key_id, language_id, customer_id, text, status)
    ), written_between AS (
      -- Cells another change wrote after the publication and before the reverted change: their earlier text is not the published one.
      SELECT DISTINCT e.key_id, e.language_id, e.customer_id
        FROM pub, "CellChangeBatch" b CROSS JOIN LATERAL unnest(b."keyIds", b."languageIds", b."customerIds") AS e(key_id, language_id, customer_id)
       WHERE b."keyIds" && ${keys}::int[] AND b."projectId" = ${projectId} AND b.at > pub.at
         AND b.id < (SELECT min(id) FROM "CellChangeBatch" WHERE "activityId" = ${reverted})
    ), published AS (
      SELECT r.* FROM restored r
       WHERE NOT EXISTS (SELECT 1 FROM written_between w
                          WHERE w.key_id = r.key_id AND w.language_id = r.language_id AND w.customer_id IS NOT DISTINCT FROM r.customer_id)
    ), base AS (
      UPDATE "Translation" t SET "lastModifiedAt" = pub.at FROM pub, published r
       WHERE r.customer_id IS NULL AND t."keyId" = r.key_id AND t."languageId" = r.language_id
         AND t."lastModifiedAt" > pub.at AND t.text = r.text AND t."reviewStatus"::text = r.status
      RETURNING 1
    ), custom AS (
      UPDATE "CustomerTranslation" t SET "lastModifiedAt" = pub.at FROM pub, published r
       WHERE t."keyId" = r.key_id AND t."languageId" = r.language_id AND t."customerId" = r.customer_id
         AND t."lastModifiedAt" > pub.at AND t.text = r.text AND t."reviewStatus"::text = r.status
      RETURNING 1
    )
    SELECT ((SELECT count(*) FROM base) + (SELECT count(*) FROM custom))::int AS n`);
  return row.n;
}

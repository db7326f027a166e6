// Project counters of the contract, computed in one SQL statement for a batch
// of projects at once (the GraphQL layer calls this through a DataLoader).
import { prisma, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { arrayLiteral } from '../db/array-literal.js';
import { lastContentChangeSql } from '../content/changes.js';

export interface ProjectStats {
  keys: number;
  languages: number;
  members: number;
  unpublishedChanges: number;
  translatedPercentage: number;
  translatedKeysByLanguage: Record<string, number>;
  /** See EDIT_DERIVATION; null when nothing was ever edited. */
  lastEditedAt: Date | null;
  /** See ACTIVITY_DERIVATION; null for a project with no activity. */
  lastActivityAt: Date | null;
}

// Both times come from the activity log (src/history/). The texts are the
// GraphQL descriptions of the two fields.
export const EDIT_DERIVATION =
  'Time of the latest entry of the activity log that changed content (translations, keys, languages, customers; imports, jobs and reverts that wrote something). null when nothing was ever edited.';
export const ACTIVITY_DERIVATION =
  'Time of the latest entry of the activity log: any write or project-level action (import, export, publication, job start or end, settings). null for a project with no activity.';

interface StatsRow {
  id: number;
  keys: number;
  languages: number;
  members: number;
  non_empty: number;
  changed: number;
  /** [language key, non-empty cells] of the languages with any, in the project's order. */
  by_language: string | null;
  last_edited: Date | null;
  last_activity: Date | null;
}

export async function projectStats(
  projectIds: readonly number[],
  db: Db = prisma(),
): Promise<Map<number, ProjectStats>> {
  const ids = [...new Set(projectIds)];
  // One text for the ids, parsed by each use's cast.
  const idList = arrayLiteral(ids);
  const rows = await db.$queryRaw<StatsRow[]>(Prisma.sql`/* projects:stats */
     WITH pub AS (
       SELECT e."projectId" AS id, p."createdAt" AS at
         FROM "Environment" e JOIN "Publication" p ON p.id = e."currentPublicationId"
        WHERE e.key = '_latest' AND e."projectId" = ANY(${idList}::int[])
     ), per_language AS (
       -- One scan of the project's cells gives every figure of its base translations: per language, then summed.
       SELECT t."projectId" AS id, t."languageId",
              count(*) FILTER (WHERE t.text <> '')::int AS non_empty,
              count(*) FILTER (WHERE t."lastModifiedAt" > coalesce(pub.at, '-infinity'))::int AS changed
         FROM "Translation" t LEFT JOIN pub ON pub.id = t."projectId"
        WHERE t."projectId" = ANY(${idList}::int[]) GROUP BY t."projectId", t."languageId"
     ), tr AS (
       SELECT pl.id, sum(pl.non_empty)::int AS non_empty, sum(pl.changed)::int AS changed,
              (json_agg(json_build_array(l.key, pl.non_empty) ORDER BY l."order", l.key) FILTER (WHERE pl.non_empty > 0))::text AS by_language
         FROM per_language pl JOIN "Language" l ON l.id = pl."languageId"
        GROUP BY pl.id
     ), ctr AS (
       SELECT t."projectId" AS id,
              count(*) FILTER (WHERE t."lastModifiedAt" > coalesce(pub.at, '-infinity'))::int AS changed
         FROM "CustomerTranslation" t LEFT JOIN pub ON pub.id = t."projectId"
        WHERE t."projectId" = ANY(${idList}::int[]) GROUP BY t."projectId"
     ), k AS (
       SELECT "projectId" AS id, count(*)::int AS n
         FROM "TranslationKey" WHERE "projectId" = ANY(${idList}::int[]) GROUP BY "projectId"
     )
     SELECT p.id,
            coalesce(k.n, 0) AS keys,
            (SELECT count(*)::int FROM "Language" l WHERE l."projectId" = p.id) AS languages,
            (SELECT count(*)::int FROM "ProjectMember" m WHERE m."projectId" = p.id) AS members,
            coalesce(tr.non_empty, 0) AS non_empty,
            coalesce(tr.changed, 0) + coalesce(ctr.changed, 0) AS changed,
            tr.by_language,
            ${lastContentChangeSql(Prisma.sql`p.id`)} AS last_edited,
            (SELECT a.at FROM "Activity" a WHERE a."projectId" = p.id ORDER BY a.at DESC LIMIT 1) AS last_activity
       FROM "Project" p
       LEFT JOIN k ON k.id = p.id LEFT JOIN tr ON tr.id = p.id LEFT JOIN ctr ON ctr.id = p.id
      WHERE p.id = ANY(${idList}::int[])`);
  const result = new Map<number, ProjectStats>();
  for (const row of rows) {
    const cells = row.keys * row.languages;
    result.set(row.id, {
      keys: row.keys,
      languages: row.languages,
      members: row.members,
      unpublishedChanges: row.changed,
      translatedPercentage: cells === 0 ? 0 : Math.round((row.non_empty / cells) * 10_000) / 10_000,
      translatedKeysByLanguage: Object.fromEntries(
        row.by_language ? (JSON.parse(row.by_language) as [string, number][]) : [],
      ),
      lastEditedAt: row.last_edited,
      lastActivityAt: row.last_activity,
    });
  }
  return result;
}

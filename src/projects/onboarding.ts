// The first-run checklist of a project (the console's "Get started"): each
// step read from the project's state, not from clicks, in one statement, so
// that the editor gets it with its own project query rather than after it.
import { prisma, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';

export interface ProjectOnboarding {
  /** A language besides the first. */
  languagesAdded: boolean;
  /** Keys exist, or an import ran (it may have created none). */
  textsImported: boolean;
  /** Another member, or a pending e-mail invitation. */
  teamInvited: boolean;
  /** An environment serves files. */
  published: boolean;
  /** The project API key was used for a change (the app or its build calls the API). */
  appConnected: boolean;
}

export async function projectOnboarding(projectId: number, db: Db = prisma()): Promise<ProjectOnboarding> {
  // EXISTS, not counts: each test stops at its first row. The CASEs read the cheap test first.
  const [row] = await db.$queryRaw<ProjectOnboarding[]>(Prisma.sql`/* projects:onboarding */
    SELECT
      (SELECT count(*) FROM "Language" l WHERE l."projectId" = ${projectId}) > 1 AS "languagesAdded",
      CASE WHEN EXISTS (SELECT 1 FROM "TranslationKey" k WHERE k."projectId" = ${projectId}) THEN true
           ELSE EXISTS (SELECT 1 FROM "Activity" a WHERE a."projectId" = ${projectId} AND a.kind = 'IMPORT') END
        AS "textsImported",
      (SELECT count(*) FROM "ProjectMember" m WHERE m."projectId" = ${projectId}) > 1
        OR EXISTS (SELECT 1 FROM "Invitation" i
                    WHERE i."projectId" = ${projectId} AND i.kind = 'EMAIL' AND i."acceptedAt" IS NULL
                      AND i."expiresAt" > now()) AS "teamInvited",
      EXISTS (SELECT 1 FROM "Environment" e JOIN "Publication" p ON p.id = e."currentPublicationId"
               WHERE e."projectId" = ${projectId} AND jsonb_array_length(p.resources) > 0) AS published,
      EXISTS (SELECT 1 FROM "Activity" a WHERE a."projectId" = ${projectId} AND a."actorKind" = 'API_KEY')
        AS "appConnected"`);
  return row!;
}

// The publication history of a project: its Publication rows (running, complete
// and failed), newest first, with the environment each was copied from and who
// published it through what (recorded on the row when the publication starts,
// lifecycle.ts).
import { prisma, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { badRequest, notFound, said } from '../errors.js';
import type { ActorKind, ChangeSource } from '../content/origin.js';
import { EDITOR } from './environments.js';

export const PUBLICATION_LIST = { defaultLimit: 50, maxLimit: 200 } as const;

export interface PublicationRecord {
  id: number;
  environmentKey: string;
  /** 'editor' or the key of the environment whose publication was copied. */
  source: string;
  version: string;
  label: string | null;
  state: 'RUNNING' | 'COMPLETE' | 'FAILED';
  message: string;
  createdAt: Date;
  completedAt: Date | null;
  numberOfKeys: number;
  numberOfLanguages: number;
  numberOfNonEmptyTranslations: number;
  actorKind: ActorKind;
  actorId: string | null;
  actorName: string | null;
  actorEmail: string | null;
  changeSource: ChangeSource;
}

/** Publications of the project (of one environment when given), newest first. */
export async function listPublications(
  projectId: number,
  options: { environmentKey?: string | null; limit?: number | null } = {},
  db: Db = prisma(),
): Promise<PublicationRecord[]> {
  const limit = options.limit ?? PUBLICATION_LIST.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > PUBLICATION_LIST.maxLimit)
    throw badRequest(`limit must be between 1 and ${PUBLICATION_LIST.maxLimit}`);
  if (
    options.environmentKey != null &&
    !(await db.environment.findUnique({
      where: { projectId_key: { projectId, key: options.environmentKey } },
      select: { id: true },
    }))
  ) {
    throw notFound(said('environment-not-found', { environment: options.environmentKey }));
  }
  const environmentKey = options.environmentKey ?? null;
  return db.$queryRaw<PublicationRecord[]>(Prisma.sql`/* hosting:publications */
    SELECT p.id, e.key AS "environmentKey", coalesce(se.key, ${EDITOR}) AS source, p.version, p.label, p.state::text AS state, p.message,
            p."createdAt", p."completedAt", p."numberOfKeys", p."numberOfLanguages", p."numberOfNonEmptyTranslations",
            p."actorKind", p."actorId", coalesce(nullif(acc.name, ''), acc.email) AS "actorName", acc.email AS "actorEmail", p.source AS "changeSource"
       FROM "Publication" p
       JOIN "Environment" e ON e.id = p."environmentId"
       LEFT JOIN "Publication" sp ON sp.id = p."sourcePublicationId"
       LEFT JOIN "Environment" se ON se.id = sp."environmentId"
       LEFT JOIN "Account" acc ON p."actorKind" = 'ACCOUNT' AND acc.id::text = p."actorId"
      WHERE p."projectId" = ${projectId} AND (${environmentKey}::text IS NULL OR e.key = ${environmentKey}::text)
      ORDER BY p."createdAt" DESC, p.id DESC
      LIMIT ${limit}`);
}

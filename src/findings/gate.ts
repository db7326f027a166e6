// The publication gate of quality checks (docs/quality-checks.md, "Before
// publishing"): an environment with `requireNoErrors` is not published while
// the project has open (not dismissed) error findings, or texts whose checks
// are still running. A publication ships every customer's files (their
// overrides over the base, src/hosting/editor-files.ts), so the errors of every
// customer's overrides count, each listed with its customer. The refusal (CONFLICT) lists the first 100 errors with
// the counts per check and a link to the console's filter. A project owner
// may override it; the override is a QUALITY change in the activity log.
import { Prisma } from '../generated/prisma/client.js';
import { prisma } from '../db.js';
import { AppError, said } from '../errors.js';
import { openChange } from '../content/changes.js';

export const LISTED_ERRORS = 100;

export interface GateOptions {
  projectId: number;
  projectToken: string;
  environmentKey: string;
  requireNoErrors: boolean;
  /** An owner asked to publish anyway (checked by the caller). */
  override?: boolean;
  /** The console's base URL, for the link to the filter. */
  publicUrl: string;
}

export async function checkPublicationGate(options: GateOptions): Promise<void> {
  if (!options.requireNoErrors) return;
  const { projectId } = options;
  const [counts] = await prisma().$queryRaw<
    { errors: number; pending: number; checks: Record<string, number> | null }[]
  >(Prisma.sql`/* findings:gate-counts */
    SELECT (SELECT count(*)::int FROM "Finding" WHERE "projectId" = ${projectId} AND severity = 'error' AND NOT dismissed) AS errors,
           (SELECT count(*)::int FROM "FindingQueue" WHERE "projectId" = ${projectId}) AS pending,
           (SELECT jsonb_object_agg("check", n) FROM (
              SELECT "check", count(*)::int AS n FROM "Finding" WHERE "projectId" = ${projectId} AND severity = 'error' AND NOT dismissed GROUP BY "check") c) AS checks`);
  const errors = counts?.errors ?? 0;
  const pending = counts?.pending ?? 0;
  if (errors === 0 && pending === 0) return;
  if (options.override) {
    await openChange(prisma(), projectId, 'QUALITY', {
      action: 'OVERRIDE_PUBLICATION_GATE',
      environment: options.environmentKey,
      errors,
      pending,
    });
    return;
  }
  const listed =
    errors === 0
      ? []
      : await prisma().$queryRaw<
          {
            key: string;
            namespace: string;
            languageCode: string;
            customerKey: string | null;
            check: string;
            message: string;
            messageText: unknown;
          }[]
        >(Prisma.sql`/* findings:gate-list */
    SELECT k.key, k.namespace, l.key AS "languageCode", c.key AS "customerKey", f."check", f.message, f."messageText"
      FROM "Finding" f JOIN "TranslationKey" k ON k.id = f."keyId" JOIN "Language" l ON l.id = f."languageId"
      LEFT JOIN "Customer" c ON c.id = f."customerId"
     WHERE f."projectId" = ${projectId} AND f.severity = 'error' AND NOT f.dismissed
     ORDER BY k.namespace, k.key, l."order", f."customerId", f."check", f.n
     LIMIT ${LISTED_ERRORS}`);
  const link = `${options.publicUrl.replace(/\/$/, '')}/#/projects/${encodeURIComponent(options.projectToken)}/quality?severity=error`;
  const message =
    errors > 0
      ? said('quality-gate-errors', { environment: options.environmentKey, count: errors, link })
      : said('quality-gate-pending', { environment: options.environmentKey, count: pending });
  throw new AppError('CONFLICT', message, {
    qualityGate: { errors, pending, byCheck: counts?.checks ?? {}, findings: listed, link },
  });
}

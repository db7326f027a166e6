// History retention: a project keeps every change event unless its
// `historyRetentionDays` setting says otherwise; then events older than that
// are deleted. Only history goes: the current texts live in the translation
// tables and are never touched. Run periodically by the webhook dispatcher
// (src/webhooks/dispatcher.ts), with the delivery log's own retention.
import { prisma } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { badRequest } from '../errors.js';
import { readSettings, updateSettings } from '../projects/settings.js';

export const RETENTION_SETTING = 'historyRetentionDays';
/** Deliveries (and their attempt log) are kept this long. */
export const DELIVERY_LOG_DAYS = 30;

export async function historyRetentionDays(projectId: number): Promise<number | null> {
  const value = (await readSettings(projectId))[RETENTION_SETTING];
  return typeof value === 'number' ? value : null;
}

/** null: keep everything (the default). */
export async function setHistoryRetention(projectId: number, days: number | null): Promise<number | null> {
  if (days !== null && (!Number.isInteger(days) || days < 1 || days > 36_500))
    throw badRequest('days must be an integer between 1 and 36500, or null to keep everything');
  await updateSettings(projectId, { [RETENTION_SETTING]: days });
  return days;
}

/** Deletes events past their project's retention, and old deliveries; returns the counts. */
export async function pruneHistory(): Promise<{ cells: number; activities: number; deliveries: number }> {
  const db = prisma();
  const projects = Prisma.sql`SELECT id, (settings->>${RETENTION_SETTING})::int AS days FROM "Project" WHERE settings ? ${RETENTION_SETTING}`;
  const [{ n: cells }] = await db.$queryRaw<[{ n: number }]>(Prisma.sql`/* history:prune-cells */
     WITH gone AS (
       DELETE FROM "CellChangeBatch" b USING (${projects}) p WHERE b."projectId" = p.id AND b.at < now() - make_interval(days => p.days)
       RETURNING b.cells AS n
     ) SELECT coalesce(sum(n), 0)::int AS n FROM gone`);
  const activities = await db.$executeRaw(Prisma.sql`/* history:prune-activities */
    DELETE FROM "Activity" a USING (${projects}) p WHERE a."projectId" = p.id AND a.at < now() - make_interval(days => p.days)
        AND NOT EXISTS (SELECT 1 FROM "CellChangeBatch" b WHERE b."activityId" = a.id)`);
  const deliveries = await db.$executeRaw(Prisma.sql`/* history:prune-deliveries */
    DELETE FROM "WebhookDelivery" WHERE state <> 'PENDING' AND "createdAt" < now() - make_interval(days => ${DELIVERY_LOG_DAYS})`);
  return { cells, activities, deliveries };
}

// A project's quality-check settings, in Project.settings (src/projects/settings.ts):
// `qualityChecks` maps a check id to its severity or 'off' (a check not named
// keeps its default), `placeholderDialect` names the placeholder dialect.
import { Prisma } from '../generated/prisma/client.js';
import { lockProjectContent, type Db } from '../db.js';
import {
  CHECK_IDS,
  DIALECTS,
  SEVERITIES,
  activeChecks,
  type CheckSettings,
  type Dialect,
  type Severity,
} from '../checks/index.js';
import { badRequest } from '../errors.js';
import { readSettings, updateSettings } from '../projects/settings.js';
import { enqueueProject, noteQueued } from '../content/findings-queue.js';

export function checkSettingsOf(settings: unknown): CheckSettings {
  const chosen = (settings as { qualityChecks?: unknown } | null)?.qualityChecks;
  return chosen && typeof chosen === 'object' ? (chosen as CheckSettings) : {};
}

export function dialectOf(settings: unknown): Dialect {
  const dialect = (settings as { placeholderDialect?: unknown } | null)?.placeholderDialect;
  return typeof dialect === 'string' && (DIALECTS as readonly string[]).includes(dialect)
    ? (dialect as Dialect)
    : 'auto';
}

export async function readCheckSettings(
  projectId: number,
  db?: Db,
): Promise<{ checks: CheckSettings; dialect: Dialect }> {
  const settings = await readSettings(projectId, db);
  return { checks: checkSettingsOf(settings), dialect: dialectOf(settings) };
}

/**
 * Changes the severity of checks (or turns them off; null: back to the
 * default) and the placeholder dialect. The stored findings follow at once
 * where they can (a new severity, a check turned off); a check turned on, or
 * another dialect, needs the texts checked again: the project's cells are
 * queued. One transaction, recorded as a SETTINGS change.
 */
export async function updateCheckSettings(
  db: Db,
  projectId: number,
  patch: Record<string, Severity | 'off' | null>,
  dialect?: Dialect,
): Promise<CheckSettings> {
  for (const [id, value] of Object.entries(patch)) {
    if (!CHECK_IDS.includes(id)) throw badRequest(`Unknown check "${id}"`);
    if (value !== null && value !== 'off' && !SEVERITIES.includes(value))
      throw badRequest(`Severity of "${id}" must be error, warning, info or off`);
  }
  if (dialect !== undefined && !DIALECTS.includes(dialect))
    throw badRequest(`Unknown placeholder dialect "${dialect}"`);
  const before = await readCheckSettings(projectId, db);
  const checks: CheckSettings = { ...before.checks };
  for (const [id, value] of Object.entries(patch)) {
    if (value === null) delete checks[id];
    else checks[id] = value;
  }
  await updateSettings(
    projectId,
    { qualityChecks: checks, ...(dialect !== undefined ? { placeholderDialect: dialect } : {}) },
    db,
  );
  const wasOn = new Set(activeChecks(before.checks).map((c) => c.definition.id));
  const now = activeChecks(checks);
  const off = CHECK_IDS.filter((id) => !now.some((c) => c.definition.id === id));
  // The project's findings are rewritten: not beside an updater round that writes some of them (src/db.ts).
  await lockProjectContent(db, projectId);
  if (off.length) {
    await db.$executeRaw(Prisma.sql`/* findings:settings-off */
      DELETE FROM "Finding" WHERE "projectId" = ${projectId} AND "check" = ANY(${off}::text[])`);
  }
  for (const { definition, severity } of now) {
    await db.$executeRaw(Prisma.sql`/* findings:settings-severity */
      UPDATE "Finding" SET severity = ${severity} WHERE "projectId" = ${projectId} AND "check" = ${definition.id} AND severity <> ${severity}`);
  }
  if (now.some((c) => !wasOn.has(c.definition.id)) || (dialect !== undefined && dialect !== before.dialect))
    if (await enqueueProject(db, projectId)) noteQueued();
  return checks;
}

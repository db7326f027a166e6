// Per-project settings, stored in Project.settings (JSON). Each domain owns its
// keys; updates merge at the top level in SQL so concurrent writers of
// different keys do not overwrite each other.
import { prisma, type Db } from '../db.js';

export interface ProjectSettings {
  /** Provider API keys of the project, used instead of the service's (MT_PROVIDER_A / MT_PROVIDER_B). */
  providerApiKeys?: Partial<Record<'MT_PROVIDER_A' | 'MT_PROVIDER_B', string>>;
  [key: string]: unknown;
}

export async function readSettings(projectId: number, db: Db = prisma()): Promise<ProjectSettings> {
  const rows = await db.$queryRawUnsafe<{ settings: ProjectSettings }[]>(`SELECT settings FROM "Project" WHERE id = $1`, projectId);
  return rows[0]?.settings ?? {};
}

/** Merges `patch` into the settings; a key set to null is removed. */
export async function updateSettings(projectId: number, patch: Record<string, unknown>, db: Db = prisma()): Promise<ProjectSettings> {
  const rows = await db.$queryRawUnsafe<{ settings: ProjectSettings }[]>(
    `UPDATE "Project" SET settings = jsonb_strip_nulls(settings || $2::jsonb), "updatedAt" = now() WHERE id = $1 RETURNING settings`,
    projectId, JSON.stringify(patch),
  );
  return rows[0]?.settings ?? {};
}

// Per-project settings, stored in Project.settings (JSON). Each domain owns its
// keys; updates merge at the top level in SQL so concurrent writers of
// different keys do not overwrite each other.
import { prisma, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { openChange } from '../content/changes.js';

export interface ProjectSettings {
  /** Provider API keys of the project, sealed, used instead of the service's (MT_PROVIDER_A / MT_PROVIDER_B / LLM_OPENAI / LLM_ANTHROPIC). */
  providerApiKeys?: Partial<Record<'MT_PROVIDER_A' | 'MT_PROVIDER_B' | 'LLM_OPENAI' | 'LLM_ANTHROPIC', string>>;
  [key: string]: unknown;
}

export async function readSettings(projectId: number, db: Db = prisma()): Promise<ProjectSettings> {
  const rows = await db.$queryRaw<{ settings: ProjectSettings }[]>(
    Prisma.sql`/* projects:settings */ SELECT settings FROM "Project" WHERE id = ${projectId}`,
  );
  return rows[0]?.settings ?? {};
}

/**
 * Merges `patch` into the settings; a key set to null is removed. Recorded as
 * a SETTINGS change naming the keys, never their values (they may be secrets).
 */
export async function updateSettings(
  projectId: number,
  patch: Record<string, unknown>,
  db?: Db,
): Promise<ProjectSettings> {
  const write = async (tx: Db) => {
    const rows = await tx.$queryRaw<{ settings: ProjectSettings }[]>(Prisma.sql`/* projects:update-settings */
      UPDATE "Project" SET settings = jsonb_strip_nulls(settings || ${JSON.stringify(patch)}::jsonb), "updatedAt" = now() WHERE id = ${projectId} RETURNING settings`);
    await openChange(tx, projectId, 'SETTINGS', { settings: Object.keys(patch) });
    return rows[0]?.settings ?? {};
  };
  return db ? write(db) : prisma().$transaction(write);
}

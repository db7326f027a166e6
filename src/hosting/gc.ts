// Removes old versions of an environment after a switch. Kept: the served
// version, the one it replaced (so an instance whose cache still points there
// keeps serving for a moment) and any running publication's. Folders are
// listed before the database is read, so a version created meanwhile is
// either not listed or seen as running.
import { prisma } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { storage } from '../storage/index.js';
import { versionPrefix, versionsPrefix } from './layout.js';

export async function collectOldVersions(
  projectToken: string,
  environmentId: number,
  environmentKey: string,
): Promise<string[]> {
  const folders = await storage().listFolders(versionsPrefix(projectToken, environmentKey));
  if (folders.length <= 2) return [];
  const keep = await prisma().$queryRaw<{ version: string }[]>(Prisma.sql`/* hosting:versions-kept */
    SELECT version FROM "Publication" WHERE "environmentId" = ${environmentId} AND state = 'RUNNING'
     UNION
     (SELECT version FROM "Publication" WHERE "environmentId" = ${environmentId} AND state = 'COMPLETE' ORDER BY "completedAt" DESC, id DESC LIMIT 2)`);
  const kept = new Set(keep.map((k) => k.version));
  const removed = folders.filter((f) => !kept.has(f));
  for (const version of removed) await storage().deletePrefix(versionPrefix(projectToken, environmentKey, version));
  return removed;
}

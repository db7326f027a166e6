// Which files an environment serves: its current publication's resources,
// looked up in the database and cached briefly in process (a switch made in
// this process clears its entry at once; other instances see it within the TTL,
// and the previous version's files are kept long enough for that).
import { prisma } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import type { PublishedResource } from './layout.js';

export interface ServedEnvironment {
  projectToken: string;
  environmentKey: string;
  version: string;
  /** Decoded resource path → resource. */
  files: Map<string, PublishedResource>;
}

const TTL_MS = 2_000;
const MAX_ENTRIES = 1_000;
const cache = new Map<string, { expires: number; value: Promise<ServedEnvironment | null> }>();

async function load(projectToken: string, environmentKey: string): Promise<ServedEnvironment | null> {
  const rows = await prisma().$queryRaw<
    { version: string; resources: PublishedResource[] }[]
  >(Prisma.sql`/* hosting:served */
    SELECT p.version, p.resources FROM "Project" pr
       JOIN "Environment" e ON e."projectId" = pr.id
       JOIN "Publication" p ON p.id = e."currentPublicationId"
      WHERE pr."projectToken" = ${projectToken} AND e.key = ${environmentKey}`);
  const row = rows[0];
  if (!row) return null;
  return { projectToken, environmentKey, version: row.version, files: new Map(row.resources.map((r) => [r.path, r])) };
}

/** The environment's served files, or null when the project or environment is unknown or unpublished. */
export function servedEnvironment(projectToken: string, environmentKey: string): Promise<ServedEnvironment | null> {
  const id = `${projectToken}/${environmentKey}`;
  const now = Date.now();
  const hit = cache.get(id);
  if (hit && hit.expires > now) return hit.value;
  if (cache.size >= MAX_ENTRIES) {
    for (const [key, entry] of cache) if (entry.expires <= now) cache.delete(key);
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  }
  // Concurrent requests share one lookup; a failed lookup is not cached.
  const value = load(projectToken, environmentKey);
  cache.set(id, { expires: now + TTL_MS, value });
  value.catch(() => {
    if (cache.get(id)?.value === value) cache.delete(id);
  });
  return value;
}

export function forgetServed(projectToken: string, environmentKey: string): void {
  cache.delete(`${projectToken}/${environmentKey}`);
}

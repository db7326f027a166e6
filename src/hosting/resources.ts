// The published resources of every hosting environment of a project, in the
// shape the vendor's command-line client reads from `GET /api/v2/project`
// (`pull` keeps those whose `key` is the requested environment and saves each
// `path`, without its `{projectToken}/{environment}/` prefix, plus `.json`).
import { prisma, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import type { PublishedResource } from './layout.js';

export interface HostingResource {
  /** `{projectToken}/{environmentKey}/{resource path}`, unencoded: the file's address below {cdn_url}. */
  path: string;
  /** The environment key (_latest, _production or a custom key). */
  key: string;
  language: string | null;
  namespace: string | null;
  /** The customer key of a customer-specific resource. */
  customerId: string | null;
}

/** Resources served now by each environment (its current publication), environments in publication order. */
export async function hostingResources(projectId: number, db: Db = prisma()): Promise<HostingResource[]> {
  const rows = await db.$queryRaw<
    { projectToken: string; key: string; resources: PublishedResource[] }[]
  >(Prisma.sql`/* hosting:resources */
    SELECT pr."projectToken", e.key, p.resources
       FROM "Environment" e JOIN "Project" pr ON pr.id = e."projectId"
       JOIN "Publication" p ON p.id = e."currentPublicationId"
      WHERE e."projectId" = ${projectId}
      ORDER BY e.position, e.id`);
  return rows.flatMap((row) =>
    (row.resources ?? []).map((r) => ({
      path: `${row.projectToken}/${row.key}/${r.path}`,
      key: row.key,
      language: r.language ?? null,
      namespace: r.namespace ?? null,
      customerId: r.customer ?? null,
    })),
  );
}

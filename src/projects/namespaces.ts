// The namespaces of a project: the distinct non-empty namespaces of its keys.
// The empty (default) namespace is not listed: it has no name.
import { prisma, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';

export interface ProjectNamespace {
  name: string;
  /** Number of keys in the namespace. */
  keys: number;
}

export async function projectNamespaces(projectId: number, db: Db = prisma()): Promise<ProjectNamespace[]> {
  const rows = await db.$queryRaw<{ name: string; keys: number }[]>(Prisma.sql`/* projects:namespaces */
    SELECT namespace AS name, count(*)::int AS keys FROM "TranslationKey"
      WHERE "projectId" = ${projectId} AND namespace <> '' GROUP BY namespace ORDER BY namespace`);
  return rows;
}

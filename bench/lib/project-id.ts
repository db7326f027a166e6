// A project's row id from its token: the scenarios seed and measure in SQL by id.
import { Prisma, type PrismaClient } from '../../src/generated/prisma/client.js';

export async function projectIdOf(prisma: PrismaClient, projectToken: string): Promise<number> {
  const [row] = await prisma.$queryRaw<{ id: number }[]>(
    Prisma.sql`/* bench:project-id */ SELECT id FROM "Project" WHERE "projectToken" = ${projectToken}`,
  );
  if (!row) throw new Error(`no project with token ${projectToken}`);
  return row.id;
}

/** A project's language ids in the order of a page's cells (the languages' order, then key). */
export async function languageIdsOf(prisma: PrismaClient, projectId: number): Promise<number[]> {
  const rows = await prisma.$queryRaw<{ id: number }[]>(
    Prisma.sql`/* bench:languages */ SELECT id FROM "Language" WHERE "projectId" = ${projectId} ORDER BY "order", key`,
  );
  return rows.map((l) => l.id);
}

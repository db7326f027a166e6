// A project's row id from its token: the scenarios seed and measure in SQL by id.
import { Prisma, type PrismaClient } from '../../src/generated/prisma/client.js';

export async function projectIdOf(prisma: PrismaClient, projectToken: string): Promise<number> {
  const [row] = await prisma.$queryRaw<{ id: number }[]>(
    Prisma.sql`/* bench:project-id */ SELECT id FROM "Project" WHERE "projectToken" = ${projectToken}`,
  );
  if (!row) throw new Error(`no project with token ${projectToken}`);
  return row.id;
}

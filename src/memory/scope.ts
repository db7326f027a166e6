// Whose texts a translation-memory lookup may use (docs/translation-memory.md):
//   - the project's own texts, always;
//   - for an account: every project it is a member of (each role may read);
//   - the shared memories the project is attached to: their imported
//     segments and the texts of every project that shares into them.
// A project API key is not an account: it gets its project and the memories
// attached to it, never another project it happens to share an owner with.
import { Prisma } from '../generated/prisma/client.js';
import type { Principal } from '../auth/principal.js';
import { prisma, type Db } from '../db.js';

export interface MemoryScope {
  /** The project asking. */
  projectId: number;
  /** Projects whose texts (and own imported segments) count. */
  projectIds: number[];
  /** Shared memories whose imported segments count. */
  memoryIds: number[];
}

export async function memoryScope(principal: Principal, projectId: number, db: Db = prisma()): Promise<MemoryScope> {
  const accountId = principal.kind === 'account' ? principal.accountId : null;
  const rows = await db.$queryRaw<{ kind: string; id: number }[]>(Prisma.sql`/* memory:scope */
    WITH attached AS (
      SELECT "memoryId" FROM "TranslationMemoryLink" WHERE "projectId" = ${projectId} AND reads
    )
    SELECT 'memory' AS kind, "memoryId" AS id FROM attached
    UNION SELECT 'project', l."projectId" FROM "TranslationMemoryLink" l JOIN attached a ON a."memoryId" = l."memoryId" WHERE l.shares
    UNION SELECT 'project', m."projectId" FROM "ProjectMember" m WHERE m."accountId" = ${accountId}::int`);
  const projects = new Set<number>([projectId]);
  const memories = new Set<number>();
  for (const r of rows) (r.kind === 'memory' ? memories : projects).add(r.id);
  return { projectId, projectIds: [...projects], memoryIds: [...memories] };
}

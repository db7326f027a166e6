// Who reaches which glossary (docs/glossary.md), mirroring shared translation
// memories (src/memory/shared.ts):
//   - a project's own glossary: read with READ, changed with GLOSSARY (owners,
//     administrators, the project's API key), through the project access check;
//   - a shared glossary: an account owns it and alone changes it; members of a
//     project linked to it read it; linking a project to it also needs the
//     GLOSSARY permission in that project. A project API key reads the shared
//     glossaries linked to its project and never changes one.
import { Prisma } from '../generated/prisma/client.js';
import type { Principal } from '../auth/principal.js';
import { prisma, type Db } from '../db.js';
import { AppError, forbidden, notFound } from '../errors.js';
import { requireAccount, resolveProject } from '../projects/access.js';
import type { Permission } from '../teams/permissions.js';

/** A glossary the caller reached, and the project whose activity log records its changes (null: shared). */
export interface ReachedGlossary {
  glossaryId: number;
  projectId: number | null;
  sourceLanguage: string;
}

/** Names a glossary: a project's own (projectToken; the key's project for an API key) or a shared one (glossaryId). */
export type GlossaryTarget = { projectToken?: string | null; glossaryId?: number | null };

/** The project's own glossary, created on first use with the project's default language as its source language. */
export async function projectGlossary(projectId: number, db: Db = prisma()): Promise<ReachedGlossary> {
  const found = await db.glossary.findUnique({ where: { projectId }, select: { id: true, sourceLanguage: true } });
  if (found) return { glossaryId: found.id, projectId, sourceLanguage: found.sourceLanguage };
  const [row] = await db.$queryRaw<{ id: number; sourceLanguage: string }[]>(Prisma.sql`/* glossary:create-project */
    INSERT INTO "Glossary" (name, "sourceLanguage", "projectId")
    SELECT p.name, coalesce((SELECT l.key FROM "Language" l WHERE l."projectId" = p.id AND l."isDefault" LIMIT 1), ''), p.id
      FROM "Project" p WHERE p.id = ${projectId}
    ON CONFLICT ("projectId") DO UPDATE SET name = "Glossary".name
    RETURNING id, "sourceLanguage"`);
  if (!row) throw notFound(`Project ${projectId} not found`);
  return { glossaryId: row.id, projectId, sourceLanguage: row.sourceLanguage };
}

/**
 * A shared glossary the account owns. One it can see (linked to a project it
 * is a member of) but does not own is FORBIDDEN; any other NOT_FOUND.
 */
export async function ownedGlossary(principal: Principal, glossaryId: number): Promise<ReachedGlossary> {
  const accountId = requireAccount(principal);
  const [row] = await prisma().$queryRaw<
    { owned: boolean; visible: boolean; sourceLanguage: string }[]
  >(Prisma.sql`/* glossary:owned */
    SELECT g."ownerId" = ${accountId} AS owned, g."sourceLanguage",
           EXISTS (SELECT 1 FROM "GlossaryLink" l JOIN "ProjectMember" pm ON pm."projectId" = l."projectId" AND pm."accountId" = ${accountId} WHERE l."glossaryId" = g.id) AS visible
      FROM "Glossary" g WHERE g.id = ${glossaryId} AND g."projectId" IS NULL`);
  if (!row || (!row.owned && !row.visible)) throw notFound(`Glossary ${glossaryId} not found`);
  if (!row.owned) throw forbidden('Only the account that created a shared glossary may change it');
  return { glossaryId, projectId: null, sourceLanguage: row.sourceLanguage };
}

/** A shared glossary the caller may read: its owner, a member of a linked project, or the API key of a linked project. */
async function readableShared(principal: Principal, glossaryId: number): Promise<ReachedGlossary> {
  const accountId = principal.kind === 'account' ? principal.accountId : null;
  const keyProject = principal.kind === 'project' ? principal.projectId : null;
  if (accountId === null && keyProject === null) requireAccount(principal);
  const [row] = await prisma().$queryRaw<{ sourceLanguage: string }[]>(Prisma.sql`/* glossary:readable */
    SELECT g."sourceLanguage" FROM "Glossary" g
     WHERE g.id = ${glossaryId} AND g."projectId" IS NULL
       AND (g."ownerId" = ${accountId}::int
            OR EXISTS (SELECT 1 FROM "GlossaryLink" l LEFT JOIN "ProjectMember" pm ON pm."projectId" = l."projectId" AND pm."accountId" = ${accountId}::int
                        WHERE l."glossaryId" = g.id AND (pm."accountId" IS NOT NULL OR l."projectId" = ${keyProject}::int)))`);
  if (!row) throw notFound(`Glossary ${glossaryId} not found`);
  return { glossaryId, projectId: null, sourceLanguage: row.sourceLanguage };
}

/**
 * Resolves a glossary for an operation: `write` needs GLOSSARY in the
 * project (or ownership of a shared glossary), a read READ (or EXPORT).
 */
export async function reachGlossary(
  principal: Principal,
  target: GlossaryTarget,
  mode: 'read' | 'write' | 'export',
): Promise<ReachedGlossary> {
  if (target.glossaryId != null) {
    const own = await prisma().glossary.findUnique({
      where: { id: target.glossaryId },
      select: { projectId: true, project: { select: { projectToken: true } } },
    });
    // A project's own glossary named by its id: the project's access rules, as if named by its token.
    if (own?.projectId != null) {
      const projectId = await resolveProject(principal, own.project!.projectToken, permissionOf(mode));
      if (target.projectToken && principal.kind === 'account') {
        const named = await resolveProject(principal, target.projectToken, 'READ');
        if (named !== projectId) throw notFound(`Glossary ${target.glossaryId} not found`);
      }
      return projectGlossary(projectId);
    }
    return mode === 'write'
      ? ownedGlossary(principal, target.glossaryId)
      : readableShared(principal, target.glossaryId);
  }
  const projectId = await resolveProject(principal, target.projectToken, permissionOf(mode));
  return projectGlossary(projectId);
}

function permissionOf(mode: 'read' | 'write' | 'export'): Permission {
  return mode === 'write' ? 'GLOSSARY' : mode === 'export' ? 'EXPORT' : 'READ';
}

/** The glossary a term belongs to, reached for `mode` (NOT_FOUND when the caller may not see it). */
export async function reachTerm(
  principal: Principal,
  termId: number,
  mode: 'read' | 'write',
  projectToken?: string | null,
): Promise<ReachedGlossary> {
  const term = await prisma().glossaryTerm.findUnique({ where: { id: termId }, select: { glossaryId: true } });
  if (!term) throw notFound(`Glossary term ${termId} not found`);
  try {
    return await reachGlossary(principal, { glossaryId: term.glossaryId, projectToken }, mode);
  } catch (error) {
    // Another project's term is not found, whatever the glossary's own answer would be.
    if (error instanceof AppError && error.code === 'NOT_FOUND') throw notFound(`Glossary term ${termId} not found`);
    throw error;
  }
}

/** The glossaries whose terms count in a project: its own and the shared ones linked to it. */
export async function glossariesOfProject(
  projectId: number,
  db: Db = prisma(),
): Promise<{ id: number; sourceLanguage: string }[]> {
  return db.$queryRaw<{ id: number; sourceLanguage: string }[]>(Prisma.sql`/* glossary:of-project */
    SELECT id, "sourceLanguage" FROM "Glossary" WHERE "projectId" = ${projectId}
    UNION SELECT g.id, g."sourceLanguage" FROM "GlossaryLink" l JOIN "Glossary" g ON g.id = l."glossaryId" WHERE l."projectId" = ${projectId}
    ORDER BY 1`);
}

// Shared glossaries (docs/glossary.md), the way shared translation memories
// work (src/memory/shared.ts): an account creates one and alone changes it;
// it links projects to it where it also holds the project's GLOSSARY
// permission; members (and the API key) of a linked project read its terms.
import { Prisma } from '../generated/prisma/client.js';
import type { Principal } from '../auth/principal.js';
import { prisma } from '../db.js';
import { badRequest } from '../errors.js';
import { requireAccount, resolveProject } from '../projects/access.js';
import { glossariesOfProject, ownedGlossary } from './access.js';

export interface GlossaryView {
  id: number;
  name: string;
  sourceLanguage: string;
  /** Null for a shared glossary. */
  projectToken: string | null;
  ownerId: number | null;
  terms: number;
  createdAt: Date;
  projects: { projectToken: string; projectName: string }[];
}

function glossaryName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 200) throw badRequest('name: 1 to 200 characters');
  return trimmed;
}

function languageKey(key: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_@.-]{0,34}$/.test(key))
    throw badRequest(`sourceLanguage: "${key.slice(0, 40)}" is not a language key`);
  return key;
}

export async function createSharedGlossary(
  principal: Principal,
  name: string,
  sourceLanguage: string,
): Promise<GlossaryView> {
  const ownerId = requireAccount(principal);
  const g = await prisma().glossary.create({
    data: { name: glossaryName(name), sourceLanguage: languageKey(sourceLanguage), ownerId },
  });
  return (await viewGlossaries([g.id]))[0]!;
}

export async function deleteSharedGlossary(principal: Principal, glossaryId: number): Promise<boolean> {
  const { glossaryId: id } = await ownedGlossary(principal, glossaryId);
  await prisma().glossary.delete({ where: { id } });
  return true;
}

/** The shared glossaries the account owns and those linked to projects it is a member of. */
export async function listSharedGlossaries(principal: Principal): Promise<GlossaryView[]> {
  const accountId = requireAccount(principal);
  const rows = await prisma().$queryRaw<{ id: number }[]>(Prisma.sql`/* glossary:list-shared */
    SELECT id FROM "Glossary" WHERE "ownerId" = ${accountId} AND "projectId" IS NULL
    UNION SELECT l."glossaryId" FROM "GlossaryLink" l JOIN "ProjectMember" m ON m."projectId" = l."projectId" AND m."accountId" = ${accountId}
    ORDER BY 1`);
  return viewGlossaries(rows.map((r) => r.id));
}

/** The glossaries whose terms count in the project (its own first, then the linked shared ones). */
export async function projectGlossaries(
  principal: Principal,
  projectToken: string | null | undefined,
): Promise<GlossaryView[]> {
  const projectId = await resolveProject(principal, projectToken, 'READ');
  return viewGlossaries((await glossariesOfProject(projectId)).map((g) => g.id));
}

/** Links (or, with linked false, unlinks) a project to a shared glossary the caller owns. */
export async function linkProjectGlossary(
  principal: Principal,
  glossaryId: number,
  projectToken: string,
  linked: boolean,
): Promise<GlossaryView> {
  const { glossaryId: id } = await ownedGlossary(principal, glossaryId);
  const projectId = await resolveProject(principal, projectToken, 'GLOSSARY');
  if (linked) {
    await prisma().glossaryLink.upsert({
      where: { glossaryId_projectId: { glossaryId: id, projectId } },
      create: { glossaryId: id, projectId },
      update: {},
    });
  } else {
    await prisma().glossaryLink.deleteMany({ where: { glossaryId: id, projectId } });
  }
  return (await viewGlossaries([id]))[0]!;
}

async function viewGlossaries(ids: number[]): Promise<GlossaryView[]> {
  if (!ids.length) return [];
  const rows = await prisma().glossary.findMany({
    where: { id: { in: ids } },
    include: {
      project: { select: { projectToken: true } },
      links: { include: { project: { select: { projectToken: true, name: true } } }, orderBy: { projectId: 'asc' } },
      _count: { select: { terms: true } },
    },
  });
  const byId = new Map(rows.map((g) => [g.id, g]));
  return ids
    .map((id) => byId.get(id)!)
    .filter(Boolean)
    .map((g) => ({
      id: g.id,
      name: g.name,
      sourceLanguage: g.sourceLanguage,
      projectToken: g.project?.projectToken ?? null,
      ownerId: g.ownerId,
      terms: g._count.terms,
      createdAt: g.createdAt,
      projects: g.links.map((l) => ({ projectToken: l.project.projectToken, projectName: l.project.name })),
    }));
}

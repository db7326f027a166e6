// Shared translation memories (docs/translation-memory.md): a named memory
// belongs to the account that created it. Its owner links projects to it —
// a project *shares* (its texts feed the memory) or *reads* (its suggestions
// include the memory) — and only where the owner also holds the project's
// MEMORY permission (owner or administrator): sharing a project's texts with
// other projects is the project owner's decision.
import { Prisma } from '../generated/prisma/client.js';
import type { Principal } from '../auth/principal.js';
import { prisma } from '../db.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { requireAccount, resolveProject } from '../projects/access.js';

export interface SharedMemoryView {
  id: number;
  name: string;
  ownerId: number;
  createdAt: Date;
  projects: { projectId: number; projectToken: string; projectName: string; shares: boolean; reads: boolean }[];
  segments: number;
}

const MAX_NAME = 200;

function memoryName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > MAX_NAME) throw badRequest(`name: 1 to ${MAX_NAME} characters`);
  return trimmed;
}

export async function createSharedMemory(principal: Principal, name: string): Promise<SharedMemoryView> {
  const ownerId = requireAccount(principal);
  const memory = await prisma().translationMemory.create({ data: { name: memoryName(name), ownerId } });
  return (await viewMemories([memory.id]))[0]!;
}

/**
 * The memory, if the principal's account owns it. One it can see (linked to a
 * project it is a member of) but does not own is FORBIDDEN; any other, as if
 * it did not exist, NOT_FOUND.
 */
export async function ownedMemory(principal: Principal, memoryId: number): Promise<number> {
  const accountId = requireAccount(principal);
  const [row] = await prisma().$queryRaw<{ owned: boolean; visible: boolean }[]>(Prisma.sql`/* memory:owned */
    SELECT m."ownerId" = ${accountId} AS owned,
           EXISTS (SELECT 1 FROM "TranslationMemoryLink" l JOIN "ProjectMember" pm ON pm."projectId" = l."projectId" AND pm."accountId" = ${accountId} WHERE l."memoryId" = m.id) AS visible
      FROM "TranslationMemory" m WHERE m.id = ${memoryId}`);
  if (!row || (!row.owned && !row.visible)) throw notFound(`translation memory ${memoryId} not found`);
  if (!row.owned) throw forbidden('Only the account that created a shared memory may change it');
  return memoryId;
}

/** The memories the account owns, and those attached to projects it is a member of. */
export async function listSharedMemories(principal: Principal): Promise<SharedMemoryView[]> {
  const accountId = requireAccount(principal);
  const rows = await prisma().$queryRaw<{ id: number }[]>(Prisma.sql`/* memory:list-shared */
    SELECT id FROM "TranslationMemory" WHERE "ownerId" = ${accountId}
    UNION SELECT l."memoryId" FROM "TranslationMemoryLink" l JOIN "ProjectMember" m ON m."projectId" = l."projectId" AND m."accountId" = ${accountId}
    ORDER BY 1`);
  return viewMemories(rows.map((r) => r.id));
}

export async function renameSharedMemory(
  principal: Principal,
  memoryId: number,
  name: string,
): Promise<SharedMemoryView> {
  const id = await ownedMemory(principal, memoryId);
  await prisma().translationMemory.update({ where: { id }, data: { name: memoryName(name) } });
  return (await viewMemories([id]))[0]!;
}

export async function deleteSharedMemory(principal: Principal, memoryId: number): Promise<boolean> {
  const id = await ownedMemory(principal, memoryId);
  await prisma().translationMemory.delete({ where: { id } });
  return true;
}

/**
 * Links a project to a memory the caller owns, as it says: `shares` (the
 * project's texts feed the memory), `reads` (the project's suggestions use
 * it). Both false removes the link.
 */
export async function linkProject(
  principal: Principal,
  memoryId: number,
  projectToken: string,
  link: { shares: boolean; reads: boolean },
): Promise<SharedMemoryView> {
  const id = await ownedMemory(principal, memoryId);
  const projectId = await resolveProject(principal, projectToken, 'MEMORY');
  if (!link.shares && !link.reads) {
    await prisma().translationMemoryLink.deleteMany({ where: { memoryId: id, projectId } });
  } else {
    await prisma().translationMemoryLink.upsert({
      where: { memoryId_projectId: { memoryId: id, projectId } },
      create: { memoryId: id, projectId, shares: link.shares, reads: link.reads },
      update: { shares: link.shares, reads: link.reads },
    });
  }
  return (await viewMemories([id]))[0]!;
}

async function viewMemories(ids: number[]): Promise<SharedMemoryView[]> {
  if (!ids.length) return [];
  const memories = await prisma().translationMemory.findMany({
    where: { id: { in: ids } },
    orderBy: { id: 'asc' },
    include: {
      links: { include: { project: { select: { projectToken: true, name: true } } }, orderBy: { projectId: 'asc' } },
      _count: { select: { segments: true } },
    },
  });
  return memories.map((m) => ({
    id: m.id,
    name: m.name,
    ownerId: m.ownerId,
    createdAt: m.createdAt,
    projects: m.links.map((l) => ({
      projectId: l.projectId,
      projectToken: l.project.projectToken,
      projectName: l.project.name,
      shares: l.shares,
      reads: l.reads,
    })),
    segments: m._count.segments,
  }));
}

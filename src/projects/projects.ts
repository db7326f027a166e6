import { randomBytes } from 'node:crypto';
import { lockProjectContent, prisma } from '../db.js';
import { badRequest, paymentRequired, said } from '../errors.js';
import { randomToken, sha256 } from '../auth/secrets.js';
import { openChange } from '../content/changes.js';
import { projectStats } from './stats.js';
import { BUILT_IN_ENVIRONMENTS } from './environments-seed.js';
import { forgetCredentials } from '../auth/credential-cache.js';
import { storage } from '../storage/index.js';
import { projectFolder } from '../screenshots/storage.js';
import { sweepScreenshotDeletions } from '../screenshots/sweep.js';

export const PROJECT_SORTS = [
  'alphabetical',
  'translation_progress',
  'number_of_keys',
  'number_of_languages',
  'number_of_members',
  'last_edited',
  'last_activity',
  'created',
] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number];

export const INITIAL_LANGUAGE = { key: 'en', name: 'English' };
const MAX_NAME = 200;

export interface CreateProjectInput {
  accountId: number;
  name: string;
}

function checkName(name: string): void {
  if (name.trim() === '') throw badRequest(said('name-required'));
  if (name.length > MAX_NAME) throw badRequest(said('name-too-long', { max: MAX_NAME }));
}

const newApiKey = (): { apiKey: string; apiKeyHash: string } => {
  const apiKey = randomToken('lms_key_', 30);
  return { apiKey, apiKeyHash: sha256(apiKey) };
};

export async function createProject({ accountId, name }: CreateProjectInput): Promise<{ id: number }> {
  checkName(name);
  const account = await prisma().account.findUniqueOrThrow({
    where: { id: accountId },
    select: { plan: true, _count: { select: { memberships: { where: { role: 'OWNER' } } } } },
  });
  if (account.plan.maxProjects != null && account._count.memberships >= account.plan.maxProjects) {
    throw paymentRequired(said('plan-projects', { plan: account.plan.name, max: account.plan.maxProjects }));
  }
  return prisma().project.create({
    data: {
      name: name.trim(),
      projectToken: randomBytes(16).toString('hex'),
      ...newApiKey(),
      ownerId: accountId,
      members: { create: { accountId, role: 'OWNER' } },
      languages: { create: { ...INITIAL_LANGUAGE, isDefault: true, order: 0 } },
      environments: { create: BUILT_IN_ENVIRONMENTS.map((e) => ({ ...e, builtIn: true })) },
    },
    select: { id: true },
  });
}

export function parseProjectSort(value: unknown): ProjectSort {
  if (value === undefined || value === null || value === '') return 'alphabetical';
  if (typeof value === 'string' && (PROJECT_SORTS as readonly string[]).includes(value)) return value as ProjectSort;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the value as the client sent it, for the message.
  throw badRequest(`sort must be one of ${PROJECT_SORTS.join(', ')}; got '${String(value)}'`);
}

/** Ids of the account's projects in the requested order. */
export async function listProjectIds(accountId: number, sort: ProjectSort): Promise<number[]> {
  const projects = await prisma().project.findMany({
    where: { members: { some: { accountId } } },
    select: { id: true, name: true, createdAt: true },
  });
  if (projects.length === 0) return [];
  const stats =
    sort === 'alphabetical' || sort === 'created' ? undefined : await projectStats(projects.map((p) => p.id));
  const created = new Map(projects.map((p) => [p.id, p.createdAt.getTime()]));
  const metric = (id: number): number => {
    const s = stats!.get(id)!;
    switch (sort) {
      case 'translation_progress':
        return s.translatedPercentage;
      case 'number_of_keys':
        return s.keys;
      case 'number_of_languages':
        return s.languages;
      case 'number_of_members':
        return s.members;
      // A project never edited (or with no activity) counts from its creation.
      case 'last_edited':
        return s.lastEditedAt?.getTime() ?? created.get(id)!;
      default:
        return s.lastActivityAt?.getTime() ?? created.get(id)!;
    }
  };
  const byName = (a: { name: string; id: number }, b: { name: string; id: number }) =>
    a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id - b.id;
  const sorted = [...projects].sort((a, b) => {
    if (sort === 'alphabetical') return byName(a, b);
    if (sort === 'created') return b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;
    return metric(b.id) - metric(a.id) || byName(a, b);
  });
  return sorted.map((p) => p.id);
}

/** Renames a project (recorded in its activity log as a SETTINGS change). */
export async function renameProject(projectId: number, name: string): Promise<void> {
  checkName(name);
  await prisma().$transaction(async (tx) => {
    const before = await tx.project.findUniqueOrThrow({ where: { id: projectId }, select: { name: true } });
    await openChange(tx, projectId, 'SETTINGS', { action: 'RENAME_PROJECT', from: before.name, to: name.trim() });
    await tx.project.update({ where: { id: projectId }, data: { name: name.trim(), updatedAt: new Date() } });
  });
}

/**
 * Replaces the project API key and returns the new one. The old key stops
 * working at once, on every instance (forgetCredentials, before the answer
 * leaves). Recorded in the activity log as a SETTINGS change, without either key.
 */
export async function rotateApiKey(projectId: number): Promise<string> {
  const key = newApiKey();
  await prisma().$transaction(async (tx) => {
    await openChange(tx, projectId, 'SETTINGS', { action: 'ROTATE_API_KEY' });
    await tx.project.update({ where: { id: projectId }, data: { ...key, updatedAt: new Date() } });
  });
  await forgetCredentials();
  return key.apiKey;
}

/** Deletes a project with everything in it, its published files included. */
export async function deleteProject(projectId: number): Promise<void> {
  // Its screenshots' rows go with it (cascade); their folder is queued in the same transaction
  // and removed by the caller's sweep once this has committed (src/screenshots/sweep.ts).
  const project = await prisma().$transaction(async (tx) => {
    // Its cells go by cascade: not beside a findings round that holds some of them (src/db.ts).
    await lockProjectContent(tx, projectId);
    await tx.screenshotDeletion.upsert({
      where: { folder: projectFolder(projectId) },
      create: { folder: projectFolder(projectId) },
      update: {},
    });
    return tx.project.delete({ where: { id: projectId }, select: { projectToken: true } });
  });
  // Its API key ends with it, on every instance.
  await forgetCredentials();
  // The rows went first, so the CDN no longer finds a publication to serve from these files.
  await storage().deletePrefix(`${project.projectToken}/`);
  await sweepScreenshotDeletions();
}

// Project members: list, change a role, remove, transfer ownership, leave.
// Who may call these is decided by the access check (MEMBERS,
// TRANSFER_OWNERSHIP); the rules here are the team's own: one owner per
// project, the owner's role changes only by a transfer, the last owner can
// neither leave nor be removed. Each change locks the project row, so two
// concurrent changes cannot leave a project without an owner.
import { lockProject, prisma, type Db } from '../db.js';
import { badRequest, conflict, notFound, said } from '../errors.js';
import { allows, type MemberGrant, type Role } from './permissions.js';

export interface MemberView {
  accountId: number;
  email: string;
  name: string;
  role: Role;
  /** Language keys a translator may write; empty: every language. */
  languages: string[];
  canReview: boolean;
  joinedAt: Date;
}

/** A grant as given by a caller: language keys rather than ids. */
export interface GrantInput {
  role: Role;
  languages?: readonly string[] | null;
  canReview?: boolean | null;
}

const ROLE_ORDER: Record<Role, number> = { OWNER: 0, ADMIN: 1, TRANSLATOR: 2, VIEWER: 3 };

/** Language key → id of a project, and back. */
async function languageMap(db: Db, projectId: number) {
  const rows = await db.language.findMany({ where: { projectId }, select: { id: true, key: true } });
  return { idOf: new Map(rows.map((l) => [l.key, l.id])), keyOf: new Map(rows.map((l) => [l.id, l.key])) };
}

/**
 * The stored form of a grant: language keys become ids (unknown ones are
 * refused); languages and the review permission belong to translators only.
 */
export async function storedGrant(db: Db, projectId: number, input: GrantInput): Promise<MemberGrant> {
  const languages = [...new Set(input.languages ?? [])];
  if (input.role !== 'TRANSLATOR') {
    if (languages.length) throw badRequest(`languages apply to translators only, not to ${input.role}`);
    if (input.canReview) throw badRequest(`canReview applies to translators only (${input.role} reviews anyway)`);
    return { role: input.role, languageIds: [], canReview: false };
  }
  const { idOf } = await languageMap(db, projectId);
  const unknown = languages.filter((k) => !idOf.has(k));
  if (unknown.length) throw badRequest(`Unknown language ${unknown.join(', ')} in languages`);
  return { role: 'TRANSLATOR', languageIds: languages.map((k) => idOf.get(k)!), canReview: input.canReview ?? false };
}

/** Language keys of stored ids (languages deleted since are left out). */
export async function languageKeys(db: Db, projectId: number, ids: readonly number[]): Promise<string[]> {
  if (!ids.length) return [];
  const { keyOf } = await languageMap(db, projectId);
  return ids.flatMap((id) => (keyOf.has(id) ? [keyOf.get(id)!] : []));
}

export async function listMembers(projectId: number): Promise<MemberView[]> {
  const [rows, { keyOf }] = await Promise.all([
    prisma().projectMember.findMany({
      where: { projectId },
      include: { account: { select: { email: true, name: true } } },
    }),
    languageMap(prisma(), projectId),
  ]);
  return rows
    .map((m) => ({
      accountId: m.accountId,
      email: m.account.email,
      name: m.account.name,
      role: m.role as Role,
      languages: m.languageIds.flatMap((id) => (keyOf.has(id) ? [keyOf.get(id)!] : [])),
      canReview: allows({ role: m.role as Role, languageIds: m.languageIds, canReview: m.canReview }, 'REVIEW'),
      joinedAt: m.createdAt,
    }))
    .sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.email.localeCompare(b.email));
}

type Tx = Parameters<Parameters<ReturnType<typeof prisma>['$transaction']>[0]>[0];

/** Runs `work` with the project row locked: membership changes of one project run one at a time. */
function withProjectLocked<T>(projectId: number, work: (tx: Tx) => Promise<T>): Promise<T> {
  return prisma().$transaction(async (tx) => {
    await lockProject(tx, projectId);
    return work(tx);
  });
}

async function memberByEmail(db: Db, projectId: number, email: string) {
  const member = await db.projectMember.findFirst({
    where: { projectId, account: { email: email.trim().toLowerCase() } },
    select: { accountId: true, role: true },
  });
  if (!member) throw notFound(said('not-member', { email }));
  return member;
}

async function ownerCount(db: Db, projectId: number): Promise<number> {
  return db.projectMember.count({ where: { projectId, role: 'OWNER' } });
}

export interface UpdateMemberInput {
  projectId: number;
  email: string;
  role: Role;
  languages?: readonly string[] | null;
  canReview?: boolean | null;
}

/** Changes a member's role (and a translator's languages and review permission). */
export async function updateMember(input: UpdateMemberInput): Promise<void> {
  if (input.role === 'OWNER') throw badRequest('A project has one owner: use transferOwnership to hand it over');
  await withProjectLocked(input.projectId, async (tx) => {
    const member = await memberByEmail(tx, input.projectId, input.email);
    if (member.role === 'OWNER') throw conflict(said('owner-role'));
    const grant = await storedGrant(tx, input.projectId, input);
    await tx.projectMember.update({
      where: { projectId_accountId: { projectId: input.projectId, accountId: member.accountId } },
      data: { role: grant.role, languageIds: [...grant.languageIds], canReview: grant.canReview },
    });
  });
}

/** Removes a member; the last owner stays. */
export async function removeMember(input: { projectId: number; email: string }): Promise<void> {
  await withProjectLocked(input.projectId, async (tx) => {
    const member = await memberByEmail(tx, input.projectId, input.email);
    if (member.role === 'OWNER' && (await ownerCount(tx, input.projectId)) <= 1) {
      throw conflict(said('last-owner-removed'));
    }
    await tx.projectMember.delete({
      where: { projectId_accountId: { projectId: input.projectId, accountId: member.accountId } },
    });
  });
}

/** The account leaves the project; the last owner cannot. */
export async function leaveProject(input: { projectId: number; accountId: number }): Promise<void> {
  await withProjectLocked(input.projectId, async (tx) => {
    const member = await tx.projectMember.findUnique({ where: { projectId_accountId: input }, select: { role: true } });
    if (!member) throw notFound('You are not a member of this project');
    if (member.role === 'OWNER' && (await ownerCount(tx, input.projectId)) <= 1) {
      throw conflict(said('last-owner-leaves'));
    }
    await tx.projectMember.delete({ where: { projectId_accountId: input } });
  });
}

/** Hands the owner role to another member; the previous owner becomes an administrator. */
export async function transferOwnership(input: {
  projectId: number;
  fromAccountId: number;
  email: string;
}): Promise<void> {
  await withProjectLocked(input.projectId, async (tx) => {
    const target = await memberByEmail(tx, input.projectId, input.email);
    if (target.accountId === input.fromAccountId) throw badRequest('You already own this project');
    await tx.projectMember.update({
      where: { projectId_accountId: { projectId: input.projectId, accountId: target.accountId } },
      data: { role: 'OWNER', languageIds: [], canReview: false },
    });
    await tx.projectMember.update({
      where: { projectId_accountId: { projectId: input.projectId, accountId: input.fromAccountId } },
      data: { role: 'ADMIN', languageIds: [], canReview: false },
    });
    await tx.project.update({ where: { id: input.projectId }, data: { ownerId: target.accountId } });
  });
}

// Invitations: e-mail invitations (one address, single use, valid 7 days) and
// shareable role links (one per role, reusable until reset or disabled).
// Only the SHA-256 digest of a link's secret is stored, so a link is shown
// once: when created (an e-mail invitation without SMTP) or reset (a role
// link). Accepting adds the account to the project with the invitation's
// role; a person without an account creates one by setting a password.
import { prisma } from '../db.js';
import { AppError, badRequest, conflict, forbidden, isUniqueViolation, notFound, said } from '../errors.js';
import { hashPassword, randomToken, safeEqual, sha256 } from '../auth/secrets.js';
import { sendInvitationMail } from './mail.js';
import { languageKeys, storedGrant, type GrantInput } from './members.js';
import type { Role } from './permissions.js';
import { checkNewPassword } from '../accounts/accounts.js';

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
/** Roles an invitation or a role link can give (the owner is one, and changes only by a transfer). */
export const INVITABLE_ROLES = ['ADMIN', 'TRANSLATOR', 'VIEWER'] as const satisfies readonly Role[];

const EMAIL = /^[^@\s]+@[^@\s]+$/;

/**
 * The page that accepts an invitation: the console's (it routes by the URL
 * hash, so the token never reaches a server log); acceptInvitation is what it calls.
 */
export function invitationLink(publicUrl: string, token: string): string {
  return `${publicUrl}/#/invitations/${encodeURIComponent(token)}`;
}

export interface InvitationView {
  id: number;
  email: string | null;
  role: Role;
  languages: string[];
  canReview: boolean;
  expiresAt: Date | null;
  createdAt: Date;
  invitedBy: string | null;
}

export interface MailSettings {
  publicUrl: string;
  smtpUrl?: string;
  mailFrom: string;
}

function requireInvitable(role: Role): void {
  if (!(INVITABLE_ROLES as readonly Role[]).includes(role))
    throw badRequest(`role must be one of ${INVITABLE_ROLES.join(', ')}; ownership is transferred, not invited`);
}

async function view(row: {
  id: number;
  projectId: number;
  email: string | null;
  role: string;
  languageIds: number[];
  canReview: boolean;
  expiresAt: Date | null;
  createdAt: Date;
  createdBy: { email: string; name: string } | null;
}): Promise<InvitationView> {
  return {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    languages: await languageKeys(prisma(), row.projectId, row.languageIds),
    canReview: row.canReview,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    invitedBy: row.createdBy ? row.createdBy.name || row.createdBy.email : null,
  };
}

const VIEW_SELECT = {
  id: true,
  projectId: true,
  email: true,
  role: true,
  languageIds: true,
  canReview: true,
  expiresAt: true,
  createdAt: true,
  createdBy: { select: { email: true, name: true } },
} as const;

export interface InviteInput extends GrantInput, MailSettings {
  projectId: number;
  inviterId: number;
  email: string;
}

export interface InviteResult {
  invitation: InvitationView;
  /** The link to pass on when no e-mail was sent; null when it was e-mailed. */
  link: string | null;
  emailSent: boolean;
}

/**
 * Invites an address: a new single-use link valid for 7 days, replacing any
 * pending invitation of the same address. With SMTP configured the link is
 * e-mailed (and not returned); otherwise it is returned to the inviter.
 */
export async function inviteMember(input: InviteInput): Promise<InviteResult> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw badRequest(said('email-invalid'));
  requireInvitable(input.role);
  const grant = await storedGrant(prisma(), input.projectId, input);
  if (
    await prisma().projectMember.findFirst({
      where: { projectId: input.projectId, account: { email } },
      select: { accountId: true },
    })
  ) {
    throw conflict(said('already-member', { email }));
  }
  const token = randomToken('lms_inv_', 24);
  const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
  const row = await prisma().$transaction(async (tx) => {
    await tx.invitation.deleteMany({ where: { projectId: input.projectId, kind: 'EMAIL', email, acceptedAt: null } });
    return tx.invitation.create({
      data: {
        projectId: input.projectId,
        kind: 'EMAIL',
        email,
        role: grant.role,
        languageIds: [...grant.languageIds],
        canReview: grant.canReview,
        tokenHash: sha256(token),
        expiresAt,
        createdById: input.inviterId,
      },
      select: { ...VIEW_SELECT, project: { select: { name: true } } },
    });
  });
  const link = invitationLink(input.publicUrl, token);
  if (!input.smtpUrl) return { invitation: await view(row), link, emailSent: false };
  try {
    await sendInvitationMail({
      smtpUrl: input.smtpUrl,
      from: input.mailFrom,
      to: email,
      link,
      projectName: row.project.name,
      role: row.role,
      inviter: row.createdBy ? row.createdBy.name || row.createdBy.email : 'A project administrator',
      expiresAt,
    });
  } catch (error) {
    // Not sent: the invitation is withdrawn, so no link exists that nobody received.
    await prisma().invitation.delete({ where: { id: row.id } });
    throw new AppError(
      'INTERNAL',
      `The invitation e-mail could not be sent (${(error as Error).message}); nothing was created`,
    );
  }
  return { invitation: await view(row), link: null, emailSent: true };
}

/** Pending e-mail invitations (not accepted, not expired), newest first. */
export async function listInvitations(projectId: number): Promise<InvitationView[]> {
  const rows = await prisma().invitation.findMany({
    where: { projectId, kind: 'EMAIL', acceptedAt: null, expiresAt: { gt: new Date() } },
    select: VIEW_SELECT,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return Promise.all(rows.map(view));
}

export async function cancelInvitation(input: { projectId: number; id: number }): Promise<void> {
  const { count } = await prisma().invitation.deleteMany({
    where: { projectId: input.projectId, id: input.id, kind: 'EMAIL', acceptedAt: null },
  });
  if (count === 0) throw notFound(`No pending invitation ${input.id} in this project`);
}

export interface RoleLinkView {
  role: Role;
  enabled: boolean;
  languages: string[];
  canReview: boolean;
  /** When the current link was made (null: never). */
  createdAt: Date | null;
  /** The link itself: only in the answer of resetRoleLink. */
  link: string | null;
}

/** The shareable link of each invitable role. */
export async function roleLinks(projectId: number): Promise<RoleLinkView[]> {
  const rows = await prisma().invitation.findMany({
    where: { projectId, kind: 'LINK' },
    select: { role: true, enabled: true, languageIds: true, canReview: true, createdAt: true },
  });
  return Promise.all(
    INVITABLE_ROLES.map(async (role) => {
      const row = rows.find((r) => r.role === role);
      return {
        role,
        enabled: row?.enabled ?? false,
        languages: row ? await languageKeys(prisma(), projectId, row.languageIds) : [],
        canReview: row?.canReview ?? false,
        createdAt: row?.createdAt ?? null,
        link: null,
      };
    }),
  );
}

export interface ResetRoleLinkInput extends GrantInput {
  projectId: number;
  inviterId: number;
  publicUrl: string;
}

/** A new link for the role (enabled); the previous one stops working. */
export async function resetRoleLink(input: ResetRoleLinkInput): Promise<RoleLinkView> {
  requireInvitable(input.role);
  const grant = await storedGrant(prisma(), input.projectId, input);
  const token = randomToken('lms_inv_', 24);
  const row = await prisma().$transaction(async (tx) => {
    await tx.invitation.deleteMany({ where: { projectId: input.projectId, kind: 'LINK', role: input.role } });
    return tx.invitation.create({
      data: {
        projectId: input.projectId,
        kind: 'LINK',
        role: grant.role,
        languageIds: [...grant.languageIds],
        canReview: grant.canReview,
        tokenHash: sha256(token),
        createdById: input.inviterId,
      },
    });
  });
  return {
    role: input.role,
    enabled: true,
    languages: await languageKeys(prisma(), input.projectId, row.languageIds),
    canReview: row.canReview,
    createdAt: row.createdAt,
    link: invitationLink(input.publicUrl, token),
  };
}

/** Switches the role's link off; only a reset makes a (new) link work again. */
export async function disableRoleLink(input: { projectId: number; role: Role }): Promise<void> {
  requireInvitable(input.role);
  await prisma().invitation.updateMany({
    where: { projectId: input.projectId, kind: 'LINK', role: input.role },
    data: { enabled: false },
  });
}

/** Finds a usable invitation by its secret; explains why one is not usable. */
async function usable(token: string) {
  if (typeof token !== 'string' || token === '') throw badRequest('token is required');
  const hash = sha256(token);
  const row = await prisma().invitation.findUnique({
    where: { tokenHash: hash },
    include: { project: { select: { id: true, name: true, projectToken: true } } },
  });
  if (!row || !safeEqual(row.tokenHash, hash)) throw notFound(said('invitation-invalid'));
  if (row.kind === 'LINK' && !row.enabled) throw notFound(said('invitation-disabled'));
  if (row.kind === 'EMAIL' && row.acceptedAt) throw notFound(said('invitation-used'));
  if (row.kind === 'EMAIL' && row.expiresAt && row.expiresAt.getTime() <= Date.now())
    throw notFound(said('invitation-expired'));
  return row;
}

export interface InvitationPreview {
  projectName: string;
  role: Role;
  kind: 'EMAIL' | 'LINK';
  email: string | null;
  expiresAt: Date | null;
  /** Whether an account with the invited address exists (then it signs in to accept). */
  accountExists: boolean;
}

/** What an invitation link offers, for the page that accepts it. */
export async function previewInvitation(token: string): Promise<InvitationPreview> {
  const row = await usable(token);
  const accountExists = row.email
    ? !!(await prisma().account.findUnique({ where: { email: row.email }, select: { id: true } }))
    : false;
  return {
    projectName: row.project.name,
    role: row.role as Role,
    kind: row.kind,
    email: row.email,
    expiresAt: row.expiresAt,
    accountExists,
  };
}

export interface AcceptInput {
  token: string;
  /** The signed-in account accepting, if any. */
  accountId?: number;
  /** A new account: its address (role links; an e-mail invitation has its own), password and display name. */
  email?: string | null;
  password?: string | null;
  name?: string | null;
  defaultPlan: string;
}

export interface AcceptResult {
  projectId: number;
  projectToken: string;
  projectName: string;
  role: Role;
  email: string;
  /** A personal token of the account created by accepting (shown once); null for an existing account. */
  personalToken: string | null;
}

/**
 * Accepts an invitation. A signed-in account joins as itself (an e-mail
 * invitation only as the invited address). Without credentials a new account
 * is created with the given password; an address that already has an account
 * must sign in instead. An e-mail invitation works once.
 */
export async function acceptInvitation(input: AcceptInput): Promise<AcceptResult> {
  const invitation = await usable(input.token);
  let account: { id: number; email: string };
  let personalToken: string | null = null;
  let newAccount: { email: string; passwordHash: string; name: string } | undefined;
  if (input.accountId !== undefined) {
    account = await prisma().account.findUniqueOrThrow({
      where: { id: input.accountId },
      select: { id: true, email: true },
    });
    if (invitation.email && invitation.email !== account.email) {
      throw forbidden(said('invitation-for-other', { email: invitation.email! }));
    }
  } else {
    const email = (invitation.email ?? input.email ?? '').trim().toLowerCase();
    if (!EMAIL.test(email)) throw badRequest('email is required to create an account with this link');
    if (typeof input.password !== 'string') throw badRequest(said('password-too-short', { field: 'password' }));
    checkNewPassword(input.password);
    if (await prisma().account.findUnique({ where: { email }, select: { id: true } })) {
      throw forbidden(
        `An account with e-mail ${email} exists: sign in (Authorization header) to accept the invitation`,
      );
    }
    const name = (input.name ?? '').trim();
    if (name.length > 200) throw badRequest('name must have at most 200 characters');
    newAccount = { email, passwordHash: await hashPassword(input.password), name };
    account = { id: 0, email };
  }
  try {
    await prisma().$transaction(async (tx) => {
      if (newAccount) {
        const created = await tx.account.create({
          data: { ...newAccount, planId: input.defaultPlan },
          select: { id: true },
        });
        account.id = created.id;
        personalToken = randomToken('lms_pat_');
        await tx.personalToken.create({
          data: {
            accountId: created.id,
            name: 'invitation',
            tokenHash: sha256(personalToken),
            prefix: personalToken.slice(0, 12),
          },
        });
      }
      if (invitation.kind === 'EMAIL') {
        // Single use, even when two requests race: only one of them marks it.
        const { count } = await tx.invitation.updateMany({
          where: { id: invitation.id, acceptedAt: null },
          data: { acceptedAt: new Date() },
        });
        if (count === 0) throw notFound(said('invitation-used'));
      }
      await tx.projectMember.create({
        data: {
          projectId: invitation.projectId,
          accountId: account.id,
          role: invitation.role,
          languageIds: invitation.languageIds,
          canReview: invitation.canReview,
        },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict(
        newAccount
          ? `An account with e-mail ${account.email} already exists`
          : `${account.email} is already a member of this project`,
      );
    }
    throw error;
  }
  return {
    projectId: invitation.project.id,
    projectToken: invitation.project.projectToken,
    projectName: invitation.project.name,
    role: invitation.role as Role,
    email: account.email,
    personalToken,
  };
}

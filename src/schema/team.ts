// Teams: members, their roles, invitations and role links (docs/teams.md).
// Every project field goes through resolveProject with the permission of
// src/teams/permissions.ts; the rules of membership live in src/teams/.
import { builder } from '../builder.js';
import { prisma } from '../db.js';
import { badRequest } from '../errors.js';
import { forgetRoles, membershipOf, permissionsInProject, requireAccount, resolveProject } from '../projects/access.js';
import { deleteProject } from '../projects/projects.js';
import { need, PERMISSIONS, ROLES } from '../teams/permissions.js';
import {
  languageKeys,
  leaveProject,
  listMembers,
  removeMember,
  transferOwnership,
  updateMember,
  type MemberView,
} from '../teams/members.js';
import {
  acceptInvitation,
  cancelInvitation,
  disableRoleLink,
  inviteMember,
  listInvitations,
  previewInvitation,
  resetRoleLink,
  roleLinks,
  type AcceptResult,
  type InvitationPreview,
  type InvitationView,
  type InviteResult,
  type RoleLinkView,
} from '../teams/invitations.js';
import { ProjectType } from './project.js';

export const MemberRoleEnum = builder.enumType('MemberRole', {
  description:
    'OWNER: everything, one per project; ADMIN: everything but deleting the project and transferring ownership; TRANSLATOR: reads, writes text (in its languages when limited), reviews with canReview; VIEWER: reads and exports. The full matrix: docs/teams.md.',
  values: ROLES,
});

export const PermissionEnum = builder.enumType('ProjectPermission', {
  description: 'A class of project operations (the permission matrix of docs/teams.md).',
  values: PERMISSIONS,
});

const MemberType = builder.objectRef<MemberView>('Member').implement({
  description: 'A member of a project.',
  fields: (t) => ({
    accountId: t.field({
      type: 'ID',
      description: "The account's id (Actor.id of its entries in the activity log).",
      resolve: (m) => String(m.accountId),
    }),
    email: t.exposeString('email'),
    name: t.exposeString('name', { description: 'Display name ("" when not set).' }),
    role: t.field({ type: MemberRoleEnum, resolve: (m) => m.role }),
    languages: t.exposeStringList('languages', {
      description: 'Language keys a translator may write; empty: every language.',
    }),
    canReview: t.exposeBoolean('canReview', {
      description:
        'Whether the member may set the review status (always true for owners and administrators, never for viewers).',
    }),
    joinedAt: t.expose('joinedAt', { type: 'DateTime' }),
  }),
});

const InvitationType = builder.objectRef<InvitationView>('Invitation').implement({
  description: 'A pending e-mail invitation.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    email: t.exposeString('email', { nullable: true }),
    role: t.field({ type: MemberRoleEnum, resolve: (i) => i.role }),
    languages: t.exposeStringList('languages'),
    canReview: t.exposeBoolean('canReview'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    invitedBy: t.exposeString('invitedBy', { nullable: true, description: 'Name or e-mail of the inviter.' }),
  }),
});

const InviteResultType = builder.objectRef<InviteResult>('InviteResult').implement({
  fields: (t) => ({
    invitation: t.field({ type: InvitationType, resolve: (r) => r.invitation }),
    link: t.exposeString('link', {
      nullable: true,
      description: 'The single-use link to pass on, when no e-mail was sent (SMTP_URL unset); shown only here.',
    }),
    emailSent: t.exposeBoolean('emailSent'),
  }),
});

const RoleLinkType = builder.objectRef<RoleLinkView>('RoleLink').implement({
  description:
    'The shareable link of a role: anyone with it joins the project with that role until it is reset or disabled.',
  fields: (t) => ({
    role: t.field({ type: MemberRoleEnum, resolve: (l) => l.role }),
    enabled: t.exposeBoolean('enabled'),
    languages: t.exposeStringList('languages'),
    canReview: t.exposeBoolean('canReview'),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: true }),
    link: t.exposeString('link', {
      nullable: true,
      description: 'Only in the answer of resetRoleLink: the link is stored as a digest and cannot be shown again.',
    }),
  }),
});

const InvitationPreviewType = builder.objectRef<InvitationPreview>('InvitationPreview').implement({
  description: 'What an invitation link offers.',
  fields: (t) => ({
    projectName: t.exposeString('projectName'),
    role: t.field({ type: MemberRoleEnum, resolve: (p) => p.role }),
    email: t.exposeString('email', {
      nullable: true,
      description: 'The invited address (e-mail invitations); null for a role link.',
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    accountExists: t.exposeBoolean('accountExists', {
      description: 'An account with the invited address exists: it signs in to accept.',
    }),
  }),
});

const AcceptResultType = builder.objectRef<AcceptResult>('AcceptInvitationResult').implement({
  fields: (t) => ({
    projectToken: t.exposeString('projectToken'),
    projectName: t.exposeString('projectName'),
    role: t.field({ type: MemberRoleEnum, resolve: (r) => r.role }),
    email: t.exposeString('email', { description: 'The account that joined.' }),
    personalToken: t.exposeString('personalToken', {
      nullable: true,
      description:
        'A personal token of the account created by accepting, shown once; null when an existing account accepted.',
    }),
  }),
});

builder.prismaObjectFields(ProjectType, (t) => ({
  myRole: t.field({
    type: MemberRoleEnum,
    nullable: true,
    description: "The authenticated account's role in the project (null for a project API key).",
    resolve: async (p, _a, ctx) => (await membershipOf(ctx.principal, p.id))?.role ?? null,
  }),
  myPermissions: t.field({
    type: [PermissionEnum],
    description:
      "What the credential may do in the project (its role's permissions; a translator's REVIEW only with canReview): a client offers only these. Language limits are in myLanguages.",
    resolve: (p, _a, ctx) => permissionsInProject(ctx.principal, p.id),
  }),
  myLanguages: t.stringList({
    description: 'Language keys the authenticated account may write; empty: every language.',
    resolve: async (p, _a, ctx) => {
      const member = await membershipOf(ctx.principal, p.id);
      return member ? languageKeys(prisma(), p.id, member.languageIds) : [];
    },
  }),
}));

const grantArgs = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) => ({
  languages: t.arg.stringList({
    required: false,
    description: 'TRANSLATOR only: the language keys it may write (default: every language).',
  }),
  canReview: t.arg.boolean({
    required: false,
    description: 'TRANSLATOR only: may set the review status (default false).',
  }),
});

builder.queryFields((t) => ({
  members: t.field({
    type: [MemberType],
    description: 'The members of the project with their roles, owner first.',
    args: { projectToken: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) =>
      listMembers(await resolveProject(ctx.principal, args.projectToken, need('members'))),
  }),
  invitations: t.field({
    type: [InvitationType],
    description: 'Pending e-mail invitations of the project.',
    args: { projectToken: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) =>
      listInvitations(await resolveProject(ctx.principal, args.projectToken, need('invitations'))),
  }),
  roleLinks: t.field({
    type: [RoleLinkType],
    description: 'The shareable link of each role (ADMIN, TRANSLATOR, VIEWER).',
    args: { projectToken: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) =>
      roleLinks(await resolveProject(ctx.principal, args.projectToken, need('roleLinks'))),
  }),
  invitation: t.field({
    type: InvitationPreviewType,
    description: 'What an invitation link offers (no credential needed: the link is the credential).',
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args) => previewInvitation(args.token),
  }),
}));

builder.mutationFields((t) => ({
  inviteMember: t.field({
    type: InviteResultType,
    description:
      'Invites an e-mail address with a role: a single-use link valid 7 days, e-mailed when SMTP_URL is set, else returned.',
    args: {
      projectToken: t.arg.string({ required: true }),
      email: t.arg.string({ required: true }),
      role: t.arg({ type: MemberRoleEnum, required: true }),
      ...grantArgs(t),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('inviteMember'));
      return inviteMember({
        ...args,
        projectId,
        inviterId: requireAccount(ctx.principal),
        publicUrl: ctx.config.publicUrl,
        smtpUrl: ctx.config.smtpUrl,
        mailFrom: ctx.config.mailFrom,
      });
    },
  }),
  cancelInvitation: t.boolean({
    description: 'Withdraws a pending e-mail invitation: its link stops working.',
    args: { projectToken: t.arg.string({ required: true }), id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await cancelInvitation({
        projectId: await resolveProject(ctx.principal, args.projectToken, need('cancelInvitation')),
        id: args.id,
      });
      return true;
    },
  }),
  resetRoleLink: t.field({
    type: RoleLinkType,
    description:
      "Makes a new shareable link for the role and enables it; the role's previous link stops working. The answer is the only time the link is shown.",
    args: {
      projectToken: t.arg.string({ required: true }),
      role: t.arg({ type: MemberRoleEnum, required: true }),
      ...grantArgs(t),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('resetRoleLink'));
      return resetRoleLink({
        ...args,
        projectId,
        inviterId: requireAccount(ctx.principal),
        publicUrl: ctx.config.publicUrl,
      });
    },
  }),
  disableRoleLink: t.boolean({
    description: "Switches the role's shareable link off (a reset makes a new one).",
    args: { projectToken: t.arg.string({ required: true }), role: t.arg({ type: MemberRoleEnum, required: true }) },
    resolve: async (_root, args, ctx) => {
      await disableRoleLink({
        projectId: await resolveProject(ctx.principal, args.projectToken, need('disableRoleLink')),
        role: args.role,
      });
      return true;
    },
  }),
  acceptInvitation: t.field({
    type: AcceptResultType,
    description:
      'Accepts an invitation link. Signed in (Authorization): the account joins. Without credentials: creates an account with password (and email, for a role link) and returns its first personal token.',
    args: {
      token: t.arg.string({ required: true, description: 'The last segment of the invitation link.' }),
      email: t.arg.string({ required: false, description: 'New account by role link: its e-mail address.' }),
      password: t.arg.string({ required: false, description: 'New account: its password (at least 8 characters).' }),
      name: t.arg.string({ required: false, description: 'New account: its display name.' }),
    },
    resolve: async (_root, args, ctx) => {
      const signedIn = ctx.principal.kind === 'anonymous' ? undefined : requireAccount(ctx.principal);
      const result = await acceptInvitation({ ...args, accountId: signedIn, defaultPlan: ctx.config.defaultPlan });
      forgetRoles(ctx.principal);
      return result;
    },
  }),
  updateMember: t.boolean({
    description:
      "Changes a member's role, and a translator's languages and review permission. The owner's role changes only by transferOwnership.",
    args: {
      projectToken: t.arg.string({ required: true }),
      email: t.arg.string({ required: true }),
      role: t.arg({ type: MemberRoleEnum, required: true }),
      ...grantArgs(t),
    },
    resolve: async (_root, args, ctx) => {
      await updateMember({
        ...args,
        projectId: await resolveProject(ctx.principal, args.projectToken, need('updateMember')),
      });
      forgetRoles(ctx.principal);
      return true;
    },
  }),
  removeMember: t.boolean({
    description: 'Removes a member from the project; the last owner cannot be removed.',
    args: { projectToken: t.arg.string({ required: true }), email: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await removeMember({
        projectId: await resolveProject(ctx.principal, args.projectToken, need('removeMember')),
        email: args.email,
      });
      forgetRoles(ctx.principal);
      return true;
    },
  }),
  transferOwnership: t.boolean({
    description: 'Hands the owner role to another member; the previous owner becomes an administrator.',
    args: { projectToken: t.arg.string({ required: true }), email: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('transferOwnership'));
      await transferOwnership({ projectId, fromAccountId: requireAccount(ctx.principal), email: args.email });
      forgetRoles(ctx.principal);
      return true;
    },
  }),
  leaveProject: t.boolean({
    description: 'The authenticated account leaves the project; the last owner cannot (transfer ownership first).',
    args: { projectToken: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const accountId = requireAccount(ctx.principal);
      await leaveProject({
        projectId: await resolveProject(ctx.principal, args.projectToken, need('leaveProject')),
        accountId,
      });
      forgetRoles(ctx.principal);
      return true;
    },
  }),
  deleteProject: t.boolean({
    description: 'Deletes the project with all its content and published files (owner only).',
    args: { projectToken: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await deleteProject(await resolveProject(ctx.principal, args.projectToken, need('deleteProject')));
      forgetRoles(ctx.principal);
      return true;
    },
  }),
  setDisplayName: t.boolean({
    description: "Sets the authenticated account's display name (shown in member lists).",
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const name = args.name.trim();
      if (name.length > 200) throw badRequest('name must have at most 200 characters');
      await prisma().account.update({ where: { id: requireAccount(ctx.principal) }, data: { name } });
      return true;
    },
  }),
}));

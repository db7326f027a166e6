// In-context editing (docs/in-context.md): the project's in-context tokens and
// allowed origins. Made in the console's project settings; each needs SETTINGS
// (src/teams/permissions.ts), so an in-context token can neither make tokens
// nor change origins.
import { builder } from '../builder.js';
import { forbidden } from '../errors.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import {
  createInContextToken,
  DEFAULT_LIFETIME_HOURS,
  inContextSession,
  inContextOrigins,
  listInContextTokens,
  MAX_LIFETIME_HOURS,
  revokeInContextToken,
  setInContextOrigins,
  type InContextTokenInfo,
} from '../in-context/tokens.js';

const InContextTokenType = builder.objectRef<InContextTokenInfo>('InContextToken').implement({
  description: 'A token for the in-context editor of a running application (its value is shown only when made).',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix', { description: 'The first characters of the token, to tell tokens apart.' }),
    languages: t.exposeStringList('languages', {
      description: 'The language keys it may write; empty: every language.',
    }),
    capture: t.exposeBoolean('capture', { description: 'May upload screenshots and mark keys on them.' }),
    createdBy: t.exposeString('createdBy', {
      nullable: true,
      description: 'Who made it; its writes are recorded as theirs.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'Last use, to the minute; null: never used.',
    }),
    active: t.boolean({
      description: 'Neither revoked nor expired.',
      resolve: (i) => !i.revokedAt && i.expiresAt.getTime() > Date.now(),
    }),
  }),
});

const NewInContextTokenType = builder
  .objectRef<{ token: string; info: InContextTokenInfo }>('NewInContextToken')
  .implement({
    fields: (t) => ({
      token: t.exposeString('token', {
        description: "Shown once: only its digest is stored. Give it to the application as the plugin's `token`.",
      }),
      inContextToken: t.field({ type: InContextTokenType, resolve: (n) => n.info }),
    }),
  });

const NewInContextTokenInput = builder.inputType('NewInContextTokenInput', {
  fields: (t) => ({
    name: t.string({ required: false, description: 'What it is for (at most 100 characters).' }),
    languages: t.stringList({
      required: false,
      description: 'Language keys it may write; absent or empty: every language.',
    }),
    capture: t.boolean({
      required: false,
      description: 'May upload screenshots of the application and mark keys on them. Default false.',
    }),
    lifetimeHours: t.float({
      required: false,
      description: `Hours until it expires: default ${DEFAULT_LIFETIME_HOURS}, at most ${MAX_LIFETIME_HOURS}.`,
    }),
  }),
});

const InContextSessionType = builder
  .objectRef<{ projectToken: string; projectName: string; languages: string[]; capture: boolean; expiresAt: Date }>(
    'InContextSession',
  )
  .implement({
    description: 'What the in-context token of the request may do (the plugin shows only what it can save).',
    fields: (t) => ({
      projectToken: t.exposeString('projectToken'),
      projectName: t.exposeString('projectName'),
      languages: t.exposeStringList('languages', {
        description: 'The language keys it may write; empty: every language.',
      }),
      capture: t.exposeBoolean('capture'),
      expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    }),
  });

builder.queryFields((t) => ({
  inContextSession: t.field({
    type: InContextSessionType,
    nullable: true,
    description:
      "The request's own in-context token: its project, languages and whether it may capture; null with any other valid credential.",
    resolve: async (_root, _args, ctx) => {
      const { principal } = ctx;
      if (principal.kind === 'invalid') throw forbidden(principal.reason ?? 'Invalid credentials');
      if (principal.kind === 'anonymous') throw forbidden();
      return principal.kind === 'inContext' ? inContextSession(principal.projectId, principal.tokenId) : null;
    },
  }),
  inContextTokens: t.field({
    type: [InContextTokenType],
    description: "The project's in-context tokens, newest first (revoked and expired ones included).",
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      listInContextTokens(await resolveProject(ctx.principal, args.projectToken, need('inContextTokens'))),
  }),
  inContextOrigins: t.stringList({
    description: "The origins (scheme://host[:port]) from which browsers may use the project's in-context tokens.",
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      inContextOrigins(await resolveProject(ctx.principal, args.projectToken, need('inContextOrigins'))),
  }),
}));

builder.mutationFields((t) => ({
  createInContextToken: t.field({
    type: NewInContextTokenType,
    description: 'Makes an in-context token for the project, shown once.',
    args: {
      projectToken: t.arg.string({ required: false }),
      input: t.arg({ type: NewInContextTokenInput, required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('createInContextToken'));
      const accountId = ctx.principal.kind === 'account' ? ctx.principal.accountId : null;
      return createInContextToken({ projectId, accountId, ...args.input });
    },
  }),
  revokeInContextToken: t.field({
    type: InContextTokenType,
    description: 'Revokes an in-context token: refused from the next request on, on every instance.',
    args: { projectToken: t.arg.string({ required: false }), id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) =>
      revokeInContextToken(
        await resolveProject(ctx.principal, args.projectToken, need('revokeInContextToken')),
        args.id,
      ),
  }),
  setInContextOrigins: t.stringList({
    description:
      "Replaces the origins from which browsers may use the project's in-context tokens; returns them normalized (scheme://host[:port]).",
    args: { projectToken: t.arg.string({ required: false }), origins: t.arg.stringList({ required: true }) },
    resolve: async (_root, args, ctx) =>
      setInContextOrigins(
        await resolveProject(ctx.principal, args.projectToken, need('setInContextOrigins')),
        args.origins,
      ),
  }),
}));

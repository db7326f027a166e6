// The signed-in account's own settings: personal tokens, password, console
// sessions. Each acts on the credential's account only (an id of another
// account's token or session is NOT_FOUND); none takes a projectToken.
import { builder } from '../builder.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { requireAccount } from '../projects/access.js';
import type { Context } from '../context.js';
import {
  issuePersonalToken,
  listPersonalTokens,
  revokePersonalToken,
  type PersonalTokenSummary,
} from '../accounts/personal-tokens.js';
import { changePassword } from '../accounts/password.js';
import { endAccountSession, endOtherSessions, listSessions, type SessionSummary } from '../auth/sessions.js';

const PersonalTokenType = builder.objectRef<PersonalTokenSummary>('PersonalToken').implement({
  description: 'A personal token of the account (its value is shown only when created).',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix', { description: 'The first characters of the token, to tell tokens apart.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'Last use, to the minute (recorded at most about once a minute per instance); null: never used.',
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'null: does not expire.' }),
    expired: t.boolean({ resolve: (p) => p.expiresAt !== null && p.expiresAt.getTime() <= Date.now() }),
  }),
});

const NewPersonalTokenType = builder
  .objectRef<{ token: string; personalToken: PersonalTokenSummary }>('NewPersonalToken')
  .implement({
    fields: (t) => ({
      token: t.exposeString('token', { description: 'Shown once: only its digest is stored.' }),
      personalToken: t.field({ type: PersonalTokenType, resolve: (n) => n.personalToken }),
    }),
  });

const ConsoleSessionType = builder.objectRef<SessionSummary & { current: boolean }>('ConsoleSession').implement({
  description: 'A web console session of the account.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it signed in.' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', description: 'Last request, to the minute.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    userAgent: t.exposeString('userAgent', { description: 'The browser that signed in (its User-Agent header).' }),
    current: t.exposeBoolean('current', { description: 'The session of this request.' }),
  }),
});

const currentSession = (ctx: Context): number | undefined =>
  ctx.principal.kind === 'account' && ctx.principal.scheme === 'session' ? ctx.principal.sessionId : undefined;

builder.queryFields((t) => ({
  personalTokens: t.field({
    type: [PersonalTokenType],
    description: "The account's personal tokens, newest first.",
    resolve: (_root, _args, ctx) => listPersonalTokens(requireAccount(ctx.principal)),
  }),
  sessions: t.field({
    type: [ConsoleSessionType],
    description: "The account's live web console sessions, the most recently used first.",
    resolve: async (_root, _args, ctx) => {
      const sessions = await listSessions(requireAccount(ctx.principal));
      return sessions.map((s) => ({ ...s, current: s.id === currentSession(ctx) }));
    },
  }),
}));

builder.mutationFields((t) => ({
  createPersonalToken: t.field({
    type: NewPersonalTokenType,
    description:
      'Issues a personal token for the account, shown once. Needs a web console session or basic credentials: a personal token cannot issue tokens (a leaked one could otherwise outlive its revocation).',
    args: {
      name: t.arg.string({ required: true, description: 'What the token is for, 1-100 characters.' }),
      expiresAt: t.arg({ type: 'DateTime', required: false, description: 'When it stops working; absent: never.' }),
    },
    resolve: (_root, args, ctx) => {
      const accountId = requireAccount(ctx.principal);
      if (ctx.principal.kind === 'account' && ctx.principal.scheme === 'personalToken') {
        throw forbidden(
          'A personal token cannot issue personal tokens; sign in to the web console (or use basic credentials)',
        );
      }
      return issuePersonalToken(accountId, { name: args.name, expiresAt: args.expiresAt });
    },
  }),
  revokePersonalToken: t.boolean({
    description:
      "Revokes one of the account's personal tokens: refused from now on, on every instance. Any account credential may revoke (a token itself too).",
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await revokePersonalToken(requireAccount(ctx.principal), args.id);
      return true;
    },
  }),
  changePassword: t.int({
    description:
      "Changes the account's password. The current password is required (a wrong one is BAD_REQUEST and counts as a failed sign-in); the new one needs at least 8 characters. Every other web console session of the account is signed out (all of them when the request has none); returns how many.",
    args: { currentPassword: t.arg.string({ required: true }), newPassword: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      changePassword(
        {
          accountId: requireAccount(ctx.principal),
          currentPassword: args.currentPassword,
          newPassword: args.newPassword,
          keepSession: currentSession(ctx),
          address: ctx.http?.address ?? 'unknown',
        },
        ctx.config.session,
      ),
  }),
  signOutOtherSessions: t.int({
    description: "Ends every web console session of the account but the request's own; returns how many ended.",
    resolve: async (_root, _args, ctx) =>
      (await endOtherSessions(requireAccount(ctx.principal), currentSession(ctx))).length,
  }),
  signOutSession: t.boolean({
    description:
      "Ends one web console session of the account (signOut ends the request's own and removes its cookies).",
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const accountId = requireAccount(ctx.principal);
      if (args.id === currentSession(ctx)) throw badRequest('This is the session of the request: use signOut');
      if (!(await endAccountSession(accountId, args.id))) throw notFound(`Session ${args.id} not found`);
      return true;
    },
  }),
}));

// What the web console needs beyond the API: sign-in to a session (cookies set
// on the HTTP exchange, src/auth/sessions.ts), the signed-in account and the
// editor's window of rows. (Its live updates are the change subscriptions,
// translationChanges and projectActivity: src/schema/activity.ts.)
import { builder } from '../builder.js';
import { prisma } from '../db.js';
import { badRequest, forbidden, said } from '../errors.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import { clearedCookies, endSession, sessionCookies, signIn } from '../auth/sessions.js';
import { COUNT_AHEAD, EDITOR_PAGE, editorRows, type EditorRows } from '../console/rows.js';
import { TranslationKeyType } from './translation-key.js';
import { ReviewStatusEnum, TextStatusEnum } from './translation.js';

interface Viewer {
  accountId: number;
  email: string;
  name: string;
  sessionExpiresAt: Date | null;
}

const ViewerType = builder.objectRef<Viewer>('Viewer').implement({
  description: 'The signed-in account.',
  fields: (t) => ({
    email: t.exposeString('email'),
    name: t.exposeString('name', { description: 'The display name (setDisplayName); empty when none is set.' }),
    sessionExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'End of the web console session; null for other credentials.',
      resolve: (v) => v.sessionExpiresAt,
    }),
  }),
});

const EditorFilterInput = builder.inputType('EditorFilter', {
  description:
    "The translation editor's filters: key filters, and cell filters that hold when a cell of the chosen languages matches.",
  fields: (t) => ({
    keyContains: t.string({ required: false, description: 'Contained in the key, ignoring case.' }),
    key: t.string({ required: false, description: 'Equals the key.' }),
    namespace: t.string({ required: false, description: 'Equals the namespace.' }),
    tags: t.stringList({ required: false, description: 'Keys with at least one of these tags.' }),
    deprecated: t.boolean({ required: false }),
    text: t.string({ required: false, description: 'Contained in a cell text, ignoring case.' }),
    textStatus: t.field({ type: TextStatusEnum, required: false }),
    reviewStatus: t.field({ type: ReviewStatusEnum, required: false }),
    languages: t.stringList({ required: false, description: 'Languages the cell filters look at; all when empty.' }),
    customerKey: t.string({ required: false, description: "Cells seen through this customer's texts." }),
    screenshots: t.boolean({
      required: false,
      description: 'Keys marked on at least one screenshot (true) or on none (false).',
    }),
    findingSeverity: t.string({
      required: false,
      description:
        'Keys with an open quality-check finding of this severity (error, warning, info) in the chosen languages, as stored after each write.',
    }),
    findingCheck: t.string({
      required: false,
      description:
        'Keys with an open quality-check finding of this check (an id of qualityChecks) in the chosen languages.',
    }),
    problems: t.boolean({
      required: false,
      description:
        'Keys with a cell that fails a check (placeholders differing from the default language, ICU syntax, over the characters limit, edge spaces differing); reads every key the other filters leave.',
    }),
  }),
});

const EditorRowsType = builder.objectRef<EditorRows>('EditorRows').implement({
  description: 'A window of the editor rows.',
  fields: (t) => ({
    totalCount: t.exposeInt('totalCount', {
      description: `Keys matching the filter; with a filter, counted up to ${COUNT_AHEAD} keys past the window (see totalIsExact).`,
    }),
    totalIsExact: t.exposeBoolean('totalIsExact', {
      description:
        'False when more keys match than were counted: totalCount is then a lower bound, and a window further on counts further.',
    }),
    keys: t.prismaField({
      type: [TranslationKeyType],
      resolve: async (query, rows) => {
        const keys = await prisma().translationKey.findMany({ ...query, where: { id: { in: rows.keyIds } } });
        const byId = new Map(keys.map((k) => [k.id, k]));
        return rows.keyIds.map((id) => byId.get(id)).filter((k) => k !== undefined);
      },
    }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerType,
    nullable: true,
    description: 'The account of the credential (a session, a personal token or basic credentials); null otherwise.',
    resolve: async (_root, _args, ctx) => {
      if (ctx.principal.kind !== 'account') return null;
      const account = await prisma().account.findUniqueOrThrow({
        where: { id: ctx.principal.accountId },
        select: { email: true, name: true },
      });
      const session =
        ctx.principal.scheme === 'session'
          ? await prisma().session.findUnique({ where: { id: ctx.principal.sessionId }, select: { expiresAt: true } })
          : null;
      return {
        accountId: ctx.principal.accountId,
        email: account.email,
        name: account.name,
        sessionExpiresAt: session?.expiresAt ?? null,
      };
    },
  }),
  editorRows: t.field({
    type: EditorRowsType,
    description: `The keys matching the editor's filter in namespace and key order, a window at a time (limit at most ${EDITOR_PAGE.maxSize}).`,
    args: {
      projectToken: t.arg.string({ required: false }),
      filter: t.arg({ type: EditorFilterInput, required: false }),
      offset: t.arg.int({ required: false, description: 'From 0.' }),
      limit: t.arg.int({
        required: false,
        description: `Default ${EDITOR_PAGE.defaultSize}, at most ${EDITOR_PAGE.maxSize}.`,
      }),
    },
    resolve: async (_root, args, ctx) =>
      editorRows(
        await resolveProject(ctx.principal, args.projectToken, need('editorRows')),
        args.filter ?? {},
        args.offset ?? 0,
        args.limit ?? EDITOR_PAGE.defaultSize,
      ),
  }),
}));

builder.mutationFields((t) => ({
  signIn: t.field({
    type: ViewerType,
    description:
      'Opens a web console session: sets an HttpOnly session cookie and a CSRF cookie (send its value as X-CSRF-Token on mutations). Over HTTP POST /graphql with a JSON body only.',
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      // A JSON body only: another site's form could otherwise sign the browser in to the attacker's account.
      if (!ctx.http?.jsonBody) throw badRequest('signIn works over HTTP POST /graphql with a JSON body only');
      const session = await signIn(args.email, args.password, ctx.http.address, ctx.config.session, ctx.http.userAgent);
      if (!session) throw forbidden(said('wrong-sign-in'));
      for (const cookie of sessionCookies(session, ctx.http.secure)) ctx.http.setCookie(cookie);
      return {
        accountId: session.accountId,
        email: session.email,
        name: session.name,
        sessionExpiresAt: session.expiresAt,
      };
    },
  }),
  signOut: t.boolean({
    description: 'Ends the web console session of the request and removes its cookies.',
    resolve: async (_root, _args, ctx) => {
      if (ctx.principal.kind !== 'account' || ctx.principal.scheme !== 'session')
        throw forbidden('signOut needs a web console session');
      await endSession(ctx.principal.sessionId);
      if (ctx.http) for (const cookie of clearedCookies(ctx.http.secure)) ctx.http.setCookie(cookie);
      return true;
    },
  }),
}));

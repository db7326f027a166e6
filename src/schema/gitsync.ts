// Git sync of a project (src/gitsync/, docs/git-sync.md): the connection, the
// sync log, pull (or its preview) and push.
import { builder } from '../builder.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import {
  AUTH_KINDS,
  connectRepository,
  disconnectRepository,
  getConnection,
  listRuns,
  PULL_SCOPES,
  rotateWebhookSecret,
  RUN_KINDS,
  RUN_PAGE,
  RUN_STATES,
  TRIGGERS,
  updateConnection,
  type GitConnectionView,
  type SyncRunView,
} from '../gitsync/connections.js';
import { FORGE_KINDS } from '../gitsync/forge.js';
import { pullFromGit, type PulledFile, type PullResult } from '../gitsync/pull.js';
import { pushProjectToGit, type PushResult } from '../gitsync/push.js';
import { FormatIdEnum, ImportPreviewType, ImportResultType } from './transfer.js';

const GitAuthKindEnum = builder.enumType('GitAuthKind', {
  description:
    'TOKEN: HTTPS with an access token; SSH: the deploy key the service generates; NONE: a repository anyone may read (push needs credentials).',
  values: AUTH_KINDS,
});
const GitPullScopeEnum = builder.enumType('GitPullScope', {
  description: "SOURCE: only the default language's files; ALL: every file of the pattern.",
  values: PULL_SCOPES,
});
const GitForgeKindEnum = builder.enumType('GitForgeKind', {
  description: 'Where pull requests are opened: GitHub, GitLab, or none (the branch is pushed only).',
  values: FORGE_KINDS,
});
const GitSyncKindEnum = builder.enumType('GitSyncKind', { values: RUN_KINDS });
const GitSyncTriggerEnum = builder.enumType('GitSyncTrigger', { values: TRIGGERS });
const GitSyncStateEnum = builder.enumType('GitSyncState', { values: RUN_STATES });

const GitConnectionType = builder.objectRef<GitConnectionView>('GitConnection').implement({
  description:
    'The Git repository a project is connected to. Secrets are never shown: the token and the private deploy key stay sealed; the webhook secret is shown once.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    remoteUrl: t.exposeString('remoteUrl'),
    authKind: t.field({ type: GitAuthKindEnum, resolve: (c) => c.authKind }),
    hasToken: t.exposeBoolean('hasToken', { description: 'A token is stored (HTTPS and the forge API).' }),
    tokenUser: t.exposeString('tokenUser', { description: 'The user name sent with the token over HTTPS.' }),
    deployPublicKey: t.exposeString('deployPublicKey', {
      nullable: true,
      description:
        "The public half of the deploy key (SSH): add it to the repository's deploy keys, with write access for push.",
    }),
    branch: t.exposeString('branch'),
    pathPattern: t.exposeString('pathPattern'),
    format: t.field({ type: FormatIdEnum, resolve: (c) => c.format }),
    pullScope: t.field({ type: GitPullScopeEnum, resolve: (c) => c.pullScope }),
    pushBranch: t.exposeString('pushBranch', {
      description: 'The branch the service rebuilds and pushes on every push.',
    }),
    forgeKind: t.field({ type: GitForgeKindEnum, resolve: (c) => c.forgeKind }),
    forgeApiUrl: t.exposeString('forgeApiUrl', { nullable: true }),
    forgeRepository: t.exposeString('forgeRepository'),
    pushSchedule: t.exposeString('pushSchedule', {
      nullable: true,
      description: 'A cron expression: the service pushes on this schedule.',
    }),
    lastPulledCommit: t.exposeString('lastPulledCommit', { nullable: true }),
    webhookUrl: t.string({
      description: "Where the forge's push webhook posts.",
      resolve: (c, _args, ctx) => `${ctx.config.publicUrl}${c.webhookPath}`,
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => c.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (c) => c.updatedAt }),
  }),
});

const GitSyncRunType = builder.objectRef<SyncRunView>('GitSyncRun').implement({
  description: 'One pull, preview or push, in the sync log.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    kind: t.field({ type: GitSyncKindEnum, resolve: (r) => r.kind }),
    trigger: t.field({ type: GitSyncTriggerEnum, resolve: (r) => r.trigger }),
    state: t.field({ type: GitSyncStateEnum, resolve: (r) => r.state }),
    commit: t.exposeString('commit', { nullable: true }),
    message: t.exposeString('message'),
    pullRequestUrl: t.exposeString('pullRequestUrl', { nullable: true }),
    startedAt: t.field({ type: 'DateTime', resolve: (r) => r.startedAt }),
    finishedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.finishedAt }),
    details: t.field({
      type: 'JSON',
      description: 'The files and their counts; the base commit of a push.',
      resolve: (r) => r.details,
    }),
  }),
});

const PulledFileType = builder.objectRef<PulledFile>('GitPulledFile').implement({
  fields: (t) => ({
    path: t.exposeString('path'),
    language: t.exposeString('language', { nullable: true }),
    namespace: t.exposeString('namespace', { nullable: true }),
    customer: t.exposeString('customer', { nullable: true }),
    result: t.field({ type: ImportResultType, nullable: true, resolve: (f) => f.result ?? null }),
    preview: t.field({ type: ImportPreviewType, nullable: true, resolve: (f) => f.preview ?? null }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why the import refused this file (the others are imported).',
    }),
  }),
});

const GitPullResultType = builder.objectRef<PullResult>('GitPullResult').implement({
  fields: (t) => ({
    run: t.field({ type: GitSyncRunType, resolve: (r) => r.run }),
    commit: t.exposeString('commit', { nullable: true }),
    files: t.field({ type: [PulledFileType], resolve: (r) => r.files }),
  }),
});

const ChangeRequestType = builder.objectRef<NonNullable<PushResult['pullRequest']>>('GitChangeRequest').implement({
  description: 'The pull request (GitHub) or merge request (GitLab).',
  fields: (t) => ({
    number: t.exposeInt('number'),
    url: t.exposeString('url'),
    opened: t.exposeBoolean('opened', { description: 'true: opened by this push; false: the open one was updated.' }),
  }),
});

const GitPushResultType = builder.objectRef<PushResult>('GitPushResult').implement({
  fields: (t) => ({
    run: t.field({ type: GitSyncRunType, resolve: (r) => r.run }),
    branch: t.exposeString('branch'),
    commit: t.exposeString('commit', { nullable: true }),
    baseCommit: t.exposeString('baseCommit', { nullable: true }),
    pushed: t.exposeBoolean('pushed'),
    files: t.exposeStringList('files'),
    pullRequest: t.field({ type: ChangeRequestType, nullable: true, resolve: (r) => r.pullRequest }),
  }),
});

const ConnectedType = builder
  .objectRef<{ connection: GitConnectionView; webhookSecret: string }>('GitConnected')
  .implement({
    fields: (t) => ({
      connection: t.field({ type: GitConnectionType, resolve: (c) => c.connection }),
      webhookSecret: t.exposeString('webhookSecret', {
        description: "The secret of the forge's push webhook: shown only in this answer.",
      }),
    }),
  });

const GitConnectionInput = builder.inputType('GitConnectionInput', {
  fields: (t) => ({
    remoteUrl: t.string({
      required: false,
      description: 'https://…, http://… or ssh://… (or git@host:path); no credentials in it.',
    }),
    authKind: t.field({ type: GitAuthKindEnum, required: false }),
    token: t.string({ required: false, description: 'An access token (stored sealed); "" removes it.' }),
    tokenUser: t.string({ required: false }),
    branch: t.string({ required: false, description: 'Default main.' }),
    pathPattern: t.string({ required: false, description: 'E.g. locales/{lang}/{ns}.json.' }),
    format: t.field({ type: FormatIdEnum, required: false }),
    pullScope: t.field({ type: GitPullScopeEnum, required: false }),
    pushBranch: t.string({ required: false, description: 'Default l10n/<project>.' }),
    forgeKind: t.field({ type: GitForgeKindEnum, required: false }),
    forgeApiUrl: t.string({ required: false }),
    forgeRepository: t.string({ required: false }),
    pushSchedule: t.string({ required: false, description: 'A cron expression; "" removes the schedule.' }),
    regenerateDeployKey: t.boolean({ required: false, description: 'updateGitConnection: a new deploy key (SSH).' }),
  }),
});

builder.queryFields((t) => ({
  gitConnection: t.field({
    type: GitConnectionType,
    nullable: true,
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      getConnection(await resolveProject(ctx.principal, args.projectToken, need('gitConnection'))),
  }),
  gitSyncRuns: t.field({
    type: [GitSyncRunType],
    description: 'The sync log, newest first.',
    args: {
      projectToken: t.arg.string({ required: false }),
      size: t.arg.int({
        required: false,
        description: `Default ${RUN_PAGE.defaultSize}, at most ${RUN_PAGE.maxSize}.`,
      }),
    },
    resolve: async (_root, args, ctx) =>
      listRuns(
        await resolveProject(ctx.principal, args.projectToken, need('gitSyncRuns')),
        args.size ?? RUN_PAGE.defaultSize,
      ),
  }),
}));

builder.mutationFields((t) => ({
  connectGitRepository: t.field({
    type: ConnectedType,
    args: {
      projectToken: t.arg.string({ required: false }),
      input: t.arg({ type: GitConnectionInput, required: true }),
    },
    resolve: async (_root, args, ctx) =>
      connectRepository(
        await resolveProject(ctx.principal, args.projectToken, need('connectGitRepository')),
        args.input,
      ),
  }),
  updateGitConnection: t.field({
    type: GitConnectionType,
    args: {
      projectToken: t.arg.string({ required: false }),
      input: t.arg({ type: GitConnectionInput, required: true }),
    },
    resolve: async (_root, args, ctx) =>
      updateConnection(await resolveProject(ctx.principal, args.projectToken, need('updateGitConnection')), args.input),
  }),
  rotateGitWebhookSecret: t.string({
    description: 'A new secret for the push webhook, shown only in this answer.',
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      rotateWebhookSecret(await resolveProject(ctx.principal, args.projectToken, need('rotateGitWebhookSecret'))),
  }),
  disconnectGitRepository: t.boolean({
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) => {
      await disconnectRepository(
        await resolveProject(ctx.principal, args.projectToken, need('disconnectGitRepository')),
      );
      return true;
    },
  }),
  pullFromGit: t.field({
    type: GitPullResultType,
    description:
      "Imports the repository's files (docs/git-sync.md); with preview, only says what the import would change.",
    args: { projectToken: t.arg.string({ required: false }), preview: t.arg.boolean({ required: false }) },
    resolve: async (_root, args, ctx) =>
      pullFromGit({
        projectId: await resolveProject(ctx.principal, args.projectToken, need('pullFromGit')),
        trigger: 'MANUAL',
        preview: args.preview ?? false,
        config: ctx.config,
      }),
  }),
  pushToGit: t.field({
    type: GitPushResultType,
    description:
      "Commits the export on the service's branch, rebuilt from the target branch, and opens or updates the pull request.",
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      pushProjectToGit({
        projectId: await resolveProject(ctx.principal, args.projectToken, need('pushToGit')),
        trigger: 'MANUAL',
        config: ctx.config,
      }),
  }),
}));

// Hosting: environments, the publication order, publishing, the served
// status, and live publication progress (graphql-ws). Resolvers call the
// hosting domain (src/hosting/).
import { builder } from '../builder.js';
import { events, type PublicationEvent } from '../events/pubsub.js';
import { membershipOf, resolveProject } from '../projects/access.js';
import { forbidden, notFound } from '../errors.js';
import { prisma } from '../db.js';
import { openChange } from '../content/changes.js';
import { need } from '../teams/permissions.js';
import {
  createEnvironment,
  environmentDetails,
  listEnvironments,
  setEnvironmentOrder,
  updateEnvironment,
  type EnvironmentDetails,
  type PublicationSummary,
} from '../hosting/environments.js';
import { publishEnvironment, type PublishResult } from '../hosting/publish.js';
import { environmentStatus, type EnvironmentStatus } from '../hosting/status.js';
import type { PublishedResource } from '../hosting/layout.js';
import { listPublications, PUBLICATION_LIST, type PublicationRecord } from '../hosting/publications.js';
import { ActorType, ChangeSourceEnum } from './activity.js';

const PublicationType = builder.objectRef<PublicationSummary>('Publication').implement({
  description: 'A complete publication of an environment.',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Identifies the stored files of this publication.' }),
    label: t.exposeString('label', { nullable: true, description: 'Given when publishing to _latest.' }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      description: 'When the publication started (its snapshot time).',
    }),
    completedAt: t.expose('completedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the environment switched to it.',
    }),
    numberOfKeys: t.exposeInt('numberOfKeys'),
    numberOfLanguages: t.exposeInt('numberOfLanguages'),
    numberOfNonEmptyTranslations: t.exposeInt('numberOfNonEmptyTranslations'),
    numberOfResources: t.exposeInt('numberOfResources', { description: 'Number of files served.' }),
  }),
});

export const EnvironmentType = builder.objectRef<EnvironmentDetails>('Environment').implement({
  description: 'A hosting environment: _latest, _production or a custom one, in the publication order.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'Fixed at creation; part of the CDN path.' }),
    name: t.exposeString('name'),
    color: t.exposeString('color'),
    builtIn: t.exposeBoolean('builtIn'),
    position: t.exposeInt('position', { description: 'Place in the publication order (1 = _latest).' }),
    source: t.exposeString('source', {
      description: "What a publish takes its files from: 'editor' or another environment's key.",
    }),
    publishing: t.exposeBoolean('publishing', { description: 'True while a publication to this environment runs.' }),
    requireNoErrors: t.exposeBoolean('requireNoErrors', {
      description: 'Publications are refused while the project has quality-check errors (an owner may override).',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    url: t.string({
      description: 'Base URL of the files: append a resource path (_index, en, en/common, ...).',
      resolve: (e, _a, ctx) =>
        `${ctx.config.cdnUrl}/${encodeURIComponent(e.projectToken)}/${encodeURIComponent(e.key)}`,
    }),
    lastPublication: t.field({
      type: PublicationType,
      nullable: true,
      description: 'The publication being served.',
      resolve: (e) => e.lastPublication,
    }),
  }),
});

const HostedResourceType = builder.objectRef<PublishedResource>('HostedResource').implement({
  description: 'A published file. Its full URL is {cdn_url}/ followed by link.',
  fields: (t) => ({
    link: t.exposeString('link'),
    size: t.exposeInt('size', { description: 'Bytes of the JSON file (uncompressed).' }),
    language: t.exposeString('language', { nullable: true }),
    namespace: t.exposeString('namespace', { nullable: true }),
    customer: t.exposeString('customer', { nullable: true }),
    url: t.string({ resolve: (r, _a, ctx) => `${ctx.config.cdnUrl}/${r.link}` }),
  }),
});

const EnvironmentStatusType = builder.objectRef<EnvironmentStatus>('EnvironmentStatus').implement({
  description:
    "The contract's Environment status: the served publication's counts and files (zeros and no files before the first).",
  fields: (t) => ({
    environmentKey: t.exposeString('environmentKey'),
    numberOfKeys: t.exposeInt('numberOfKeys'),
    numberOfLanguages: t.exposeInt('numberOfLanguages'),
    numberOfNonEmptyTranslations: t.exposeInt('numberOfNonEmptyTranslations'),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: true }),
    version: t.exposeString('version', { nullable: true }),
    label: t.exposeString('label', { nullable: true }),
    resources: t.field({ type: [HostedResourceType], resolve: (s) => s.resources }),
  }),
});

const PublishResultType = builder.objectRef<PublishResult>('PublishResult').implement({
  description: 'The publication a publish call made (the call returns when it is complete and served).',
  fields: (t) => ({
    environmentKey: t.exposeString('environmentKey'),
    source: t.exposeString('source', { description: "'editor' or the environment the files were taken from." }),
    version: t.exposeString('version'),
    label: t.exposeString('label', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    numberOfKeys: t.exposeInt('numberOfKeys'),
    numberOfLanguages: t.exposeInt('numberOfLanguages'),
    numberOfNonEmptyTranslations: t.exposeInt('numberOfNonEmptyTranslations'),
    numberOfResources: t.exposeInt('numberOfResources'),
  }),
});

const PublicationProgressType = builder.objectRef<PublicationEvent>('PublicationProgress').implement({
  description:
    'A step of a running publication: STARTED, READING, WRITING (filesDone of filesTotal), SWITCHING, then COMPLETE or FAILED.',
  fields: (t) => ({
    publicationId: t.exposeInt('publicationId'),
    environmentKey: t.exposeString('environmentKey'),
    stage: t.exposeString('stage'),
    filesDone: t.exposeInt('filesDone'),
    filesTotal: t.exposeInt('filesTotal'),
    state: t.exposeString('state', { description: 'RUNNING, COMPLETE or FAILED.' }),
    message: t.exposeString('message', { description: 'Why it failed; empty otherwise.' }),
    at: t.field({ type: 'DateTime', resolve: (e) => new Date(e.at) }),
  }),
});

const PublicationRecordType = builder.objectRef<PublicationRecord>('PublicationRecord').implement({
  description:
    'A publication of the history: running, complete or failed, with where its files came from and who published it.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    environmentKey: t.exposeString('environmentKey'),
    source: t.exposeString('source', { description: "'editor' or the environment whose publication was copied." }),
    version: t.exposeString('version'),
    label: t.exposeString('label', { nullable: true }),
    state: t.exposeString('state', { description: 'RUNNING, COMPLETE or FAILED.' }),
    message: t.exposeString('message', { description: 'Why it failed; empty otherwise.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it started.' }),
    completedAt: t.expose('completedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it completed or failed.',
    }),
    numberOfKeys: t.exposeInt('numberOfKeys'),
    numberOfLanguages: t.exposeInt('numberOfLanguages'),
    numberOfNonEmptyTranslations: t.exposeInt('numberOfNonEmptyTranslations'),
    publishedBy: t.field({
      type: ActorType,
      description: 'Who started the publication (also of one that failed or is still running).',
      resolve: (p) => ({ kind: p.actorKind, id: p.actorId, name: p.actorName, email: p.actorEmail }),
    }),
    changeSource: t.field({
      type: ChangeSourceEnum,
      description: 'Through what it was published (API, GRAPHQL, WEB, CLI, SYSTEM).',
      resolve: (p) => p.changeSource,
    }),
  }),
});

builder.queryFields((t) => ({
  publications: t.field({
    type: [PublicationRecordType],
    description: `The project's publications (of one environment when given), newest first; at most ${PUBLICATION_LIST.maxLimit}, default ${PUBLICATION_LIST.defaultLimit}.`,
    args: {
      projectToken: t.arg.string({ required: false }),
      environmentKey: t.arg.string({ required: false }),
      limit: t.arg.int({ required: false }),
    },
    resolve: async (_root, args, ctx) =>
      listPublications(await resolveProject(ctx.principal, args.projectToken, need('publications')), args),
  }),
  environments: t.field({
    type: [EnvironmentType],
    description: 'Environments of the project in publication order.',
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      listEnvironments(await resolveProject(ctx.principal, args.projectToken, need('environments'))),
  }),
  environment: t.field({
    type: EnvironmentType,
    args: { projectToken: t.arg.string({ required: false }), key: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) =>
      environmentDetails(await resolveProject(ctx.principal, args.projectToken, need('environment')), args.key),
  }),
  environmentStatus: t.field({
    type: EnvironmentStatusType,
    args: { projectToken: t.arg.string({ required: false }), key: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) =>
      environmentStatus(await resolveProject(ctx.principal, args.projectToken, need('environmentStatus')), args.key),
  }),
}));

builder.mutationFields((t) => ({
  createEnvironment: t.field({
    type: EnvironmentType,
    description:
      'Creates a custom environment at the end of the publication order (it then publishes from the environment before it).',
    args: {
      projectToken: t.arg.string({ required: false }),
      key: t.arg.string({
        required: true,
        description: "1-40 of a-z, 0-9, '-', '_', not starting with '_'; fixed after creation.",
      }),
      name: t.arg.string({ required: true, description: 'At most 100 characters.' }),
      color: t.arg.string({ required: false, description: 'Hex color, #rgb or #rrggbb; default #808080.' }),
    },
    resolve: async (_root, args, ctx) =>
      createEnvironment(await resolveProject(ctx.principal, args.projectToken, need('createEnvironment')), args),
  }),
  updateEnvironment: t.field({
    type: EnvironmentType,
    description: "Changes an environment's name or color (its key cannot change).",
    args: {
      projectToken: t.arg.string({ required: false }),
      key: t.arg.string({ required: true }),
      name: t.arg.string({ required: false }),
      color: t.arg.string({ required: false }),
    },
    resolve: async (_root, { projectToken, key, ...input }, ctx) =>
      updateEnvironment(await resolveProject(ctx.principal, projectToken, need('updateEnvironment')), key, input),
  }),
  setEnvironmentOrder: t.field({
    type: [EnvironmentType],
    description:
      'Sets the publication order (a project setting): every environment key once, _latest first. A custom environment publishes from the one before it; _production always publishes from _latest.',
    args: { projectToken: t.arg.string({ required: false }), keys: t.arg.stringList({ required: true }) },
    resolve: async (_root, args, ctx) =>
      setEnvironmentOrder(
        await resolveProject(ctx.principal, args.projectToken, need('setEnvironmentOrder')),
        args.keys,
      ),
  }),
  publishEnvironment: t.field({
    type: PublishResultType,
    description:
      'Publishes an environment from its source and returns when the new files are served. 402 without publishing in the plan, 409 while another publication of the project runs, 429 over PUBLISH_RATE_LIMIT per minute.',
    args: {
      projectToken: t.arg.string({ required: false }),
      key: t.arg.string({ required: true }),
      label: t.arg.string({ required: false, description: 'Only when publishing to _latest; at most 200 characters.' }),
      overrideQualityGate: t.arg.boolean({
        required: false,
        description:
          'Publish although the environment requires no quality-check errors and there are some: the project owner only; recorded in the activity log.',
      }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('publishEnvironment'));
      if (args.overrideQualityGate && (await membershipOf(ctx.principal, projectId))?.role !== 'OWNER')
        throw forbidden('Only the project owner can publish over quality-check errors');
      return publishEnvironment({
        projectId,
        environmentKey: args.key,
        label: args.label,
        overrideQualityGate: args.overrideQualityGate ?? false,
      });
    },
  }),
  setEnvironmentQualityGate: t.field({
    type: EnvironmentType,
    description: 'Whether publications of an environment are refused while the project has quality-check errors.',
    args: {
      projectToken: t.arg.string({ required: false }),
      key: t.arg.string({ required: true }),
      requireNoErrors: t.arg.boolean({ required: true }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('setEnvironmentQualityGate'));
      const changed = await prisma().$transaction(async (tx) => {
        const n = await tx.environment.updateMany({
          where: { projectId, key: args.key },
          data: { requireNoErrors: args.requireNoErrors },
        });
        if (n.count)
          await openChange(tx, projectId, 'SETTINGS', { environment: args.key, requireNoErrors: args.requireNoErrors });
        return n.count;
      });
      if (!changed) throw notFound(`Environment ${args.key} not found`);
      return (await listEnvironments(projectId)).find((e) => e.key === args.key)!;
    },
  }),
}));

builder.subscriptionFields((t) => ({
  publicationProgress: t.field({
    type: PublicationProgressType,
    description: 'Progress of every publication of the project while it runs.',
    args: { projectToken: t.arg.string({ required: false }) },
    subscribe: async (_root, args, ctx) =>
      events().subscribe(
        'project-publications',
        await resolveProject(ctx.principal, args.projectToken, need('publicationProgress')),
      ),
    resolve: (event) => event,
  }),
}));

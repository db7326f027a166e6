import { builder } from '../builder.js';
import { prisma } from '../db.js';
import { mayInProject, requireAccount, resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import { createProject, listProjectIds, PROJECT_SORTS, renameProject, rotateApiKey } from '../projects/projects.js';
import { ACTIVITY_DERIVATION, EDIT_DERIVATION } from '../projects/stats.js';
import { projectNamespaces, type ProjectNamespace } from '../projects/namespaces.js';
import { hostingResources, type HostingResource } from '../hosting/resources.js';
import { listEnvironments } from '../hosting/environments.js';
import { projectOnboarding, type ProjectOnboarding } from '../projects/onboarding.js';
import { EnvironmentType } from './hosting.js';
import { LanguageType } from './language.js';
import './customer.js';

const NamespaceType = builder.objectRef<ProjectNamespace>('Namespace').implement({
  description: 'A namespace of the project (keys in the empty default namespace are not listed).',
  fields: (t) => ({
    name: t.exposeString('name'),
    keys: t.exposeInt('keys', { description: 'Number of keys in the namespace.' }),
  }),
});

const HostingResourceType = builder.objectRef<HostingResource>('HostingResource').implement({
  description:
    "A file served by an environment now (its current publication), in the shape the vendor's command-line client reads for `pull`.",
  fields: (t) => ({
    path: t.exposeString('path', {
      description:
        '`{projectToken}/{environmentKey}/{resource path}`, unencoded; the file is at {cdn_url}/ followed by the URL-encoded segments, and `pull` saves it as the resource path plus `.json`.',
    }),
    key: t.exposeString('key', { description: 'The environment key (_latest, _production or a custom one).' }),
    language: t.exposeString('language', { nullable: true }),
    namespace: t.exposeString('namespace', { nullable: true }),
    customerId: t.exposeString('customerId', {
      nullable: true,
      description: 'The customer key of a customer-specific file.',
    }),
  }),
});

const OnboardingType = builder.objectRef<ProjectOnboarding>('ProjectOnboarding').implement({
  description: "The first-run checklist's steps, each read from the project's state.",
  fields: (t) => ({
    languagesAdded: t.exposeBoolean('languagesAdded', { description: 'A language besides the first.' }),
    textsImported: t.exposeBoolean('textsImported', {
      description: 'The project has keys, or an import ran.',
    }),
    teamInvited: t.exposeBoolean('teamInvited', {
      description: 'Another member, or a pending e-mail invitation.',
    }),
    published: t.exposeBoolean('published', { description: 'An environment serves files.' }),
    appConnected: t.exposeBoolean('appConnected', {
      description: 'The project API key was used for a change (the app or its build calls the API).',
    }),
  }),
});

export const ProjectSortEnum = builder.enumType('ProjectSort', {
  description: 'Orders of the project list (the REST `sort` values, in upper case).',
  values: Object.fromEntries(PROJECT_SORTS.map((s) => [s.toUpperCase(), { value: s }])) as Record<
    Uppercase<(typeof PROJECT_SORTS)[number]>,
    { value: (typeof PROJECT_SORTS)[number] }
  >,
});

export const ProjectType = builder.prismaObject('Project', {
  description: 'A project: its languages, customers, keys and counters.',
  fields: (t) => ({
    name: t.exposeString('name'),
    projectToken: t.exposeString('projectToken', { description: 'The project identifier.' }),
    apiKey: t.string({
      nullable: true,
      description:
        'The project API key (header X-Service-Token); null for members whose role does not include SETTINGS (translators, viewers), since the key grants full project access.',
      resolve: async (p, _a, ctx) => ((await mayInProject(ctx.principal, p.id, 'SETTINGS')) ? p.apiKey : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    // One named statement for every project of the request (src/context.ts), not one more ORM statement each.
    languages: t.field({
      type: [LanguageType],
      resolve: (p, _a, ctx) => ctx.loaders.projectLanguages.load(p.id),
    }),
    customers: t.relation('customers', { query: { orderBy: [{ key: 'asc' }] } }),
    keys: t.int({
      description: 'Number of translation keys.',
      resolve: async (p, _a, ctx) => (await ctx.loaders.projectStats.load(p.id)).keys,
    }),
    unpublishedChanges: t.int({
      description: 'Translations changed since the last publication to _latest.',
      resolve: async (p, _a, ctx) => (await ctx.loaders.projectStats.load(p.id)).unpublishedChanges,
    }),
    translatedPercentage: t.float({
      description: 'Fraction (0.0–1.0) of non-empty translations among keys × languages.',
      resolve: async (p, _a, ctx) => (await ctx.loaders.projectStats.load(p.id)).translatedPercentage,
    }),
    translatedKeysByLanguage: t.field({
      type: 'JSON',
      description: 'Language key → number of keys with a non-empty translation.',
      resolve: async (p, _a, ctx) => (await ctx.loaders.projectStats.load(p.id)).translatedKeysByLanguage,
    }),
    numberOfMembers: t.int({ resolve: async (p, _a, ctx) => (await ctx.loaders.projectStats.load(p.id)).members }),
    lastEditedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: EDIT_DERIVATION,
      resolve: async (p, _a, ctx) => (await ctx.loaders.projectStats.load(p.id)).lastEditedAt,
    }),
    lastActivityAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: ACTIVITY_DERIVATION,
      resolve: async (p, _a, ctx) => (await ctx.loaders.projectStats.load(p.id)).lastActivityAt,
    }),
    namespaces: t.field({
      type: [NamespaceType],
      description: 'The non-empty namespaces of its keys, by name.',
      resolve: (p) => projectNamespaces(p.id),
    }),
    environments: t.field({
      type: [EnvironmentType],
      description: 'Hosting environments in publication order.',
      resolve: (p) => listEnvironments(p.id),
    }),
    hostingResources: t.field({
      type: [HostingResourceType],
      description:
        "Every file served now by every environment (each environment's current publication), environments in publication order; empty before the first publication.",
      resolve: (p) => hostingResources(p.id),
    }),
    onboarding: t.field({
      type: OnboardingType,
      nullable: true,
      description:
        'The first-run checklist (add languages, import, invite, publish, connect the app); null for those who may not change the settings: the steps are theirs.',
      resolve: async (p, _a, ctx) =>
        (await mayInProject(ctx.principal, p.id, 'SETTINGS')) ? projectOnboarding(p.id) : null,
    }),
  }),
});

builder.queryFields((t) => ({
  projects: t.prismaField({
    type: [ProjectType],
    description: "The authenticated account's projects, or the API key's own project.",
    args: { sort: t.arg({ type: ProjectSortEnum, required: false }) },
    resolve: async (query, _root, args, ctx) => {
      if (ctx.principal.kind === 'project') {
        return prisma().project.findMany({ ...query, where: { id: ctx.principal.projectId } });
      }
      const ids = await listProjectIds(requireAccount(ctx.principal), args.sort ?? 'alphabetical');
      const rows = await prisma().project.findMany({ ...query, where: { id: { in: ids } } });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id)!).filter(Boolean);
    },
  }),
  project: t.prismaField({
    type: ProjectType,
    description: 'One project: by projectToken for an account; the own project for an API key.',
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (query, _root, args, ctx) => {
      const id = await resolveProject(ctx.principal, args.projectToken, need('project'));
      return prisma().project.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));

const RotatedApiKeyType = builder.objectRef<{ apiKey: string; projectToken: string }>('RotatedApiKey').implement({
  description: 'The new project API key, shown here once (project answers show it too, to members with SETTINGS).',
  fields: (t) => ({
    projectToken: t.exposeString('projectToken'),
    apiKey: t.exposeString('apiKey', {
      description: 'The new key; the old one is refused from now on, on every instance.',
    }),
  }),
});

builder.mutationFields((t) => ({
  renameProject: t.prismaField({
    type: ProjectType,
    description: 'Renames the project (1-200 characters); recorded in the activity log.',
    args: { projectToken: t.arg.string({ required: false }), name: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = await resolveProject(ctx.principal, args.projectToken, need('renameProject'));
      await renameProject(id, args.name);
      return prisma().project.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  rotateProjectApiKey: t.field({
    type: RotatedApiKeyType,
    description:
      'Replaces the project API key: the old key stops working at once, on every instance. Owner and administrators, with an account credential (a key cannot replace itself); recorded in the activity log.',
    args: { projectToken: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const id = await resolveProject(ctx.principal, args.projectToken, need('rotateProjectApiKey'));
      return { apiKey: await rotateApiKey(id), projectToken: args.projectToken };
    },
  }),
  createProject: t.prismaField({
    type: ProjectType,
    description: 'Creates a project owned by the authenticated account, with one initial language.',
    args: { name: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const { id } = await createProject({ accountId: requireAccount(ctx.principal), name: args.name });
      return prisma().project.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));

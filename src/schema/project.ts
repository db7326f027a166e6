import { builder } from '../builder.js';
import { prisma } from '../db.js';
import { requireAccount, resolveProject } from '../projects/access.js';
import { createProject, listProjectIds, PROJECT_SORTS } from '../projects/projects.js';
import './language.js';
import './customer.js';

export const ProjectSortEnum = builder.enumType('ProjectSort', {
  description: 'Orders of the project list (the REST `sort` values, in upper case).',
  values: Object.fromEntries(PROJECT_SORTS.map((s) => [s.toUpperCase(), { value: s }])) as Record<Uppercase<(typeof PROJECT_SORTS)[number]>, { value: (typeof PROJECT_SORTS)[number] }>,
});

export const ProjectType = builder.prismaObject('Project', {
  description: 'A project: its languages, customers, keys and counters.',
  fields: (t) => ({
    name: t.exposeString('name'),
    projectToken: t.exposeString('projectToken', { description: 'The project identifier.' }),
    apiKey: t.exposeString('apiKey', { description: 'The project API key (header X-Service-Token).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    languages: t.relation('languages', { query: { orderBy: [{ order: 'asc' }, { id: 'asc' }] } }),
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
    lastEditedAt: t.field({ type: 'DateTime', resolve: async (p, _a, ctx) => (await ctx.loaders.projectStats.load(p.id)).lastEditedAt }),
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
      const id = await resolveProject(ctx.principal, args.projectToken);
      return prisma().project.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));

builder.mutationFields((t) => ({
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

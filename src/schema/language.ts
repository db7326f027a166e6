import { builder } from '../builder.js';
import { prisma } from '../db.js';
import {
  createLanguage,
  deleteLanguage,
  languageTranslationCount,
  projectLanguages,
  setLanguageOrder,
  updateLanguage,
} from '../content/languages.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';

export const LanguageType = builder.prismaObject('Language', {
  description: 'A language of a project.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'Unique in the project, at most 20 characters.' }),
    name: t.exposeString('name', {
      description: 'Display name, at most 200 characters (REST lists show it as `description`).',
    }),
    isDefault: t.exposeBoolean('isDefault', { description: 'Exactly one language of a project is the default.' }),
    order: t.exposeInt('order', { description: 'Position among the languages (setLanguageOrder), from 0.' }),
    translationCount: t.int({
      description: 'Non-empty texts in this language, base and customer-specific: what deleteLanguage deletes with it.',
      resolve: (l) => languageTranslationCount(l.projectId, l.id),
    }),
  }),
});

const CreateLanguageInput = builder.inputType('CreateLanguageInput', {
  fields: (t) => ({
    key: t.string({
      required: true,
      description: "1-20 characters without whitespace, '/' or '\\'; unique in the project.",
    }),
    name: t.string({ required: false, description: 'Display name, at most 200 characters.' }),
  }),
});

const UpdateLanguageInput = builder.inputType('UpdateLanguageInput', {
  description: 'Absent or null fields stay unchanged.',
  fields: (t) => ({
    key: t.string({ required: false, description: 'Renames the language (its translations follow).' }),
    name: t.string({ required: false, description: 'Display name, at most 200 characters.' }),
    isDefault: t.boolean({
      required: false,
      description:
        'true makes this the default language of the project (false is refused: make another one the default).',
    }),
  }),
});

builder.queryFields((t) => ({
  // A plain field with whole rows: the type has no relation for the ORM to load with them.
  languages: t.field({
    type: [LanguageType],
    description: 'The languages of the project, in their order.',
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      projectLanguages(await resolveProject(ctx.principal, args.projectToken, need('languages'))),
  }),
}));

builder.mutationFields((t) => ({
  createLanguage: t.prismaField({
    type: LanguageType,
    description: 'Adds a language after the existing ones.',
    args: {
      projectToken: t.arg.string({ required: false }),
      input: t.arg({ type: CreateLanguageInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('createLanguage'));
      const { id } = await createLanguage(projectId, args.input);
      return prisma().language.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateLanguage: t.prismaField({
    type: LanguageType,
    description: 'Renames a language (its translations follow), changes its name, or makes it the default.',
    args: {
      projectToken: t.arg.string({ required: false }),
      key: t.arg.string({ required: true }),
      input: t.arg({ type: UpdateLanguageInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('updateLanguage'));
      const { id } = await updateLanguage(projectId, args.key, args.input);
      return prisma().language.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  setLanguageOrder: t.field({
    type: [LanguageType],
    description:
      'Sets the order of the languages (editor columns, language lists, exports): the keys listed come first, in that order (each once), the others follow in their order so far. Returns the languages in the new order.',
    args: { projectToken: t.arg.string({ required: false }), keys: t.arg.stringList({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('setLanguageOrder'));
      await setLanguageOrder(projectId, args.keys);
      return projectLanguages(projectId);
    },
  }),
  deleteLanguage: t.boolean({
    description: "Deletes a language with every translation in it. The project's last language cannot be deleted.",
    args: { projectToken: t.arg.string({ required: false }), key: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('deleteLanguage'));
      await deleteLanguage(projectId, args.key);
      return true;
    },
  }),
}));

import { builder } from '../builder.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import {
  countTranslations,
  queryTranslations,
  TRANSLATION_PAGE,
  type CellView,
} from '../content/translations/cells.js';
import { importTranslationsV1, type ImportV1Result } from '../transfer/import-v1.js';
import { updateTranslation } from '../content/translations/update-one.js';
import { updateTranslationsV1, type UpdateV1Result } from '../content/translations/update-v1.js';
import { purgeProjectContent, type PurgeResult } from '../content/translations/purge.js';

export const ReviewStatusEnum = builder.enumType('ReviewStatus', { values: ['REVIEWED', 'NOT_REVIEWED'] as const });

export const TextStatusEnum = builder.enumType('TextStatus', {
  description: 'EMPTY: a cell without text (never written or emptied); NOT_EMPTY: a cell with text.',
  values: ['EMPTY', 'NOT_EMPTY'] as const,
});

export const TranslationType = builder.objectRef<CellView>('Translation').implement({
  description:
    'The translation cell of a key in a language: every key has one in every language of its project, possibly empty.',
  fields: (t) => ({
    key: t.exposeString('key'),
    namespace: t.exposeString('namespace'),
    language: t.exposeString('language', { description: 'The language key.' }),
    text: t.exposeString('text', { description: 'Empty for an empty cell.' }),
    customerKey: t.exposeString('customerKey', {
      nullable: true,
      description: 'The customer the cell is seen through; null for base translations.',
    }),
    isOverride: t.exposeBoolean('isOverride', {
      description: "True when the text is the customer's own; false when it is the base translation.",
    }),
    // Exposed, not resolved: a field without a resolver is read in place by
    // the compiled REST documents (graphql-jit), where a resolver costs a call
    // with its own resolve info and closures for each of a page's 500 cells.
    reviewStatus: t.expose('reviewStatus', { type: ReviewStatusEnum }),
    lastModifiedAt: t.expose('lastModifiedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'null for a cell that was never written.',
    }),
  }),
});

const TranslationFilter = builder.inputType('TranslationFilter', {
  fields: (t) => ({
    text: t.string({ required: false, description: 'Contained in the text, ignoring case.' }),
    textStatus: t.field({ type: TextStatusEnum, required: false }),
    reviewStatus: t.field({ type: ReviewStatusEnum, required: false }),
    key: t.string({ required: false, description: 'Equals the key.' }),
    namespace: t.string({ required: false, description: 'Equals the namespace.' }),
    language: t.string({ required: false, description: 'Equals the language key.' }),
    customerKey: t.string({
      required: false,
      description: "Cells show that customer's text where it has one, else the base text.",
    }),
  }),
});

const UpdateTranslationInput = builder.inputType('UpdateTranslationInput', {
  description: 'One cell of an existing key and language; give text, reviewStatus or both.',
  fields: (t) => ({
    key: t.string({ required: true }),
    namespace: t.string({ required: false, description: 'Default: the empty namespace.' }),
    language: t.string({ required: true, description: 'The language key.' }),
    customerKey: t.string({
      required: false,
      description: "Writes the customer's override; the base stays unchanged.",
    }),
    text: t.string({ required: false }),
    reviewStatus: t.field({ type: ReviewStatusEnum, required: false }),
    expectedLastModifiedAt: t.field({
      type: 'DateTime',
      required: false,
      description:
        "Optimistic concurrency: the cell's lastModifiedAt as last read (1970-01-01T00:00:00Z for a cell never written); CONFLICT, with the current cell in extensions.current, when it changed since.",
    }),
  }),
});

const TranslationElementInput = builder.inputType('TranslationElementInput', {
  description:
    'One element of a bulk write (the v1 translation endpoints). An element that breaks a rule (empty key, unknown language …) is reported in the result and never fails the others.',
  fields: (t) => ({
    key: t.string({ required: true }),
    namespace: t.string({ required: false }),
    language: t.string({ required: true, description: 'The language key.' }),
    text: t.string({ required: false, description: 'Absent: only the key is registered (importTranslations).' }),
    description: t.string({ required: false, description: 'Description of a key the request creates.' }),
    customerKey: t.string({ required: false, description: "Writes the customer's override." }),
  }),
});

const ImportTranslationsOptionEnum = builder.enumType('ImportTranslationsOption', {
  values: ['REPLACE_TRANSLATION_IF_FOUND', 'PUBLISH_AFTER_IMPORT'] as const,
});

const UpdateTranslationsOptionEnum = builder.enumType('UpdateTranslationsOption', {
  values: ['CREATE_KEY_IF_NOT_FOUND'] as const,
});

const ImportTranslationsResultType = builder.objectRef<ImportV1Result>('ImportTranslationsResult').implement({
  fields: (t) => ({
    uniqueKeysProcessed: t.exposeInt('uniqueKeysProcessed'),
    processedWithWarnings: t.exposeBoolean('processedWithWarnings', {
      description: 'True when an element was skipped or the publication failed; message says why.',
    }),
    message: t.exposeString('message'),
  }),
});

const UpdateTranslationsResultType = builder.objectRef<UpdateV1Result>('UpdateTranslationsResult').implement({
  fields: (t) => ({
    numberOfUpdates: t.exposeInt('numberOfUpdates', { description: 'Elements that replaced a non-empty text.' }),
    numberOfFailures: t.exposeInt('numberOfFailures'),
    numberOfInserts: t.exposeInt('numberOfInserts', { description: 'Elements that filled an empty cell.' }),
    failures: t.exposeStringList('failures', {
      description: 'One message per failed element, naming its position: content[i].',
    }),
  }),
});

const PurgeResultType = builder.objectRef<PurgeResult>('PurgeResult').implement({
  description: 'What purgeTranslations deleted.',
  fields: (t) => ({
    keysDeleted: t.exposeInt('keysDeleted'),
    translationsDeleted: t.exposeInt('translationsDeleted', {
      description: 'Base translations (non-empty or emptied cells that had a row).',
    }),
    customerTranslationsDeleted: t.exposeInt('customerTranslationsDeleted'),
  }),
});

builder.queryFields((t) => ({
  translations: t.field({
    type: [TranslationType],
    description:
      'Translation cells (keys × languages) ordered by namespace, key and language order, one page at a time.',
    args: {
      projectToken: t.arg.string({ required: false }),
      filter: t.arg({ type: TranslationFilter, required: false }),
      page: t.arg.int({ required: false, description: 'From 0.' }),
      size: t.arg.int({
        required: false,
        description: `Default ${TRANSLATION_PAGE.defaultSize}, at most ${TRANSLATION_PAGE.maxSize}.`,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('translations'));
      return queryTranslations(projectId, args.filter ?? {}, args.page ?? 0, args.size ?? TRANSLATION_PAGE.defaultSize);
    },
  }),
  translationCount: t.int({
    description: 'Number of translation cells matching the filter.',
    args: {
      projectToken: t.arg.string({ required: false }),
      filter: t.arg({ type: TranslationFilter, required: false }),
    },
    resolve: async (_root, args, ctx) =>
      countTranslations(
        await resolveProject(ctx.principal, args.projectToken, need('translationCount')),
        args.filter ?? {},
      ),
  }),
}));

builder.mutationFields((t) => ({
  updateTranslation: t.field({
    type: TranslationType,
    description: 'Sets the text and/or review status of one cell of an existing key and language.',
    args: {
      projectToken: t.arg.string({ required: false }),
      input: t.arg({ type: UpdateTranslationInput, required: true }),
    },
    resolve: async (_root, args, ctx) => {
      // The language written is checked against a translator's languages; a review status needs REVIEW as well.
      const access = { languages: typeof args.input.language === 'string' ? [args.input.language] : [] };
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('updateTranslation'), access);
      if (args.input.reviewStatus != null) await resolveProject(ctx.principal, args.projectToken, 'REVIEW', access);
      return updateTranslation(projectId, args.input);
    },
  }),
  importTranslations: t.field({
    type: ImportTranslationsResultType,
    description:
      'Adds translations, creating missing keys and languages; existing translations are kept unless REPLACE_TRANSLATION_IF_FOUND.',
    args: {
      projectToken: t.arg.string({ required: false }),
      content: t.arg({ type: [TranslationElementInput], required: true }),
      options: t.arg({ type: [ImportTranslationsOptionEnum], required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('importTranslations'));
      const options = args.options ?? [];
      return importTranslationsV1(projectId, args.content, {
        replace: options.includes('REPLACE_TRANSLATION_IF_FOUND'),
        publish: options.includes('PUBLISH_AFTER_IMPORT'),
      });
    },
  }),
  updateTranslations: t.field({
    type: UpdateTranslationsResultType,
    description: 'Sets translations of existing keys and languages; each failed element is reported in failures.',
    args: {
      projectToken: t.arg.string({ required: false }),
      content: t.arg({ type: [TranslationElementInput], required: true }),
      options: t.arg({ type: [UpdateTranslationsOptionEnum], required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const languages = args.content.flatMap((e) => (typeof e.language === 'string' ? [e.language] : []));
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('updateTranslations'), {
        languages,
      });
      const createKeys = (args.options ?? []).includes('CREATE_KEY_IF_NOT_FOUND');
      if (createKeys) await resolveProject(ctx.principal, args.projectToken, 'KEYS');
      return updateTranslationsV1(projectId, args.content, { createKeys });
    },
  }),
  purgeTranslations: t.field({
    type: PurgeResultType,
    description:
      "Deletes every translation key of the project with its translations and customer overrides, in one transaction (the vendor client's `purge`; locked keys included). Languages, customers, environments and published files stay.",
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      purgeProjectContent(await resolveProject(ctx.principal, args.projectToken, need('purgeTranslations'))),
  }),
}));

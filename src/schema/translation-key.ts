import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { builder } from '../builder.js';
import { prisma } from '../db.js';
import { deleteKeys, keyAddressesOf } from '../content/keys/delete.js';
import {
  KEY_PAGE,
  KEY_SORTS,
  keyConnectionIds,
  keyConnectionRows,
  keyOrderBy,
  keyWhere,
  listKeyPage,
  type KeySort,
  type PageMetadata,
} from '../content/keys/list.js';
import { createKey, keyOfProject, parseKeyAddress, updateKey } from '../content/keys/write.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import { TranslationType } from './translation.js';
import { CELL_COLUMNS, keyConnectionWithCells, type CellColumn, type CellView } from '../content/translations/cells.js';
import type { KeyFinding } from '../findings/read.js';
import { MessageTextType } from './message-text.js';

const KeyFindingType = builder.objectRef<KeyFinding>('KeyQualityFinding').implement({
  description: "A stored quality-check finding of one of a key's translations.",
  fields: (t) => ({
    languageCode: t.string({ resolve: (f) => f.language }),
    check: t.exposeString('check', { description: 'The check id (qualityChecks lists them).' }),
    severity: t.exposeString('severity', {
      description: 'error, warning or info, as the project sets it for the check.',
    }),
    message: t.exposeString('message', { description: 'What is wrong and what to do.' }),
    messageText: t.field({
      type: MessageTextType,
      nullable: true,
      description: 'The message as data (null for a finding stored before findings carried it).',
      resolve: (f) => f.messageText,
    }),
  }),
});

export const TranslationKeySortEnum = builder.enumType('TranslationKeySort', {
  description: 'Most recent first; keys never deprecated come last for DEPRECATED_AT. Without a sort: creation order.',
  values: Object.fromEntries(KEY_SORTS.map((s) => [s.toUpperCase(), { value: s }])) as Record<
    Uppercase<KeySort>,
    { value: KeySort }
  >,
});

export const TranslationKeyType = builder.prismaObject('TranslationKey', {
  description: 'A translation key, unique by key and namespace within its project.',
  fields: (t) => ({
    key: t.exposeString('key'),
    namespace: t.exposeString('namespace', { description: 'The empty string is the default namespace.' }),
    description: t.exposeString('description', { description: 'Editable in the editor as a key comment.' }),
    codeDescription: t.exposeString('codeDescription', { description: 'Shown in the editor, not editable there.' }),
    tags: t.exposeStringList('tags'),
    charactersLimit: t.exposeInt('charactersLimit', {
      nullable: true,
      description: 'Longest accepted translation text; null for no limit.',
    }),
    lock: t.exposeBoolean('lock', {
      description: 'A locked key refuses changes to its metadata and translations until unlocked.',
    }),
    deprecated: t.exposeBoolean('deprecated'),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime' }),
    modifiedAt: t.expose('modifiedAt', { type: 'DateTime', description: 'Last change of the metadata.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deprecatedAt: t.expose('deprecatedAt', { type: 'DateTime', nullable: true }),
    consistencyFindings: t.field({
      type: [KeyFindingType],
      description:
        "Open findings of the consistency checks on the key's base translations (inconsistent-translation, ambiguous-translation), as stored by the findings updater: the checks the editor cannot run on one cell.",
      args: {
        languages: t.arg.stringList({ required: false, description: 'Language keys; default: every language.' }),
      },
      resolve: async (key, args, ctx) => {
        const found = await ctx.loaders.keyConsistency.load(key.id);
        return args.languages ? found.filter((f) => args.languages!.includes(f.language)) : found;
      },
    }),
    translations: t.field({
      type: [TranslationType],
      description:
        "The key's cells, one per language (or per given language), seen through a customer when customerKey is given.",
      args: {
        languages: t.arg.stringList({
          required: false,
          description: 'Language keys; default: every language of the project.',
        }),
        customerKey: t.arg.string({ required: false }),
      },
      resolve: async (key, args, ctx) => {
        const cells =
          (!args.customerKey && cellsWithPage.get(key)) ||
          (await ctx.loaders.keyCells.load({
            projectId: key.projectId,
            keyId: key.id,
            customerKey: args.customerKey || null,
          }));
        return args.languages ? cells.filter((c) => args.languages!.includes(c.language)) : cells;
      },
    }),
  }),
});

const PageMetadataType = builder.objectRef<PageMetadata>('PageMetadata').implement({
  description: 'Position of a page: number (from 0), size, totalElements, totalPages.',
  fields: (t) => ({
    number: t.exposeInt('number'),
    size: t.exposeInt('size'),
    totalElements: t.exposeInt('totalElements'),
    totalPages: t.exposeInt('totalPages'),
  }),
});

const TranslationKeyPageType = builder
  .objectRef<Awaited<ReturnType<typeof listKeyPage>>>('TranslationKeyPage')
  .implement({
    fields: (t) => ({
      content: t.field({ type: [TranslationKeyType], resolve: (p) => p.content }),
      page: t.field({ type: PageMetadataType, resolve: (p) => p.page }),
    }),
  });

const TranslationKeyFilter = builder.inputType('TranslationKeyFilter', {
  fields: (t) => ({
    key: t.string({ required: false, description: 'Equals the key (case-sensitive).' }),
    namespace: t.string({ required: false, description: 'Equals the namespace (case-sensitive).' }),
  }),
});

// The metadata of a key, shared by create and update; update adds nothing
// required, create requires the key.
const keyMetadataFields = (t: Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0]) => ({
  namespace: t.string({
    required: false,
    description: 'At most 128 characters; on update, moves the key ("" is the default namespace).',
  }),
  description: t.string({ required: false, description: 'At most 500 characters.' }),
  codeDescription: t.string({ required: false, description: 'At most 500 characters.' }),
  tags: t.stringList({
    required: false,
    description: 'At most 100 tags of at most 100 characters; blank and repeated tags are dropped.',
  }),
  charactersLimit: t.int({ required: false, description: 'A positive number of characters; -1 clears the limit.' }),
  lock: t.boolean({ required: false }),
  deprecated: t.boolean({ required: false }),
});

const CreateTranslationKeyInput = builder.inputType('CreateTranslationKeyInput', {
  description: 'A new key; null or empty namespace, description and codeDescription are ignored.',
  fields: (t) => ({
    key: t.string({ required: true, description: 'At most 500 characters, not blank.' }),
    ...keyMetadataFields(t),
  }),
});

const UpdateTranslationKeyInput = builder.inputType('UpdateTranslationKeyInput', {
  description: 'Changes to a key: absent or null fields stay unchanged.',
  fields: (t) => ({
    key: t.string({ required: false, description: 'Renames the key; at most 500 characters, not blank.' }),
    ...keyMetadataFields(t),
  }),
});

const TranslationKeyRefInput = builder.inputType('TranslationKeyRefInput', {
  fields: (t) => ({
    key: t.string({ required: true }),
    namespace: t.string({ required: false, description: 'Default: the empty namespace.' }),
  }),
});

/** The fields of a selection set, through its fragments. */
function fieldsOf(set: SelectionSetNode | undefined, info: GraphQLResolveInfo): FieldNode[] {
  const fields: FieldNode[] = [];
  const walk = (within: SelectionSetNode | undefined) => {
    for (const selection of within?.selections ?? []) {
      if (selection.kind === Kind.FIELD) fields.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else walk(info.fragments[selection.name.value]?.selectionSet);
    }
  };
  walk(set);
  return fields;
}

/**
 * The cells read with a page of the keys connection, for that page's key objects (its nodes) alone: they hold
 * only the columns the nodes' translations select (baseCellColumns), so they are not the request's cells
 * loader's, which any other field may read.
 */
const cellsWithPage = new WeakMap<object, CellView[]>();

/**
 * The columns of the cells the connection's nodes select through their translations, when they select them
 * without a customer (once at least): then the page's keys and those columns of their cells are read in one
 * statement (keyConnectionWithCells). The columns of every translations field count, a customer's too (its
 * customerKey may be null or empty when the operation runs); null when the cells are not read with the page.
 */
function baseCellColumns(info: GraphQLResolveInfo): CellColumn[] | null {
  const within = (fields: readonly FieldNode[], name: string) =>
    fields.flatMap((field) => fieldsOf(field.selectionSet, info).filter((f) => f.name.value === name));
  const translations = within(within(within(info.fieldNodes, 'edges'), 'node'), 'translations');
  if (!translations.some((field) => !field.arguments?.some((a) => a.name.value === 'customerKey'))) return null;
  const selected = new Set(
    translations.flatMap((field) => fieldsOf(field.selectionSet, info)).map((f) => f.name.value),
  );
  return CELL_COLUMNS.filter((column) => selected.has(column));
}

/** Whether Pothos's query for a selection of keys loads a relation (an include or select). */
function loadsRelations(selection: { include?: object; select?: object }): boolean {
  return Object.keys(selection.include ?? {}).length > 0 || selection.select !== undefined;
}

builder.queryFields((t) => ({
  translationKeys: t.prismaConnection({
    type: 'TranslationKey',
    cursor: 'id',
    defaultSize: KEY_PAGE.defaultSize,
    maxSize: KEY_PAGE.maxSize,
    description: 'The keys of the project as a connection, with exact filters and the contract sorts.',
    args: {
      projectToken: t.arg.string({ required: false }),
      filter: t.arg({ type: TranslationKeyFilter, required: false }),
      sort: t.arg({ type: TranslationKeySortEnum, required: false }),
    },
    resolve: async (query, _root, args, ctx, info) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('translationKeys'));
      const filter = args.filter ?? {};
      const { cursor, take, skip, ...selection } = query;
      const cursorId = cursor ? (cursor as { id: number }).id : undefined;
      // A selection without relations (the keys' own fields, their translations) is read in one statement of
      // ours, with the keys' cells when it selects them; Prisma reads the relations it loads (screenshots).
      if (!loadsRelations(selection)) {
        const request = { cursorId, take, skip };
        const columns = baseCellColumns(info);
        if (!columns) return keyConnectionRows(projectId, filter, args.sort, request);
        const page = await keyConnectionWithCells(projectId, filter, args.sort, request, columns);
        // The columns left out are those no field of these nodes reads.
        for (const { key, cells } of page) cellsWithPage.set(key, cells as CellView[]);
        return page.map(({ key }) => key);
      }
      const where = keyWhere(projectId, filter);
      // From either end of the list, Prisma's read is one index scan. From a cursor, its condition is no index
      // condition (it walks every key before the page): the page's ids are read along the sort's index
      // (keyConnectionIds), then those keys with what the query selects.
      if (cursorId === undefined)
        return prisma().translationKey.findMany({ ...query, where, orderBy: keyOrderBy(args.sort) });
      const ids = await keyConnectionIds(projectId, filter, args.sort, { cursorId, take, skip });
      if (!ids.length) return [];
      const keys = await prisma().translationKey.findMany({ ...selection, where: { id: { in: ids } } });
      const byId = new Map(keys.map((key) => [key.id, key]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    totalCount: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('translationKeys'));
      return prisma().translationKey.count({ where: keyWhere(projectId, args.filter ?? {}) });
    },
  }),
  translationKeyPage: t.field({
    type: TranslationKeyPageType,
    description: 'One page of keys with its metadata (the REST list).',
    args: {
      projectToken: t.arg.string({ required: false }),
      filter: t.arg({ type: TranslationKeyFilter, required: false }),
      sort: t.arg({ type: TranslationKeySortEnum, required: false }),
      page: t.arg.int({ required: false, description: 'From 0.' }),
      size: t.arg.int({
        required: false,
        description: `Default ${KEY_PAGE.defaultSize}, at most ${KEY_PAGE.maxSize}.`,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('translationKeyPage'));
      return listKeyPage(projectId, args.filter ?? {}, args.sort, args.page ?? 0, args.size ?? KEY_PAGE.defaultSize);
    },
  }),
  translationKey: t.prismaField({
    type: TranslationKeyType,
    args: {
      projectToken: t.arg.string({ required: false }),
      key: t.arg.string({ required: true }),
      namespace: t.arg.string({ required: false }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('translationKey'));
      const { id } = await keyOfProject(projectId, parseKeyAddress(args.key, args.namespace));
      return prisma().translationKey.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));

builder.mutationFields((t) => ({
  createTranslationKey: t.prismaField({
    type: TranslationKeyType,
    args: {
      projectToken: t.arg.string({ required: false }),
      input: t.arg({ type: CreateTranslationKeyInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('createTranslationKey'));
      const { id } = await createKey(projectId, args.input);
      return prisma().translationKey.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateTranslationKey: t.prismaField({
    type: TranslationKeyType,
    description:
      'Updates the key addressed by key and namespace (rename and move included); always records it as seen.',
    args: {
      projectToken: t.arg.string({ required: false }),
      key: t.arg.string({ required: true }),
      namespace: t.arg.string({ required: false }),
      input: t.arg({ type: UpdateTranslationKeyInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('updateTranslationKey'));
      const { id } = await updateKey(projectId, parseKeyAddress(args.key, args.namespace), args.input);
      return prisma().translationKey.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  deleteTranslationKey: t.boolean({
    description: 'Deletes a key with its translations.',
    args: {
      projectToken: t.arg.string({ required: false }),
      key: t.arg.string({ required: true }),
      namespace: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('deleteTranslationKey'));
      await deleteKeys(projectId, [parseKeyAddress(args.key, args.namespace)]);
      return true;
    },
  }),
  deleteTranslationKeys: t.int({
    description: 'Deletes keys with their translations, all or nothing; returns how many were deleted.',
    args: {
      projectToken: t.arg.string({ required: false }),
      translationKeys: t.arg({ type: [TranslationKeyRefInput], required: true }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('deleteTranslationKeys'));
      return deleteKeys(projectId, keyAddressesOf(args.translationKeys));
    },
  }),
}));

// Import and export of translation files: the importFile mutation (a file
// sent with the GraphQL multipart request spec, read by src/http/graphql-upload.ts), the
// exportTranslations mutation (it writes files, hence a mutation) and the list
// of formats. REST /api/v2/import, /api/v3/export and /api/v4/export run these.
import { GraphQLError } from 'graphql';
import { builder } from '../builder.js';
import type { FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { reportClientError, type DebugLogger } from '../transfer/client-report.js';
import { formatIds, registeredFormat } from '../formats/registry.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import { exportTranslations } from '../transfer/export.js';
import type { ExportedFile } from '../transfer/export-files.js';
import {
  importFile,
  previewImport,
  PREVIEW_LIST_LIMIT,
  type ImportPreview,
  type ImportRequest,
  type ImportResult,
  type KeyAddressRef,
  type KeyChanges,
  type PreviewRefusal,
} from '../transfer/import.js';
import { EXPORT_OPTIONS, EXPORT_SORTS, IMPORT_OPTIONS, type ImportOption } from '../transfer/options.js';
import { UploadedFile } from '../transfer/uploaded-file.js';

builder.scalarType('Upload', {
  description: 'A file sent as a part of a multipart request (GraphQL multipart request spec). Input only.',
  serialize: () => {
    throw new GraphQLError('Upload is an input-only scalar');
  },
  parseValue: (value) => {
    // The HTTP layer stores every uploaded file as an UploadedFile (a temp file) before the operation runs.
    if (!(value instanceof UploadedFile))
      throw new GraphQLError('Upload must be a file sent with the GraphQL multipart request spec');
    return value;
  },
  parseLiteral: () => {
    throw new GraphQLError('An Upload cannot be written in the query: send the file as a multipart request');
  },
});

/** A format id as a GraphQL enum name: single-language-json → SINGLE_LANGUAGE_JSON, xliff-1.2 → XLIFF_1_2. */
const formatEnumName = (id: string) => id.toUpperCase().replace(/[^A-Z0-9]/g, '_');

export const FormatIdEnum = builder.enumType('FormatId', {
  description:
    "A file format of import and export: the REST contract's uploadFormat / downloadFormat identifier in capitals, `-` and `.` as `_` (fileFormats lists them with both spellings).",
  values: Object.fromEntries(
    formatIds().map((id) => [formatEnumName(id), { value: id, description: registeredFormat(id)!.name }]),
  ),
});

export const ImportOptionEnum = builder.enumType('ImportOption', { values: IMPORT_OPTIONS });
export const ExportOptionEnum = builder.enumType('ExportOption', { values: EXPORT_OPTIONS });
export const ExportSortEnum = builder.enumType('ExportSort', {
  description: 'Order of the keys in exported files (default IMPORT_ORDER).',
  values: EXPORT_SORTS,
});

const FoundLanguageType = builder.objectRef<{ key: string; name: string }>('FoundLanguage').implement({
  fields: (t) => ({ key: t.exposeString('key'), name: t.exposeString('name') }),
});

export const ImportResultType = builder.objectRef<ImportResult>('ImportResult').implement({
  description: 'What an import found in the file and what it wrote.',
  fields: (t) => ({
    numberOfKeysFound: t.exposeInt('numberOfKeysFound', { description: 'Key entries in the file.' }),
    numberOfUniqueKeysFound: t.exposeInt('numberOfUniqueKeysFound', {
      description: 'Distinct (namespace, key) pairs in the file.',
    }),
    foundLanguages: t.field({ type: [FoundLanguageType], resolve: (r) => r.foundLanguages }),
    keysCreated: t.exposeInt('keysCreated'),
    languagesCreated: t.exposeStringList('languagesCreated'),
    translationsInserted: t.exposeInt('translationsInserted'),
    translationsUpdated: t.exposeInt('translationsUpdated', {
      description: 'Existing translations changed (REPLACE_TRANSLATION_IF_FOUND).',
    }),
    keysDeleted: t.exposeInt('keysDeleted', {
      description: 'Keys of the uploaded scope the file lacks, deleted with DELETE_NOT_PRESENT_KEYS.',
    }),
    translationsRefused: t.exposeInt('translationsRefused', {
      description:
        'Translations of the file not written because their key is locked or the text exceeds its charactersLimit (see warnings).',
    }),
    published: t.exposeBoolean('published', {
      description:
        'True when PUBLISH_AFTER_IMPORT published _latest; false with a warning when publishing failed (the import stays committed).',
    }),
    warnings: t.exposeStringList('warnings', {
      description:
        'Refused translations (one line per reason, with counts) and a failed PUBLISH_AFTER_IMPORT; empty when there is nothing to report.',
    }),
  }),
});

const ImportedKeyType = builder.objectRef<KeyAddressRef>('ImportedKey').implement({
  fields: (t) => ({ key: t.exposeString('key'), namespace: t.exposeString('namespace') }),
});

const KeyChangesType = builder.objectRef<KeyChanges>('ImportKeyChanges').implement({
  description: `Keys an import would create or delete: the exact count, and the first ${PREVIEW_LIST_LIMIT} by name (import order).`,
  fields: (t) => ({
    count: t.exposeInt('count'),
    keys: t.field({ type: [ImportedKeyType], resolve: (c) => c.keys }),
  }),
});

const RefusalReasonEnum = builder.enumType('RefusalReason', {
  description:
    "Why the write gate refuses a translation: its key is locked, or the text is longer than the key's charactersLimit.",
  values: ['LOCKED', 'CHARACTERS_LIMIT'] as const,
});

const ImportRefusalType = builder.objectRef<PreviewRefusal>('ImportRefusal').implement({
  description: 'A translation of the file that the import would not write.',
  fields: (t) => ({
    key: t.exposeString('key'),
    namespace: t.exposeString('namespace'),
    language: t.exposeString('language'),
    reason: t.expose('reason', { type: RefusalReasonEnum }),
    message: t.exposeString('message', { description: 'The refusal as a sentence.' }),
  }),
});

export const ImportPreviewType = builder.objectRef<ImportPreview>('ImportPreview').implement({
  description:
    'What importFile would change with the same arguments; computed by running the import and rolling it back.',
  fields: (t) => ({
    numberOfKeysFound: t.exposeInt('numberOfKeysFound'),
    numberOfUniqueKeysFound: t.exposeInt('numberOfUniqueKeysFound'),
    foundLanguages: t.field({ type: [FoundLanguageType], resolve: (r) => r.foundLanguages }),
    languagesToCreate: t.exposeStringList('languagesToCreate'),
    keysToCreate: t.field({ type: KeyChangesType, resolve: (r) => r.keysToCreate }),
    keysToDelete: t.field({
      type: KeyChangesType,
      description: 'DELETE_NOT_PRESENT_KEYS.',
      resolve: (r) => r.keysToDelete,
    }),
    translationsToInsert: t.exposeInt('translationsToInsert'),
    translationsToUpdate: t.exposeInt('translationsToUpdate'),
    translationsToRefuse: t.exposeInt('translationsToRefuse', {
      description: 'Translations the import would refuse (locked key, over the charactersLimit): exact.',
    }),
    refusals: t.field({
      type: [ImportRefusalType],
      description: 'The first 100 refused translations, each with its reason.',
      resolve: (r) => r.refusals,
    }),
    warnings: t.exposeStringList('warnings', {
      description: "The refusals as importFile's warnings word them (one line per reason).",
    }),
  }),
});

export const ExportedFileType = builder.objectRef<ExportedFile>('ExportedFile').implement({
  description: 'A file of an export, downloadable without credentials from its url until it expires.',
  fields: (t) => ({
    url: t.exposeString('url'),
    fileName: t.exposeString('fileName'),
    contentType: t.exposeString('contentType'),
    size: t.exposeInt('size', { description: 'Bytes.' }),
    language: t.exposeString('language', { nullable: true, description: 'Set when the file holds one language.' }),
    namespace: t.exposeString('namespace', {
      nullable: true,
      description: 'Set when the export is split by namespace ("" is the default namespace).',
    }),
    customer: t.exposeString('customer', {
      nullable: true,
      description:
        'Set when the export is split by customer (SPLIT_BY_CUSTOMERS): the key of the customer whose texts, merged over the base, the file holds.',
    }),
    remotePath: t.exposeString('remotePath', {
      description:
        "Where the official client writes the file (`{remotePath}`): the file path recorded (INCLUDE_FILE_PATH) on the file's keys when they all have the same one, else the file's name.",
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

const ExportResultType = builder.objectRef<{ files: ExportedFile[]; zip?: ExportedFile }>('ExportResult').implement({
  fields: (t) => ({
    files: t.field({ type: [ExportedFileType], resolve: (r) => r.files }),
    zip: t.field({
      type: ExportedFileType,
      nullable: true,
      description: 'With withZip and several files: the same files in one zip (customers and namespaces as folders).',
      resolve: (r) => r.zip ?? null,
    }),
  }),
});

const FileFormatType = builder.objectRef<string>('FileFormat').implement({
  description: 'A file format of import and export.',
  fields: (t) => ({
    id: t.string({
      description: 'The uploadFormat / downloadFormat identifier of the REST contract.',
      resolve: (id) => id,
    }),
    format: t.field({
      type: FormatIdEnum,
      description: 'The same format as the GraphQL enum value.',
      resolve: (id) => id,
    }),
    name: t.string({ description: "The format's name for people.", resolve: (id) => registeredFormat(id)!.name }),
    multiLanguage: t.boolean({ resolve: (id) => registeredFormat(id)!.format.multiLanguage }),
    extension: t.string({ resolve: (id) => registeredFormat(id)!.format.extension }),
    contentType: t.string({ resolve: (id) => registeredFormat(id)!.format.contentType }),
    languageInFile: t.boolean({
      description:
        'A single-language file that may name its own language (PO Language header, Qt, ARB @@locale, XLIFF): languageKey is optional on import.',
      resolve: (id) => {
        const f = registeredFormat(id)!;
        return f.languageInFile === true || f.bilingual === true;
      },
    }),
    multiLanguageLayouts: t.boolean({
      description: 'A single-language format whose MULTI_LANGUAGE / LANGUAGES_NESTED layouts hold several languages.',
      resolve: (id) => registeredFormat(id)!.multiLanguageLayouts === true,
    }),
  }),
});

builder.queryFields((t) => ({
  fileFormats: t.field({
    type: [FileFormatType],
    description: 'The formats of import and export.',
    resolve: () => formatIds(),
  }),
}));

/** The Fastify request logger of the operation: GraphQL over HTTP (req) or a REST route (restRequest.raw). */
function requestLog(ctx: Context): DebugLogger | undefined {
  const initial = ctx as Context & { req?: FastifyRequest; restRequest?: { raw?: FastifyRequest } };
  return initial.req?.log ?? initial.restRequest?.raw?.log;
}

interface ImportArgs {
  projectToken?: string | null;
  file: UploadedFile;
  uploadFormat: string;
  importOptions?: readonly ImportOption[] | null;
  languageKey?: string | null;
  customerKey?: string | null;
  namespace?: string | null;
  tags?: readonly string[] | null;
  filePath?: string | null;
}

builder.mutationFields((t) => {
  /** The arguments of importFile and previewImport. */
  const importArgs = {
    projectToken: t.arg.string({ required: false }),
    file: t.arg({ type: 'Upload', required: true }),
    uploadFormat: t.arg({ type: FormatIdEnum, required: true }),
    importOptions: t.arg({ type: [ImportOptionEnum], required: false }),
    languageKey: t.arg.string({ required: false, description: 'Language of a single-language file.' }),
    customerKey: t.arg.string({
      required: false,
      description: "An existing customer: the file's texts become its overrides.",
    }),
    namespace: t.arg.string({
      required: false,
      description: 'Namespace of keys the file gives none; with DELETE_NOT_PRESENT_KEYS, the scope of the deletion.',
    }),
    tags: t.arg.stringList({ required: false, description: 'Tags added to every key of the file.' }),
    filePath: t.arg.string({
      required: false,
      description:
        'Path of the file on the client; recorded on its keys with INCLUDE_FILE_PATH (exports give it back as remotePath).',
    }),
  };
  const importRequestOf = async (args: ImportArgs, ctx: Context): Promise<ImportRequest> => {
    return {
      projectId: await resolveProject(ctx.principal, args.projectToken, need('importFile')),
      uploadFormat: args.uploadFormat,
      file: args.file,
      options: args.importOptions ?? [],
      languageKey: args.languageKey,
      customerKey: args.customerKey,
      namespace: args.namespace,
      tags: args.tags,
      filePath: args.filePath,
      maxUploadBytes: ctx.config.maxUploadBytes,
      chunkCells: ctx.config.importChunkCells,
    };
  };
  return {
    importFile: t.field({
      type: ImportResultType,
      description: 'Imports a translation file into the project, as one transaction (docs/import-export.md).',
      args: importArgs,
      resolve: async (_root, args, ctx) => importFile(await importRequestOf(args, ctx)),
    }),
    previewImport: t.field({
      type: ImportPreviewType,
      description:
        'What importFile would change with the same arguments, changing nothing (the import runs in a transaction that is rolled back).',
      args: importArgs,
      resolve: async (_root, args, ctx) => previewImport(await importRequestOf(args, ctx)),
    }),
    reportClientError: t.boolean({
      description:
        "Accepts the official command-line client's failure report (POST /cli/v1/stacktrace) and logs it at debug level; nothing is stored.",
      args: {
        configuration: t.arg.string({ required: false }),
        message: t.arg.string({ required: false }),
        stacktrace: t.arg.string({ required: false }),
      },
      resolve: async (_root, args, ctx) => {
        const projectId = await resolveProject(ctx.principal, null, need('reportClientError'));
        return reportClientError(args, requestLog(ctx), projectId);
      },
    }),
    exportTranslations: t.field({
      type: ExportResultType,
      description:
        'Writes the translations to files of a format; each file is downloaded from its url (docs/import-export.md).',
      args: {
        projectToken: t.arg.string({ required: false }),
        downloadFormat: t.arg({ type: FormatIdEnum, required: true }),
        downloadOptions: t.arg({ type: [ExportOptionEnum], required: false }),
        languageKeys: t.arg.stringList({
          required: false,
          description: 'Languages to export (SELECTED_LANGUAGES); all when omitted.',
        }),
        customerKey: t.arg.string({
          required: false,
          description: 'A customer whose overrides replace the base texts.',
        }),
        namespace: t.arg.string({ required: false, description: 'Only the keys of this namespace.' }),
        tags: t.arg.stringList({ required: false, description: 'Only the keys with at least one of these tags.' }),
        sort: t.arg({ type: ExportSortEnum, required: false }),
        singleFile: t.arg.boolean({
          required: false,
          description: 'Zip the files when there are several (the deprecated v3 export).',
        }),
        withZip: t.arg.boolean({
          required: false,
          description: 'Besides the files, store them zipped into one (ExportResult.zip) when there are several.',
        }),
      },
      resolve: async (_root, args, ctx) => {
        const projectId = await resolveProject(ctx.principal, args.projectToken, need('exportTranslations'));
        return exportTranslations({
          projectId,
          downloadFormat: args.downloadFormat,
          options: args.downloadOptions ?? [],
          languageKeys: args.languageKeys,
          customerKey: args.customerKey,
          namespace: args.namespace,
          tags: args.tags,
          sort: args.sort,
          singleFile: args.singleFile ?? false,
          withZip: args.withZip ?? false,
          config: ctx.config,
        });
      },
    }),
  };
});

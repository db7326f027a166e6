// Import and export of translation files: the importFile mutation (a file
// sent with the GraphQL multipart request spec, read by src/http/graphql-upload.ts), the
// exportTranslations mutation (it writes files, hence a mutation) and the list
// of formats. REST /api/v2/import, /api/v3/export and /api/v4/export run these.
import { GraphQLError } from 'graphql';
import { builder } from '../builder.js';
import { formatIds, registeredFormat } from '../formats/registry.js';
import { resolveProject } from '../projects/access.js';
import { exportTranslations } from '../transfer/export.js';
import type { ExportedFile } from '../transfer/export-files.js';
import { importFile, type ImportResult } from '../transfer/import.js';
import { EXPORT_OPTIONS, EXPORT_SORTS, IMPORT_OPTIONS } from '../transfer/options.js';

const isBlob = (value: unknown): value is Blob =>
  typeof value === 'object' && value !== null && typeof (value as Blob).arrayBuffer === 'function' && typeof (value as Blob).size === 'number';

builder.scalarType('Upload', {
  description: 'A file sent as a part of a multipart request (GraphQL multipart request spec). Input only.',
  serialize: () => {
    throw new GraphQLError('Upload is an input-only scalar');
  },
  parseValue: (value) => {
    if (!isBlob(value)) throw new GraphQLError('Upload must be a file sent with the GraphQL multipart request spec');
    return value;
  },
  parseLiteral: () => {
    throw new GraphQLError('An Upload cannot be written in the query: send the file as a multipart request');
  },
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

const ImportResultType = builder.objectRef<ImportResult>('ImportResult').implement({
  description: 'What an import found in the file and what it wrote.',
  fields: (t) => ({
    numberOfKeysFound: t.exposeInt('numberOfKeysFound', { description: 'Key entries in the file.' }),
    numberOfUniqueKeysFound: t.exposeInt('numberOfUniqueKeysFound', { description: 'Distinct (namespace, key) pairs in the file.' }),
    foundLanguages: t.field({ type: [FoundLanguageType], resolve: (r) => r.foundLanguages }),
    keysCreated: t.exposeInt('keysCreated'),
    languagesCreated: t.exposeStringList('languagesCreated'),
    translationsInserted: t.exposeInt('translationsInserted'),
    translationsUpdated: t.exposeInt('translationsUpdated', { description: 'Existing translations changed (REPLACE_TRANSLATION_IF_FOUND).' }),
    published: t.exposeBoolean('published', { description: 'True when PUBLISH_AFTER_IMPORT published _latest.' }),
  }),
});

const ExportedFileType = builder.objectRef<ExportedFile>('ExportedFile').implement({
  description: 'A file of an export, downloadable without credentials from its url until it expires.',
  fields: (t) => ({
    url: t.exposeString('url'),
    fileName: t.exposeString('fileName'),
    contentType: t.exposeString('contentType'),
    size: t.exposeInt('size', { description: 'Bytes.' }),
    language: t.exposeString('language', { nullable: true, description: 'Set when the file holds one language.' }),
    namespace: t.exposeString('namespace', { nullable: true, description: 'Set when the export is split by namespace ("" is the default namespace).' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

const ExportResultType = builder.objectRef<{ files: ExportedFile[] }>('ExportResult').implement({
  fields: (t) => ({ files: t.field({ type: [ExportedFileType], resolve: (r) => r.files }) }),
});

const FileFormatType = builder.objectRef<string>('FileFormat').implement({
  description: 'A file format of import and export.',
  fields: (t) => ({
    id: t.string({ description: 'The uploadFormat / downloadFormat identifier.', resolve: (id) => id }),
    name: t.string({ description: 'The format\'s name for people.', resolve: (id) => registeredFormat(id)!.name }),
    multiLanguage: t.boolean({ resolve: (id) => registeredFormat(id)!.format.multiLanguage }),
    extension: t.string({ resolve: (id) => registeredFormat(id)!.format.extension }),
    contentType: t.string({ resolve: (id) => registeredFormat(id)!.format.contentType }),
  }),
});

builder.queryFields((t) => ({
  fileFormats: t.field({
    type: [FileFormatType],
    description: 'The formats of import and export.',
    resolve: () => formatIds(),
  }),
}));

builder.mutationFields((t) => ({
  importFile: t.field({
    type: ImportResultType,
    description: 'Imports a translation file into the project, as one transaction (docs/import-export.md).',
    args: {
      projectToken: t.arg.string({ required: false }),
      file: t.arg({ type: 'Upload', required: true }),
      uploadFormat: t.arg.string({ required: true }),
      importOptions: t.arg({ type: [ImportOptionEnum], required: false }),
      languageKey: t.arg.string({ required: false, description: 'Language of a single-language file.' }),
      customerId: t.arg.string({ required: false, description: "Key of an existing customer: the file's texts become its overrides." }),
      namespace: t.arg.string({ required: false, description: 'Namespace of keys the file gives none.' }),
      tags: t.arg.stringList({ required: false, description: 'Tags added to every key of the file.' }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken);
      const maxUploadBytes = ctx.config.maxUploadBytes;
      const { file } = args;
      return importFile({
        projectId,
        uploadFormat: args.uploadFormat,
        file: { size: file.size, bytes: async () => Buffer.from(await file.arrayBuffer()) },
        options: args.importOptions ?? [],
        languageKey: args.languageKey,
        customerKey: args.customerId,
        namespace: args.namespace,
        tags: args.tags,
        maxUploadBytes,
      });
    },
  }),
  exportTranslations: t.field({
    type: ExportResultType,
    description: 'Writes the translations to files of a format; each file is downloaded from its url (docs/import-export.md).',
    args: {
      projectToken: t.arg.string({ required: false }),
      downloadFormat: t.arg.string({ required: true }),
      downloadOptions: t.arg({ type: [ExportOptionEnum], required: false }),
      languageKeys: t.arg.stringList({ required: false, description: 'Languages to export (SELECTED_LANGUAGES); all when omitted.' }),
      customerId: t.arg.string({ required: false, description: "Key of a customer whose overrides replace the base texts." }),
      sort: t.arg({ type: ExportSortEnum, required: false }),
      singleFile: t.arg.boolean({ required: false, description: 'Zip the files when there are several (the deprecated v3 export).' }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken);
      const files = await exportTranslations({
        projectId,
        downloadFormat: args.downloadFormat,
        options: args.downloadOptions ?? [],
        languageKeys: args.languageKeys,
        customerKey: args.customerId,
        sort: args.sort,
        singleFile: args.singleFile ?? false,
        config: ctx.config,
      });
      return { files };
    },
  }),
}));

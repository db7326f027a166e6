// Import (v2, multipart) and export (v4, deprecated v3) of translation files,
// executed as the importFile / exportTranslations GraphQL operations. The
// uploaded file (a temp file, rest-compat/upload.ts) is the Upload variable, in process.
import type { GraphQLSchema } from 'graphql';
import { enumList, enumValue, formatParam, optionalQuery, queryList, queryString, requiredQuery } from '../params.js';
import { CUSTOMER_ID_NAMING } from '../variables.js';
import { defineRoute, type JsonSchema, type RestRequest, type RestRoute } from '../route.js';
import { optionalFields } from '../openapi-schema.js';

const FORMAT_DESCRIPTION = 'The file format, e.g. multi-language-json (docs/import-export.md lists them)';

const optionalString: JsonSchema = { type: 'string' };

const IMPORT = `mutation RestImport($file: Upload!, $uploadFormat: FormatId!, $importOptions: [ImportOption!], $languageKey: String,
  $customerKey: String, $namespace: String, $tags: [String!], $filePath: String) {
  importFile(file: $file, uploadFormat: $uploadFormat, importOptions: $importOptions, languageKey: $languageKey,
    customerKey: $customerKey, namespace: $namespace, tags: $tags, filePath: $filePath) {
    numberOfKeysFound numberOfUniqueKeysFound foundLanguages { key name } keysDeleted translationsRefused warnings
  }
}`;

const EXPORT = `mutation RestExport($downloadFormat: FormatId!, $downloadOptions: [ExportOption!], $languageKeys: [String!],
  $customerKey: String, $namespace: String, $tags: [String!], $sort: ExportSort, $singleFile: Boolean) {
  exportTranslations(downloadFormat: $downloadFormat, downloadOptions: $downloadOptions, languageKeys: $languageKeys,
    customerKey: $customerKey, namespace: $namespace, tags: $tags, sort: $sort, singleFile: $singleFile) {
    files { url namespace language customer }
  }
}`;

interface ExportData {
  exportTranslations: {
    files: { url: string; namespace: string | null; language: string | null; customer: string | null }[];
  };
}

interface ImportData {
  importFile: {
    numberOfKeysFound: number;
    numberOfUniqueKeysFound: number;
    foundLanguages: { key: string; name: string }[];
    keysDeleted: number;
    translationsRefused: number;
    warnings: string[];
  };
}

const optional = (req: RestRequest, name: string) => optionalQuery(req.query, name);
const format = (req: RestRequest, schema: GraphQLSchema, param: 'uploadFormat' | 'downloadFormat') =>
  formatParam(schema, param, requiredQuery(req.query, param));

export const routes: RestRoute[] = [
  defineRoute<ImportData>({
    method: 'POST',
    path: '/api/v2/import',
    auth: 'apiKey',
    summary: 'Import a translation file (multipart form field `file`)',
    multipart: true,
    query: [
      { name: 'uploadFormat', required: true, description: FORMAT_DESCRIPTION },
      { name: 'importOptions', list: true, enum: 'ImportOption' },
      { name: 'languageKey', description: 'The language of a single-language file' },
      { name: 'customerId' },
      { name: 'namespace' },
      { name: 'tags', list: true, description: 'Tags given to the keys found' },
      { name: 'path', description: "The file's path (INCLUDE_FILE_PATH)" },
    ],
    response: { data: (selected) => optionalFields(selected, ['keysDeleted', 'translationsRefused', 'warnings']) },
    document: IMPORT,
    naming: CUSTOMER_ID_NAMING,
    toVariables: (req, schema) => {
      const uploadFormat = format(req, schema, 'uploadFormat');
      return {
        // The uploaded file (a temp file, rest-compat/upload.ts) is the Upload variable as it is.
        file: req.file!,
        uploadFormat,
        importOptions: enumList(schema, 'ImportOption', 'importOptions', queryList(req.query, 'importOptions')),
        languageKey: optional(req, 'languageKey'),
        customerKey: optional(req, 'customerId'),
        namespace: optional(req, 'namespace'),
        tags: queryList(req.query, 'tags'),
        // INCLUDE_FILE_PATH: the file's path, as the command-line client names it.
        filePath: optional(req, 'path'),
      };
    },
    // The contract's Import result; keysDeleted only when DELETE_NOT_PRESENT_KEYS asked for deletions;
    // translationsRefused and warnings beside them only when there is something to report (refused
    // translations, a failed PUBLISH_AFTER_IMPORT: the import is committed either way).
    toResponse: ({ importFile: { keysDeleted, translationsRefused, warnings, ...result } }, req) => ({
      data: {
        ...result,
        ...(queryList(req.query, 'importOptions').some((o) => o.toUpperCase() === 'DELETE_NOT_PRESENT_KEYS') && {
          keysDeleted,
        }),
        ...(warnings.length > 0 && { translationsRefused, warnings }),
      },
    }),
  }),
  defineRoute<ExportData>({
    method: 'GET',
    path: '/api/v4/export',
    auth: 'apiKey',
    summary: 'Export translations to files; each is downloaded from its url',
    query: [
      { name: 'downloadFormat', required: true, description: FORMAT_DESCRIPTION },
      { name: 'downloadOptions', list: true, enum: 'ExportOption' },
      { name: 'languageKeys', list: true, description: 'Languages to export (with SELECTED_LANGUAGES)' },
      { name: 'customerId' },
      { name: 'namespace' },
      { name: 'tags', list: true },
      { name: 'sort', enum: 'ExportSort' },
    ],
    response: {
      data: {
        type: 'object',
        properties: {
          files: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                url: { type: 'string' },
                namespace: optionalString,
                language: optionalString,
                customer: optionalString,
              },
              required: ['url'],
              additionalProperties: false,
            },
          },
        },
        required: ['files'],
        additionalProperties: false,
      },
    },
    document: EXPORT,
    naming: CUSTOMER_ID_NAMING,
    toVariables: (req, schema) => ({
      downloadFormat: format(req, schema, 'downloadFormat'),
      downloadOptions: enumList(schema, 'ExportOption', 'downloadOptions', queryList(req.query, 'downloadOptions')),
      languageKeys: queryList(req.query, 'languageKeys'),
      customerKey: optional(req, 'customerId'),
      namespace: optional(req, 'namespace'),
      tags: queryList(req.query, 'tags'),
      sort: enumValue(schema, 'ExportSort', 'sort', queryString(req.query, 'sort')),
    }),
    toResponse: (data) => ({
      data: {
        files: data.exportTranslations.files.map((f) => ({
          url: f.url,
          ...(f.namespace !== null && { namespace: f.namespace }),
          ...(f.language !== null && { language: f.language }),
          ...(f.customer !== null && { customer: f.customer }),
        })),
      },
    }),
  }),
  defineRoute<ExportData>({
    method: 'GET',
    path: '/api/v3/export',
    auth: 'apiKey',
    deprecated: true,
    summary: 'Export translations to one file (deprecated: use /api/v4/export)',
    query: [
      { name: 'downloadFormat', required: true, description: FORMAT_DESCRIPTION },
      { name: 'exportOptions', list: true, enum: 'ExportOption' },
      { name: 'languageKey', description: 'The one language to export' },
      { name: 'customerId' },
      { name: 'sort', enum: 'ExportSort' },
    ],
    response: {
      data: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'], additionalProperties: false },
    },
    document: EXPORT,
    naming: CUSTOMER_ID_NAMING,
    toVariables: (req, schema) => {
      const languageKey = optional(req, 'languageKey');
      return {
        downloadFormat: format(req, schema, 'downloadFormat'),
        downloadOptions: enumList(schema, 'ExportOption', 'exportOptions', queryList(req.query, 'exportOptions')),
        languageKeys: languageKey ? [languageKey] : [],
        customerKey: optional(req, 'customerId'),
        sort: enumValue(schema, 'ExportSort', 'sort', queryString(req.query, 'sort')),
        singleFile: true,
      };
    },
    toResponse: (data) => ({ data: { url: data.exportTranslations.files[0]!.url } }),
  }),
];

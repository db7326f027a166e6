// The official command-line client's own calls under /cli (spec/real-clients.md),
// declared like every route over the GraphQL operations the contract's
// endpoints use: upload = importFile (the engine of /api/v2/import),
// upload-preview = previewImport (the same import, rolled back), download =
// exportTranslations (the engine of /api/v4/export), stacktrace =
// reportClientError.
//
// The client joins its query strings by hand: values are not URL-encoded and
// lists are comma-joined, so the query is read from the raw URL (rawQuery).
// It treats anything but 200 as failure and shows `msg`; its download reads
// `files` at the root of the body.
import type { GraphQLSchema } from 'graphql';
import { badRequest } from '../../src/errors.js';
import { DEFAULT_NAMESPACE_FILE_NAME } from '../../src/transfer/file-names.js';
import {
  bodyFields,
  enumList,
  enumValue,
  formatParam,
  optionalQuery,
  queryList,
  rawQuery,
  requiredQuery,
} from '../params.js';
import { CUSTOMER_ID_NAMING } from '../variables.js';
import { defineRoute, type QueryParameter, type RestRequest, type RestRoute } from '../route.js';

const UPLOAD_QUERY: QueryParameter[] = [
  {
    name: 'uploadFormat',
    required: true,
    description: 'The file format, e.g. multi-language-json (docs/import-export.md lists them)',
  },
  { name: 'uploadOptions', list: true, enum: 'ImportOption' },
  { name: 'languageKey', description: 'The language of a single-language file' },
  { name: 'customerId' },
  { name: 'namespace' },
  { name: 'tags', list: true, description: 'Tags given to the keys found' },
  { name: 'path', description: "The file's path (INCLUDE_FILE_PATH)" },
  { name: 'fileName', description: "The file's name (default: the multipart part's)" },
];

const IMPORT_VARIABLES = `$file: Upload!, $uploadFormat: FormatId!, $importOptions: [ImportOption!], $languageKey: String,
  $customerKey: String, $namespace: String, $tags: [String!], $filePath: String`;
const IMPORT_ARGUMENTS = `file: $file, uploadFormat: $uploadFormat, importOptions: $importOptions, languageKey: $languageKey,
    customerKey: $customerKey, namespace: $namespace, tags: $tags, filePath: $filePath`;

const UPLOAD = `mutation CliUpload(${IMPORT_VARIABLES}) {
  importFile(${IMPORT_ARGUMENTS}) {
    numberOfKeysFound numberOfUniqueKeysFound foundLanguages { key name }
    keysCreated keysDeleted languagesCreated translationsInserted translationsUpdated published
  }
}`;

const PREVIEW = `mutation CliUploadPreview(${IMPORT_VARIABLES}) {
  previewImport(${IMPORT_ARGUMENTS}) {
    numberOfKeysFound numberOfUniqueKeysFound foundLanguages { key name }
    languagesToCreate
    keysToCreate { count keys { key namespace } }
    keysToDelete { count keys { key namespace } }
    translationsToInsert translationsToUpdate
  }
}`;

const DOWNLOAD = `mutation CliDownload($downloadFormat: FormatId!, $downloadOptions: [ExportOption!], $languageKeys: [String!],
  $customerKey: String, $namespace: String, $tags: [String!], $sort: ExportSort) {
  exportTranslations(downloadFormat: $downloadFormat, downloadOptions: $downloadOptions, languageKeys: $languageKeys,
    customerKey: $customerKey, namespace: $namespace, tags: $tags, sort: $sort) {
    files { url language namespace customer remotePath }
  }
}`;

const STACKTRACE = `mutation CliStacktrace($configuration: String, $message: String, $stacktrace: String) {
  reportClientError(configuration: $configuration, message: $message, stacktrace: $stacktrace)
}`;

type ExportedFile = {
  url: string;
  language: string | null;
  namespace: string | null;
  customer: string | null;
  remotePath: string;
};

/**
 * The client's namespace parameter: its `{ns}` gives the default namespace's
 * files the name `_default` (the name downloads give them), read back here as
 * the default namespace.
 */
function namespaceParam(query: ReturnType<typeof queryOf>): string | undefined {
  const namespace = optional(query, 'namespace');
  return namespace === DEFAULT_NAMESPACE_FILE_NAME ? '' : namespace;
}

/** The query as the client sent it. */
const queryOf = (req: RestRequest) => rawQuery(req.raw.url);

const required = requiredQuery;
const optional = optionalQuery;

/** The variables of importFile / previewImport from an upload request. */
function uploadVariables(req: RestRequest, schema: GraphQLSchema): Record<string, unknown> {
  const query = queryOf(req);
  const uploadFormat = formatParam(schema, 'uploadFormat', required(query, 'uploadFormat'));
  if (optional(query, 'translationKey')) {
    throw badRequest(
      'translationKey (a whole file as the text of one key) is not supported by this service; upload translation files',
    );
  }
  const upload = req.file!;
  // The client names the file in `fileName` (the part's filename is the same).
  const fileName = optional(query, 'fileName') ?? upload.name;
  return {
    // The same temp file under the client's name; the client's part Content-Type may be the text `null`.
    file: upload.describedAs(fileName, upload.type === 'null' ? '' : upload.type),
    uploadFormat,
    importOptions: enumList(schema, 'ImportOption', 'uploadOptions', queryList(query, 'uploadOptions')),
    languageKey: optional(query, 'languageKey'),
    customerKey: optional(query, 'customerId'),
    namespace: namespaceParam(query),
    tags: queryList(query, 'tags'),
    filePath: optional(query, 'path'),
  };
}

export const routes: RestRoute[] = [
  defineRoute<{ importFile: unknown }>({
    method: 'POST',
    path: '/cli/v2/upload',
    auth: 'apiKey',
    summary:
      "The command-line client's upload: import one file (multipart form field `file`); the engine of /api/v2/import",
    multipart: true,
    query: UPLOAD_QUERY,
    document: UPLOAD,
    naming: CUSTOMER_ID_NAMING,
    toVariables: uploadVariables,
    toResponse: (data) => ({ data: data.importFile }),
  }),
  defineRoute<{ previewImport: unknown }>({
    method: 'POST',
    path: '/cli/v2/upload-preview',
    auth: 'apiKey',
    summary: "The command-line client's upload --preview: what the upload would change, writing nothing",
    multipart: true,
    query: UPLOAD_QUERY,
    document: PREVIEW,
    naming: CUSTOMER_ID_NAMING,
    toVariables: uploadVariables,
    toResponse: (data) => ({ data: data.previewImport }),
  }),
  defineRoute<{ exportTranslations: { files: ExportedFile[] } }>({
    method: 'GET',
    path: '/cli/v2/download',
    auth: 'apiKey',
    summary:
      "The command-line client's download: export to files, listed in `files` at the root of the body; the engine of /api/v4/export",
    query: [
      {
        name: 'downloadFormat',
        required: true,
        description: 'The file format, e.g. multi-language-json (docs/import-export.md lists them)',
      },
      { name: 'downloadOptions', list: true, enum: 'ExportOption' },
      { name: 'languageKey', list: true, description: 'Languages to export' },
      { name: 'customerId' },
      { name: 'namespace' },
      { name: 'tags', list: true },
      { name: 'sort', enum: 'ExportSort' },
    ],
    response: {
      root: {
        files: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              url: { type: 'string' },
              language: { type: ['string', 'null'] },
              namespace: { type: ['string', 'null'] },
              customer: { type: ['string', 'null'] },
              translationKey: { type: 'null' },
              remotePath: { type: 'string' },
            },
            required: ['url', 'language', 'namespace', 'customer', 'translationKey', 'remotePath'],
            additionalProperties: false,
          },
        },
      },
    },
    document: DOWNLOAD,
    naming: CUSTOMER_ID_NAMING,
    toVariables: (req, schema) => {
      const query = queryOf(req);
      return {
        downloadFormat: formatParam(schema, 'downloadFormat', required(query, 'downloadFormat')),
        downloadOptions: enumList(schema, 'ExportOption', 'downloadOptions', queryList(query, 'downloadOptions')),
        languageKeys: queryList(query, 'languageKey'),
        customerKey: optional(query, 'customerId'),
        namespace: namespaceParam(query),
        tags: queryList(query, 'tags'),
        sort: enumValue(schema, 'ExportSort', 'sort', optional(query, 'sort')),
      };
    },
    toResponse: (data) => ({
      root: {
        files: data.exportTranslations.files.map((f) => ({
          url: f.url,
          language: f.language,
          // The client fills `{ns}` from it: the default namespace's file needs a name.
          namespace: f.namespace === '' ? DEFAULT_NAMESPACE_FILE_NAME : f.namespace,
          customer: f.customer,
          // One file per key (the client's {translationKey}) is not a feature of this service.
          translationKey: null,
          remotePath: f.remotePath,
        })),
      },
    }),
  }),
  defineRoute<{ reportClientError: boolean }>({
    method: 'POST',
    path: '/cli/v1/stacktrace',
    auth: 'apiKey',
    summary: "The command-line client's failure report {configuration, message, stacktrace}: logged at debug level",
    body: {
      type: 'object',
      properties: { configuration: { type: 'string' }, message: { type: 'string' }, stacktrace: { type: 'string' } },
    },
    bodyRequired: false,
    response: { data: null },
    document: STACKTRACE,
    toVariables: (req) => {
      // The operation's String variables refuse a value of another type in words (variables.ts).
      return bodyFields(req.body, ['configuration', 'message', 'stacktrace']);
    },
    toResponse: () => ({}),
  }),
];

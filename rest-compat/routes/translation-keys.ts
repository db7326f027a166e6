// /api/v1/translation-keys (project API key): list (a page with metadata),
// create, update and delete keys. Keys are addressed by the query parameters
// key and namespace (default: the empty namespace).
import { bodyFields, bodyList, bodyObject, enumValue, queryInt, queryString } from '../params.js';
import { defineRoute, type QueryParameter, type RestRequest, type RestRoute } from '../route.js';

const ADDRESS_QUERY: QueryParameter[] = [
  { name: 'key', required: true, maxLength: 500 },
  { name: 'namespace', maxLength: 128, default: '' },
];

const KEY_FIELDS = `fragment RestTranslationKey on TranslationKey {
  key namespace description codeDescription tags charactersLimit lock deprecated lastSeenAt modifiedAt createdAt deprecatedAt
}`;

const INPUT_FIELDS = [
  'key',
  'namespace',
  'description',
  'codeDescription',
  'tags',
  'charactersLimit',
  'lock',
  'deprecated',
] as const;

/** The key addressed by the query (`key` required, `namespace` default empty); the domain checks both. */
const address = (req: RestRequest) => ({
  key: queryString(req.query, 'key') ?? '',
  namespace: queryString(req.query, 'namespace') ?? '',
});

export const routes: RestRoute[] = [
  defineRoute<{ translationKeyPage: unknown }>({
    method: 'GET',
    path: '/api/v1/translation-keys',
    auth: 'apiKey',
    summary: 'List translation keys, one page at a time',
    query: [
      { name: 'key', description: 'Exact, case-sensitive match' },
      { name: 'namespace', description: 'Exact, case-sensitive match' },
      { name: 'sort', enum: 'TranslationKeySort', lowerCase: true },
      { name: 'page', type: 'integer', minimum: 0, default: 0 },
      { name: 'size', type: 'integer', minimum: 0, maximum: 2500, default: 100 },
    ],
    document: `query RestTranslationKeys($filter: TranslationKeyFilter, $sort: TranslationKeySort, $page: Int, $size: Int) {
      translationKeyPage(filter: $filter, sort: $sort, page: $page, size: $size) {
        content { ...RestTranslationKey }
        page { number size totalElements totalPages }
      }
    } ${KEY_FIELDS}`,
    toVariables: (req, schema) => ({
      filter: { key: queryString(req.query, 'key'), namespace: queryString(req.query, 'namespace') },
      sort: enumValue(schema, 'TranslationKeySort', 'sort', queryString(req.query, 'sort')),
      page: queryInt(req.query, 'page', { min: 0 }),
      size: queryInt(req.query, 'size', { min: 0, max: 2500 }),
    }),
    toResponse: (data) => ({ data: data.translationKeyPage }),
  }),
  defineRoute<{ createTranslationKey: unknown }>({
    method: 'POST',
    path: '/api/v1/translation-keys',
    auth: 'apiKey',
    summary: 'Create a translation key',
    body: { $ref: '#/components/schemas/CreateTranslationKeyInput' },
    document: `mutation RestCreateTranslationKey($input: CreateTranslationKeyInput!) { createTranslationKey(input: $input) { ...RestTranslationKey } } ${KEY_FIELDS}`,
    toVariables: (req) => ({ input: bodyFields(req.body, INPUT_FIELDS) }),
    toResponse: (data) => ({ data: data.createTranslationKey }),
  }),
  defineRoute<{ updateTranslationKey: unknown }>({
    method: 'PATCH',
    path: '/api/v1/translation-keys',
    auth: 'apiKey',
    summary: 'Update the translation key addressed by key and namespace',
    query: ADDRESS_QUERY,
    body: { $ref: '#/components/schemas/UpdateTranslationKeyInput' },
    document: `mutation RestUpdateTranslationKey($key: String!, $namespace: String, $input: UpdateTranslationKeyInput!) {
      updateTranslationKey(key: $key, namespace: $namespace, input: $input) { ...RestTranslationKey }
    } ${KEY_FIELDS}`,
    toVariables: (req) => ({ ...address(req), input: bodyFields(req.body, INPUT_FIELDS) }),
    toResponse: (data) => ({ data: data.updateTranslationKey }),
  }),
  defineRoute<{ deleteTranslationKey: boolean }>({
    method: 'DELETE',
    path: '/api/v1/translation-keys',
    auth: 'apiKey',
    summary: 'Delete a translation key with its translations',
    query: ADDRESS_QUERY,
    response: { data: null },
    document: `mutation RestDeleteTranslationKey($key: String!, $namespace: String) { deleteTranslationKey(key: $key, namespace: $namespace) }`,
    toVariables: address,
    toResponse: () => ({}),
  }),
  defineRoute<{ deleteTranslationKeys: number }>({
    method: 'DELETE',
    path: '/api/v1/translation-keys/bulk',
    auth: 'apiKey',
    summary: 'Delete several translation keys with their translations, all or nothing',
    body: {
      type: 'object',
      properties: {
        translationKeys: { type: 'array', items: { $ref: '#/components/schemas/TranslationKeyRefInput' } },
      },
      required: ['translationKeys'],
    },
    response: { data: null },
    document: `mutation RestDeleteTranslationKeys($translationKeys: [TranslationKeyRefInput!]!) { deleteTranslationKeys(translationKeys: $translationKeys) }`,
    toVariables: (req) => ({
      translationKeys: bodyList(bodyObject(req.body).translationKeys, 'translationKeys', ['key', 'namespace']),
    }),
    toResponse: () => ({}),
  }),
];

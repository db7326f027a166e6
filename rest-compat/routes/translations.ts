// Translations (project API key). v2: query cells with filters and update one
// cell. v1 (deprecated, still served): bulk POST (add, creating keys and
// languages) and bulk PATCH (update, per-element failures). DELETE
// /api/v1/translations/purge: the vendor client's purge.
import {
  bodyEnum,
  bodyFields,
  bodyList,
  bodyObject,
  enumList,
  enumValue,
  queryInt,
  queryList,
  queryString,
} from '../params.js';
import { CUSTOMER_ID_NAMING } from '../variables.js';
import { defineRoute, type JsonSchema, type RestRequest, type RestRoute } from '../route.js';

const CONTENT_BODY: JsonSchema = {
  type: 'object',
  properties: { content: { type: 'array', items: { $ref: '#/components/schemas/TranslationElementInput' } } },
  required: ['content'],
};

// The contract calls a customer's key `customerId`; GraphQL calls it customerKey.
const TRANSLATION_FIELDS = `fragment RestTranslation on Translation { key namespace language text customerId: customerKey reviewStatus lastModifiedAt }`;

const ELEMENT_FIELDS = ['key', 'language', 'text', 'namespace', 'description', 'customerId'] as const;

/**
 * The v1 elements as GraphQL elements: an element without key or language is
 * not a bad request in the contract but a failure of that element alone, so
 * it goes on with an empty one (reported as "key is empty").
 */
const content = (req: RestRequest) =>
  bodyList(bodyObject(req.body).content, 'content', ELEMENT_FIELDS).map(({ customerId, ...element }) => ({
    ...element,
    key: element.key ?? '',
    language: element.language ?? '',
    customerKey: customerId,
  }));

export const routes: RestRoute[] = [
  defineRoute<{ translations: unknown[] }>({
    method: 'GET',
    path: '/api/v2/translations',
    auth: 'apiKey',
    summary: 'Query translations with filters, one page at a time',
    query: [
      { name: 'text', description: 'Contains, ignoring case' },
      { name: 'textStatus', enum: 'TextStatus' },
      { name: 'reviewsStatus', enum: 'ReviewStatus' },
      { name: 'key', description: 'Equals' },
      { name: 'namespace', description: 'Equals' },
      { name: 'language', description: 'Equals' },
      { name: 'customerId', description: "Equals: the customer's texts where it has them" },
      { name: 'page', type: 'integer', minimum: 0, default: 0 },
      { name: 'size', type: 'integer', minimum: 0, maximum: 500 },
    ],
    document: `query RestTranslations($filter: TranslationFilter, $page: Int, $size: Int) {
      translations(filter: $filter, page: $page, size: $size) { ...RestTranslation }
    } ${TRANSLATION_FIELDS}`,
    toVariables: (req, schema) => {
      const q = req.query;
      return {
        filter: {
          text: queryString(q, 'text'),
          textStatus: enumValue(schema, 'TextStatus', 'textStatus', queryString(q, 'textStatus')),
          reviewStatus: enumValue(schema, 'ReviewStatus', 'reviewsStatus', queryString(q, 'reviewsStatus')),
          key: queryString(q, 'key'),
          namespace: queryString(q, 'namespace'),
          language: queryString(q, 'language'),
          customerKey: queryString(q, 'customerId'),
        },
        page: queryInt(q, 'page', { min: 0 }),
        size: queryInt(q, 'size', { min: 0, max: 500 }),
      };
    },
    toResponse: (data) => ({ data: data.translations }),
  }),
  defineRoute<{ updateTranslation: unknown }>({
    method: 'PATCH',
    path: '/api/v2/translations',
    auth: 'apiKey',
    summary: 'Update the text and/or review status of one translation',
    body: { $ref: '#/components/schemas/UpdateTranslationInput' },
    document: `mutation RestUpdateTranslation($input: UpdateTranslationInput!) { updateTranslation(input: $input) { ...RestTranslation } } ${TRANSLATION_FIELDS}`,
    naming: CUSTOMER_ID_NAMING,
    toVariables: (req, schema) => {
      const { customerId, ...input } = bodyFields(req.body, [
        'key',
        'namespace',
        'language',
        'customerId',
        'text',
        'reviewStatus',
      ]);
      return {
        input: {
          ...input,
          customerKey: customerId,
          reviewStatus: bodyEnum(schema, 'ReviewStatus', 'reviewStatus', input.reviewStatus),
        },
      };
    },
    toResponse: (data) => ({ data: data.updateTranslation }),
  }),
  defineRoute<{ importTranslations: unknown }>({
    method: 'POST',
    path: '/api/v1/translations',
    auth: 'apiKey',
    deprecated: true,
    summary: 'Add translations, creating missing keys and languages (deprecated: use v2)',
    query: [{ name: 'importOptions', list: true, enum: 'ImportTranslationsOption' }],
    body: CONTENT_BODY,
    document: `mutation RestImportTranslations($content: [TranslationElementInput!]!, $options: [ImportTranslationsOption!]) {
      importTranslations(content: $content, options: $options) { uniqueKeysProcessed processedWithWarnings message }
    }`,
    naming: CUSTOMER_ID_NAMING,
    toVariables: (req, schema) => ({
      content: content(req),
      options: enumList(schema, 'ImportTranslationsOption', 'importOptions', queryList(req.query, 'importOptions')),
    }),
    toResponse: (data) => ({ data: data.importTranslations }),
  }),
  defineRoute<{ updateTranslations: unknown }>({
    method: 'PATCH',
    path: '/api/v1/translations',
    auth: 'apiKey',
    deprecated: true,
    summary: 'Update translations of existing keys and languages (deprecated: use v2)',
    query: [{ name: 'updateOptions', list: true, enum: 'UpdateTranslationsOption' }],
    body: CONTENT_BODY,
    document: `mutation RestUpdateTranslations($content: [TranslationElementInput!]!, $options: [UpdateTranslationsOption!]) {
      updateTranslations(content: $content, options: $options) { numberOfUpdates numberOfFailures numberOfInserts failures }
    }`,
    naming: CUSTOMER_ID_NAMING,
    toVariables: (req, schema) => ({
      content: content(req),
      options: enumList(schema, 'UpdateTranslationsOption', 'updateOptions', queryList(req.query, 'updateOptions')),
    }),
    toResponse: (data) => ({ data: data.updateTranslations }),
  }),
  defineRoute<{ purgeTranslations: unknown }>({
    method: 'DELETE',
    path: '/api/v1/translations/purge',
    auth: 'apiKey',
    summary:
      "Delete every translation key and translation of the project (the vendor client's purge; source=CLI is ignored)",
    query: [{ name: 'source', description: 'Ignored (the vendor client sends source=CLI)' }],
    document: `mutation RestPurgeTranslations { purgeTranslations { keysDeleted translationsDeleted customerTranslationsDeleted } }`,
    toVariables: () => ({}),
    toResponse: (data) => ({ data: data.purgeTranslations }),
  }),
];

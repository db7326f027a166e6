// Auto-translation jobs. v1 POST takes one target in the body; v2 POST takes
// the same body with a `targets` array (documented in docs/jobs.md), or the
// vendor command-line client's body `{languageKeys, source, options}` (each
// language by its auto-translation settings), and returns one job per target. Both run the
// GraphQL autoTranslate mutation. The job lists take `status` and `type`
// filters (comma-joined or repeated), checked against the GraphQL enums.
import { GraphQLEnumType, type GraphQLSchema } from 'graphql';
import { badRequest } from '../../src/errors.js';
import { bodyFields, bodyList, bodyObject, queryList } from '../params.js';
import { defineRoute, type JsonSchema, type RestRequest, type RestRoute } from '../route.js';
import { itemsOf } from '../openapi-schema.js';

const OPTIONS_SCHEMA: JsonSchema = {
  type: 'array',
  items: { type: 'string', enum: ['USE_TRANSLATION_KEYS', 'FORCE_REPLACE', 'AUTO_PUBLISH'] },
};
const COMMON_SCHEMA: Record<string, JsonSchema> = {
  translationProvider: { type: 'string', description: 'MT_PROVIDER_A, MT_PROVIDER_B or PSEUDO (docs/jobs.md)' },
  sourceProjectLanguage: { type: 'string', description: 'A language key of the project' },
  sourceLanguage: { type: 'string', description: "The source language in the provider's notation" },
  options: OPTIONS_SCHEMA,
  providerGlossaryId: { type: 'string' },
  providerFormality: { type: 'string', enum: ['default', 'more', 'less'] },
};
const TARGET_SCHEMA: Record<string, JsonSchema> = {
  targetProjectLanguage: { type: 'string', minLength: 1, description: 'A language key of the project' },
  targetLanguage: { type: 'string', minLength: 1, description: "The target language in the provider's notation" },
};

const JOB_FIELDS = `fragment RestJob on Job { jobId progress state started message metadata }`;
const START = `mutation RestAutoTranslate($input: AutoTranslateInput!) { autoTranslate(input: $input) { ...RestJob } } ${JOB_FIELDS}`;
const START_V2 = `mutation RestAutoTranslateV2($input: AutoTranslateInput, $bySettings: AutoTranslateBySettingsInput) {
  autoTranslate(input: $input, bySettings: $bySettings) { ...RestJob }
} ${JOB_FIELDS}`;
const LIST = `query RestJobs($status: [JobStatusFilter!], $type: [JobKind!]) { jobs(status: $status, type: $type) { ...RestJob } } ${JOB_FIELDS}`;

/** Values of a list filter, each one of the enum's names (any letter case); 400 listing them otherwise. */
function enumFilter(schema: GraphQLSchema, typeName: string, req: RestRequest, param: string): string[] | undefined {
  const values = queryList(req.query, param);
  if (values.length === 0) return undefined;
  const type = schema.getType(typeName) as GraphQLEnumType;
  const names = type.getValues().map((v) => v.name);
  return values.map((value) => {
    const name = names.find((n) => n === value.toUpperCase());
    if (!name) throw badRequest(`${param} must be one of ${names.join(', ')}; got '${value}'`);
    return name;
  });
}

const listVariables = (req: RestRequest, schema: GraphQLSchema) => ({
  status: enumFilter(schema, 'JobStatusFilter', req, 'status'),
  type: enumFilter(schema, 'JobKind', req, 'type'),
});

const COMMON = [
  'translationProvider',
  'sourceProjectLanguage',
  'sourceLanguage',
  'options',
  'providerGlossaryId',
  'providerFormality',
] as const;
const TARGET = ['targetProjectLanguage', 'targetLanguage'] as const;

// The bodies' fields go to the AutoTranslateInput (or AutoTranslateBySettingsInput) of
// the operation, whose types refuse a wrong shape in REST's words (variables.ts);
// src/jobs/request.ts checks the values.

/** v1: the one target's fields are the body's own. */
const v1Input = (req: RestRequest) => {
  const body = bodyObject(req.body);
  return { input: { ...bodyFields(body, COMMON), targets: [bodyFields(body, TARGET)] } };
};

function v2Input(req: RestRequest) {
  const body = bodyObject(req.body);
  // The vendor command-line client's body: `{languageKeys: [...], source: "CLI", options: [...]}` (source ignored).
  if (body.languageKeys !== undefined && body.targets === undefined)
    return { bySettings: bodyFields(body, ['languageKeys', 'options']) };
  if (body.targets === undefined || body.targets === null)
    throw badRequest(
      'targets is required: an array of {targetProjectLanguage, targetLanguage} (or send languageKeys: each language by its auto-translation settings)',
    );
  return {
    input: { ...bodyFields(body, COMMON), targets: bodyList(body.targets, 'targets', TARGET) },
    bySettings: null,
  };
}

export const routes: RestRoute[] = [
  defineRoute<{ autoTranslate: unknown[] }>({
    method: 'POST',
    path: '/api/v1/jobs/auto-translate',
    auth: 'apiKey',
    summary: 'Start an auto-translation job for one language',
    body: {
      type: 'object',
      properties: { ...COMMON_SCHEMA, ...TARGET_SCHEMA },
      required: ['translationProvider', 'targetProjectLanguage', 'targetLanguage'],
    },
    response: { data: itemsOf },
    document: START,
    naming: { bodyVariables: ['input'], inlined: ['targets'] },
    toVariables: v1Input,
    toResponse: (data) => ({ data: data.autoTranslate[0] }),
  }),
  defineRoute<{ autoTranslate: unknown[] }>({
    method: 'POST',
    path: '/api/v2/jobs/auto-translate',
    auth: 'apiKey',
    summary:
      'Start auto-translation jobs for several languages (targets spelled out, or languageKeys: each by its auto-translation settings)',
    body: {
      oneOf: [
        {
          type: 'object',
          title: 'Targets',
          properties: {
            ...COMMON_SCHEMA,
            targets: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'object',
                properties: TARGET_SCHEMA,
                required: ['targetProjectLanguage', 'targetLanguage'],
              },
            },
          },
          required: ['translationProvider', 'targets'],
        },
        {
          type: 'object',
          title: 'By settings',
          description:
            "The vendor command-line client's body: each language by its auto-translation settings; one it cannot serve is a job FAILED at once, saying why",
          properties: {
            languageKeys: {
              type: 'array',
              items: { type: 'string' },
              description: 'Empty: every language except the source ones',
            },
            source: { type: 'string', description: 'Ignored' },
            options: OPTIONS_SCHEMA,
          },
          required: ['languageKeys'],
        },
      ],
    },
    document: START_V2,
    naming: { bodyVariables: ['input', 'bySettings'] },
    toVariables: v2Input,
    toResponse: (data) => ({ data: data.autoTranslate }),
  }),
  ...(['v1', 'v2'] as const).map((version) =>
    defineRoute<{ jobs: unknown[] }>({
      method: 'GET',
      path: `/api/${version}/jobs`,
      auth: 'apiKey',
      summary:
        'List jobs, newest first; status (RUNNING, STARTED, SUCCESS, FAILED, CANCELLED) and type (AUTO_TRANSLATION) filters',
      query: [
        { name: 'status', list: true, enum: 'JobStatusFilter' },
        { name: 'type', list: true, enum: 'JobKind' },
      ],
      document: LIST,
      toVariables: listVariables,
      toResponse: (data) => ({ data: data.jobs }),
    }),
  ),
  defineRoute<{ job: unknown }>({
    method: 'GET',
    path: '/api/v1/jobs/:jobId',
    auth: 'apiKey',
    summary: 'Get one job',
    document: `query RestJob($jobId: String!) { job(jobId: $jobId) { ...RestJob } } ${JOB_FIELDS}`,
    toVariables: (req) => ({ jobId: req.params.jobId }),
    toResponse: (data) => ({ data: data.job }),
  }),
];

// Auto-translation jobs. v1 POST takes one target in the body; v2 POST takes
// the same body with a `targets` array (documented in docs/jobs.md) and returns
// one job per target. Both run the GraphQL autoTranslate mutation.
import { badRequest } from '../../src/errors.js';
import { bodyObject } from '../params.js';
import { defineRoute, type RestRequest, type RestRoute } from '../route.js';

const JOB_FIELDS = `fragment RestJob on Job { jobId progress state started message metadata }`;
const START = `mutation RestAutoTranslate($input: AutoTranslateInput!) { autoTranslate(input: $input) { ...RestJob } } ${JOB_FIELDS}`;

const COMMON = ['translationProvider', 'sourceProjectLanguage', 'sourceLanguage', 'options', 'providerGlossaryId', 'providerFormality'] as const;

function commonInput(body: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const field of COMMON) if (body[field] !== undefined && body[field] !== null) input[field] = body[field];
  if (input.translationProvider === undefined) throw badRequest('translationProvider is required');
  if (input.options !== undefined && !Array.isArray(input.options)) throw badRequest('options must be an array of strings');
  return input;
}

function v1Input(req: RestRequest) {
  const body = bodyObject(req.body);
  for (const field of ['targetProjectLanguage', 'targetLanguage'] as const) {
    if (typeof body[field] !== 'string' || body[field] === '') throw badRequest(`${field} is required`);
  }
  return { input: { ...commonInput(body), targets: [{ targetProjectLanguage: body.targetProjectLanguage, targetLanguage: body.targetLanguage }] } };
}

function v2Input(req: RestRequest) {
  const body = bodyObject(req.body);
  if (!Array.isArray(body.targets) || body.targets.length === 0) throw badRequest('targets must be a non-empty array of {targetProjectLanguage, targetLanguage}');
  body.targets.forEach((target: unknown, i) => {
    const t = target as Record<string, unknown>;
    if (typeof t !== 'object' || t === null) throw badRequest(`targets[${i}] must be an object`);
    for (const field of ['targetProjectLanguage', 'targetLanguage']) {
      if (typeof t[field] !== 'string' || t[field] === '') throw badRequest(`targets[${i}].${field} is required`);
    }
  });
  const targets = (body.targets as Record<string, unknown>[]).map((t) => ({ targetProjectLanguage: t.targetProjectLanguage, targetLanguage: t.targetLanguage }));
  return { input: { ...commonInput(body), targets } };
}

export const routes: RestRoute[] = [
  defineRoute<{ autoTranslate: unknown[] }>({
    method: 'POST',
    path: '/api/v1/jobs/auto-translate',
    auth: 'apiKey',
    summary: 'Start an auto-translation job for one language',
    document: START,
    toVariables: v1Input,
    toResponse: (data) => ({ data: data.autoTranslate[0] }),
  }),
  defineRoute<{ autoTranslate: unknown[] }>({
    method: 'POST',
    path: '/api/v2/jobs/auto-translate',
    auth: 'apiKey',
    summary: 'Start auto-translation jobs for several languages',
    document: START,
    toVariables: v2Input,
    toResponse: (data) => ({ data: data.autoTranslate }),
  }),
  defineRoute<{ jobs: unknown[] }>({
    method: 'GET',
    path: '/api/v1/jobs',
    auth: 'apiKey',
    summary: 'List jobs, newest first',
    document: `query RestJobs { jobs { ...RestJob } } ${JOB_FIELDS}`,
    toVariables: () => ({}),
    toResponse: (data) => ({ data: data.jobs }),
  }),
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

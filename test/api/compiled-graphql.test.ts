// Documents sent over GraphQL run compiled (graphql-jit) from their second
// run (src/http/compiled-documents.ts): every run of a document answers what
// its first run, by the generic executor, answered — data, errors with their
// paths and codes, a variable refused, fragments and directives, several
// operations in one document, introspection, a mutation — and each document
// is compiled once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOT_RUN } from '../../src/http/compiled-documents.js';
import { registry } from '../../src/metrics.js';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let api: ProjectApi;

beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account(), 'Compiled documents');
  await api.post('/api/v2/languages', { tag: 'de', name: 'German' });
  for (const key of ['home.title', 'home.body', 'nav.back'])
    await api.post('/api/v1/translations', {
      content: [
        { key, language: 'en', text: `${key} in English` },
        { key, language: 'de', text: `${key} auf Deutsch` },
      ],
    });
}, 60_000);
afterAll(() => service.close());

/** The counter of compiled documents, by outcome. */
async function compilations(outcome: 'compiled' | 'refused'): Promise<number> {
  const metric = await registry.getSingleMetric('graphql_compilations_total')!.get();
  return metric.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

async function post(body: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { 'x-service-token': api.apiKey, 'content-type': 'application/json' },
    payload: body,
  });
  return { status: res.statusCode, body: res.json() };
}

const CELLS = `query Cells($first: Int!, $withCells: Boolean!) {
        page: translationKeys(first: $first, sort: CREATED_AT) {
          totalCount edges { cursor node { ...KeyFields translations @include(if: $withCells) { language text reviewStatus } } }
          pageInfo { hasNextPage endCursor }
        }
      }
      fragment KeyFields on TranslationKey { key namespace tags lock charactersLimit }`;

const DOCUMENTS: [string, Record<string, unknown>][] = [
  [
    'a connection with the cells of its keys, aliases and a fragment',
    { query: CELLS, variables: { first: 2, withCells: true } },
  ],
  ['the same document, its directive the other way', { query: CELLS, variables: { first: 3, withCells: false } }],
  [
    'a page of cells filtered by text',
    {
      query: `query($filter: TranslationFilter) { translations(filter: $filter, size: 10) { key language text lastModifiedAt } }`,
      variables: { filter: { text: 'deutsch' } },
    },
  ],
  [
    'a field that fails (an unknown key) beside one that does not',
    {
      query: `{ languages { key } translationKey(key: "no.such.key") { key } }`,
    },
  ],
  [
    'a variable of the wrong type',
    {
      query: `query($first: Int) { translationKeys(first: $first) { edges { node { key } } } }`,
      variables: { first: 'many' },
    },
  ],
  [
    'a required variable missing',
    {
      query: `query($filter: TranslationFilter!) { translations(filter: $filter) { key } }`,
      variables: {},
    },
  ],
  [
    'the second of two operations, by name',
    {
      query: `query First { languages { key } } query Second { translationCount }`,
      operationName: 'Second',
    },
  ],
  [
    'the first of the same two',
    {
      query: `query First { languages { key } } query Second { translationCount }`,
      operationName: 'First',
    },
  ],
  ['introspection', { query: `{ __type(name: "Translation") { name fields { name type { name kind } } } }` }],
  [
    'a mutation (the same text again: the same answer)',
    {
      query: `mutation($input: UpdateTranslationInput!) { updateTranslation(input: $input) { key language text } }`,
      variables: { input: { key: 'nav.back', language: 'de', text: 'Zurück' } },
    },
  ],
];

describe('documents sent over GraphQL', () => {
  it.each(DOCUMENTS)('%s: every run answers what the first did', async (_name, body) => {
    const first = await post(body);
    for (let run = 2; run <= HOT_RUN + 2; run++) expect(await post(body), `run ${run}`).toEqual(first);
  });

  it('are compiled once, on their second run', async () => {
    const body = { query: `query Once { languages { key name } }` };
    const before = await compilations('compiled');
    await post(body);
    expect(await compilations('compiled')).toBe(before);
    await post(body);
    expect(await compilations('compiled')).toBe(before + 1);
    for (let run = 3; run <= 5; run++) await post(body);
    expect(await compilations('compiled')).toBe(before + 1);
  });
});

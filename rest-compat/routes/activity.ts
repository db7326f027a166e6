// /api/v2/activity (project API key): the activity log, newest first, paged and
// filtered; the cells of one entry; reverting a whole change. Cell history:
// /api/v2/translations/history. All in the contract's envelope.
import { badRequest } from '../../src/errors.js';
import { enumList, enumValue, queryInt, queryList, queryString } from '../params.js';
import { CUSTOMER_ID_NAMING } from '../variables.js';
import { defineRoute, type JsonSchema, type QueryParameter, type RestRoute } from '../route.js';

const ENTRY = `fragment RestActivity on ActivityEntry { id kind trigger actor { kind id name email } accountName source at cellsChanged edits details revertOf }`;
const CELL = `fragment RestCellChange on CellChange {
  id activityId key namespace language customerId: customerKey oldText newText oldReviewStatus newReviewStatus at kind actor { kind id name email } source
}`;
const REVERT = `fragment RestRevert on RevertResult {
  activityId reverted changedSince refusedLocked refusedCharactersLimit gone
  deletedKeys deletedLanguages deletedCustomers removed kept { kind key namespace reason } keptCount
}`;

function time(query: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = queryString(query, name);
  if (value === undefined || value === '') return undefined;
  if (Number.isNaN(new Date(value).getTime())) throw badRequest(`${name} must be an ISO 8601 time, got '${value}'`);
  return new Date(value).toISOString();
}

function id(value: string | undefined, name: string): string {
  if (!value || !/^\d{1,19}$/.test(value)) throw badRequest(`${name} must be a decimal id, got '${value ?? ''}'`);
  return value;
}

const PAGE = (max: number): QueryParameter[] => [
  { name: 'page', type: 'integer', minimum: 0, default: 0 },
  { name: 'size', type: 'integer', minimum: 1, maximum: max },
];
/** The `data` of a route that answers one field of the selected object. */
const fieldOf =
  (path: string[]) =>
  (selected: JsonSchema): JsonSchema => {
    let schema: JsonSchema = selected;
    for (const name of path) {
      const object = ((schema.anyOf as JsonSchema[] | undefined)?.find((s) => s.type === 'object') ??
        schema) as JsonSchema;
      schema = (object.properties as Record<string, JsonSchema>)[name]!;
    }
    return schema;
  };

export const routes: RestRoute[] = [
  defineRoute<{ activity: { entries: unknown[]; total: number; page: number; size: number } }>({
    method: 'GET',
    path: '/api/v2/activity',
    auth: 'apiKey',
    summary: 'The activity log of the project, newest first; filters: actorKind, actorId, kind (repeatable), from, to',
    query: [
      { name: 'actorKind', enum: 'ActorKind' },
      { name: 'actorId', description: 'An account id or a job id' },
      { name: 'kind', list: true, enum: 'ChangeKind' },
      { name: 'from', description: 'ISO 8601 time, inclusive' },
      { name: 'to', description: 'ISO 8601 time, exclusive' },
      ...PAGE(500),
    ],
    response: { data: fieldOf(['entries']) },
    document: `query RestActivity($filter: ActivityFilter, $page: Int, $size: Int) {
      activity(filter: $filter, page: $page, size: $size) { total page size entries { ...RestActivity } }
    } ${ENTRY}`,
    toVariables: (req, schema) => ({
      filter: {
        actorKind: enumValue(schema, 'ActorKind', 'actorKind', queryString(req.query, 'actorKind')),
        actorId: queryString(req.query, 'actorId'),
        kinds: enumList(schema, 'ChangeKind', 'kind', queryList(req.query, 'kind')),
        from: time(req.query, 'from'),
        to: time(req.query, 'to'),
      },
      page: queryInt(req.query, 'page', { min: 0 }),
      size: queryInt(req.query, 'size', { min: 1, max: 500 }),
    }),
    // The list is the data, as the contract's other lists; paging figures go in headers.
    toResponse: (data) => ({
      data: data.activity.entries,
      headers: {
        'x-total-count': String(data.activity.total),
        'x-page': String(data.activity.page),
        'x-page-size': String(data.activity.size),
      },
    }),
  }),
  defineRoute<{ activityEntry: { cells: unknown[] } }>({
    method: 'GET',
    path: '/api/v2/activity/:activityId/cells',
    auth: 'apiKey',
    summary: 'The translation cells one activity entry wrote',
    query: PAGE(500),
    response: { data: fieldOf(['cells']) },
    document: `query RestActivityCells($id: ID!, $page: Int, $size: Int) {
      activityEntry(id: $id) { cells(page: $page, size: $size) { ...RestCellChange } }
    } ${CELL}`,
    toVariables: (req) => ({
      id: id(req.params.activityId, 'activityId'),
      page: queryInt(req.query, 'page', { min: 0 }),
      size: queryInt(req.query, 'size', { min: 1, max: 500 }),
    }),
    toResponse: (data) => ({ data: data.activityEntry.cells }),
  }),
  defineRoute<{ revertChange: unknown }>({
    method: 'POST',
    path: '/api/v2/activity/:activityId/revert',
    auth: 'apiKey',
    summary:
      'Revert every cell a change wrote (where unchanged since) and delete what it created (unless written or edited since), in one transaction',
    document: `mutation RestRevertChange($id: ID!) { revertChange(activityId: $id) { ...RestRevert } } ${REVERT}`,
    toVariables: (req) => ({ id: id(req.params.activityId, 'activityId') }),
    toResponse: (data) => ({ data: data.revertChange }),
  }),
  defineRoute<{ translationHistory: unknown[] }>({
    method: 'GET',
    path: '/api/v2/translations/history',
    auth: 'apiKey',
    summary: 'Every change of one translation cell, newest first (query key, namespace, language, customerId)',
    query: [
      { name: 'key', required: true },
      { name: 'namespace' },
      { name: 'language', required: true },
      { name: 'customerId', description: "A customer's key: that customer's override" },
      ...PAGE(500),
    ],
    naming: CUSTOMER_ID_NAMING,
    document: `query RestTranslationHistory($key: String!, $namespace: String, $language: String!, $customerKey: String, $page: Int, $size: Int) {
      translationHistory(key: $key, namespace: $namespace, language: $language, customerKey: $customerKey, page: $page, size: $size) { ...RestCellChange }
    } ${CELL}`,
    toVariables: (req) => {
      const key = queryString(req.query, 'key');
      const language = queryString(req.query, 'language');
      if (!key) throw badRequest('key is required');
      if (!language) throw badRequest('language is required');
      return {
        key,
        language,
        namespace: queryString(req.query, 'namespace'),
        customerKey: queryString(req.query, 'customerId'),
        page: queryInt(req.query, 'page', { min: 0 }),
        size: queryInt(req.query, 'size', { min: 1, max: 500 }),
      };
    },
    toResponse: (data) => ({ data: data.translationHistory }),
  }),
  defineRoute<{ revertTranslation: unknown }>({
    method: 'POST',
    path: '/api/v2/translations/history/:cellChangeId/revert',
    auth: 'apiKey',
    summary: 'Set one cell back to its value before the given change',
    document: `mutation RestRevertTranslation($id: ID!) { revertTranslation(cellChangeId: $id) { ...RestRevert } } ${REVERT}`,
    toVariables: (req) => ({ id: id(req.params.cellChangeId, 'cellChangeId') }),
    toResponse: (data) => ({ data: data.revertTranslation }),
  }),
];

// Hosting (v2, project API key): environments, status and publish. Response
// shapes the contract leaves open are documented in docs/hosting.md.
import { badRequest } from '../../src/errors.js';
import { bodyObject } from '../params.js';
import { defineRoute, type RestRoute } from '../route.js';
import { itemsOf, nullsLeftOut, propertyOf } from '../openapi-schema.js';

const ENVIRONMENT_FIELDS = /* GraphQL */ `
  fragment RestEnvironment on Environment {
    key name color builtIn position source publishing url
    lastPublication { version label createdAt completedAt numberOfKeys numberOfLanguages numberOfNonEmptyTranslations numberOfResources }
  }`;

const STATUS = /* GraphQL */ `
  query RestEnvironmentStatus($key: String!) {
    environmentStatus(key: $key) {
      numberOfKeys numberOfLanguages numberOfNonEmptyTranslations createdAt
      resources { link size language namespace customer }
    }
  }`;

const PUBLISH = /* GraphQL */ `
  mutation RestPublish($key: String!, $label: String) {
    publishEnvironment(key: $key, label: $label) {
      environmentKey source version label createdAt completedAt
      numberOfKeys numberOfLanguages numberOfNonEmptyTranslations numberOfResources
    }
  }`;

function onlyFields(body: Record<string, unknown>, allowed: string[], what: string): void {
  const unknown = Object.keys(body).find((k) => !allowed.includes(k));
  if (unknown) throw badRequest(`Unknown field '${unknown}' in the ${what} body; accepted: ${allowed.join(', ')}`);
}

/** Optional fields of the contract's resource entries are left out when they do not apply. */
function compact<T extends Record<string, unknown>>(entry: T): Partial<T> {
  return Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== null)) as Partial<T>;
}

export const routes: RestRoute[] = [
  defineRoute<{ environments: unknown[] }>({
    method: 'GET',
    path: '/api/v2/environments',
    auth: 'apiKey',
    summary: 'List the hosting environments with their served publication',
    document: `query RestEnvironments { environments { ...RestEnvironment } } ${ENVIRONMENT_FIELDS}`,
    toVariables: () => ({}),
    toResponse: (data) => ({ data: data.environments }),
  }),
  defineRoute<{ createEnvironment: unknown }>({
    method: 'POST',
    path: '/api/v2/environments',
    auth: 'apiKey',
    summary: 'Create a custom hosting environment',
    body: {
      type: 'object',
      properties: {
        key: { type: 'string', description: 'Unique in the project; not _latest or _production; fixed once created' },
        name: { type: 'string' },
        color: { type: 'string' },
      },
      required: ['key', 'name'],
      additionalProperties: false,
    },
    document: `mutation RestCreateEnvironment($key: String!, $name: String!, $color: String) {
      createEnvironment(key: $key, name: $name, color: $color) { ...RestEnvironment }
    } ${ENVIRONMENT_FIELDS}`,
    toVariables: (req) => {
      const body = bodyObject(req.body);
      onlyFields(body, ['key', 'name', 'color'], 'create-environment');
      // The domain names a missing or empty field; the operation's types, one of another type.
      return { key: body.key ?? '', name: body.name ?? '', color: body.color };
    },
    toResponse: (data) => ({ data: data.createEnvironment }),
  }),
  defineRoute<{ environmentStatus: { resources: Record<string, unknown>[] } & Record<string, unknown> }>({
    method: 'GET',
    path: '/api/v2/environments/:environmentKey',
    auth: 'apiKey',
    summary: 'Get the status of an environment: counts and published files',
    response: {
      data: (selected) => {
        const resources = propertyOf(selected, 'resources');
        return {
          ...selected,
          properties: {
            ...(selected.properties as object),
            resources: { ...resources, items: nullsLeftOut(itemsOf(resources)) },
          },
        };
      },
    },
    document: STATUS,
    toVariables: (req) => ({ key: req.params.environmentKey }),
    toResponse: (data) => ({
      data: { ...data.environmentStatus, resources: data.environmentStatus.resources.map(compact) },
    }),
  }),
  defineRoute<{ publishEnvironment: unknown }>({
    method: 'POST',
    path: '/api/v2/environments/:environmentKey/publish',
    auth: 'apiKey',
    summary: 'Publish an environment from its source',
    body: {
      type: 'object',
      properties: { label: { type: 'string', description: 'Only when publishing to _latest' } },
      additionalProperties: false,
    },
    bodyRequired: false,
    document: PUBLISH,
    toVariables: (req) => {
      const body = bodyObject(req.body);
      onlyFields(body, ['label'], 'publish');
      return { key: req.params.environmentKey, label: body.label };
    },
    toResponse: (data) => ({ data: data.publishEnvironment }),
  }),
];

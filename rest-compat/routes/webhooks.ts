// /api/v2/webhooks (project API key): the project's webhooks, their test-send
// and delivery log, in the contract's envelope. The signing secret is in the
// answer to POST only.
import { badRequest } from '../../src/errors.js';
import { bodyEnumList, bodyFields, queryInt } from '../params.js';
import { defineRoute, type JsonSchema, type RestRequest, type RestRoute } from '../route.js';
import type { GraphQLSchema } from 'graphql';

const WEBHOOK = `fragment RestWebhook on Webhook { id url triggers enabled disabledReason consecutiveFailures createdAt updatedAt }`;

function webhookId(req: RestRequest): number {
  const value = req.params.webhookId ?? '';
  if (!/^\d{1,9}$/.test(value)) throw badRequest(`webhookId must be an integer, got '${value}'`);
  return Number(value);
}

function input(req: RestRequest, schema: GraphQLSchema) {
  const fields = bodyFields(req.body, ['url', 'triggers', 'enabled']);
  return {
    ...fields,
    ...(fields.triggers !== undefined && {
      triggers: bodyEnumList(schema, 'WebhookTrigger', 'triggers', fields.triggers),
    }),
  };
}

export const routes: RestRoute[] = [
  defineRoute<{ webhooks: unknown[] }>({
    method: 'GET',
    path: '/api/v2/webhooks',
    auth: 'apiKey',
    summary: 'List the webhooks of the project',
    document: `query RestWebhooks { webhooks { ...RestWebhook } } ${WEBHOOK}`,
    toVariables: () => ({}),
    toResponse: (data) => ({ data: data.webhooks }),
  }),
  defineRoute<{ createWebhook: { webhook: object; secret: string } }>({
    method: 'POST',
    path: '/api/v2/webhooks',
    auth: 'apiKey',
    summary: 'Create a webhook (url, triggers, enabled); the answer carries its signing secret, shown only once',
    body: { $ref: '#/components/schemas/WebhookInput' },
    response: {
      data: (selected) => {
        const props = selected.properties as Record<string, JsonSchema>;
        const webhook = props.webhook!;
        return {
          ...webhook,
          properties: { ...(webhook.properties as object), secret: props.secret! },
          required: [...((webhook.required as string[]) ?? []), 'secret'],
        };
      },
    },
    document: `mutation RestCreateWebhook($input: WebhookInput!) { createWebhook(input: $input) { secret webhook { ...RestWebhook } } } ${WEBHOOK}`,
    toVariables: (req, schema) => ({ input: input(req, schema) }),
    toResponse: (data) => ({ data: { ...data.createWebhook.webhook, secret: data.createWebhook.secret } }),
  }),
  defineRoute<{ webhook: unknown }>({
    method: 'GET',
    path: '/api/v2/webhooks/:webhookId',
    auth: 'apiKey',
    summary: 'Get one webhook',
    document: `query RestWebhook($id: Int!) { webhook(id: $id) { ...RestWebhook } } ${WEBHOOK}`,
    toVariables: (req) => ({ id: webhookId(req) }),
    toResponse: (data) => ({ data: data.webhook }),
  }),
  defineRoute<{ updateWebhook: unknown }>({
    method: 'PATCH',
    path: '/api/v2/webhooks/:webhookId',
    auth: 'apiKey',
    summary:
      'Change the URL, triggers or enabled flag of a webhook (enabled: true re-enables one disabled after failures)',
    body: { $ref: '#/components/schemas/WebhookInput' },
    document: `mutation RestUpdateWebhook($id: Int!, $input: WebhookInput!) { updateWebhook(id: $id, input: $input) { ...RestWebhook } } ${WEBHOOK}`,
    toVariables: (req, schema) => ({ id: webhookId(req), input: input(req, schema) }),
    toResponse: (data) => ({ data: data.updateWebhook }),
  }),
  defineRoute<{ deleteWebhook: boolean }>({
    method: 'DELETE',
    path: '/api/v2/webhooks/:webhookId',
    auth: 'apiKey',
    summary: 'Delete a webhook with its delivery log',
    response: { data: null },
    document: `mutation RestDeleteWebhook($id: Int!) { deleteWebhook(id: $id) }`,
    toVariables: (req) => ({ id: webhookId(req) }),
    toResponse: () => ({}),
  }),
  defineRoute<{ testWebhook: string }>({
    method: 'POST',
    path: '/api/v2/webhooks/:webhookId/test',
    auth: 'apiKey',
    summary: 'Queue a signed TEST delivery; its outcome appears in the delivery log',
    response: {
      data: {
        type: 'object',
        properties: { deliveryId: { type: 'string' } },
        required: ['deliveryId'],
        additionalProperties: false,
      },
    },
    document: `mutation RestTestWebhook($id: Int!) { testWebhook(id: $id) }`,
    toVariables: (req) => ({ id: webhookId(req) }),
    toResponse: (data) => ({ data: { deliveryId: data.testWebhook } }),
  }),
  defineRoute<{ webhookDeliveries: unknown[] }>({
    method: 'GET',
    path: '/api/v2/webhooks/:webhookId/deliveries',
    auth: 'apiKey',
    summary:
      'The delivery log of a webhook, newest first: each delivery with its attempts (time, URL, duration, status, first 2 KiB of the answer)',
    query: [
      { name: 'page', type: 'integer', minimum: 0, default: 0 },
      { name: 'size', type: 'integer', minimum: 1, maximum: 100 },
    ],
    document: `query RestWebhookDeliveries($id: Int!, $page: Int, $size: Int) {
      webhookDeliveries(id: $id, page: $page, size: $size) {
        id activityId trigger state attempts nextAttemptAt createdAt log { at url durationMs status error response }
      }
    }`,
    toVariables: (req) => ({
      id: webhookId(req),
      page: queryInt(req.query, 'page', { min: 0 }),
      size: queryInt(req.query, 'size', { min: 1, max: 100 }),
    }),
    toResponse: (data) => ({ data: data.webhookDeliveries }),
  }),
];

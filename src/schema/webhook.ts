// Webhooks of a project (src/webhooks/): CRUD, test-send and the delivery log.
import { builder } from '../builder.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import { TRIGGERS, type Trigger } from '../content/changes.js';
import {
  createWebhook,
  deleteWebhook,
  DELIVERY_PAGE,
  getWebhook,
  listWebhooks,
  testWebhook,
  updateWebhook,
  webhookDeliveries,
  type DeliveryView,
  type WebhookView,
} from '../webhooks/webhooks.js';

export const WebhookTriggerEnum = builder.enumType('WebhookTrigger', {
  description: 'What a webhook is told about (docs/history-and-webhooks.md).',
  values: TRIGGERS as Trigger[],
});

const AttemptType = builder.objectRef<DeliveryView['log'][number]>('WebhookAttempt').implement({
  description: 'One HTTP attempt of a delivery.',
  fields: (t) => ({
    at: t.field({ type: 'DateTime', resolve: (a) => a.at }),
    url: t.exposeString('url'),
    durationMs: t.exposeInt('durationMs'),
    status: t.exposeInt('status', { nullable: true, description: 'HTTP status; null when no answer came.' }),
    error: t.exposeString('error', { nullable: true }),
    response: t.exposeString('response', { description: 'The first 2 KiB of the answer.' }),
  }),
});

const DeliveryType = builder.objectRef<DeliveryView>('WebhookDelivery').implement({
  fields: (t) => ({
    id: t.field({ type: 'ID', resolve: (d) => String(d.id) }),
    activityId: t.field({
      type: 'ID',
      nullable: true,
      description: 'null for a test delivery.',
      resolve: (d) => (d.activityId === null ? null : String(d.activityId)),
    }),
    trigger: t.exposeString('trigger'),
    state: t.exposeString('state', {
      description: 'PENDING, DELIVERED, FAILED (given up), SKIPPED (nothing to tell).',
    }),
    attempts: t.exposeInt('attempts'),
    nextAttemptAt: t.field({ type: 'DateTime', resolve: (d) => d.nextAttemptAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.createdAt }),
    log: t.field({ type: [AttemptType], resolve: (d) => d.log }),
  }),
});

const WebhookType = builder.objectRef<WebhookView>('Webhook').implement({
  description: 'An HTTP endpoint told about changes of the project. The signing secret is shown once, at creation.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    url: t.exposeString('url'),
    triggers: t.field({ type: [WebhookTriggerEnum], resolve: (w) => w.triggers }),
    enabled: t.exposeBoolean('enabled'),
    disabledReason: t.exposeString('disabledReason', {
      nullable: true,
      description: 'Set when disabled automatically after a run of failed deliveries.',
    }),
    consecutiveFailures: t.exposeInt('consecutiveFailures'),
    createdAt: t.field({ type: 'DateTime', resolve: (w) => w.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (w) => w.updatedAt }),
  }),
});

const CreatedWebhookType = builder.objectRef<{ webhook: WebhookView; secret: string }>('CreatedWebhook').implement({
  fields: (t) => ({
    webhook: t.field({ type: WebhookType, resolve: (c) => c.webhook }),
    secret: t.exposeString('secret', { description: 'The signing secret: shown only in this answer.' }),
  }),
});

const WebhookInput = builder.inputType('WebhookInput', {
  fields: (t) => ({
    url: t.string({ required: false }),
    triggers: t.field({ type: [WebhookTriggerEnum], required: false }),
    enabled: t.boolean({ required: false, description: 'true re-enables a webhook disabled after failures.' }),
  }),
});

builder.queryFields((t) => ({
  webhooks: t.field({
    type: [WebhookType],
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      listWebhooks(await resolveProject(ctx.principal, args.projectToken, need('webhooks'))),
  }),
  webhook: t.field({
    type: WebhookType,
    args: { projectToken: t.arg.string({ required: false }), id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) =>
      getWebhook(await resolveProject(ctx.principal, args.projectToken, need('webhook')), args.id),
  }),
  webhookDeliveries: t.field({
    type: [DeliveryType],
    description: 'The delivery log of a webhook, newest first.',
    args: {
      projectToken: t.arg.string({ required: false }),
      id: t.arg.int({ required: true }),
      page: t.arg.int({ required: false }),
      size: t.arg.int({
        required: false,
        description: `Default ${DELIVERY_PAGE.defaultSize}, at most ${DELIVERY_PAGE.maxSize}.`,
      }),
    },
    resolve: async (_root, args, ctx) =>
      webhookDeliveries(
        await resolveProject(ctx.principal, args.projectToken, need('webhookDeliveries')),
        args.id,
        args.page ?? 0,
        args.size ?? DELIVERY_PAGE.defaultSize,
      ),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: CreatedWebhookType,
    args: { projectToken: t.arg.string({ required: false }), input: t.arg({ type: WebhookInput, required: true }) },
    resolve: async (_root, args, ctx) =>
      createWebhook(await resolveProject(ctx.principal, args.projectToken, need('createWebhook')), args.input),
  }),
  updateWebhook: t.field({
    type: WebhookType,
    args: {
      projectToken: t.arg.string({ required: false }),
      id: t.arg.int({ required: true }),
      input: t.arg({ type: WebhookInput, required: true }),
    },
    resolve: async (_root, args, ctx) =>
      updateWebhook(await resolveProject(ctx.principal, args.projectToken, need('updateWebhook')), args.id, args.input),
  }),
  deleteWebhook: t.boolean({
    args: { projectToken: t.arg.string({ required: false }), id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await deleteWebhook(await resolveProject(ctx.principal, args.projectToken, need('deleteWebhook')), args.id);
      return true;
    },
  }),
  testWebhook: t.field({
    type: 'ID',
    description:
      'Queues a TEST delivery (signed like any other, after the pending ones); its outcome is in webhookDeliveries. Returns its id.',
    args: { projectToken: t.arg.string({ required: false }), id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) =>
      String(await testWebhook(await resolveProject(ctx.principal, args.projectToken, need('testWebhook')), args.id)),
  }),
}));

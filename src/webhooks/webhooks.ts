// A project's webhooks: create (the signing secret is shown once, then only
// kept sealed), list, update (re-enabling clears the automatic disabling),
// delete, test-send (a TEST delivery through the outbox), and the delivery log.
import { randomBytes } from 'node:crypto';
import { prisma } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { TRIGGERS, type Trigger } from '../content/changes.js';
import { checkWebhookUrl } from './safe-target.js';
import { sealSecret } from './secret-store.js';
import { wakeDispatchers } from './dispatcher.js';

export const MAX_WEBHOOKS_PER_PROJECT = 20;

export interface WebhookView {
  id: number;
  url: string;
  triggers: Trigger[];
  enabled: boolean;
  /** Why it was disabled automatically (null when enabled or disabled by hand). */
  disabledReason: string | null;
  consecutiveFailures: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookInput {
  url?: string | null;
  triggers?: readonly string[] | null;
  enabled?: boolean | null;
}

const VIEW = {
  id: true,
  url: true,
  triggers: true,
  enabled: true,
  disabledReason: true,
  consecutiveFailures: true,
  createdAt: true,
  updatedAt: true,
} as const;

function parseUrl(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw badRequest('url is required');
  const url = checkWebhookUrl(value.trim());
  if (typeof url === 'string') throw badRequest(url);
  return url.toString();
}

function parseTriggers(value: readonly string[] | null | undefined): Trigger[] {
  if (!value || value.length === 0) throw badRequest(`triggers must name at least one of ${TRIGGERS.join(', ')}`);
  const unknown = value.filter((t) => !(TRIGGERS as readonly string[]).includes(t));
  if (unknown.length) throw badRequest(`unknown trigger ${unknown.join(', ')}; triggers are ${TRIGGERS.join(', ')}`);
  return [...new Set(value)] as Trigger[];
}

async function webhookOf(projectId: number, id: number) {
  const row = await prisma().webhook.findFirst({ where: { id, projectId }, select: VIEW });
  if (!row) throw notFound(`webhook ${id} not found`);
  return row as WebhookView;
}

/** Creates a webhook; the answer carries its signing secret, never shown again. */
export async function createWebhook(
  projectId: number,
  input: WebhookInput,
): Promise<{ webhook: WebhookView; secret: string }> {
  const url = parseUrl(input.url);
  const triggers = parseTriggers(input.triggers);
  if ((await prisma().webhook.count({ where: { projectId } })) >= MAX_WEBHOOKS_PER_PROJECT) {
    throw badRequest(`a project has at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks`);
  }
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const webhook = await prisma().webhook.create({
    data: { projectId, url, triggers, enabled: input.enabled ?? true, secretSealed: sealSecret(secret, projectId) },
    select: VIEW,
  });
  return { webhook: webhook as WebhookView, secret };
}

export async function listWebhooks(projectId: number): Promise<WebhookView[]> {
  return (await prisma().webhook.findMany({
    where: { projectId },
    orderBy: { id: 'asc' },
    select: VIEW,
  })) as WebhookView[];
}

export async function getWebhook(projectId: number, id: number): Promise<WebhookView> {
  return webhookOf(projectId, id);
}

export async function updateWebhook(projectId: number, id: number, input: WebhookInput): Promise<WebhookView> {
  await webhookOf(projectId, id);
  const data: Record<string, unknown> = { updatedAt: new Date() };
  if (input.url != null) data.url = parseUrl(input.url);
  if (input.triggers != null) data.triggers = parseTriggers(input.triggers);
  if (input.enabled != null) {
    data.enabled = input.enabled;
    // Enabled by hand: the failure run starts over, its pending deliveries go out again.
    if (input.enabled) Object.assign(data, { disabledReason: null, consecutiveFailures: 0 });
  }
  return (await prisma().webhook.update({ where: { id }, data, select: VIEW })) as WebhookView;
}

export async function deleteWebhook(projectId: number, id: number): Promise<void> {
  const { count } = await prisma().webhook.deleteMany({ where: { id, projectId } });
  if (count === 0) throw notFound(`webhook ${id} not found`);
}

/** Queues a TEST delivery (after the webhook's pending ones); returns its id. */
export async function testWebhook(projectId: number, id: number): Promise<bigint> {
  await webhookOf(projectId, id);
  const row = await prisma().webhookDelivery.create({ data: { webhookId: id, trigger: 'TEST' }, select: { id: true } });
  wakeDispatchers();
  return row.id;
}

export interface DeliveryView {
  id: bigint;
  activityId: bigint | null;
  trigger: string;
  state: string;
  attempts: number;
  nextAttemptAt: Date;
  createdAt: Date;
  log: { at: Date; url: string; durationMs: number; status: number | null; error: string | null; response: string }[];
}

export const DELIVERY_PAGE = { defaultSize: 20, maxSize: 100 } as const;

/** The webhook's deliveries, newest first, each with its attempts. */
export async function webhookDeliveries(
  projectId: number,
  id: number,
  page: number,
  size: number,
): Promise<DeliveryView[]> {
  await webhookOf(projectId, id);
  if (!Number.isInteger(page) || page < 0) throw badRequest('page must be an integer of at least 0');
  if (!Number.isInteger(size) || size < 1 || size > DELIVERY_PAGE.maxSize)
    throw badRequest(`size must be between 1 and ${DELIVERY_PAGE.maxSize}`);
  return prisma().webhookDelivery.findMany({
    where: { webhookId: id },
    orderBy: { id: 'desc' },
    skip: page * size,
    take: size,
    select: {
      id: true,
      activityId: true,
      trigger: true,
      state: true,
      attempts: true,
      nextAttemptAt: true,
      createdAt: true,
      log: {
        orderBy: { id: 'asc' },
        select: { at: true, url: true, durationMs: true, status: true, error: true, response: true },
      },
    },
  });
}

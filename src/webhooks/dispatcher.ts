// Sends the outbox (WebhookDelivery rows, queued in the transaction of their
// change: src/content/changes.ts). Runs next to the job worker on every
// instance. At least once, in order per webhook: only a webhook's oldest
// pending delivery is ever attempted, and a lease keeps two instances from
// sending it together. A failed attempt is retried after a delay doubling from
// WEBHOOK_RETRY_BASE_MS (at most an hour), until WEBHOOK_RETRY_FOR_MS after it
// was queued; WEBHOOK_DISABLE_AFTER_FAILURES failed attempts in a row disable
// the webhook (shown with the reason; re-enabled by hand).
import { prisma } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { recordWebhookDelivery } from '../metrics.js';
import type { WebhookConfig } from '../config.js';
import { onOutboundQueued } from '../content/outbound-queue.js';
import { pruneHistory } from '../history/retention.js';
import { buildPayload } from './payload.js';
import { openSecret } from './secret-store.js';
import { DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signature } from './signature.js';
import { postSigned } from './send.js';
import { PollLoop } from '../poll-loop.js';

const MAX_DELAY_MS = 3_600_000;
/** Deliveries attempted at once (each to a different webhook). */
const BATCH = 10;
const PRUNE_EVERY_MS = 3_600_000;

interface Claimed {
  id: bigint;
  webhookId: number;
  activityId: bigint | null;
  trigger: string;
  attempts: number;
  createdAt: Date;
  url: string;
  secretSealed: string;
  projectId: number;
}

export function retryDelay(attempts: number, baseMs: number): number {
  return Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

const dispatchers = new Set<WebhookDispatcher>();

/** Called after a delivery is queued outside a change (test-send), so it goes out without waiting for a poll. */
export function wakeDispatchers(): void {
  for (const dispatcher of dispatchers) dispatcher.wake();
}

export class WebhookDispatcher {
  private readonly loop: PollLoop;
  private unsubscribe: (() => void) | undefined;
  private lastPrune = 0;

  constructor(private readonly options: { pollMs: number; leaseMs: number; config: WebhookConfig }) {
    this.loop = new PollLoop({
      failure: 'webhook delivery failed',
      sleepMs: () => this.soonest(),
      round: () => this.round(),
    });
  }

  start(): void {
    dispatchers.add(this);
    this.unsubscribe = onOutboundQueued(() => this.wake());
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    dispatchers.delete(this);
    this.unsubscribe?.();
    await this.loop.stop();
  }

  private async round(): Promise<boolean> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((d) => this.deliver(d)));
    if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      await pruneHistory();
    }
    return claimed.length > 0;
  }

  /** Poll interval, shortened when a retry falls due earlier. */
  private nextDue: number | undefined;
  private soonest(): number {
    const due = this.nextDue !== undefined ? Math.max(10, this.nextDue - Date.now()) : this.options.pollMs;
    this.nextDue = undefined;
    return Math.min(due, this.options.pollMs);
  }

  /** The oldest pending delivery of each enabled webhook, when due and not leased, leased to this instance. */
  private async claim(): Promise<Claimed[]> {
    return prisma().$queryRaw<Claimed[]>(Prisma.sql`/* webhooks:claim */
       WITH heads AS (
         SELECT DISTINCT ON (d."webhookId") d.id, d."nextAttemptAt", d."leaseExpiresAt"
           FROM "WebhookDelivery" d JOIN "Webhook" w ON w.id = d."webhookId" AND w.enabled
          WHERE d.state = 'PENDING'
          ORDER BY d."webhookId", d.id
       ), leased AS (
         UPDATE "WebhookDelivery" d SET "leaseExpiresAt" = now() + make_interval(secs => ${this.options.leaseMs}::float8 / 1000), attempts = d.attempts + 1
          WHERE d.id IN (SELECT id FROM heads WHERE "nextAttemptAt" <= now() AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < now()) ORDER BY id LIMIT ${BATCH})
            AND d.state = 'PENDING' AND (d."leaseExpiresAt" IS NULL OR d."leaseExpiresAt" < now())
          RETURNING d.id, d."webhookId", d."activityId", d.trigger, d.attempts, d."createdAt"
       )
       SELECT l.*, w.url, w."secretSealed", w."projectId" FROM leased l JOIN "Webhook" w ON w.id = l."webhookId"`);
  }

  private async deliver(d: Claimed): Promise<void> {
    const payload = await buildPayload(d, d.projectId);
    // A CHANGE that changed nothing (a write of the same text), or a change pruned meanwhile: nothing to tell.
    if (
      !payload ||
      (payload.trigger === 'CHANGE' && payload.changesCount === 0 && Object.keys(payload.details).length === 0)
    ) {
      await prisma().$executeRaw(
        Prisma.sql`/* webhooks:skip */ UPDATE "WebhookDelivery" SET state = 'SKIPPED', "leaseExpiresAt" = NULL WHERE id = ${d.id}::bigint`,
      );
      return;
    }
    const body = JSON.stringify(payload);
    const timestamp = Math.floor(Date.now() / 1000);
    const result = await postSigned(
      d.url,
      body,
      {
        [DELIVERY_HEADER]: String(d.id),
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signature(openSecret(d.secretSealed, d.projectId), timestamp, body),
      },
      { allowPrivate: this.options.config.allowPrivate, timeoutMs: this.options.config.timeoutMs },
    );
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const { retryBaseMs, retryForMs, disableAfterFailures } = this.options.config;
    const delay = retryDelay(d.attempts, retryBaseMs);
    const givenUp = !ok && Date.now() + delay > d.createdAt.getTime() + retryForMs;
    if (!ok && !givenUp) this.nextDue = Math.min(this.nextDue ?? Infinity, Date.now() + delay);
    recordWebhookDelivery(ok ? 'delivered' : givenUp ? 'failed' : 'retrying');
    await prisma().$transaction(async (tx) => {
      await tx.webhookAttempt.create({
        data: {
          deliveryId: d.id,
          url: d.url,
          durationMs: result.durationMs,
          status: result.status,
          error: result.error?.slice(0, 500) ?? null,
          response: result.response,
        },
      });
      const state = ok ? 'DELIVERED' : givenUp ? 'FAILED' : 'PENDING';
      await tx.$executeRaw(Prisma.sql`/* webhooks:attempted */
        UPDATE "WebhookDelivery" SET state = ${state}, "leaseExpiresAt" = NULL, "nextAttemptAt" = now() + make_interval(secs => ${ok ? 0 : delay}::float8 / 1000) WHERE id = ${d.id}::bigint`);
      const reason = `disabled after ${disableAfterFailures} failed delivery attempts in a row (last: ${result.status ?? result.error}); re-enable it to resume`;
      await tx.$executeRaw(Prisma.sql`/* webhooks:health */
        UPDATE "Webhook" SET "consecutiveFailures" = CASE WHEN ${ok} THEN 0 ELSE "consecutiveFailures" + 1 END,
                enabled = enabled AND (${ok} OR "consecutiveFailures" + 1 < ${disableAfterFailures}),
                "disabledReason" = CASE WHEN NOT ${ok} AND "consecutiveFailures" + 1 >= ${disableAfterFailures} AND enabled
                                        THEN ${reason} ELSE "disabledReason" END
          WHERE id = ${d.webhookId}`);
    });
  }
}

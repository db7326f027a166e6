// Signing deliveries: HMAC-SHA256 over `<timestamp>.<body>` with the
// webhook's secret. The receiver recomputes it, compares in constant time and
// rejects a timestamp too far from its clock (replays); the recipe is in
// docs/history-and-webhooks.md.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-webhook-signature';
export const TIMESTAMP_HEADER = 'x-webhook-timestamp';
export const DELIVERY_HEADER = 'x-webhook-id';

export function signature(secret: string, timestamp: number, body: string): string {
  return 'v1=' + createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** What a receiver does (used by the tests as a receiver would). */
export function verifySignature(
  secret: string,
  headers: { timestamp: string; signature: string },
  body: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp)) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signature(secret, timestamp, body));
  const given = Buffer.from(headers.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

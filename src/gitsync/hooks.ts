// The forge's push webhook: verified, then a pull of the target branch.
// GitHub signs the body with the secret (X-Hub-Signature-256: sha256=<HMAC>);
// GitLab sends the secret itself (X-Gitlab-Token). Both are compared in
// constant time. Only a push to the connection's branch starts a pull; the
// pull runs after the answer (forges give a webhook about ten seconds).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.js';
import { prisma } from '../db.js';
import { AppError, badRequest, forbidden, notFound } from '../errors.js';
import { logger } from '../log.js';
import { LEASE_MS, webhookSecretOf } from './connections.js';
import { pullFromGit, type PullResult } from './pull.js';

export interface HookOutcome {
  /** What the forge is told. */
  message: string;
  /** The pull started (awaited by tests; the HTTP route does not wait). */
  pull?: Promise<PullResult | undefined>;
}

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  // timingSafeEqual needs equal lengths; comparing with itself keeps the time independent of where they differ.
  return a.length === b.length ? timingSafeEqual(a, b) : (timingSafeEqual(b, b), false);
}

/** How long a push's pull waits for a running sync of the connection to end (a push must not be missed). */
export const HOOK_WAIT_MS = LEASE_MS;

async function pullWhenFree(projectId: number, config: Config): Promise<PullResult> {
  const end = Date.now() + HOOK_WAIT_MS;
  for (;;) {
    try {
      return await pullFromGit({ projectId, trigger: 'WEBHOOK', config });
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'CONFLICT') || Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/** Verifies the request as GitHub's or GitLab's; throws FORBIDDEN when neither signature matches. */
export function verifyForgeRequest(secret: string, headers: Headers, body: Buffer): 'GITHUB' | 'GITLAB' {
  const signature = header(headers, 'x-hub-signature-256');
  if (signature !== undefined) {
    const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    if (sameSecret(signature.trim().toLowerCase(), expected)) return 'GITHUB';
    throw forbidden('X-Hub-Signature-256 does not match the body signed with the webhook secret');
  }
  const token = header(headers, 'x-gitlab-token');
  if (token !== undefined) {
    if (sameSecret(token, secret)) return 'GITLAB';
    throw forbidden('X-Gitlab-Token is not the webhook secret');
  }
  throw forbidden('The request carries neither X-Hub-Signature-256 (GitHub) nor X-Gitlab-Token (GitLab)');
}

export async function receiveForgeHook(
  connectionId: number,
  headers: Headers,
  body: Buffer,
  config: Config,
): Promise<HookOutcome> {
  const row = Number.isSafeInteger(connectionId)
    ? await prisma().gitConnection.findUnique({ where: { id: connectionId } })
    : null;
  if (!row) throw notFound(`No Git connection ${connectionId}`);
  const forge = verifyForgeRequest(webhookSecretOf(row), headers, body);
  const event = forge === 'GITHUB' ? header(headers, 'x-github-event') : header(headers, 'x-gitlab-event');
  if (forge === 'GITHUB' && event === 'ping') return { message: 'pong' };
  const isPush = forge === 'GITHUB' ? event === 'push' : event === 'Push Hook';
  if (!isPush) return { message: `ignored: ${event ?? 'no'} event (only pushes start a pull)` };
  let payload: { ref?: unknown };
  try {
    // GitHub's "application/x-www-form-urlencoded" content type sends the JSON as the field `payload`.
    const text = body.toString('utf8');
    payload = JSON.parse(text.startsWith('payload=') ? (new URLSearchParams(text).get('payload') ?? '') : text) as {
      ref?: unknown;
    };
  } catch {
    throw badRequest('The push event body is not JSON');
  }
  if (payload.ref !== `refs/heads/${row.branch}`)
    return { message: `ignored: a push to ${String(payload.ref)}, not to refs/heads/${row.branch}` };
  const pull = pullWhenFree(row.projectId, config).catch((error: Error) => {
    // Recorded in the sync log (a failed run).
    logger().warn({ connectionId, err: error.message }, 'git sync: pull after a push webhook failed');
    return undefined;
  });
  inFlight.add(pull);
  void pull.finally(() => inFlight.delete(pull));
  return { message: `pull of ${row.branch} started`, pull };
}

// Pulls started by webhooks and still running: a service that stops lets them end first (its database is still open).
const inFlight = new Set<Promise<unknown>>();

/** Waits for the pulls that webhooks started (the service's close calls it before closing the database). */
export async function settleForgeHooks(): Promise<void> {
  while (inFlight.size) await Promise.allSettled([...inFlight]);
}

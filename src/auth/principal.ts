// Resolves the credentials of a request into a principal. The three schemes
// of the contract: `X-Service-Token: <apiKey>` (one project), `Authorization:
// Basic base64(login:password)` and `Authorization: <personal token>` (an
// account). The vendor's own clients send the project API key as
// `X-SimpleLocalize-Token` (spec/real-clients.md): the same scheme, the same
// rules; both headers with different values are refused rather than guessed.
// Lookups go through a hash index; the final comparison is constant-time.
// The web console signs in to a session (sessions.ts): its cookie is the
// account's credential when the request carries no other, and only on GraphQL
// (REST routes name their scheme, and a session is none of them).
// An in-context token (`X-InContext-Token`, src/in-context/tokens.ts) is the
// credential of a running application's in-context editor: GraphQL only, one
// project, and only from an origin the project allows (the request's Origin,
// which a page cannot forge; a request without one is refused).
import { parseCookie as parseCookies } from 'cookie';
import { prisma } from '../db.js';
import { dummyPasswordHash, safeEqual, sha256, verifyPassword } from './secrets.js';
import { CSRF_HEADER, findSession, SESSION_COOKIE } from './sessions.js';
import { cachedCredential } from './credential-cache.js';
import { findInContextToken, IN_CONTEXT_HEADER } from './in-context-credential.js';

export type Scheme = 'apiKey' | 'basic' | 'personalToken' | 'session' | 'inContext';

export type Principal =
  | { kind: 'anonymous' }
  /** Credentials were given but are wrong (reason: why, when more than "invalid"). */
  | { kind: 'invalid'; scheme: Scheme; reason?: string }
  | { kind: 'account'; accountId: number; scheme: 'basic' | 'personalToken' }
  /** csrf: the request carried the session's CSRF token (mutations need it: src/http/console-session.ts). */
  | { kind: 'account'; accountId: number; scheme: 'session'; sessionId: number; csrf: boolean }
  | { kind: 'project'; projectId: number; scheme: 'apiKey' }
  /**
   * An in-context token: its project only, what IN_CONTEXT_PERMISSIONS allow (writing only languageIds
   * when not empty; screenshots when capture). accountId: who made it, the actor of its writes.
   */
  | {
      kind: 'inContext';
      projectId: number;
      tokenId: number;
      languageIds: readonly number[];
      capture: boolean;
      accountId: number | null;
      scheme: 'inContext';
    };

export interface CredentialHeaders {
  get(name: string): string | null;
}

/** The headers that carry a project API key: the contract's name and the vendor's. */
export const API_KEY_HEADERS = ['x-service-token', 'x-simplelocalize-token'] as const;

export const CONFLICTING_API_KEYS =
  'Conflicting credentials: X-Service-Token and X-SimpleLocalize-Token carry different API keys; send one of them';

/**
 * The project API key of a request: undefined when no header carries one,
 * `{conflict: true}` when the two headers carry different keys.
 */
export function apiKeyOf(headers: CredentialHeaders): { key: string } | { conflict: true } | undefined {
  // A header is present when non-empty (as before: a blank value is then a wrong key, not a missing one).
  const values = [
    ...new Set(
      API_KEY_HEADERS.map((name) => headers.get(name))
        .filter((v): v is string => !!v)
        .map((v) => v.trim()),
    ),
  ];
  if (values.length === 0) return undefined;
  return values.length > 1 ? { conflict: true } : { key: values[0]! };
}

/** Which scheme the headers use, without touching the database. */
export function schemeOf(headers: CredentialHeaders): Scheme | undefined {
  if (headers.get(IN_CONTEXT_HEADER)) return 'inContext';
  if (apiKeyOf(headers)) return 'apiKey';
  const authorization = headers.get('authorization');
  if (!authorization) return sessionTokenOf(headers) ? 'session' : undefined;
  return /^Basic\s/i.test(authorization) ? 'basic' : 'personalToken';
}

/**
 * An operator secret (METRICS_TOKEN, ADMIN_TOKEN) sent as `Authorization:
 * Bearer <secret>` (or the bare value), compared in constant time.
 */
export function operatorTokenMatches(authorization: string | undefined, secret: string): boolean {
  if (!authorization) return false;
  return safeEqual(authorization.trim().replace(/^Bearer\s+/i, ''), secret);
}

function sessionTokenOf(headers: CredentialHeaders): string | undefined {
  const cookie = headers.get('cookie');
  return cookie ? parseCookies(cookie)[SESSION_COOKIE] || undefined : undefined;
}

export async function resolvePrincipal(headers: CredentialHeaders): Promise<Principal> {
  const scheme = schemeOf(headers);
  if (!scheme) return { kind: 'anonymous' };
  if (scheme === 'session') {
    const session = await findSession(sessionTokenOf(headers)!, headers.get(CSRF_HEADER));
    if (!session) return { kind: 'invalid', scheme, reason: 'The session has expired or ended; sign in again' };
    // A WebSocket is not bound by the same-origin policy: another site's page could open one with the
    // cookie, so a socket needs the CSRF token (the console sends it in connectionParams) for any operation.
    if (headers.get('upgrade')?.toLowerCase() === 'websocket' && !session.csrf)
      return {
        kind: 'invalid',
        scheme,
        reason: 'A WebSocket signed in by session needs the X-CSRF-Token connection parameter',
      };
    return { kind: 'account', accountId: session.accountId, scheme, sessionId: session.id, csrf: session.csrf };
  }
  if (scheme === 'inContext') return resolveInContext(headers);
  if (scheme === 'apiKey') {
    const apiKey = apiKeyOf(headers)!;
    if ('conflict' in apiKey) return { kind: 'invalid', scheme, reason: CONFLICTING_API_KEYS };
    const { key } = apiKey;
    // Cached by the key's hash (credential-cache.ts); the key itself is compared each time.
    const project = await cachedCredential(`apiKey:${sha256(key)}`, () =>
      prisma()
        .project.findUnique({ where: { apiKeyHash: sha256(key) }, select: { id: true, apiKey: true } })
        .then((p) => p ?? undefined),
    );
    if (project && safeEqual(project.apiKey, key)) return { kind: 'project', projectId: project.id, scheme };
    return { kind: 'invalid', scheme };
  }
  const authorization = headers.get('authorization')!.trim();
  if (scheme === 'basic') {
    const decoded = Buffer.from(authorization.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { kind: 'invalid', scheme };
    const email = decoded.slice(0, colon).trim().toLowerCase();
    const account = await prisma().account.findUnique({ where: { email }, select: { id: true, passwordHash: true } });
    // Verify against a dummy hash when the login is unknown, so both cases take as long.
    const ok = await verifyPassword(decoded.slice(colon + 1), account?.passwordHash ?? (await dummyPasswordHash()));
    return account && ok ? { kind: 'account', accountId: account.id, scheme } : { kind: 'invalid', scheme };
  }
  // GraphQL clients commonly send `Bearer <token>`; the contract's REST form has no prefix.
  const token = authorization.replace(/^Bearer\s+/i, '');
  const hash = sha256(token);
  // Cached (credential-cache.ts): lastUsedAt is written when the token is looked up, so it is exact to the cache's minute.
  const row = await cachedCredential(`personalToken:${hash}`, async () => {
    const found = await prisma().personalToken.findUnique({
      where: { tokenHash: hash },
      select: { id: true, accountId: true, tokenHash: true, expiresAt: true },
    });
    if (found && !expired(found.expiresAt))
      await prisma().personalToken.update({ where: { id: found.id }, data: { lastUsedAt: new Date() } });
    return found ?? undefined;
  });
  if (!row || !safeEqual(row.tokenHash, hash)) return { kind: 'invalid', scheme };
  // The expiry is checked on every request, cached entry or not: a token ends at its time exactly.
  if (expired(row.expiresAt)) return { kind: 'invalid', scheme, reason: 'The personal token has expired' };
  return { kind: 'account', accountId: row.accountId, scheme };
}

async function resolveInContext(headers: CredentialHeaders): Promise<Principal> {
  const scheme = 'inContext';
  // One credential per request: an in-context token beside another is refused rather than guessed.
  if (apiKeyOf(headers) || headers.get('authorization'))
    return { kind: 'invalid', scheme, reason: 'An in-context token cannot be sent with another credential' };
  const hash = sha256(headers.get(IN_CONTEXT_HEADER)!.trim());
  const row = await cachedCredential(`inContext:${hash}`, () => findInContextToken(hash));
  if (!row || !safeEqual(row.tokenHash, hash)) return { kind: 'invalid', scheme, reason: 'Invalid in-context token' };
  // Checked on every request, cached entry or not (a revocation also clears the cache).
  if (row.revokedAt) return { kind: 'invalid', scheme, reason: 'The in-context token has been revoked' };
  if (expired(row.expiresAt)) return { kind: 'invalid', scheme, reason: 'The in-context token has expired' };
  const origin = headers.get('origin');
  if (!origin || !row.origins.includes(origin)) {
    return {
      kind: 'invalid',
      scheme,
      reason: `In-context tokens of this project are accepted only from its allowed origins${origin ? `, not from ${origin}` : ' (the request has no Origin)'}`,
    };
  }
  return {
    kind: 'inContext',
    projectId: row.projectId,
    tokenId: row.id,
    languageIds: row.languageIds,
    capture: row.capture,
    accountId: row.createdById,
    scheme,
  };
}

const expired = (expiresAt: Date | null): boolean => expiresAt !== null && expiresAt.getTime() <= Date.now();

// Web console sessions: sign-in with email and password, a random session
// token in an HttpOnly cookie (only its SHA-256 digest is stored), and a CSRF
// token the console reads from a second, script-readable cookie and sends back
// in the X-CSRF-Token header (double submit, bound to the session).
// Failed sign-ins are limited per account and per client address
// (sign-in-limit.ts). A session that ends closes its live subscriptions on
// every instance (the 'session-ended' event, src/http/session-sockets.ts).
import { randomBytes } from 'node:crypto';
import { stringifySetCookie } from 'cookie';
import { prisma, type Db } from '../db.js';
import { events } from '../events/pubsub.js';
import { dummyPasswordHash, safeEqual, sha256, verifyPassword } from './secrets.js';
import { countSignInAttempt } from './sign-in-limit.js';

export const SESSION_COOKIE = 'lms_session';
export const CSRF_COOKIE = 'lms_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export interface SessionLimits {
  ttlSeconds: number;
  failuresPerAccount: number;
  failuresPerAddress: number;
}

export interface NewSession {
  accountId: number;
  email: string;
  name: string;
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

/**
 * Checks the password and opens a session. Refused with TOO_MANY_REQUESTS once
 * the account or the address has had too many failures in the window (checked
 * before the password, so a correct guess then does not tell either); a wrong
 * login and a wrong password answer the same, in the same time.
 */
export async function signIn(
  email: string,
  password: string,
  address: string,
  limits: SessionLimits,
  userAgent = '',
): Promise<NewSession | undefined> {
  const login = email.trim().toLowerCase();
  const succeeded = await countSignInAttempt(login, address, limits);
  const account = await prisma().account.findUnique({
    where: { email: login },
    select: { id: true, email: true, name: true, passwordHash: true },
  });
  const ok = await verifyPassword(password, account?.passwordHash ?? (await dummyPasswordHash()));
  if (!account || !ok) return undefined;
  await succeeded();
  const now = Date.now();
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now + limits.ttlSeconds * 1000);
  await prisma().session.create({
    data: { accountId: account.id, tokenHash: sha256(token), csrfToken, expiresAt, userAgent: userAgent.slice(0, 300) },
  });
  // Expired sessions of the account go when it signs in again.
  await prisma().session.deleteMany({ where: { accountId: account.id, expiresAt: { lt: new Date(now) } } });
  return { accountId: account.id, email: account.email, name: account.name, token, csrfToken, expiresAt };
}

export interface ActiveSession {
  id: number;
  accountId: number;
  /** True when the request carried the session's CSRF token. */
  csrf: boolean;
}

/** How stale a session's lastUsedAt may get: it is written at most once a minute, not on every request. */
const LAST_USE_PRECISION_MS = 60_000;

/** The live session of a cookie's token, or undefined (unknown or expired). */
export async function findSession(token: string, csrfHeader: string | null): Promise<ActiveSession | undefined> {
  const hash = sha256(token);
  const row = await prisma().session.findUnique({
    where: { tokenHash: hash },
    select: { id: true, accountId: true, tokenHash: true, csrfToken: true, expiresAt: true, lastUsedAt: true },
  });
  const now = Date.now();
  if (!row || !safeEqual(row.tokenHash, hash) || row.expiresAt.getTime() <= now) return undefined;
  if (now - row.lastUsedAt.getTime() >= LAST_USE_PRECISION_MS) {
    await prisma().session.updateMany({
      where: { id: row.id, lastUsedAt: row.lastUsedAt },
      data: { lastUsedAt: new Date(now) },
    });
  }
  return { id: row.id, accountId: row.accountId, csrf: !!csrfHeader && safeEqual(row.csrfToken, csrfHeader) };
}

/**
 * Tells every instance that sessions ended, so that their open WebSockets are
 * closed (src/http/session-sockets.ts). Called after the rows are gone.
 */
export function announceEndedSessions(ids: readonly number[]): void {
  for (const sessionId of ids) {
    try {
      events().publish('session-ended', { sessionId });
    } catch {
      // Redis down: the instances' sweep finds the rows gone.
    }
  }
}

/** Ends a session: its row goes, and its open WebSockets are closed on every instance. */
export async function endSession(id: number): Promise<void> {
  await prisma().session.deleteMany({ where: { id } });
  announceEndedSessions([id]);
}

export interface SessionSummary {
  id: number;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
  userAgent: string;
}

/** The account's live sessions, the most recently used first. */
export async function listSessions(accountId: number): Promise<SessionSummary[]> {
  return prisma().session.findMany({
    where: { accountId, expiresAt: { gt: new Date() } },
    select: { id: true, createdAt: true, lastUsedAt: true, expiresAt: true, userAgent: true },
    orderBy: [{ lastUsedAt: 'desc' }, { id: 'desc' }],
  });
}

/** Ends one session of the account (its sockets closed everywhere); false when it has no such session. */
export async function endAccountSession(accountId: number, id: number): Promise<boolean> {
  const ended = (await prisma().session.deleteMany({ where: { id, accountId } })).count > 0;
  if (ended) announceEndedSessions([id]);
  return ended;
}

/**
 * Deletes every session of the account but `keep` (the request's own, if any)
 * and returns their ids. In a transaction (`db`), the caller announces them
 * (announceEndedSessions) once it has committed.
 */
export async function endOtherSessions(
  accountId: number,
  keep: number | undefined,
  db: Db = prisma(),
): Promise<number[]> {
  const where = { accountId, ...(keep !== undefined ? { id: { not: keep } } : {}) };
  const ids = (await db.session.findMany({ where, select: { id: true } })).map((s) => s.id);
  await db.session.deleteMany({ where: { id: { in: ids } } });
  if (db === prisma()) announceEndedSessions(ids);
  return ids;
}

/** Set-Cookie values of a new session (secure: the service is reached over HTTPS). */
export function sessionCookies(session: NewSession, secure: boolean): string[] {
  const maxAge = Math.max(1, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000));
  const common = { path: '/', sameSite: 'strict' as const, secure, maxAge };
  return [
    stringifySetCookie({ name: SESSION_COOKIE, value: session.token, ...common, httpOnly: true }),
    stringifySetCookie({ name: CSRF_COOKIE, value: session.csrfToken, ...common }),
  ];
}

/** Set-Cookie values that remove both cookies. */
export function clearedCookies(secure: boolean): string[] {
  const common = { path: '/', sameSite: 'strict' as const, secure, maxAge: 0, expires: new Date(0) };
  return [
    stringifySetCookie({ name: SESSION_COOKIE, value: '', ...common, httpOnly: true }),
    stringifySetCookie({ name: CSRF_COOKIE, value: '', ...common }),
  ];
}

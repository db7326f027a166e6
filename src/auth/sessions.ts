// Web console sessions: sign-in with email and password, a random session
// token in an HttpOnly cookie (only its SHA-256 digest is stored), and a CSRF
// token the console reads from a second, script-readable cookie and sends back
// in the X-CSRF-Token header (double submit, bound to the session).
// Failed sign-ins are limited per account and per client address
// (sign-in-limit.ts). A session that ends closes its live subscriptions on
// every instance (the 'session-ended' event, src/http/session-sockets.ts).
import { randomBytes } from 'node:crypto';
import { stringifySetCookie } from 'cookie';
import { prisma } from '../db.js';
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
export async function signIn(email: string, password: string, address: string, limits: SessionLimits): Promise<NewSession | undefined> {
  const login = email.trim().toLowerCase();
  const succeeded = await countSignInAttempt(login, address, limits);
  const account = await prisma().account.findUnique({ where: { email: login }, select: { id: true, email: true, passwordHash: true } });
  const ok = await verifyPassword(password, account?.passwordHash ?? (await dummyPasswordHash()));
  if (!account || !ok) return undefined;
  await succeeded();
  const now = Date.now();
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now + limits.ttlSeconds * 1000);
  await prisma().session.create({ data: { accountId: account.id, tokenHash: sha256(token), csrfToken, expiresAt } });
  // Expired sessions of the account go when it signs in again.
  await prisma().session.deleteMany({ where: { accountId: account.id, expiresAt: { lt: new Date(now) } } });
  return { accountId: account.id, email: account.email, token, csrfToken, expiresAt };
}

export interface ActiveSession {
  id: number;
  accountId: number;
  /** True when the request carried the session's CSRF token. */
  csrf: boolean;
}

/** The live session of a cookie's token, or undefined (unknown or expired). */
export async function findSession(token: string, csrfHeader: string | null): Promise<ActiveSession | undefined> {
  const hash = sha256(token);
  const row = await prisma().session.findUnique({ where: { tokenHash: hash }, select: { id: true, accountId: true, tokenHash: true, csrfToken: true, expiresAt: true } });
  if (!row || !safeEqual(row.tokenHash, hash) || row.expiresAt.getTime() <= Date.now()) return undefined;
  return { id: row.id, accountId: row.accountId, csrf: !!csrfHeader && safeEqual(row.csrfToken, csrfHeader) };
}

/** Ends a session: its row goes, and its open WebSockets are closed on every instance. */
export async function endSession(id: number): Promise<void> {
  await prisma().session.deleteMany({ where: { id } });
  try {
    events().publish('session-ended', { sessionId: id });
  } catch {
    // Redis down: the instances' sweep (src/http/session-sockets.ts) finds the row gone.
  }
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
  return [stringifySetCookie({ name: SESSION_COOKIE, value: '', ...common, httpOnly: true }), stringifySetCookie({ name: CSRF_COOKIE, value: '', ...common })];
}

// Web console sessions: sign-in with email and password, a random session
// token in an HttpOnly cookie (only its SHA-256 digest is stored), and a CSRF
// token the console reads from a second, script-readable cookie and sends back
// in the X-CSRF-Token header (double submit, bound to the session).
// Failed sign-ins are limited per account and per client address.
import { randomBytes } from 'node:crypto';
import { stringifySetCookie } from 'cookie';
import { prisma, type Db } from '../db.js';
import { tooManyRequests } from '../errors.js';
import { dummyPasswordHash, safeEqual, sha256, verifyPassword } from './secrets.js';

export const SESSION_COOKIE = 'lms_session';
export const CSRF_COOKIE = 'lms_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export interface SessionLimits {
  ttlSeconds: number;
  failuresPerAccount: number;
  failuresPerAddress: number;
}

const FAILURE_WINDOW_MS = 15 * 60_000;

/**
 * Failed sign-ins in the current window, per key ("a:<email>", "ip:<address>").
 * In process: each instance counts its own (a note in docs/console.md).
 */
const failures = new Map<string, { count: number; resetAt: number }>();

function failureCount(key: string, now: number): { count: number; resetAt: number } {
  const entry = failures.get(key);
  if (!entry || entry.resetAt <= now) return { count: 0, resetAt: now + FAILURE_WINDOW_MS };
  return entry;
}

function recordFailure(key: string, now: number): void {
  const entry = failureCount(key, now);
  failures.set(key, { count: entry.count + 1, resetAt: entry.resetAt });
  // Keep the map from growing without bound under a spray of addresses.
  if (failures.size > 100_000) for (const [k, v] of failures) if (v.resetAt <= now) failures.delete(k);
}

/** Forgets the counted failures (tests). */
export function resetSignInFailures(): void {
  failures.clear();
}

export interface NewSession {
  accountId: number;
  email: string;
  name: string;
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

/** The failure counters a password attempt of an account from an address is limited by. */
function attemptKeys(login: string, address: string, limits: SessionLimits) {
  return [
    { key: `a:${login}`, max: limits.failuresPerAccount },
    { key: `ip:${address}`, max: limits.failuresPerAddress },
  ];
}

/**
 * Refuses a password attempt with TOO_MANY_REQUESTS once the account or the
 * address has had too many failures in 15 minutes (checked before the
 * password, so a correct guess then does not tell either).
 */
export function checkPasswordAttempts(email: string, address: string, limits: SessionLimits): void {
  const now = Date.now();
  for (const { key, max } of attemptKeys(email.trim().toLowerCase(), address, limits)) {
    const entry = failureCount(key, now);
    if (entry.count >= max) {
      const retry = Math.max(1, Math.ceil((entry.resetAt - now) / 1000));
      throw tooManyRequests(`Too many failed sign-ins; retry in ${retry} s`, retry);
    }
  }
}

/** Counts a wrong password (a sign-in, or the current password of a password change). */
export function recordPasswordFailure(email: string, address: string, limits: SessionLimits): void {
  const now = Date.now();
  for (const { key } of attemptKeys(email.trim().toLowerCase(), address, limits)) recordFailure(key, now);
}

/**
 * Checks the password and opens a session. Refused with TOO_MANY_REQUESTS as
 * checkPasswordAttempts says; a wrong login and a wrong password answer the
 * same, in the same time.
 */
export async function signIn(email: string, password: string, address: string, limits: SessionLimits, userAgent = ''): Promise<NewSession | undefined> {
  const login = email.trim().toLowerCase();
  const now = Date.now();
  checkPasswordAttempts(login, address, limits);
  const account = await prisma().account.findUnique({ where: { email: login }, select: { id: true, email: true, name: true, passwordHash: true } });
  const ok = await verifyPassword(password, account?.passwordHash ?? (await dummyPasswordHash()));
  if (!account || !ok) {
    recordPasswordFailure(login, address, limits);
    return undefined;
  }
  failures.delete(`a:${login}`);
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now + limits.ttlSeconds * 1000);
  await prisma().session.create({ data: { accountId: account.id, tokenHash: sha256(token), csrfToken, expiresAt, userAgent: userAgent.slice(0, 300) } });
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
  const row = await prisma().session.findUnique({ where: { tokenHash: hash }, select: { id: true, accountId: true, tokenHash: true, csrfToken: true, expiresAt: true, lastUsedAt: true } });
  const now = Date.now();
  if (!row || !safeEqual(row.tokenHash, hash) || row.expiresAt.getTime() <= now) return undefined;
  if (now - row.lastUsedAt.getTime() >= LAST_USE_PRECISION_MS) {
    await prisma().session.updateMany({ where: { id: row.id, lastUsedAt: row.lastUsedAt }, data: { lastUsedAt: new Date(now) } });
  }
  return { id: row.id, accountId: row.accountId, csrf: !!csrfHeader && safeEqual(row.csrfToken, csrfHeader) };
}

export async function endSession(id: number): Promise<void> {
  await prisma().session.deleteMany({ where: { id } });
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

/** Ends one session of the account; false when it has no such session. */
export async function endAccountSession(accountId: number, id: number): Promise<boolean> {
  return (await prisma().session.deleteMany({ where: { id, accountId } })).count > 0;
}

/** Ends every session of the account but `keep` (the request's own, if any); the number ended. */
export async function endOtherSessions(accountId: number, keep: number | undefined, db: Db = prisma()): Promise<number> {
  return (await db.session.deleteMany({ where: { accountId, ...(keep !== undefined ? { id: { not: keep } } : {}) } })).count;
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

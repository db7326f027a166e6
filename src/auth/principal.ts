// Resolves the credentials of a request into a principal. The three schemes
// of the contract: `X-Service-Token: <apiKey>` (one project), `Authorization:
// Basic base64(login:password)` and `Authorization: <personal token>` (an
// account). Lookups go through a hash index; the final comparison is constant-time.
import { prisma } from '../db.js';
import { dummyPasswordHash, safeEqual, sha256, verifyPassword } from './secrets.js';

export type Scheme = 'apiKey' | 'basic' | 'personalToken';

export type Principal =
  | { kind: 'anonymous' }
  /** Credentials were given but are wrong. */
  | { kind: 'invalid'; scheme: Scheme }
  | { kind: 'account'; accountId: number; scheme: 'basic' | 'personalToken' }
  | { kind: 'project'; projectId: number; scheme: 'apiKey' };

export interface CredentialHeaders {
  get(name: string): string | null;
}

/** Which scheme the headers use, without touching the database. */
export function schemeOf(headers: CredentialHeaders): Scheme | undefined {
  if (headers.get('x-service-token')) return 'apiKey';
  const authorization = headers.get('authorization');
  if (!authorization) return undefined;
  return /^Basic\s/i.test(authorization) ? 'basic' : 'personalToken';
}

export async function resolvePrincipal(headers: CredentialHeaders): Promise<Principal> {
  const scheme = schemeOf(headers);
  if (!scheme) return { kind: 'anonymous' };
  if (scheme === 'apiKey') {
    const key = headers.get('x-service-token')!.trim();
    const project = await prisma().project.findUnique({ where: { apiKeyHash: sha256(key) }, select: { id: true, apiKey: true } });
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
  const row = await prisma().personalToken.findUnique({ where: { tokenHash: hash }, select: { id: true, accountId: true, tokenHash: true } });
  if (!row || !safeEqual(row.tokenHash, hash)) return { kind: 'invalid', scheme };
  await prisma().personalToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  return { kind: 'account', accountId: row.accountId, scheme };
}

// An account's personal tokens: issued with a name and an optional expiry
// (shown once, stored as a SHA-256 digest: accounts.ts createPersonalToken),
// listed with their last use, revoked. Revoking ends the token at once on
// every instance (forgetCredentials); an expired one is refused by the
// principal's lookup (src/auth/principal.ts).
import { prisma } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { forgetCredentials } from '../auth/credential-cache.js';
import { sha256 } from '../auth/secrets.js';
import { createPersonalToken } from './accounts.js';

const MAX_NAME = 100;
/** Tokens an account may hold: a bound on rows, far above any real use. */
const MAX_TOKENS = 100;

export interface PersonalTokenSummary {
  id: number;
  name: string;
  /** The first characters of the token, to tell tokens apart. */
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

const SUMMARY = { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, expiresAt: true } as const;

export async function issuePersonalToken(
  accountId: number,
  input: { name: string; expiresAt?: Date | null },
): Promise<{ token: string; personalToken: PersonalTokenSummary }> {
  const name = input.name.trim();
  if (name === '') throw badRequest('name is required: say what the token is for');
  if (name.length > MAX_NAME) throw badRequest(`name must have at most ${MAX_NAME} characters`);
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw badRequest('expiresAt must be in the future');
  if ((await prisma().personalToken.count({ where: { accountId } })) >= MAX_TOKENS) {
    throw badRequest(`An account holds at most ${MAX_TOKENS} personal tokens; revoke one first`);
  }
  const token = await createPersonalToken(accountId, name, undefined, expiresAt);
  const personalToken = await prisma().personalToken.findUniqueOrThrow({
    where: { tokenHash: sha256(token) },
    select: SUMMARY,
  });
  return { token, personalToken };
}

/** The account's tokens, newest first (expired ones too, marked by expiresAt, until revoked). */
export async function listPersonalTokens(accountId: number): Promise<PersonalTokenSummary[]> {
  return prisma().personalToken.findMany({ where: { accountId }, select: SUMMARY, orderBy: { id: 'desc' } });
}

/** Revokes one of the account's tokens; NOT_FOUND for any other id (another account's included). */
export async function revokePersonalToken(accountId: number, id: number): Promise<void> {
  const { count } = await prisma().personalToken.deleteMany({ where: { id, accountId } });
  if (count === 0) throw notFound(`Personal token ${id} not found`);
  await forgetCredentials();
}

// In-context tokens (docs/in-context.md): the credential a running application
// carries so that its translators can edit texts in place. Per project, scoped
// to some languages, short-lived and revocable; only the SHA-256 of the token
// is stored. What the token may do is decided in src/projects/access.ts by the
// matrix of src/teams/permissions.ts (IN_CONTEXT_PERMISSIONS); from where it
// may be used (the project's allowed origins) is checked when the request's
// credential is resolved (src/auth/principal.ts) and by CORS (src/http/in-context-cors.ts).
import { Prisma } from '../generated/prisma/client.js';
import { prisma } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { randomToken, sha256 } from '../auth/secrets.js';
import { forgetCredentials } from '../auth/credential-cache.js';
import { originsOfSettings } from '../auth/in-context-credential.js';
import { readSettings, updateSettings } from '../projects/settings.js';

export { IN_CONTEXT_HEADER } from '../auth/in-context-credential.js';
export const TOKEN_PREFIX = 'ict_';
/** Short-lived by design: a day by default, a month at most. */
export const DEFAULT_LIFETIME_HOURS = 24;
export const MAX_LIFETIME_HOURS = 24 * 31;
export const MAX_ORIGINS = 20;

export interface InContextTokenInfo {
  id: number;
  name: string;
  prefix: string;
  languages: string[];
  capture: boolean;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdBy: string | null;
}

export interface CreateTokenOptions {
  projectId: number;
  accountId: number | null;
  name?: string | null;
  /** Language keys it may write; empty or absent: every language. */
  languages?: readonly string[] | null;
  capture?: boolean | null;
  lifetimeHours?: number | null;
}

/** Creates a token; the only time its value is told. */
export async function createInContextToken(
  options: CreateTokenOptions,
): Promise<{ token: string; info: InContextTokenInfo }> {
  const hours = options.lifetimeHours ?? DEFAULT_LIFETIME_HOURS;
  if (!Number.isFinite(hours) || hours <= 0 || hours > MAX_LIFETIME_HOURS)
    throw badRequest(`lifetimeHours must be more than 0 and at most ${MAX_LIFETIME_HOURS}`);
  const name = (options.name ?? '').trim();
  if (name.length > 100) throw badRequest('name is longer than 100 characters');
  const keys = [...new Set(options.languages ?? [])];
  const languages = keys.length
    ? await prisma().language.findMany({
        where: { projectId: options.projectId, key: { in: keys } },
        select: { id: true, key: true },
      })
    : [];
  const unknown = keys.filter((k) => !languages.some((l) => l.key === k));
  if (unknown.length) throw badRequest(`Unknown language: ${unknown.join(', ')}`);
  const token = randomToken(TOKEN_PREFIX, 32);
  const row = await prisma().inContextToken.create({
    data: {
      projectId: options.projectId,
      name,
      tokenHash: sha256(token),
      prefix: token.slice(0, TOKEN_PREFIX.length + 6),
      languageIds: languages.map((l) => l.id),
      capture: !!options.capture,
      createdById: options.accountId,
      expiresAt: new Date(Date.now() + hours * 3_600_000),
    },
    select: { id: true },
  });
  const [info] = await listInContextTokens(options.projectId, row.id);
  return { token, info: info! };
}

/** The project's tokens (or one of them), newest first, revoked and expired ones included. */
export async function listInContextTokens(projectId: number, id?: number): Promise<InContextTokenInfo[]> {
  const rows = await prisma().inContextToken.findMany({
    where: { projectId, ...(id === undefined ? {} : { id }) },
    orderBy: { id: 'desc' },
    include: { createdBy: { select: { name: true, email: true } } },
  });
  const languageIds = [...new Set(rows.flatMap((r) => r.languageIds))];
  const languages = new Map(
    (await prisma().language.findMany({ where: { id: { in: languageIds } }, select: { id: true, key: true } })).map(
      (l) => [l.id, l.key],
    ),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    // A language deleted since is no longer named (nor writable).
    languages: r.languageIds.map((l) => languages.get(l)).filter((k): k is string => !!k),
    capture: r.capture,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    revokedAt: r.revokedAt,
    lastUsedAt: r.lastUsedAt,
    createdBy: r.createdBy ? r.createdBy.name || r.createdBy.email : null,
  }));
}

/** Revokes a token of the project: refused from the next request on, on every instance. */
export async function revokeInContextToken(projectId: number, id: number): Promise<InContextTokenInfo> {
  const { count } = await prisma().inContextToken.updateMany({
    where: { id, projectId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0 && !(await prisma().inContextToken.findFirst({ where: { id, projectId }, select: { id: true } }))) {
    throw notFound(`In-context token ${id} not found`);
  }
  await forgetCredentials();
  return (await listInContextTokens(projectId, id))[0]!;
}

/** The origins (scheme://host[:port]) the project's in-context tokens may be used from. */
export async function inContextOrigins(projectId: number): Promise<string[]> {
  return originsOfSettings(await readSettings(projectId));
}

/** An origin as a browser sends it: scheme, host and port only, lower case, without the default port. */
export function normalizeOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw badRequest(`Not an origin: ${JSON.stringify(value)} (expected scheme://host[:port])`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badRequest(`Not an http(s) origin: ${JSON.stringify(value)}`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw badRequest(`An origin has no path, query or credentials: ${JSON.stringify(value)}`);
  }
  return url.origin;
}

export async function setInContextOrigins(projectId: number, origins: readonly string[]): Promise<string[]> {
  const normalized = [...new Set(origins.map(normalizeOrigin))];
  if (normalized.length > MAX_ORIGINS) throw badRequest(`At most ${MAX_ORIGINS} origins`);
  await updateSettings(projectId, { inContextOrigins: normalized.length ? normalized : null });
  // Resolved tokens carry their project's origins (credential cache): they must see the change at once.
  await forgetCredentials();
  return normalized;
}

/** Whether any project allows the origin (a CORS preflight carries no credential to tell which project). */
export async function originAllowedAnywhere(origin: string): Promise<boolean> {
  const rows = await prisma().$queryRaw<{ found: number }[]>(Prisma.sql`/* in-context:origin-allowed */
    SELECT 1 AS found FROM "Project" WHERE settings->'inContextOrigins' @> jsonb_build_array(${origin}::text) LIMIT 1`);
  return rows.length > 0;
}

/** The token of a request, as its plugin needs it. */
export async function inContextSession(projectId: number, tokenId: number) {
  const [info] = await listInContextTokens(projectId, tokenId);
  const project = await prisma().project.findUniqueOrThrow({
    where: { id: projectId },
    select: { projectToken: true, name: true },
  });
  return {
    projectToken: project.projectToken,
    projectName: project.name,
    languages: info!.languages,
    capture: info!.capture,
    expiresAt: info!.expiresAt,
  };
}

// The lookup of an in-context token by its hash, for the principal
// (principal.ts). The tokens themselves (creation, revocation, the project's
// allowed origins) are the in-context domain's: src/in-context/tokens.ts.
import { prisma } from '../db.js';

/** The header the plugin sends the token in (a custom header: a cross-origin request with it is always preflighted). */
export const IN_CONTEXT_HEADER = 'x-incontext-token';

/** What a request's credential needs to know about a token (cached by hash: credential-cache.ts). */
export interface ResolvedInContextToken {
  id: number;
  projectId: number;
  tokenHash: string;
  languageIds: number[];
  capture: boolean;
  createdById: number | null;
  expiresAt: Date;
  revokedAt: Date | null;
  /** The project's allowed origins (Project.settings.inContextOrigins). */
  origins: string[];
}

export function originsOfSettings(settings: unknown): string[] {
  const origins = (settings as { inContextOrigins?: unknown } | null)?.inContextOrigins;
  return Array.isArray(origins) ? origins.filter((o): o is string => typeof o === 'string') : [];
}

export async function findInContextToken(hash: string): Promise<ResolvedInContextToken | undefined> {
  const row = await prisma().inContextToken.findUnique({
    where: { tokenHash: hash },
    select: {
      id: true,
      projectId: true,
      tokenHash: true,
      languageIds: true,
      capture: true,
      createdById: true,
      expiresAt: true,
      revokedAt: true,
      project: { select: { settings: true } },
    },
  });
  if (!row) return undefined;
  // lastUsedAt is written when the token is looked up: exact to the credential cache's minute.
  if (!row.revokedAt && row.expiresAt.getTime() > Date.now()) {
    await prisma().inContextToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  const { project, ...token } = row;
  return { ...token, origins: originsOfSettings(project.settings) };
}

// Access rules: an account reaches the projects it is a member of; an API key
// reaches its one project. Every domain entry point that takes a project goes
// through here.
import { prisma } from '../db.js';
import { forbidden, notFound } from '../errors.js';
import type { Principal } from '../auth/principal.js';

export function requireAccount(principal: Principal): number {
  if (principal.kind === 'account') return principal.accountId;
  if (principal.kind === 'invalid') throw forbidden(principal.reason ?? 'Invalid credentials');
  throw forbidden('This operation needs an account credential (personal token or basic credentials)');
}

/** The project an API key acts within. */
export function requireProjectKey(principal: Principal): number {
  if (principal.kind === 'project') return principal.projectId;
  if (principal.kind === 'invalid') throw forbidden(principal.reason ?? 'Invalid credentials');
  throw forbidden('This operation needs a project API key (X-Service-Token or X-SimpleLocalize-Token)');
}

/**
 * Resolves the project a request works on: the API key's own project, or a
 * project (by projectToken) the account is a member of. Anything else is
 * reported as not found, so a credential learns nothing about other projects.
 */
export async function resolveProject(principal: Principal, projectToken?: string | null): Promise<number> {
  if (principal.kind === 'project') {
    if (projectToken) {
      const own = await prisma().project.findUnique({ where: { id: principal.projectId }, select: { projectToken: true } });
      if (own?.projectToken !== projectToken) throw notFound(`Project ${projectToken} not found`);
    }
    return principal.projectId;
  }
  const accountId = requireAccount(principal);
  if (!projectToken) throw notFound('projectToken is required with an account credential');
  const project = await prisma().project.findFirst({
    where: { projectToken, members: { some: { accountId } } },
    select: { id: true },
  });
  if (!project) throw notFound(`Project ${projectToken} not found`);
  return project.id;
}

// Access rules, in one place: an account reaches the projects it is a member
// of, with the permissions of its role there (src/teams/permissions.ts); an
// API key reaches its one project with the contract's full access. Every
// domain entry point that takes a project goes through here, stating the
// permission it needs.
import { prisma } from '../db.js';
import { forbidden, notFound, said } from '../errors.js';
import type { Principal } from '../auth/principal.js';
import {
  allows,
  API_KEY_PERMISSIONS,
  IN_CONTEXT_CAPTURE_PERMISSIONS,
  IN_CONTEXT_PERMISSIONS,
  languageScoped,
  PERMISSIONS,
  type MemberGrant,
  type Permission,
} from '../teams/permissions.js';

export function requireAccount(principal: Principal): number {
  if (principal.kind === 'account') return principal.accountId;
  throw accountNeeded(principal);
}

function accountNeeded(principal: Principal) {
  if (principal.kind === 'invalid') return forbidden(principal.reason ?? 'Invalid credentials');
  return forbidden('This operation needs an account credential (personal token or basic credentials)');
}

/** The project an API key acts within. */
export function requireProjectKey(principal: Principal): number {
  if (principal.kind === 'project') return principal.projectId;
  if (principal.kind === 'invalid') throw forbidden(principal.reason ?? 'Invalid credentials');
  throw forbidden('This operation needs a project API key (X-Service-Token or X-SimpleLocalize-Token)');
}

/** An account's membership of one project, as the access check sees it. */
export interface Membership extends MemberGrant {
  projectId: number;
}

// The principal carries the account's roles per project: looked up once per
// request (a principal lives as long as its request or WebSocket operation)
// and kept beside it, so a request touching a project many times asks once.
const rolesOf = new WeakMap<Principal, Map<string, Promise<Membership | null>>>();

function membership(
  principal: Principal & { kind: 'account' },
  where: { projectToken: string } | { id: number },
): Promise<Membership | null> {
  const cacheKey = 'id' in where ? `#${where.id}` : where.projectToken;
  let roles = rolesOf.get(principal);
  if (!roles) rolesOf.set(principal, (roles = new Map<string, Promise<Membership | null>>()));
  let found = roles.get(cacheKey);
  if (!found) {
    found = prisma()
      .projectMember.findFirst({
        where: { accountId: principal.accountId, project: where },
        select: { projectId: true, role: true, languageIds: true, canReview: true },
      })
      .then((m) => m && { ...m, role: m.role as Membership['role'] });
    roles.set(cacheKey, found);
  }
  return found;
}

/** Forgets the roles a principal carries (after its own membership changed within the request). */
export function forgetRoles(principal: Principal): void {
  rolesOf.delete(principal);
}

export interface AccessOptions {
  /** Language keys the operation writes (TRANSLATE, REVIEW): a translator limited to some languages may write only those. */
  languages?: Iterable<string>;
}

/**
 * Resolves the project a request works on and checks that the credential may
 * do what the operation needs: the API key's own project, or a project (by
 * projectToken) the account is a member of, with a role that grants the
 * permission. A project the account is not a member of is reported as not
 * found, so a credential learns nothing about other projects; a member whose
 * role does not allow the operation gets FORBIDDEN.
 */
export async function resolveProject(
  principal: Principal,
  projectToken: string | null | undefined,
  permission: Permission,
  options: AccessOptions = {},
): Promise<number> {
  if (principal.kind === 'project') {
    if (projectToken) {
      const own = await prisma().project.findUnique({
        where: { id: principal.projectId },
        select: { projectToken: true },
      });
      if (own?.projectToken !== projectToken) throw notFound(said('project-not-found', { project: projectToken }));
    }
    if (!API_KEY_PERMISSIONS.includes(permission)) throw forbidden(said('api-key-cannot', { permission }));
    return principal.projectId;
  }
  if (principal.kind === 'inContext') return inContextProject(principal, projectToken, permission, options);
  if (principal.kind !== 'account') throw accountNeeded(principal);
  if (!projectToken) throw notFound('projectToken is required with an account credential');
  const member = await membership(principal, { projectToken });
  if (!member) throw notFound(said('project-not-found', { project: projectToken }));
  await authorize(member, permission, options);
  return member.projectId;
}

type InContextPrincipal = Principal & { kind: 'inContext' };

const inContextPermissions = (principal: InContextPrincipal) =>
  principal.capture ? IN_CONTEXT_CAPTURE_PERMISSIONS : IN_CONTEXT_PERMISSIONS;

/** An in-context token: its own project (another is not found), its permissions, its languages. */
async function inContextProject(
  principal: InContextPrincipal,
  projectToken: string | null | undefined,
  permission: Permission,
  options: AccessOptions,
): Promise<number> {
  if (projectToken) {
    const own = await prisma().project.findUnique({
      where: { id: principal.projectId },
      select: { projectToken: true },
    });
    if (own?.projectToken !== projectToken) throw notFound(said('project-not-found', { project: projectToken }));
  }
  if (!inContextPermissions(principal).includes(permission))
    throw forbidden(`An in-context token cannot do this (${permission}); it reads the project and writes texts only`);
  if (permission === 'TRANSLATE' && principal.languageIds.length > 0) {
    // Every write states its languages (INPUT_DEPENDENT): none stated is refused rather than allowed.
    const keys = [...new Set(options.languages ?? [])];
    const languages = await prisma().language.findMany({
      where: { projectId: principal.projectId, id: { in: [...principal.languageIds] } },
      select: { key: true },
    });
    const allowed = new Set(languages.map((l) => l.key));
    const outside = keys.filter((k) => !allowed.has(k));
    if (outside.length || !options.languages) {
      throw forbidden(
        `This in-context token may write only ${[...allowed].sort().join(', ') || 'no language'}${outside.length ? `; not ${outside.join(', ')}` : ''}`,
      );
    }
  }
  return principal.projectId;
}

/** Checks a member's grant against a permission (and the languages written); throws FORBIDDEN. */
async function authorize(member: Membership, permission: Permission, options: AccessOptions): Promise<void> {
  if (!allows(member, permission)) {
    const withoutReview = permission === 'REVIEW' && member.role === 'TRANSLATOR';
    throw forbidden(said(withoutReview ? 'role-forbids-review' : 'role-forbids', { role: member.role, permission }));
  }
  if ((permission === 'TRANSLATE' || permission === 'REVIEW') && languageScoped(member) && options.languages) {
    const keys = [...new Set(options.languages)];
    if (keys.length === 0) return;
    const languages = await prisma().language.findMany({
      where: { projectId: member.projectId, id: { in: [...member.languageIds] } },
      select: { key: true },
    });
    const allowed = new Set(languages.map((l) => l.key));
    const outside = keys.filter((k) => !allowed.has(k));
    if (outside.length) {
      throw forbidden(
        said('translator-languages', {
          allowed: [...allowed].sort().join(', ') || 'no language',
          refused: outside.join(', '),
        }),
      );
    }
  }
}

/**
 * Whether the principal may do `permission` in a project it already reached
 * (a field of a project object, such as its API key): no error, a boolean.
 */
export async function mayInProject(principal: Principal, projectId: number, permission: Permission): Promise<boolean> {
  if (principal.kind === 'project')
    return principal.projectId === projectId && API_KEY_PERMISSIONS.includes(permission);
  if (principal.kind === 'inContext')
    return principal.projectId === projectId && inContextPermissions(principal).includes(permission);
  if (principal.kind !== 'account') return false;
  const member = await membership(principal, { id: projectId });
  return !!member && allows(member, permission);
}

/** The account's membership of a project it reached, or null (API keys have none). */
export async function membershipOf(principal: Principal, projectId: number): Promise<Membership | null> {
  if (principal.kind !== 'account') return null;
  return membership(principal, { id: projectId });
}

/** Every permission the principal has in a project it reached (what a client may offer its user). */
export async function permissionsInProject(principal: Principal, projectId: number): Promise<Permission[]> {
  if (principal.kind === 'project') return principal.projectId === projectId ? [...API_KEY_PERMISSIONS] : [];
  if (principal.kind === 'inContext')
    return principal.projectId === projectId ? [...inContextPermissions(principal)] : [];
  const member = await membershipOf(principal, projectId);
  return member ? PERMISSIONS.filter((p) => allows(member, p)) : [];
}

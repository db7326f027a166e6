// A project's Git connection: its settings checked and stored, its secrets
// sealed (the token, the deploy key's private half, the webhook secret: each
// bound to its project and field, src/auth/sealed-secrets.ts), the lease that
// lets one sync run at a time, and the sync log.
import { randomBytes } from 'node:crypto';
import { Cron } from 'croner';
import { open, seal } from '../auth/sealed-secrets.js';
import { prisma } from '../db.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { holdsSeveralLanguages, registeredFormat } from '../formats/registry.js';
import type { GitConnection, GitSyncRun } from '../generated/prisma/client.js';
import { generateDeployKey } from './deploy-key.js';
import { defaultApiUrl, FORGE_KINDS, type ForgeKind } from './forge.js';
import { checkBranchName, type AuthKind, type GitAuth } from './git.js';
import { patternProblem, placeholdersOf } from './pattern.js';
import { isSsh, parseRemote } from './remote.js';

export const AUTH_KINDS: readonly AuthKind[] = ['TOKEN', 'SSH', 'NONE'];
export const PULL_SCOPES = ['SOURCE', 'ALL'] as const;
export type PullScope = (typeof PULL_SCOPES)[number];
export const RUN_KINDS = ['PULL', 'PREVIEW', 'PUSH'] as const;
export type RunKind = (typeof RUN_KINDS)[number];
export const TRIGGERS = ['MANUAL', 'WEBHOOK', 'SCHEDULE', 'AUTOMATION'] as const;
export type SyncTrigger = (typeof TRIGGERS)[number];
export const RUN_STATES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'SKIPPED'] as const;
export type RunState = (typeof RUN_STATES)[number];

export interface GitConnectionInput {
  remoteUrl?: string | null;
  authKind?: AuthKind | null;
  /** A new token; '' removes it. */
  token?: string | null;
  tokenUser?: string | null;
  branch?: string | null;
  pathPattern?: string | null;
  format?: string | null;
  pullScope?: PullScope | null;
  pushBranch?: string | null;
  forgeKind?: ForgeKind | null;
  forgeApiUrl?: string | null;
  forgeRepository?: string | null;
  /** A cron expression; '' removes the schedule. */
  pushSchedule?: string | null;
}

export interface GitConnectionView {
  id: number;
  projectId: number;
  remoteUrl: string;
  authKind: AuthKind;
  hasToken: boolean;
  tokenUser: string;
  deployPublicKey: string | null;
  branch: string;
  pathPattern: string;
  format: string;
  pullScope: PullScope;
  pushBranch: string;
  forgeKind: ForgeKind;
  forgeApiUrl: string | null;
  forgeRepository: string;
  pushSchedule: string | null;
  lastPulledCommit: string | null;
  /** The path of the forge's push webhook on this service. */
  webhookPath: string;
  createdAt: Date;
  updatedAt: Date;
}

export type SyncRunView = Omit<GitSyncRun, 'kind' | 'trigger' | 'state' | 'details'> & {
  kind: RunKind;
  trigger: SyncTrigger;
  state: RunState;
  details: Record<string, unknown>;
};

const purpose = (projectId: number, field: string) => `git-${field}:${projectId}`;

export function viewOf(row: GitConnection): GitConnectionView {
  return {
    id: row.id,
    projectId: row.projectId,
    remoteUrl: row.remoteUrl,
    authKind: row.authKind as AuthKind,
    hasToken: row.tokenSealed !== null,
    tokenUser: row.tokenUser,
    deployPublicKey: row.deployPublicKey,
    branch: row.branch,
    pathPattern: row.pathPattern,
    format: row.format,
    pullScope: row.pullScope as PullScope,
    pushBranch: row.pushBranch,
    forgeKind: row.forgeKind as ForgeKind,
    forgeApiUrl: row.forgeApiUrl,
    forgeRepository: row.forgeRepository,
    pushSchedule: row.pushSchedule,
    lastPulledCommit: row.lastPulledCommit,
    webhookPath: `/api/git/hooks/${row.id}`,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export const runView = (row: GitSyncRun): SyncRunView => ({
  ...row,
  kind: row.kind as RunKind,
  trigger: row.trigger as SyncTrigger,
  state: row.state as RunState,
  details: (row.details ?? {}) as Record<string, unknown>,
});

/** The credentials of a connection, opened (for a sync; never returned to a client). */
export function authOf(row: GitConnection): GitAuth & { forgeToken?: string } {
  const token = row.tokenSealed ? open(row.tokenSealed, purpose(row.projectId, 'token')) : undefined;
  return {
    kind: row.authKind as AuthKind,
    token,
    tokenUser: row.tokenUser,
    privateKey: row.deployKeySealed ? open(row.deployKeySealed, purpose(row.projectId, 'deploy-key')) : undefined,
    knownHosts: row.sshKnownHosts,
    forgeToken: token,
  };
}

export function webhookSecretOf(row: GitConnection): string {
  return open(row.webhookSecretSealed, purpose(row.projectId, 'webhook-secret'));
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);

/** The service's own branch by default: `l10n/<project name>`. */
async function defaultPushBranch(projectId: number): Promise<string> {
  const project = await prisma().project.findUniqueOrThrow({
    where: { id: projectId },
    select: { name: true, projectToken: true },
  });
  return `l10n/${slug(project.name) || project.projectToken}`;
}

interface Settled {
  remoteUrl: string;
  authKind: AuthKind;
  tokenUser: string;
  branch: string;
  pathPattern: string;
  format: string;
  pullScope: PullScope;
  pushBranch: string;
  forgeKind: ForgeKind;
  forgeApiUrl: string | null;
  forgeRepository: string;
  pushSchedule: string | null;
}

const text = (value: string | null | undefined) => (value === null || value === undefined ? undefined : value.trim());

/** The settings after applying `input` over `current`, checked as a whole. */
function settle(input: GitConnectionInput, current: Partial<Settled>, pushBranchFallback: string): Settled {
  const remoteUrl = text(input.remoteUrl) ?? current.remoteUrl ?? '';
  const remote = parseRemote(remoteUrl);
  const authKind = input.authKind ?? current.authKind ?? (remote.protocol === 'ssh' ? 'SSH' : 'TOKEN');
  if (!AUTH_KINDS.includes(authKind)) throw badRequest(`authKind must be one of ${AUTH_KINDS.join(', ')}`);
  if (isSsh(remote) !== (authKind === 'SSH')) {
    throw badRequest(
      authKind === 'SSH'
        ? 'authKind SSH needs an ssh remote (ssh://… or git@host:path)'
        : `an ssh remote needs authKind SSH (the deploy key), not ${authKind}`,
    );
  }
  const forgeKind =
    input.forgeKind ??
    current.forgeKind ??
    (remote.host === 'github.com' ? 'GITHUB' : remote.host.startsWith('gitlab.') ? 'GITLAB' : 'NONE');
  if (!FORGE_KINDS.includes(forgeKind)) throw badRequest(`forgeKind must be one of ${FORGE_KINDS.join(', ')}`);
  const tokenUser =
    text(input.tokenUser) ||
    current.tokenUser ||
    (forgeKind === 'GITHUB' ? 'x-access-token' : forgeKind === 'GITLAB' ? 'oauth2' : 'git');
  if (!/^[A-Za-z0-9._@-]{1,100}$/.test(tokenUser))
    throw badRequest('tokenUser must be a user name (letters, digits, . _ @ -)');
  const branch = text(input.branch) || current.branch || 'main';
  const branchProblem = checkBranchName(branch, 'branch');
  if (branchProblem) throw badRequest(branchProblem);
  const pushBranch = text(input.pushBranch) || current.pushBranch || pushBranchFallback;
  const pushProblem = checkBranchName(pushBranch, 'pushBranch');
  if (pushProblem) throw badRequest(pushProblem);
  // The service force-pushes its own branch: never the branch the team works on.
  if (pushBranch === branch)
    throw badRequest(
      'pushBranch must differ from branch: the service rebuilds its own branch and never pushes to the target branch',
    );
  const pathPattern = text(input.pathPattern) ?? current.pathPattern ?? '';
  const problem = patternProblem(pathPattern);
  if (problem) throw badRequest(problem);
  const format = text(input.format) ?? current.format ?? '';
  const registered = registeredFormat(format);
  if (!registered) throw badRequest(`format '${format}' is not a known format id (fileFormats lists them)`);
  if (!placeholdersOf(pathPattern).has('lang') && !holdsSeveralLanguages(registered, new Set())) {
    throw badRequest(`pathPattern needs {lang}: the format ${format} holds one language per file`);
  }
  if (registered.bilingual)
    throw badRequest(
      `format ${format} pairs a source and a target language per file; choose a format of one or all languages`,
    );
  const pullScope = input.pullScope ?? current.pullScope ?? 'SOURCE';
  if (!PULL_SCOPES.includes(pullScope)) throw badRequest(`pullScope must be one of ${PULL_SCOPES.join(', ')}`);
  let forgeApiUrl = input.forgeApiUrl === undefined ? (current.forgeApiUrl ?? null) : text(input.forgeApiUrl) || null;
  if (forgeKind === 'NONE') forgeApiUrl = null;
  else if (
    !forgeApiUrl ||
    (input.forgeKind && input.forgeKind !== current.forgeKind && input.forgeApiUrl === undefined)
  )
    forgeApiUrl = defaultApiUrl(forgeKind, remote.host)!;
  if (forgeApiUrl) {
    let api: URL;
    try {
      api = new URL(forgeApiUrl);
    } catch {
      throw badRequest(`forgeApiUrl must be an absolute URL, got '${forgeApiUrl}'`);
    }
    if (api.protocol !== 'https:' && api.protocol !== 'http:') throw badRequest('forgeApiUrl must use https or http');
    if (api.username || api.password || api.search || api.hash)
      throw badRequest('forgeApiUrl must be a plain base URL (no credentials, query or fragment)');
    forgeApiUrl = forgeApiUrl.replace(/\/+$/, '');
  }
  const forgeRepository =
    input.forgeRepository === undefined || input.forgeRepository === null
      ? input.remoteUrl
        ? remote.path
        : current.forgeRepository || remote.path
      : input.forgeRepository.trim() || remote.path;
  if (forgeKind === 'GITHUB' && !/^[^/\s]+\/[^/\s]+$/.test(forgeRepository))
    throw badRequest(`forgeRepository must be owner/repo on GitHub, got '${forgeRepository}'`);
  let pushSchedule =
    input.pushSchedule === undefined || input.pushSchedule === null
      ? (current.pushSchedule ?? null)
      : input.pushSchedule.trim() || null;
  if (pushSchedule) {
    try {
      new Cron(pushSchedule, { paused: true }).stop();
    } catch (error) {
      throw badRequest(`pushSchedule is not a cron expression: ${(error as Error).message}`);
    }
    pushSchedule = pushSchedule.replace(/\s+/g, ' ');
  }
  return {
    remoteUrl: remote.url,
    authKind,
    tokenUser,
    branch,
    pathPattern: pathPattern.replace(/^\.\//, ''),
    format,
    pullScope,
    pushBranch,
    forgeKind,
    forgeApiUrl,
    forgeRepository,
    pushSchedule,
  };
}

function checkToken(token: string): void {
  if (token.length > 1000 || /[\s\0]/.test(token))
    throw badRequest('token must be one line without spaces, at most 1000 characters');
}

const newWebhookSecret = () => `gitwh_${randomBytes(24).toString('base64url')}`;

export async function getConnection(projectId: number): Promise<GitConnectionView | null> {
  const row = await prisma().gitConnection.findUnique({ where: { projectId } });
  return row && viewOf(row);
}

export async function connectionRow(projectId: number): Promise<GitConnection> {
  const row = await prisma().gitConnection.findUnique({ where: { projectId } });
  if (!row) throw notFound('This project is not connected to a Git repository');
  return row;
}

/**
 * The sealed credentials a connection keeps: the token given (kept when left
 * out on update, removed when empty), and a deploy key for SSH, made when it
 * has none or is asked to regenerate it (`current`: the connection updated).
 */
function credentials(
  projectId: number,
  settled: Settled,
  input: { token?: string | null; regenerateDeployKey?: boolean | null },
  current?: Pick<GitConnection, 'tokenSealed' | 'deployKeySealed'>,
) {
  const token = input.token === undefined || input.token === null ? undefined : input.token.trim();
  if (token) checkToken(token);
  const tokenSealed =
    token === undefined
      ? (current?.tokenSealed ?? null)
      : token === ''
        ? null
        : seal(token, purpose(projectId, 'token'));
  if (settled.authKind === 'TOKEN' && !tokenSealed) throw badRequest('authKind TOKEN needs a token');
  if (settled.authKind !== 'SSH') return { tokenSealed, deployKeySealed: null, deployPublicKey: null };
  if (current?.deployKeySealed && !input.regenerateDeployKey) return { tokenSealed };
  const key = generateDeployKey(`localization-service-${projectId}`);
  return {
    tokenSealed,
    deployKeySealed: seal(key.privateKey, purpose(projectId, 'deploy-key')),
    deployPublicKey: key.publicKey,
  };
}

/** Connects the project; the webhook secret is in this answer only. An SSH connection gets a new deploy key (its public half in the view). */
export async function connectRepository(
  projectId: number,
  input: GitConnectionInput,
): Promise<{ connection: GitConnectionView; webhookSecret: string }> {
  if (await prisma().gitConnection.findUnique({ where: { projectId }, select: { id: true } })) {
    throw conflict('This project is already connected to a Git repository: update or disconnect it');
  }
  const settled = settle(input, {}, await defaultPushBranch(projectId));
  const sealed = credentials(projectId, settled, input);
  const webhookSecret = newWebhookSecret();
  try {
    const row = await prisma().gitConnection.create({
      data: {
        projectId,
        ...settled,
        ...sealed,
        webhookSecretSealed: seal(webhookSecret, purpose(projectId, 'webhook-secret')),
      },
    });
    return { connection: viewOf(row), webhookSecret };
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002')
      throw conflict('This project is already connected to a Git repository');
    throw error;
  }
}

export async function updateConnection(
  projectId: number,
  input: GitConnectionInput & { regenerateDeployKey?: boolean | null },
): Promise<GitConnectionView> {
  const row = await connectionRow(projectId);
  const settled = settle(input, { ...viewOf(row) }, row.pushBranch);
  const sealed = credentials(projectId, settled, input, row);
  const hostChanged = parseRemote(settled.remoteUrl).host !== parseRemote(row.remoteUrl).host;
  const updated = await prisma().gitConnection.update({
    where: { id: row.id },
    data: {
      ...settled,
      ...sealed,
      // Another host has other host keys: learned again on first use.
      ...(hostChanged && { sshKnownHosts: '' }),
      ...(settled.branch !== row.branch && { lastPulledCommit: null }),
      // A new schedule counts from now (not from the connection's creation: no catch-up run).
      ...(settled.pushSchedule !== row.pushSchedule && { lastScheduledAt: new Date() }),
    },
  });
  return viewOf(updated);
}

/** A new webhook secret, shown in this answer only (the forge's webhook must be given it). */
export async function rotateWebhookSecret(projectId: number): Promise<string> {
  const row = await connectionRow(projectId);
  const secret = newWebhookSecret();
  await prisma().gitConnection.update({
    where: { id: row.id },
    data: { webhookSecretSealed: seal(secret, purpose(projectId, 'webhook-secret')) },
  });
  return secret;
}

export async function disconnectRepository(projectId: number): Promise<void> {
  const { count } = await prisma().gitConnection.deleteMany({ where: { projectId } });
  if (count === 0) throw notFound('This project is not connected to a Git repository');
}

export async function saveKnownHosts(connectionId: number, knownHosts: string): Promise<void> {
  await prisma().gitConnection.updateMany({
    where: { id: connectionId, sshKnownHosts: '' },
    data: { sshKnownHosts: knownHosts },
  });
}

// ---- one sync at a time ----

/** How long a sync may hold its connection before another may take it (a crashed instance's). */
export const LEASE_MS = 30 * 60_000;

/** Takes the connection's lease; false when another sync holds it. */
export async function takeLease(connectionId: number, ms = LEASE_MS): Promise<boolean> {
  const now = new Date();
  const { count } = await prisma().gitConnection.updateMany({
    where: { id: connectionId, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    data: { leaseUntil: new Date(now.getTime() + ms) },
  });
  return count === 1;
}

export async function releaseLease(connectionId: number): Promise<void> {
  await prisma().gitConnection.updateMany({ where: { id: connectionId }, data: { leaseUntil: null } });
}

/** Runs `fn` holding the connection's lease; a second sync meanwhile is a CONFLICT. */
export async function withLease<T>(connectionId: number, fn: () => Promise<T>): Promise<T> {
  if (!(await takeLease(connectionId)))
    throw conflict('A sync of this Git connection is running; try again when it has finished');
  try {
    return await fn();
  } finally {
    await releaseLease(connectionId);
  }
}

// ---- the sync log ----

export async function startRun(connectionId: number, kind: RunKind, trigger: SyncTrigger): Promise<number> {
  const run = await prisma().gitSyncRun.create({ data: { connectionId, kind, trigger }, select: { id: true } });
  return run.id;
}

export async function finishRun(
  id: number,
  outcome: {
    state: Exclude<RunState, 'RUNNING'>;
    commit?: string | null;
    message?: string;
    details?: Record<string, unknown>;
    pullRequestUrl?: string | null;
  },
): Promise<SyncRunView> {
  const row = await prisma().gitSyncRun.update({
    where: { id },
    data: {
      state: outcome.state,
      commit: outcome.commit ?? null,
      message: (outcome.message ?? '').slice(0, 4000),
      details: (outcome.details ?? {}) as object,
      pullRequestUrl: outcome.pullRequestUrl ?? null,
      finishedAt: new Date(),
    },
  });
  return runView(row);
}

export const RUN_PAGE = { defaultSize: 20, maxSize: 100 } as const;

export async function listRuns(projectId: number, size: number = RUN_PAGE.defaultSize): Promise<SyncRunView[]> {
  if (!Number.isInteger(size) || size < 1 || size > RUN_PAGE.maxSize)
    throw badRequest(`size must be between 1 and ${RUN_PAGE.maxSize}`);
  const rows = await prisma().gitSyncRun.findMany({
    where: { connection: { projectId } },
    orderBy: { id: 'desc' },
    take: size,
  });
  return rows.map(runView);
}

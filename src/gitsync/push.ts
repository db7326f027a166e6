// Push: the project's export, in the connection's format and layout, committed
// on the service's own branch and proposed as a pull (merge) request.
//
// Conflicts are never forced onto anyone: the branch is rebuilt on every push
// from the target branch's current head plus the export (one commit by the
// service), so it never diverges from what the team works on, and only that
// branch is force-pushed (the target branch is only read). Translators are
// never locked out: a push while developers change the target branch simply
// starts from their latest commit.
import { createWriteStream } from 'node:fs';
import { lstat, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';
import { prisma } from '../db.js';
import { AppError } from '../errors.js';
import { exportTranslations } from '../transfer/export.js';
import { openDownload } from '../transfer/export-files.js';
import type { ExportOption } from '../transfer/options.js';
import {
  authOf,
  connectionRow,
  finishRun,
  saveKnownHosts,
  startRun,
  withLease,
  type SyncRunView,
  type SyncTrigger,
} from './connections.js';
import { openOrUpdateChangeRequest, type ChangeRequestResult, type ForgeKind } from './forge.js';
import { GitError, GitSession } from './git.js';
import { fillPattern, placeholdersOf, safeSegment } from './pattern.js';
import { asGitSync, asUserError, serviceAuthor } from './pull.js';
import { parseRemote } from './remote.js';

export interface PushResult {
  run: SyncRunView;
  /** The service's branch. */
  branch: string;
  /** The commit on it (null when the target branch already holds the export). */
  commit: string | null;
  /** The target branch's head the branch was built on. */
  baseCommit: string | null;
  /** Whether the branch was pushed now (false: it already held this export on this base). */
  pushed: boolean;
  files: string[];
  pullRequest: ChangeRequestResult | null;
}

export interface PushRequest {
  projectId: number;
  trigger: SyncTrigger;
  config: Pick<Config, 'dataDir' | 'git' | 'publicUrl' | 'exportTtlSeconds' | 'storage'>;
}

/** Refuses a path whose folders in the checkout are symbolic links (the repository's content must not send a write elsewhere). */
async function checkWritable(root: string, path: string): Promise<void> {
  const parts = path.split('/');
  let current = root;
  for (const part of parts) {
    current = join(current, part);
    const stat = await lstat(current).catch(() => undefined);
    if (!stat) return;
    if (stat.isSymbolicLink())
      throw new GitError(
        `${path}: the repository has a symbolic link on this path; the service does not write through it`,
      );
  }
}

/**
 * Exports the project into the repository on the service's branch and opens
 * or updates the pull request. The function an automation's action calls.
 */
export async function pushProjectToGit(request: PushRequest): Promise<PushResult> {
  const row = await connectionRow(request.projectId);
  return withLease(row.id, async () => {
    const runId = await startRun(row.id, 'PUSH', request.trigger);
    let session: GitSession | undefined;
    let commit: string | null = null;
    let baseCommit: string | null = null;
    try {
      const placeholders = placeholdersOf(row.pathPattern);
      const options: ExportOption[] = [
        ...(placeholders.has('lang') ? ['SPLIT_BY_LANGUAGES' as const] : []),
        ...(placeholders.has('ns') ? ['SPLIT_BY_NAMESPACES' as const] : []),
        ...(placeholders.has('customer') ? ['SPLIT_BY_CUSTOMERS' as const] : []),
      ];
      const exported = await asGitSync(request.trigger, () =>
        exportTranslations({
          projectId: request.projectId,
          downloadFormat: row.format,
          options,
          config: request.config,
        }),
      );
      session = await GitSession.open({
        remote: parseRemote(row.remoteUrl),
        auth: authOf(row),
        allowPrivate: request.config.git.allowPrivateHosts,
        timeoutMs: request.config.git.timeoutMs,
        tempRoot: join(request.config.dataDir, 'tmp'),
        author: serviceAuthor(request.config),
      });
      baseCommit = await session.cloneBranch(row.remoteUrl, row.branch);
      const known = await session.knownHosts();
      if (known && !row.sshKnownHosts) await saveKnownHosts(row.id, known);
      await session.git('checkout', '-q', '-B', row.pushBranch);
      const paths: string[] = [];
      for (const file of exported.files) {
        for (const value of [file.language, file.namespace, file.customer]) {
          if (value !== undefined && value !== '' && !safeSegment(value))
            throw new GitError(`cannot write a file for '${value}': not usable in a path`);
        }
        const path = fillPattern(row.pathPattern, { lang: file.language, ns: file.namespace, customer: file.customer });
        await checkWritable(session.workTree, path);
        const download = await openDownload(request.config, file.id, file.fileName);
        if (!download) throw new Error(`the exported file ${file.fileName} is gone`);
        await mkdir(dirname(join(session.workTree, path)), { recursive: true });
        await pipeline(download.object.body, createWriteStream(join(session.workTree, path)));
        paths.push(path);
      }
      // The export's stored copies expire and are purged like any download's (EXPORT_TTL_SECONDS).
      if (paths.length) await session.git('add', '--', ...paths);
      const staged = (await session.git('diff', '--cached', '--name-only')).trim();
      const project = await prisma().project.findUniqueOrThrow({
        where: { id: request.projectId },
        select: { name: true },
      });
      if (!staged) {
        const run = await finishRun(runId, {
          state: 'SKIPPED',
          commit: null,
          message: `${row.branch} already holds these ${paths.length} files: nothing to propose`,
          details: { baseCommit, files: paths },
        });
        return {
          run,
          branch: row.pushBranch,
          commit: null,
          baseCommit,
          pushed: false,
          files: paths,
          pullRequest: null,
        };
      }
      const changed = staged.split('\n');
      await session.git(
        'commit',
        '-q',
        '--no-verify',
        '-m',
        `Update translations from ${project.name}`,
        '-m',
        `Exported by the localization service (${changed.length} file${changed.length === 1 ? '' : 's'} changed).\nThis branch is rebuilt from ${row.branch} on every push.`,
      );
      commit = (await session.git('rev-parse', 'HEAD')).trim();
      // The branch already holds this very export on this very base: nothing to push (the pull request stays as it is).
      const remote = await session.remoteHead(row.pushBranch);
      let pushed = false;
      let same = false;
      if (remote) {
        await session.git('fetch', '-q', '--depth', '2', 'origin', `refs/heads/${row.pushBranch}`);
        const [theirs, ours] = await Promise.all([
          session.git('rev-parse', 'FETCH_HEAD^{tree}', 'FETCH_HEAD^'),
          session.git('rev-parse', 'HEAD^{tree}', 'HEAD^'),
        ]);
        same = theirs.trim() === ours.trim();
      }
      if (!same) {
        // Only the service's own branch is ever forced (pushBranch ≠ branch is checked when the connection is saved).
        await session.git('push', '-q', '--force', 'origin', `HEAD:refs/heads/${row.pushBranch}`);
        pushed = true;
      } else {
        commit = remote!;
      }
      let pullRequest: ChangeRequestResult | null = null;
      const auth = authOf(row);
      if (row.forgeKind !== 'NONE' && row.forgeApiUrl && auth.forgeToken) {
        pullRequest = await openOrUpdateChangeRequest(
          {
            kind: row.forgeKind as Exclude<ForgeKind, 'NONE'>,
            apiUrl: row.forgeApiUrl,
            repository: row.forgeRepository,
            token: auth.forgeToken,
            allowPrivate: request.config.git.allowPrivateHosts,
            timeoutMs: request.config.git.timeoutMs,
          },
          {
            head: row.pushBranch,
            base: row.branch,
            title: `Translations from ${project.name}`,
            body: [
              `The localization service's export of **${project.name}** (${row.format}, \`${row.pathPattern}\`), built on ${row.branch} at ${baseCommit.slice(0, 12)}.`,
              '',
              `Files changed: ${changed.map((p) => `\`${p}\``).join(', ')}.`,
              '',
              `The branch \`${row.pushBranch}\` is rebuilt from \`${row.branch}\` on every push: commits added to it by hand are replaced.`,
            ].join('\n'),
          },
        );
      }
      const run = await finishRun(runId, {
        state: 'SUCCEEDED',
        commit,
        message: `${pushed ? 'Pushed' : 'Unchanged'} ${row.pushBranch} (${changed.length} file${changed.length === 1 ? '' : 's'} changed)${pullRequest ? `; ${pullRequest.opened ? 'opened' : 'updated'} ${pullRequest.url}` : ''}`,
        details: { baseCommit, files: paths, changed, pushed },
        pullRequestUrl: pullRequest?.url ?? null,
      });
      return { run, branch: row.pushBranch, commit, baseCommit, pushed, files: paths, pullRequest };
    } catch (error) {
      const message = session ? session.redact((error as Error).message) : (error as Error).message;
      await finishRun(runId, { state: 'FAILED', commit, message, details: { baseCommit } });
      throw asUserError(error);
    } finally {
      await session?.close();
    }
  });
}

/** How long an automation's push waits for a sync of the connection that is running (a pull that started its chain, say). */
export const PUSH_WAIT_MS = 5 * 60_000;

/**
 * pushProjectToGit, waiting while another sync holds the connection: an
 * automation's push often follows a pull (the rule's trigger came from it)
 * that has not let go of the connection yet.
 */
export async function pushWhenFree(request: PushRequest, waitMs = PUSH_WAIT_MS): Promise<PushResult> {
  const end = Date.now() + waitMs;
  for (;;) {
    try {
      return await pushProjectToGit(request);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'CONFLICT') || Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

// Pull: the files of the target branch that match the connection's pattern,
// imported through the normal import (src/transfer/import.ts): the same checks,
// write gate, history and webhooks as an upload, one transaction per file, as
// the official client's upload does. The change source is GIT. A preview runs
// the import's own preview (the same write, rolled back) and changes nothing.
//
// Which files: the source language's (pullScope SOURCE, the default: the
// repository is where developers add and change source texts) or every
// language's and customer's (ALL). Source texts replace what the project has
// (REPLACE_TRANSLATION_IF_FOUND); other languages' files only fill empty
// cells, so a stale file in the repository never overwrites a translator's work.
import { join } from 'node:path';
import { lstat } from 'node:fs/promises';
import type { Config } from '../config.js';
import { prisma } from '../db.js';
import { AppError } from '../errors.js';
import { withOrigin, withSource, type Origin } from '../content/origin.js';
import { announceChanges } from '../history/notify.js';
import { importFile, previewImport, type ImportPreview, type ImportResult } from '../transfer/import.js';
import type { ImportOption } from '../transfer/options.js';
import { UploadedFile } from '../transfer/uploaded-file.js';
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
import { ForgeError } from './forge.js';
import { GitError, GitSession } from './git.js';
import { matcher, placeholdersOf, safeSegment, type PathParts } from './pattern.js';
import { parseRemote, RemoteRefusedError } from './remote.js';

export interface PulledFile {
  path: string;
  language: string | null;
  namespace: string | null;
  customer: string | null;
  result?: ImportResult;
  preview?: ImportPreview;
  /** Why this file was not imported. */
  error?: string;
}

export interface PullResult {
  run: SyncRunView;
  commit: string | null;
  files: PulledFile[];
}

export interface PullRequest {
  projectId: number;
  trigger: SyncTrigger;
  preview?: boolean;
  config: Pick<Config, 'dataDir' | 'git' | 'publicUrl' | 'maxUploadBytes' | 'importChunkCells'>;
}

/** The commit author and committer of the service. */
export function serviceAuthor(config: Pick<Config, 'publicUrl'>): { name: string; email: string } {
  return { name: 'Localization service', email: `noreply@${new URL(config.publicUrl).hostname}` };
}

/** Runs a sync as the caller (GraphQL: its account, through GIT) or, from a webhook or a schedule, as the system through GIT. */
export function asGitSync<T>(trigger: SyncTrigger, fn: () => Promise<T>): Promise<T> {
  if (trigger === 'MANUAL' || trigger === 'AUTOMATION') return withSource('GIT', fn);
  const origin: Origin = { actorKind: 'SYSTEM', actorId: null, source: 'GIT' };
  return withOrigin(origin, fn, announceChanges);
}

interface Candidate {
  path: string;
  parts: PathParts;
}

/** Files of the checkout matching the pattern: regular files only (a symbolic link could point outside the checkout). */
async function candidates(session: GitSession, pattern: string): Promise<Candidate[]> {
  const match = matcher(pattern);
  const listed = await session.git('ls-files', '-s', '-z');
  const found: Candidate[] = [];
  for (const entry of listed.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const mode = entry.slice(0, 6);
    const path = entry.slice(tab + 1);
    if (mode !== '100644' && mode !== '100755') continue;
    const parts = match(path);
    if (parts) found.push({ path, parts });
  }
  return found;
}

export async function pullFromGit(request: PullRequest): Promise<PullResult> {
  const row = await connectionRow(request.projectId);
  return withLease(row.id, async () => {
    const runId = await startRun(row.id, request.preview ? 'PREVIEW' : 'PULL', request.trigger);
    const session = await GitSession.open({
      remote: parseRemote(row.remoteUrl),
      auth: authOf(row),
      allowPrivate: request.config.git.allowPrivateHosts,
      timeoutMs: request.config.git.timeoutMs,
      tempRoot: join(request.config.dataDir, 'tmp'),
      author: serviceAuthor(request.config),
    }).catch(async (error) => {
      await finishRun(runId, { state: 'FAILED', message: (error as Error).message });
      throw asUserError(error);
    });
    let commit: string | null = null;
    const files: PulledFile[] = [];
    try {
      commit = await session.cloneBranch(row.remoteUrl, row.branch);
      const known = await session.knownHosts();
      if (known && !row.sshKnownHosts) await saveKnownHosts(row.id, known);
      const defaultLanguage = (
        await prisma().language.findFirst({
          where: { projectId: request.projectId, isDefault: true },
          select: { key: true },
        })
      )?.key;
      const hasLang = placeholdersOf(row.pathPattern).has('lang');
      let chosen = await candidates(session, row.pathPattern);
      if (row.pullScope === 'SOURCE') {
        // A project without languages yet takes the files of every language: the first pull sets it up.
        chosen = chosen.filter(
          (c) => c.parts.customer === undefined && (!hasLang || !defaultLanguage || c.parts.lang === defaultLanguage),
        );
      }
      // The source language first: its file creates the keys the others translate; customers' overrides last.
      const rank = (c: Candidate) => (c.parts.customer !== undefined ? 2 : c.parts.lang === defaultLanguage ? 0 : 1);
      chosen.sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
      await asGitSync(request.trigger, async () => {
        for (const { path, parts } of chosen) {
          files.push(
            await importOne(
              session,
              request,
              row.format,
              path,
              parts,
              parts.lang === undefined || parts.lang === defaultLanguage || !defaultLanguage,
            ),
          );
        }
      });
      const failed = files.filter((f) => f.error);
      if (!request.preview)
        await prisma().gitConnection.update({ where: { id: row.id }, data: { lastPulledCommit: commit } });
      const run = await finishRun(runId, {
        state: files.length === 0 ? 'SKIPPED' : failed.length ? 'FAILED' : 'SUCCEEDED',
        commit,
        message:
          files.length === 0
            ? `No file of ${row.branch} matches ${row.pathPattern}${row.pullScope === 'SOURCE' ? ' in the source language' : ''}`
            : failed.length
              ? `${failed.length} of ${files.length} files not imported: ${failed.map((f) => `${f.path}: ${f.error}`).join('; ')}`
              : `${request.preview ? 'Previewed' : 'Imported'} ${files.length} file${files.length === 1 ? '' : 's'}`,
        details: { files: files.map(summary) },
      });
      return { run, commit, files };
    } catch (error) {
      await finishRun(runId, {
        state: 'FAILED',
        commit,
        message: session.redact((error as Error).message),
        details: { files: files.map(summary) },
      });
      throw asUserError(error);
    } finally {
      await session.close();
    }
  });
}

function summary(file: PulledFile): Record<string, unknown> {
  return {
    path: file.path,
    language: file.language,
    namespace: file.namespace,
    customer: file.customer,
    ...(file.result && {
      keysCreated: file.result.keysCreated,
      translationsInserted: file.result.translationsInserted,
      translationsUpdated: file.result.translationsUpdated,
      translationsRefused: file.result.translationsRefused,
    }),
    ...(file.preview && {
      keysToCreate: file.preview.keysToCreate.count,
      translationsToInsert: file.preview.translationsToInsert,
      translationsToUpdate: file.preview.translationsToUpdate,
    }),
    ...(file.error && { error: file.error }),
  };
}

async function importOne(
  session: GitSession,
  request: PullRequest,
  format: string,
  path: string,
  parts: PathParts,
  source: boolean,
): Promise<PulledFile> {
  const base: PulledFile = {
    path,
    language: parts.lang ?? null,
    namespace: parts.ns ?? null,
    customer: parts.customer ?? null,
  };
  for (const value of [parts.lang, parts.ns, parts.customer]) {
    if (value !== undefined && value !== '' && !safeSegment(value)) return { ...base, error: 'not a usable file name' };
  }
  const absolute = join(session.workTree, path);
  const stat = await lstat(absolute);
  if (!stat.isFile()) return { ...base, error: 'not a regular file' };
  // The checkout is removed with the session: the importer reads the file in place.
  const file = new UploadedFile(absolute, path.split('/').pop()!, '', stat.size, session.dir);
  const options: ImportOption[] = source && parts.customer === undefined ? ['REPLACE_TRANSLATION_IF_FOUND'] : [];
  const importRequest = {
    projectId: request.projectId,
    uploadFormat: format,
    file,
    options,
    languageKey: parts.lang ?? null,
    namespace: parts.ns || null,
    customerKey: parts.customer ?? null,
    maxUploadBytes: request.config.maxUploadBytes,
    chunkCells: request.config.importChunkCells,
  };
  try {
    if (request.preview) return { ...base, preview: await previewImport(importRequest) };
    return { ...base, result: await importFile(importRequest) };
  } catch (error) {
    // A file the import refuses (bad content, unknown customer) is reported; the others are still imported.
    if (error instanceof AppError) return { ...base, error: error.message };
    throw error;
  }
}

/** Git's and the forge's failures are the remote's answer, not the service's fault: a 400 with the message (the token removed). */
export function asUserError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof GitError || error instanceof RemoteRefusedError || error instanceof ForgeError) {
    return new AppError('BAD_REQUEST', (error as Error).message);
  }
  return error;
}

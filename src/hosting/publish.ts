// Publishing an environment: the one entry point for REST, GraphQL,
// PUBLISH_AFTER_IMPORT and AUTO_PUBLISH. Checks the plan (402), takes the
// project's publish slot (409 while another runs, 429 over the rate), writes
// the files to a new version folder and switches the environment to it only
// when every file is stored. On any failure the previous publication keeps
// serving and the partial version is removed. An automation's publication
// carries its action's idempotency key: publishing again under that key
// returns the publication it already started (lifecycle.ts claimPublication).
import { prisma } from '../db.js';
import { badRequest, conflict, notFound, said } from '../errors.js';
import { assertPublishingAllowed } from '../plans/plans.js';
import { storage } from '../storage/index.js';
import { EDITOR, LATEST, listEnvironments, type PublicationSummary } from './environments.js';
import { editorSnapshot } from './editor-files.js';
import { collectOldVersions } from './gc.js';
import { versionPrefix, type PublishedResource } from './layout.js';
import {
  claimPublication,
  completePublication,
  failPublication,
  leaseSeconds,
  renewLease,
  type ClaimedPublication,
  type CompletedContent,
  type ExpiredPublication,
  type KeyedPublication,
} from './lifecycle.js';
import { ProgressReporter } from './progress.js';
import { hostingSettings } from './runtime.js';
import { forgetServed } from './served.js';
import { copyFiles, writeFiles, type Target } from './writer.js';
import { logger } from '../log.js';
import { recordPublication } from '../metrics.js';
import { checkPublicationGate } from '../findings/gate.js';

export const MAX_LABEL = 200;

/** Test seams: called after each stored resource; may block or throw. */
export interface PublishHooks {
  afterResource?(done: number, total: number): Promise<void> | void;
}

export interface PublishOptions {
  projectId: number;
  environmentKey: string;
  label?: string | null;
  hooks?: PublishHooks;
  /** Publish although the environment requires no quality-check errors and there are some (an owner's decision, checked by the caller). */
  overrideQualityGate?: boolean;
  /** An automation's action (automation:<runId>:<index>): at most one publication per key. */
  idempotencyKey?: string;
}

export interface PublishResult extends PublicationSummary {
  environmentKey: string;
  /** 'editor' or the environment the files were taken from. */
  source: string;
  /** RUNNING only for a key's publication still being written (its publisher stopped: the hosting takeover completes it). */
  state: 'COMPLETE' | 'RUNNING';
}

class LostSlotError extends Error {
  constructor() {
    super('The publication stopped renewing its lease and was replaced by a newer one');
  }
}

function validateLabel(environmentKey: string, label: string | null | undefined): string | null {
  if (label === undefined || label === null) return null;
  if (environmentKey !== LATEST) throw badRequest(`label can only be given when publishing to ${LATEST}`);
  const trimmed = label.trim();
  if (trimmed.length > MAX_LABEL) throw badRequest(`label must have at most ${MAX_LABEL} characters`);
  return trimmed === '' ? null : trimmed;
}

export async function publishEnvironment(options: PublishOptions): Promise<PublishResult> {
  const { projectId, environmentKey, hooks } = options;
  const environments = await listEnvironments(projectId);
  const environment = environments.find((e) => e.key === environmentKey);
  if (!environment) throw notFound(said('environment-not-found', { environment: environmentKey }));
  const label = validateLabel(environmentKey, options.label);
  await assertPublishingAllowed(projectId, 'Publishing');
  const sourceEnvironment =
    environment.source === EDITOR ? undefined : environments.find((e) => e.key === environment.source)!;
  const { projectToken } = await prisma().project.findUniqueOrThrow({
    where: { id: projectId },
    select: { projectToken: true },
  });
  await checkPublicationGate({
    projectId,
    projectToken,
    environmentKey,
    requireNoErrors: environment.requireNoErrors,
    override: options.overrideQualityGate,
    publicUrl: hostingSettings().publicUrl,
  });

  const claim = await claimPublication({
    projectId,
    environmentId: environment.id,
    environmentKey,
    source: sourceEnvironment && { id: sourceEnvironment.id, key: sourceEnvironment.key },
    label,
    rateLimit: hostingSettings().publishRateLimit,
    idempotencyKey: options.idempotencyKey,
  });
  if ('existing' in claim) return keyedResult(claim.existing, environment);
  return runPublication({
    claimed: claim.claimed,
    projectId,
    projectToken,
    environment,
    sourceEnvironment,
    label,
    hooks,
  });
}

/** What publishing again under a key answers: the publication it started, as it stands. */
function keyedResult(publication: KeyedPublication, environment: { key: string; source: string }): PublishResult {
  const { state, message, ...summary } = publication;
  // It failed then; publishing again now would be a second publication for the one action.
  if (state === 'FAILED') throw conflict(`Publication ${publication.id} of ${environment.key} failed: ${message}`);
  return { ...summary, environmentKey: environment.key, source: environment.source, state };
}

/**
 * Publishes again a publication whose publisher stopped (its lease ran out;
 * takeOverExpired claimed it for this instance under a new version): the
 * stopped publisher's partial files go, and the files are written anew from
 * what the publication was to copy (the editor's current content, or the
 * source environment's publication read when it started).
 */
export async function resumePublication(expired: ExpiredPublication, hooks?: PublishHooks): Promise<PublishResult> {
  const environments = await listEnvironments(expired.projectId);
  const environment = environments.find((e) => e.id === expired.environmentId)!;
  const sourceEnvironment =
    environment.source === EDITOR ? undefined : environments.find((e) => e.key === environment.source)!;
  const { projectToken } = await prisma().project.findUniqueOrThrow({
    where: { id: expired.projectId },
    select: { projectToken: true },
  });
  await storage().deletePrefix(versionPrefix(projectToken, environment.key, expired.abandonedVersion));
  return runPublication({
    claimed: expired,
    projectId: expired.projectId,
    projectToken,
    environment,
    sourceEnvironment,
    label: expired.label,
    hooks,
  });
}

interface Run {
  claimed: ClaimedPublication;
  projectId: number;
  projectToken: string;
  environment: { id: number; key: string; source: string };
  sourceEnvironment?: { key: string };
  label: string | null;
  hooks?: PublishHooks;
}

/** Writes the files of a claimed publication and switches its environment to them, renewing its lease meanwhile. */
async function runPublication({
  claimed,
  projectId,
  projectToken,
  environment,
  sourceEnvironment,
  label,
  hooks,
}: Run): Promise<PublishResult> {
  const environmentKey = environment.key;
  const started = performance.now();
  const target: Target = { projectToken, environmentKey, version: claimed.version };
  const progress = new ProgressReporter({ publicationId: claimed.id, projectId, environmentKey });
  progress.stageChanged('STARTED');

  // The lease is renewed every third of its length while this publisher
  // lives, whatever its progress (a large file may take longer than a lease):
  // a publisher that stops (killed, crashed) loses the slot within one lease.
  let lost = false;
  const heartbeat = setInterval(
    () => {
      renewLease(claimed.id, claimed.version).then(
        (held) => {
          if (!held) lost = true;
        },
        (e: unknown) => logger().warn({ err: e, publicationId: claimed.id }, 'publication: renewing the lease failed'),
      );
    },
    (leaseSeconds() * 1000) / 3,
  );
  heartbeat.unref();
  let total = 0;
  const onResource = async (done: number) => {
    if (lost) throw new LostSlotError();
    progress.fileDone(done);
    await hooks?.afterResource?.(done, total);
  };

  let content: CompletedContent;
  let completedAt: Date;
  try {
    progress.stageChanged('READING');
    if (!sourceEnvironment) {
      const snapshot = await editorSnapshot(projectId);
      total = snapshot.total;
      progress.stageChanged('WRITING', total);
      const resources = await writeFiles(target, snapshot.files, onResource);
      content = {
        numberOfKeys: snapshot.numberOfKeys,
        numberOfLanguages: snapshot.numberOfLanguages,
        numberOfNonEmptyTranslations: snapshot.numberOfNonEmptyTranslations(),
        resources,
      };
    } else {
      const source = await prisma().publication.findUniqueOrThrow({ where: { id: claimed.sourcePublicationId! } });
      const sourceResources = source.resources as unknown as PublishedResource[];
      total = sourceResources.length;
      progress.stageChanged('WRITING', total);
      const resources = await copyFiles(
        { projectToken, environmentKey: sourceEnvironment.key, version: source.version },
        target,
        sourceResources,
        onResource,
      );
      content = {
        numberOfKeys: source.numberOfKeys,
        numberOfLanguages: source.numberOfLanguages,
        numberOfNonEmptyTranslations: source.numberOfNonEmptyTranslations,
        resources,
      };
    }
    progress.stageChanged('SWITCHING');
    const completed = await completePublication(claimed.id, claimed.version, environment.id, content);
    if (!completed) throw new LostSlotError();
    completedAt = completed.completedAt;
  } catch (error) {
    const message = (error as Error).message || 'Publication failed';
    await failPublication(claimed.id, claimed.version, message).catch((e: unknown) =>
      logger().error({ err: e, publicationId: claimed.id }, 'publication: recording the failure failed'),
    );
    // Never served: the partial version can go at once.
    await storage()
      .deletePrefix(versionPrefix(projectToken, environmentKey, claimed.version))
      .catch((e: unknown) =>
        logger().error({ err: e, publicationId: claimed.id }, 'publication: removing partial files failed'),
      );
    progress.failed(message);
    recordPublication('failed', (performance.now() - started) / 1000);
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
  forgetServed(projectToken, environmentKey);
  progress.completed();
  recordPublication('success', (performance.now() - started) / 1000);
  await collectOldVersions(projectToken, environment.id, environmentKey).catch((e: unknown) =>
    logger().error({ err: e, publicationId: claimed.id }, 'publication: removing old versions failed'),
  );
  return {
    environmentKey,
    source: environment.source,
    state: 'COMPLETE',
    id: claimed.id,
    version: claimed.version,
    label,
    createdAt: claimed.createdAt,
    completedAt,
    numberOfKeys: content.numberOfKeys,
    numberOfLanguages: content.numberOfLanguages,
    numberOfNonEmptyTranslations: content.numberOfNonEmptyTranslations,
    numberOfResources: content.resources.length,
  };
}

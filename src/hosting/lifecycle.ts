// The database side of a publication: claiming the project's one publish slot
// (checked and taken in one transaction holding the project row, so it holds
// across processes and instances), the lease that keeps the slot while the
// publisher lives (renewed every third of PUBLICATION_LEASE_SECONDS, whatever
// its progress), and the fenced switch-over. A publisher that stops (killed,
// crashed, frozen) stops renewing its lease; once it has run out, an instance
// takes the publication over (takeOverExpired, run by every instance: takeover.ts)
// and publishes it again under a new version.
import { randomBytes } from 'node:crypto';
import { Prisma } from '../generated/prisma/client.js';
import { lockProject, prisma } from '../db.js';
import { badRequest, conflict, tooManyRequests, said } from '../errors.js';
import type { PublishedResource } from './layout.js';
import type { PublicationSummary } from './environments.js';
import { openChange } from '../content/changes.js';
import { currentOrigin } from '../content/origin.js';
import { hostingSettings } from './runtime.js';

/** How long a publication keeps the slot without its publisher renewing it (PUBLICATION_LEASE_SECONDS). */
export const leaseSeconds = (): number => hostingSettings().leaseSeconds;
const RATE_WINDOW_SECONDS = 60;

export interface ClaimedPublication {
  id: number;
  version: string;
  createdAt: Date;
  /** The source environment's served publication, read under the lock (null from the editor). */
  sourcePublicationId: number | null;
}

export interface ClaimRequest {
  projectId: number;
  environmentId: number;
  environmentKey: string;
  /** The environment to copy from; undefined when publishing from the editor. */
  source?: { id: number; key: string };
  label: string | null;
  /** Publications per project per minute. */
  rateLimit: number;
  /** An automation's action (automation:<runId>:<index>): one publication per key. */
  idempotencyKey?: string;
}

function newVersion(): string {
  // Sortable by time, unique by the random part.
  return `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** A publication an automation's action already started (its idempotency key), as the repeated claim finds it. */
export interface KeyedPublication extends PublicationSummary {
  state: 'RUNNING' | 'COMPLETE' | 'FAILED';
  message: string;
}

/**
 * Takes the project's publish slot for a new publication, or, when
 * `request.idempotencyKey` already named one, returns that one (`existing`)
 * and takes nothing: looked up under the project's lock, before the slot and
 * the rate are checked, so a repeat finds its own publication whether it is
 * still running or ended, and two repeats at once cannot both publish.
 */
export async function claimPublication(
  request: ClaimRequest,
): Promise<{ claimed: ClaimedPublication } | { existing: KeyedPublication }> {
  // Who publishes, recorded from the start (a publication that fails or is still running has an author too).
  const origin = currentOrigin();
  const key = request.idempotencyKey ?? null;
  return prisma().$transaction(async (tx) => {
    // Serializes publish requests of one project (all instances share the row lock).
    await lockProject(tx, request.projectId);
    if (key !== null) {
      const [existing] = await tx.$queryRaw<KeyedPublication[]>(Prisma.sql`/* hosting:publication-of-key */
        SELECT id, version, state::text AS state, message, label, "createdAt", "completedAt", "numberOfKeys", "numberOfLanguages",
               "numberOfNonEmptyTranslations", jsonb_array_length(resources)::int AS "numberOfResources"
          FROM "Publication" WHERE "idempotencyKey" = ${key} AND "projectId" = ${request.projectId}`);
      if (existing) return { existing };
    }
    // Environments switch only at the end of a publication holding the slot, so
    // the source read here stays served for the whole run.
    let sourcePublicationId: number | null = null;
    if (request.source) {
      const [source] = await tx.$queryRaw<{ current: number | null }[]>(Prisma.sql`/* hosting:source-publication */
        SELECT "currentPublicationId" AS current FROM "Environment" WHERE id = ${request.source.id}`);
      if (!source?.current) {
        throw badRequest(
          `${request.environmentKey} publishes from ${request.source.key}, which has no publication yet; publish ${request.source.key} first`,
        );
      }
      sourcePublicationId = source.current;
    }
    // A publication whose lease ran out still holds the slot: an instance takes it over (takeOverExpired).
    const running = await tx.$queryRaw<{ key: string }[]>(Prisma.sql`/* hosting:running-publication */
      SELECT e.key
        FROM "Publication" p JOIN "Environment" e ON e.id = p."environmentId"
       WHERE p."projectId" = ${request.projectId} AND p.state = 'RUNNING' LIMIT 1`);
    if (running[0]) {
      throw conflict(said('publication-running', { environment: running[0].key }));
    }
    // The rate: the oldest of the last `rateLimit` publications must be out of the window.
    const window = await tx.$queryRaw<{ seconds: number }[]>(Prisma.sql`/* hosting:publication-rate */
      SELECT extract(epoch FROM "createdAt" + make_interval(secs => ${RATE_WINDOW_SECONDS}::float8) - now())::float8 AS seconds
        FROM "Publication" WHERE "projectId" = ${request.projectId} AND "createdAt" > now() - make_interval(secs => ${RATE_WINDOW_SECONDS}::float8)
       ORDER BY "createdAt" DESC OFFSET ${request.rateLimit}::int - 1 LIMIT 1`);
    if (window[0]) {
      const seconds = Math.max(1, Math.ceil(window[0].seconds));
      throw tooManyRequests(said('too-many-publications', { limit: request.rateLimit, seconds }), seconds);
    }
    const rows = await tx.$queryRaw<Omit<ClaimedPublication, 'sourcePublicationId'>[]>(Prisma.sql`/* hosting:claim */
      INSERT INTO "Publication" ("projectId", "environmentId", "sourcePublicationId", version, label, state, "leaseExpiresAt", "actorKind", "actorId", source, "idempotencyKey")
      VALUES (${request.projectId}, ${request.environmentId}, ${sourcePublicationId}, ${newVersion()}, ${request.label}, 'RUNNING',
              now() + make_interval(secs => ${leaseSeconds()}::float8), ${origin.actorKind}, ${origin.actorId}, ${origin.source}, ${key})
      RETURNING id, version, "createdAt"`);
    return { claimed: { ...rows[0]!, sourcePublicationId } };
  });
}

/** Extends the lease; false when the publication lost its slot (it must stop). */
export async function renewLease(publicationId: number, version: string): Promise<boolean> {
  const count = await prisma().$executeRaw(
    Prisma.sql`/* hosting:renew-lease */ UPDATE "Publication" SET "leaseExpiresAt" = now() + make_interval(secs => ${leaseSeconds()}::float8)
      WHERE id = ${publicationId} AND version = ${version} AND state = 'RUNNING'`,
  );
  return count === 1;
}

export interface ExpiredPublication extends ClaimedPublication {
  projectId: number;
  environmentId: number;
  label: string | null;
  /** The version its stopped publisher was writing: partial files to remove. */
  abandonedVersion: string;
}

/**
 * Takes over one publication whose publisher stopped renewing its lease: a
 * new lease for this instance and a new version to write (the stopped
 * publisher's partial files are the abandoned version's). SKIP LOCKED: two
 * instances looking at once take different ones. The stopped publisher, should
 * it wake up, no longer holds the version the row names and cannot complete it.
 */
export async function takeOverExpired(): Promise<ExpiredPublication | undefined> {
  const rows = await prisma().$queryRaw<ExpiredPublication[]>(
    Prisma.sql`/* hosting:take-over */
     UPDATE "Publication" p SET "leaseExpiresAt" = now() + make_interval(secs => ${leaseSeconds()}::float8), version = ${newVersion()}
       FROM (SELECT id, version FROM "Publication"
              WHERE state = 'RUNNING' AND "leaseExpiresAt" <= now()
              ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) expired
      WHERE p.id = expired.id
      RETURNING p.id, p.version, p."createdAt", p."sourcePublicationId", p."projectId", p."environmentId", p.label,
                expired.version AS "abandonedVersion"`,
  );
  return rows[0];
}

export interface CompletedContent {
  numberOfKeys: number;
  numberOfLanguages: number;
  numberOfNonEmptyTranslations: number;
  resources: PublishedResource[];
}

/**
 * Marks the publication COMPLETE and points the environment at it, in one
 * transaction. Fenced: returns false (and changes nothing) when the
 * publication is no longer RUNNING, e.g. after its lease expired and a newer
 * publication took the slot.
 */
export async function completePublication(
  publicationId: number,
  version: string,
  environmentId: number,
  content: CompletedContent,
): Promise<{ completedAt: Date } | undefined> {
  return prisma().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ completedAt: Date }[]>(
      Prisma.sql`/* hosting:complete */ UPDATE "Publication" SET state = 'COMPLETE', "completedAt" = now(), "leaseExpiresAt" = NULL,
              "numberOfKeys" = ${content.numberOfKeys}, "numberOfLanguages" = ${content.numberOfLanguages},
              "numberOfNonEmptyTranslations" = ${content.numberOfNonEmptyTranslations}, resources = ${JSON.stringify(content.resources)}::jsonb
        WHERE id = ${publicationId} AND version = ${version} AND state = 'RUNNING' RETURNING "completedAt"`,
    );
    if (!rows[0]) return undefined;
    const [environment] = await tx.$queryRaw<{ key: string; projectId: number }[]>(
      Prisma.sql`/* hosting:current-publication */ UPDATE "Environment" SET "currentPublicationId" = ${publicationId}
        WHERE id = ${environmentId} RETURNING key, "projectId"`,
    );
    // The publication is an activity of its project (PUBLICATION / ENVIRONMENT_PUBLICATION webhooks), committed with it.
    await openChange(tx, environment!.projectId, 'PUBLICATION', {
      environment: environment!.key,
      publicationId,
      numberOfKeys: content.numberOfKeys,
      numberOfLanguages: content.numberOfLanguages,
      numberOfNonEmptyTranslations: content.numberOfNonEmptyTranslations,
    });
    return rows[0];
  });
}

export async function failPublication(publicationId: number, version: string, message: string): Promise<void> {
  await prisma().$executeRaw(
    Prisma.sql`/* hosting:fail */ UPDATE "Publication" SET state = 'FAILED', message = ${message.slice(0, 1000)}, "completedAt" = now(), "leaseExpiresAt" = NULL
      WHERE id = ${publicationId} AND version = ${version} AND state = 'RUNNING'`,
  );
}

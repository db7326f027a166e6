// Final state changes of a job. Each is conditional on this worker still
// holding the job, so a worker that lost its lease cannot overwrite the result
// of the one that took over.
import { prisma } from '../db.js';
import { Prisma, type Job } from '../generated/prisma/client.js';
import { publishJobEvent } from './events.js';
import { recordJob } from '../metrics.js';
import { openChange, queueAutomations, queueWebhooks } from '../content/changes.js';
import type { Origin } from '../content/origin.js';
import { jobMessage, jobPart, type JobMessage } from './messages.js';

async function finalize(
  jobId: string,
  owner: string | null,
  data: {
    state: 'SUCCESS' | 'FAILED' | 'CANCELLED';
    /** A sentence alone (a provider's error) has no parts to word in other languages. */
    message: JobMessage | string;
    progress?: number;
    metadata?: object;
  },
): Promise<void> {
  const { message, parts } = typeof data.message === 'string' ? { message: data.message, parts: null } : data.message;
  // The end of the job and its activity entry (AUTO_TRANSLATION_SUCCESS webhooks) commit together.
  const rows = await prisma().$transaction(async (tx) => {
    const ended = await tx.$queryRaw<Job[]>(Prisma.sql`/* jobs:finish */
      UPDATE "Job" SET state = ${data.state}::"JobState", message = ${message}, "messageText" = ${parts ? JSON.stringify(parts) : null}::jsonb, progress = coalesce(${data.progress ?? null}, progress),
            metadata = coalesce(${data.metadata ? JSON.stringify(data.metadata) : null}::jsonb, metadata), "finishedAt" = now(), "updatedAt" = now(),
            "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
            checkpoint = jsonb_set(checkpoint, '{sequence}', to_jsonb(coalesce((checkpoint->>'sequence')::int, 0) + 1))
      WHERE id = ${jobId} AND state = 'STARTED' AND (${owner}::text IS NULL OR "leaseOwner" = ${owner})
      RETURNING *`);
    const job = ended[0];
    if (job) {
      const checkpoint = job.checkpoint as { activityId?: string };
      // The cells the job wrote (whatever its outcome) are one CHANGE, told about now that it has ended.
      if (checkpoint.activityId)
        await queueWebhooks(tx, { id: BigInt(checkpoint.activityId), projectId: job.projectId }, 'CHANGE');
      // Its end is recorded as the job's, whoever asked it to stop: an automation's job stays that automation's (loop prevention).
      const origin = jobOrigin(job);
      const finished = await openChange(
        tx,
        job.projectId,
        'JOB_FINISHED',
        {
          jobId: job.id,
          jobKind: job.kind,
          state: job.state,
          message: job.message,
          messageText: job.messageText,
          activityId: checkpoint.activityId ?? null,
        },
        { origin },
      );
      // Automation rules hear of the job's cells and of its success now, as its webhooks do.
      if (checkpoint.activityId)
        await queueAutomations(
          tx,
          { id: BigInt(checkpoint.activityId), projectId: job.projectId },
          ['TEXTS_CHANGED', 'REVIEW_STATUS_CHANGED'],
          origin,
        );
      if (job.state === 'SUCCESS') await queueAutomations(tx, finished, ['AUTO_TRANSLATION_FINISHED'], origin);
    }
    return ended;
  });
  const job = rows[0];
  if (!job) return;
  publishJobEvent(job);
  recordJob(
    job.kind,
    job.state,
    (new Date(job.finishedAt ?? Date.now()).getTime() - new Date(job.startedAt).getTime()) / 1000,
  );
}

export function succeedJob(job: Job, owner: string, message: JobMessage, metadata: object): Promise<void> {
  return finalize(job.id, owner, { state: 'SUCCESS', message, progress: 1, metadata });
}

export function failJob(job: Pick<Job, 'id'>, owner: string | null, message: JobMessage | string): Promise<void> {
  return finalize(job.id, owner, { state: 'FAILED', message });
}

export function cancelJobRow(jobId: string, owner: string | null): Promise<void> {
  return finalize(jobId, owner, { state: 'CANCELLED', message: jobMessage(jobPart('cancelled')) });
}

/** The origin a job's writes are recorded with (the worker runs it in the same). */
export function jobOrigin(job: Pick<Job, 'id' | 'origin'>): Origin {
  const stored = (job.origin ?? {}) as Partial<Origin>;
  return {
    actorKind: 'JOB',
    actorId: job.id,
    source: stored.source ?? 'SYSTEM',
    ...(stored.automation && { automation: stored.automation }),
  };
}

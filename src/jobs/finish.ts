// Final state changes of a job. Each is conditional on this worker still
// holding the job, so a worker that lost its lease cannot overwrite the result
// of the one that took over.
import { prisma } from '../db.js';
import type { Job } from '../generated/prisma/client.js';
import { publishJobEvent } from './events.js';
import { recordJob } from '../metrics.js';
import { openChange, queueWebhooks } from '../history/changes.js';

async function finalize(jobId: string, owner: string | null, data: { state: 'SUCCESS' | 'FAILED' | 'CANCELLED'; message: string; progress?: number; metadata?: object }): Promise<void> {
  // The end of the job and its activity entry (AUTO_TRANSLATION_SUCCESS webhooks) commit together.
  const rows = await prisma().$transaction(async (tx) => {
    const ended = await tx.$queryRawUnsafe<Job[]>(
    `UPDATE "Job" SET state = $3::"JobState", message = $4, progress = coalesce($5, progress),
            metadata = coalesce($6::jsonb, metadata), "finishedAt" = now(), "updatedAt" = now(),
            "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
            checkpoint = jsonb_set(checkpoint, '{sequence}', to_jsonb(coalesce((checkpoint->>'sequence')::int, 0) + 1))
      WHERE id = $1 AND state = 'STARTED' AND ($2::text IS NULL OR "leaseOwner" = $2)
      RETURNING *`,
    jobId, owner, data.state, data.message, data.progress ?? null, data.metadata ? JSON.stringify(data.metadata) : null,
    );
    const job = ended[0];
    if (job) {
      const checkpoint = job.checkpoint as { activityId?: string };
      // The cells the job wrote (whatever its outcome) are one CHANGE, told about now that it has ended.
      if (checkpoint.activityId) await queueWebhooks(tx, { id: BigInt(checkpoint.activityId), projectId: job.projectId }, 'CHANGE');
      await openChange(tx, job.projectId, 'JOB_FINISHED', { jobId: job.id, jobKind: job.kind, state: job.state, message: job.message, activityId: checkpoint.activityId ?? null });
    }
    return ended;
  });
  const job = rows[0];
  if (!job) return;
  publishJobEvent(job);
  recordJob(job.kind, job.state, (new Date(job.finishedAt ?? Date.now()).getTime() - new Date(job.startedAt).getTime()) / 1000);
}

export function succeedJob(job: Job, owner: string, message: string, metadata: object): Promise<void> {
  return finalize(job.id, owner, { state: 'SUCCESS', message, progress: 1, metadata });
}

export function failJob(job: Pick<Job, 'id'>, owner: string | null, message: string): Promise<void> {
  return finalize(job.id, owner, { state: 'FAILED', message });
}

export function cancelJobRow(jobId: string, owner: string | null): Promise<void> {
  return finalize(jobId, owner, { state: 'CANCELLED', message: 'Cancelled' });
}

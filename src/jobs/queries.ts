import { prisma } from '../db.js';
import { notFound } from '../errors.js';
import type { Job } from '../generated/prisma/client.js';

export const JOB_LIST_LIMIT = 500;
export const FINAL_STATES = new Set(['SUCCESS', 'FAILED', 'CANCELLED']);

/** A job of the project, or NOT_FOUND (also for other projects' jobs). */
export async function jobOfProject(projectId: number, jobId: string): Promise<Job> {
  const job = await prisma().job.findFirst({ where: { id: jobId, projectId } });
  if (!job) throw notFound(`Job ${jobId} not found`);
  return job;
}

/**
 * Cancels a job: at once when no worker holds it, otherwise by asking its
 * worker, which stops after the batch in progress (state CANCELLED).
 */
export async function cancelJob(projectId: number, jobId: string): Promise<Job> {
  await jobOfProject(projectId, jobId);
  const { cancelJobRow } = await import('./finish.js');
  const [free] = await prisma().$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM "Job" WHERE id = $1 AND state = 'STARTED' AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < now())`, jobId,
  );
  if (free) await cancelJobRow(jobId, null);
  else await prisma().job.updateMany({ where: { id: jobId, state: 'STARTED' }, data: { cancelRequested: true } });
  return jobOfProject(projectId, jobId);
}

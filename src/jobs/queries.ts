import { prisma } from '../db.js';
import { notFound } from '../errors.js';
import { Prisma, type Job } from '../generated/prisma/client.js';

export const JOB_LIST_LIMIT = 500;
export const FINAL_STATES = new Set(['SUCCESS', 'FAILED', 'CANCELLED']);

type State = Job['state'];

/**
 * Status names of the job list filter: the vendor's (RUNNING, what its
 * command-line client polls for) and ours. RUNNING is every job not finished:
 * STARTED covers a job waiting for a worker and one being worked on.
 */
export const JOB_STATUS_FILTERS = {
  RUNNING: ['STARTED'],
  STARTED: ['STARTED'],
  SUCCESS: ['SUCCESS'],
  FAILED: ['FAILED'],
  CANCELLED: ['CANCELLED'],
} as const satisfies Record<string, readonly State[]>;
export type JobStatusFilter = keyof typeof JOB_STATUS_FILTERS;

/** Job types of the list filter (the vendor's names) and the kind each stands for. */
export const JOB_TYPES = { AUTO_TRANSLATION: 'AUTO_TRANSLATE' } as const;
export type JobTypeName = keyof typeof JOB_TYPES;

export function jobTypeOf(kind: string): JobTypeName {
  const found = (Object.keys(JOB_TYPES) as JobTypeName[]).find((t) => JOB_TYPES[t] === kind);
  if (!found) throw new Error(`Unknown job kind ${kind}`);
  return found;
}

export interface JobListFilter {
  /** Any of these statuses (none: all). */
  status?: readonly JobStatusFilter[] | null;
  /** Any of these types (none: all). */
  type?: readonly JobTypeName[] | null;
}

/** The `where` of the project's job list for a filter. */
export function jobListWhere(projectId: number, filter: JobListFilter = {}) {
  const states = filter.status?.length ? [...new Set(filter.status.flatMap((s) => JOB_STATUS_FILTERS[s]))] : undefined;
  const kinds = filter.type?.length ? [...new Set(filter.type.map((t) => JOB_TYPES[t]))] : undefined;
  return { projectId, ...(states ? { state: { in: states } } : {}), ...(kinds ? { kind: { in: kinds } } : {}) };
}

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
  const [free] = await prisma().$queryRaw<{ id: string }[]>(Prisma.sql`/* jobs:unleased */
    SELECT id FROM "Job" WHERE id = ${jobId} AND state = 'STARTED' AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < now())`);
  if (free) await cancelJobRow(jobId, null);
  else await prisma().job.updateMany({ where: { id: jobId, state: 'STARTED' }, data: { cancelRequested: true } });
  return jobOfProject(projectId, jobId);
}

// Job workers: every instance runs one. A worker claims a STARTED job whose
// lease is free with FOR UPDATE SKIP LOCKED (so two workers never take the same
// job), holds the lease with a heartbeat while it runs, and hands it back on
// shutdown. A job whose worker died is claimed again once its lease expires
// and continues from its checkpoint.
import { prisma } from '../db.js';
import { logger } from '../log.js';
import { Prisma, type Job } from '../generated/prisma/client.js';
import { runJob, LeaseLostError, JobCancelledError } from './run.js';
import { cancelJobRow, failJob, jobOrigin } from './finish.js';
import { jobMessage, jobPart } from './messages.js';
import { withOrigin } from '../content/origin.js';
import { announceChanges } from '../history/notify.js';
import { PollLoop } from '../poll-loop.js';

export interface WorkerOptions {
  /** Identifies this worker in `leaseOwner` (instance id). */
  owner: string;
  leaseMs?: number;
  pollMs?: number;
  /** Attempts after which a job that keeps failing unexpectedly is given up. */
  maxAttempts?: number;
}

const workers = new Set<JobWorker>();

/** Called after jobs are created, so an idle worker does not wait for its next poll. */
export function wakeWorkers(): void {
  for (const worker of workers) worker.wake();
}

export class JobWorker {
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private readonly loop: PollLoop;
  private current: AbortController | undefined;

  constructor(private readonly options: WorkerOptions) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 2_000;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.loop = new PollLoop({
      failure: 'job claim failed',
      sleepMs: () => this.pollMs,
      round: async () => {
        const job = await this.claim();
        if (job) await this.execute(job);
        return !!job;
      },
    });
  }

  start(): void {
    workers.add(this);
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  /** Stops claiming, aborts the running job and releases its lease so another instance continues it at once. */
  async stop(): Promise<void> {
    workers.delete(this);
    const stopped = this.loop.stop();
    this.current?.abort(new Error('worker stopping'));
    await stopped;
  }

  private async claim(): Promise<Job | undefined> {
    const rows = await prisma().$queryRaw<Job[]>(Prisma.sql`/* jobs:claim */
      UPDATE "Job" SET "leaseOwner" = ${this.options.owner}, "leaseExpiresAt" = now() + make_interval(secs => ${this.leaseMs}::float8 / 1000), attempts = attempts + 1, "updatedAt" = now()
        WHERE id = (SELECT id FROM "Job"
                     WHERE state = 'STARTED' AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < now())
                     ORDER BY "startedAt", id
                     FOR UPDATE SKIP LOCKED LIMIT 1)
        RETURNING *`);
    return rows[0];
  }

  /** A job's writes are the job's own, from the source that started it (src/history/). */
  private execute(job: Job): Promise<void> {
    return withOrigin(jobOrigin(job), () => this.executeJob(job), announceChanges);
  }

  private async executeJob(job: Job): Promise<void> {
    const controller = new AbortController();
    this.current = controller;
    const heartbeat = setInterval(
      () => {
        this.renewLease(job.id).then(
          (lease) => {
            if (lease === 'lost') controller.abort(new LeaseLostError());
            if (lease === 'cancel') controller.abort(new JobCancelledError());
          },
          () => {},
        );
      },
      Math.max(200, Math.floor(this.leaseMs / 3)),
    );
    try {
      if (job.attempts > this.maxAttempts) {
        await failJob(job, this.options.owner, jobMessage(jobPart('given-up', { attempts: job.attempts - 1 })));
        return;
      }
      await runJob(job, { owner: this.options.owner, signal: controller.signal });
    } catch (error) {
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
      if (reason instanceof JobCancelledError || error instanceof JobCancelledError) {
        await cancelJobRow(job.id, this.options.owner);
      } else if (this.loop.stopping || reason instanceof LeaseLostError) {
        await this.release(job.id);
      } else {
        // Unexpected (database, bug): hand the job back; it is retried until maxAttempts.
        logger().error({ err: error, jobId: job.id }, 'job failed unexpectedly');
        await this.release(job.id);
      }
    } finally {
      clearInterval(heartbeat);
      this.current = undefined;
    }
  }

  /** Extends the lease; tells when the lease was lost or cancellation was requested. */
  private async renewLease(jobId: string): Promise<'ok' | 'lost' | 'cancel'> {
    const rows = await prisma().$queryRaw<{ cancelRequested: boolean }[]>(Prisma.sql`/* jobs:renew-lease */
      UPDATE "Job" SET "leaseExpiresAt" = now() + make_interval(secs => ${this.leaseMs}::float8 / 1000)
        WHERE id = ${jobId} AND "leaseOwner" = ${this.options.owner} AND state = 'STARTED' RETURNING "cancelRequested"`);
    if (rows.length === 0) return 'lost';
    return rows[0]!.cancelRequested ? 'cancel' : 'ok';
  }

  private async release(jobId: string): Promise<void> {
    await prisma()
      .$executeRaw(
        Prisma.sql`/* jobs:release */
      UPDATE "Job" SET "leaseOwner" = NULL, "leaseExpiresAt" = NULL WHERE id = ${jobId} AND "leaseOwner" = ${this.options.owner} AND state = 'STARTED'`,
      )
      .catch(() => {});
  }
}

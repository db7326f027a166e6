import { events, type JobEvent } from '../events/pubsub.js';

export interface JobRowForEvent {
  id: string;
  projectId: number;
  state: string;
  progress: number;
  message: string;
  checkpoint: unknown;
}

/** Publishes a job's state to its own topic and to its project's topic (after commit). */
export function publishJobEvent(job: JobRowForEvent): void {
  const sequence = Number((job.checkpoint as { sequence?: number } | null)?.sequence ?? 0);
  const event: JobEvent = {
    jobId: job.id,
    projectId: job.projectId,
    state: job.state,
    progress: job.progress,
    message: job.message,
    sequence,
    at: new Date().toISOString(),
  };
  events().publish('job', job.id, event);
  events().publish('project-jobs', job.projectId, event);
}

// Typed publish/subscribe for GraphQL subscriptions. Services publish after
// their transaction commits. In process by default; a Redis-backed event target
// replaces the in-process one when several instances run (see setEventTarget).
import { setMaxListeners } from 'node:events';
import { createPubSub, type PubSub } from 'graphql-yoga';

export interface JobEvent {
  jobId: string;
  projectId: number;
  state: string;
  progress: number;
  message: string;
  /** Monotonic per job, so subscribers can order events and drop stale ones. */
  sequence: number;
  at: string;
}

export interface PublicationEvent {
  publicationId: number;
  projectId: number;
  environmentKey: string;
  stage: string;
  filesDone: number;
  filesTotal: number;
  state: string;
  message: string;
  at: string;
}

/** A change (activity) of a project has committed; subscribers read its events from the database. */
export interface ActivityEvent {
  projectId: number;
  /** The activity id, as a string (bigint). */
  activityId: string;
}

/** A web console session ended (sign-out): its sockets close (src/http/session-sockets.ts). */
export interface SessionEndedEvent {
  sessionId: number;
}

export type Topics = {
  /** Committed changes of a project (src/history/notify.ts). */
  'project-activity': [projectId: number, event: ActivityEvent];
  /** One job's events. */
  job: [jobId: string, event: JobEvent];
  /** All job events of a project. */
  'project-jobs': [projectId: number, event: JobEvent];
  /** Publication progress of a project. */
  'project-publications': [projectId: number, event: PublicationEvent];
  /** Sessions ended on any instance. */
  'session-ended': [event: SessionEndedEvent];
};

type EventTarget = Parameters<typeof createPubSub>[0] extends infer O
  ? O extends { eventTarget?: infer T }
    ? T
    : never
  : never;

/** In process: one EventTarget; thousands of subscribers to one topic are normal, not a leak. */
function inProcess(): PubSub<Topics> {
  const eventTarget = new EventTarget();
  setMaxListeners(0, eventTarget);
  return createPubSub<Topics>({ eventTarget });
}

let pubsub: PubSub<Topics> = inProcess();

export function events(): PubSub<Topics> {
  return pubsub;
}

/** Switches to another event target (Redis for several instances). */
export function setEventTarget(eventTarget: EventTarget | undefined): void {
  pubsub = eventTarget ? createPubSub<Topics>({ eventTarget }) : inProcess();
}

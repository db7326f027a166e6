// Waking the outbound workers — the webhook dispatcher (src/webhooks/) and the
// automation runner (src/automations/) — when a piece of work queued for them:
// a change that queued a delivery or a run (changes.ts), a job's end, an
// automation's webhook action. A change that queued nothing (a project without
// webhooks or rules: most writes) wakes nobody; before, every committed change
// woke both, and each sent a claim statement that found nothing: two
// statements more per write. Their poll still finds whatever a wake
// missed (another instance's queueing, a wake lost to a crash).
import { afterWorkWakers } from './origin.js';

const workers = afterWorkWakers();

/** A worker of this process, woken when outbound work was queued (returns its removal). */
export const onOutboundQueued = workers.register;

/** Called as outbound work is queued, in the writer's transaction: the workers are woken once the work has ended. */
export function noteOutbound(): void {
  workers.note();
}

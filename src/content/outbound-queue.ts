// Waking the outbound workers — the webhook dispatcher (src/webhooks/) and the
// automation runner (src/automations/) — when a piece of work queued for them:
// a change that queued a delivery or a run (changes.ts), a job's end, an
// automation's webhook action. A change that queued nothing (a project without
// webhooks or rules: most writes) wakes nobody; before, every committed change
// woke both, and each sent a claim statement that found nothing, two of a
// one-cell write's four statements. Their poll still finds whatever a wake
// missed (another instance's queueing, a wake lost to a crash).
import { afterWork } from './origin.js';

type Waker = () => void;
const wakers = new Set<Waker>();
let wakeTimer: NodeJS.Timeout | undefined;

/** A worker of this process, woken when outbound work was queued (returns its removal). */
export function onOutboundQueued(wake: Waker): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

function wakeWorkers(): void {
  for (const wake of wakers) wake();
}

/**
 * Called as outbound work is queued (in the writer's transaction): the workers
 * are woken once the work has ended, its transactions committed (woken before,
 * their claim would pass over the uncommitted rows). Outside such work: shortly
 * after, the way the findings queue does it (findings-queue.ts).
 */
export function noteOutbound(): void {
  if (!wakers.size || afterWork(wakeWorkers)) return;
  if (wakeTimer) return;
  wakeTimer = setTimeout(() => {
    wakeTimer = undefined;
    wakeWorkers();
  }, 50);
  wakeTimer.unref();
}

/** Wakes the workers now (the caller's queueing has committed). */
export function wakeOutbound(): void {
  wakeWorkers();
}

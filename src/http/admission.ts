// Admission by measured capacity: under overload the service answers what it
// cannot serve in time at once (503 with Retry-After, in the envelope) instead
// of queueing it until clients give up. Requests of the API (/api/, /graphql)
// fall in three classes, each with its own number of requests running at
// once: reads (GET, HEAD), writes (other methods) and transfers (imports,
// exports, publications, uploads). A request beyond its class's number waits
// in the class's queue, first come first served, but only if its measured
// wait — the requests ahead of it times the class's recent service time,
// shared by the class's slots — is under ADMISSION_MAX_QUEUE_MS, and never
// longer than that: then it is answered 503. Health, readiness, metrics,
// published files and the console's pages are never queued or refused.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendEnvelope } from './envelope.js';

import type { AdmissionClass, AdmissionConfig } from '../config.js';

export type { AdmissionClass };

const TRANSFER =
  /^\/api\/v\d+\/(?:import|export|upload|environments\/[^/]+\/publish|translation-memory\/(?:import|export))/;

/** The class of a request, or undefined when it is not admitted by capacity (health, metrics, files, console). */
export function admissionClass(
  method: string,
  url: string,
  contentType: string | undefined,
): AdmissionClass | undefined {
  const path = url.split('?', 1)[0]!;
  if (path === '/graphql') {
    if (method === 'OPTIONS') return undefined;
    if (contentType?.startsWith('multipart/form-data')) return 'transfer';
    return method === 'GET' ? 'read' : 'write';
  }
  if (!path.startsWith('/api/')) return undefined;
  if (TRANSFER.test(path)) return 'transfer';
  return method === 'GET' || method === 'HEAD' ? 'read' : method === 'OPTIONS' ? undefined : 'write';
}

interface Waiter {
  admit(): void;
  timer: NodeJS.Timeout;
}

/** One class's slots and queue, with its recent service time (exponentially weighted mean). */
export class AdmissionQueue {
  running = 0;
  private readonly queue: Waiter[] = [];
  /** Recent service time of an admitted request, ms; starts at 10 ms until measured. */
  serviceMs = 10;
  admitted = 0;
  shed = 0;

  constructor(
    readonly slots: number,
    readonly maxQueueMs: number,
  ) {}

  get waiting(): number {
    return this.queue.length;
  }

  /** The measured wait of a request joining the queue now, ms. */
  expectedWaitMs(): number {
    return ((this.queue.length + 1) * this.serviceMs) / this.slots;
  }

  /**
   * Resolves with a release function when the request may run, or with
   * undefined when it is refused (its wait would be, or became, too long).
   */
  enter(): Promise<(() => void) | undefined> | (() => void) | undefined {
    if (this.running < this.slots && this.queue.length === 0) return this.start();
    if (this.expectedWaitMs() > this.maxQueueMs) return this.refuse();
    return new Promise((resolve) => {
      const waiter: Waiter = {
        admit: () => resolve(this.start()),
        timer: setTimeout(() => {
          this.queue.splice(this.queue.indexOf(waiter), 1);
          resolve(this.refuse());
        }, this.maxQueueMs),
      };
      this.queue.push(waiter);
    });
  }

  private refuse(): undefined {
    this.shed++;
    return undefined;
  }

  private start(): () => void {
    this.running++;
    this.admitted++;
    const started = performance.now();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.running--;
      this.serviceMs = 0.8 * this.serviceMs + 0.2 * (performance.now() - started);
      const next = this.queue.shift();
      if (next) {
        clearTimeout(next.timer);
        next.admit();
      }
    };
  }
}

export interface Admission {
  queues: Record<AdmissionClass, AdmissionQueue>;
}

/** Seconds a refused client should wait: the time the class needs to work through what it holds, at least 1. */
function retryAfterSeconds(queue: AdmissionQueue): number {
  return Math.max(1, Math.ceil(((queue.running + queue.waiting) * queue.serviceMs) / queue.slots / 1000));
}

export function registerAdmission(app: FastifyInstance, config: AdmissionConfig): Admission | undefined {
  if (!config.enabled) return undefined;
  const queues = {
    read: new AdmissionQueue(config.concurrency.read, config.maxQueueMs),
    write: new AdmissionQueue(config.concurrency.write, config.maxQueueMs),
    transfer: new AdmissionQueue(config.concurrency.transfer, config.maxQueueMs),
  };
  const releases = new WeakMap<FastifyRequest, () => void>();
  // First of the onRequest hooks: a refused request costs no credential check, no rate-limit count, no body read.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const kind = admissionClass(request.method, request.url, request.headers['content-type']);
    if (!kind) return;
    const queue = queues[kind];
    const entered = queue.enter();
    const release = entered instanceof Promise ? await entered : entered;
    if (!release) {
      const seconds = retryAfterSeconds(queue);
      return sendEnvelope(
        reply,
        503,
        `The service is at capacity for ${kind} requests; retry in ${seconds} s`,
        undefined,
        { 'retry-after': String(seconds) },
      );
    }
    // The slot is given back when the answer is sent, or when the client went away before.
    releases.set(request, release);
    reply.raw.once('close', release);
    if (request.raw.destroyed) release();
  });
  app.addHook('onResponse', async (request) => releases.get(request)?.());
  return { queues };
}

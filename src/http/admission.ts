// Admission by measured capacity: under overload the service answers what it
// cannot serve in time at once (503 with Retry-After, in the envelope) instead
// of queueing it until clients give up. Requests of the API (/api/, /graphql)
// fall in three classes, each with its own number of requests running at
// once: reads (GET, HEAD), writes (other methods) and transfers (imports,
// exports, publications, uploads). A request beyond its class's number waits
// in the class's queue, first come first served, but only if its measured
// wait — the requests ahead of it times the class's recent service time,
// shared by the class's slots — is under ADMISSION_MAX_QUEUE_MS, and never
// longer than that: then it is answered 503. Whatever its class, a request is
// also refused while the event loop is late by more than ADMISSION_MAX_LAG_MS
// (loop-lag.ts): then the process has more work than its thread can do, and
// every admitted request waits that long at each of its steps. Health,
// readiness, metrics, published files and the console's pages are never
// queued or refused.
//
// The gate is the HTTP server's own 'request' listener, in front of Fastify's:
// a refused request costs no routing, no request object, no hook, no body read
// and no database work; a queued one reaches Fastify when it is admitted.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { LoopLag } from './loop-lag.js';

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
  enter(overloaded = false): Promise<(() => void) | undefined> | (() => void) | undefined {
    if (overloaded) return this.refuse();
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
  lag: LoopLag;
}

/** Seconds a refused client should wait: the time the class needs to work through what it holds, at least 1. */
function retryAfterSeconds(queue: AdmissionQueue): number {
  return Math.max(1, Math.ceil(((queue.running + queue.waiting) * queue.serviceMs) / queue.slots / 1000));
}

/** The 503 of a refused request, written on the raw response (the envelope's shape and type). */
function refuse(res: ServerResponse, kind: AdmissionClass, seconds: number): void {
  const body = JSON.stringify({
    msg: `The service is at capacity for ${kind} requests; retry in ${seconds} s`,
    status: 503,
  });
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'retry-after': String(seconds),
  });
  res.end(body);
}

export function registerAdmission(app: FastifyInstance, config: AdmissionConfig): Admission | undefined {
  if (!config.enabled) return undefined;
  const queues = {
    read: new AdmissionQueue(config.concurrency.read, config.maxQueueMs),
    write: new AdmissionQueue(config.concurrency.write, config.maxQueueMs),
    transfer: new AdmissionQueue(config.concurrency.transfer, config.maxQueueMs),
  };
  // Measured from when the service listens: start-up's own work is no overload.
  const lag = new LoopLag();
  const server = app.server;
  server.once('listening', () => lag.start());
  app.addHook('onClose', async () => lag.stop());
  // Fastify's handler, called for what is admitted (Fastify registers it when it creates the server).
  const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    for (const handler of handlers) handler.call(server, req, res);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const kind = admissionClass(req.method ?? 'GET', req.url ?? '/', req.headers['content-type']);
    if (!kind) return handle(req, res);
    const queue = queues[kind];
    const entered = queue.enter(lag.delayMs() > config.maxLagMs);
    const run = (release: (() => void) | undefined) => {
      if (!release) return refuse(res, kind, retryAfterSeconds(queue));
      // The slot is given back when the answer is sent, or at once when the client went away while queued.
      if (req.socket.destroyed) return release();
      res.once('close', release);
      handle(req, res);
    };
    if (entered instanceof Promise) void entered.then(run);
    else run(entered);
  });
  return { queues, lag };
}

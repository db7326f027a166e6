// Prometheus metrics over HTTP: request counts and durations by route, method
// and status (one onResponse hook; the labelled children are cached, so a
// request costs a map lookup and two increments), the gauges read at scrape
// time (job queue, database pool), and the /metrics endpoint. The instruments
// of the other parts are in src/metrics.ts.
//
// /metrics is never open to anyone on the public port: with METRICS_TOKEN it
// answers `Authorization: Bearer <METRICS_TOKEN>` there; with METRICS_PORT it
// is served without a token on a listener of its own (METRICS_HOST, loopback
// by default), which the public port's clients do not reach.
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Counter, Gauge, Histogram } from 'prom-client';
import { database } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { recordGraphQLOperation, registry } from '../metrics.js';
import { logger } from '../log.js';
import { operatorTokenMatches } from '../auth/principal.js';
import { sendEnvelope } from './envelope.js';

const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by route (the declared path, "unmatched" for unknown paths), method and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});
const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from receiving a request to sending its answer',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

new Gauge({
  name: 'job_queue_depth',
  help: 'Unfinished jobs: waiting for a worker (queued) or held by one (running)',
  labelNames: ['state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    try {
      const rows = await database().prisma.$queryRaw<
        { queued: number; running: number }[]
      >(Prisma.sql`/* http:metrics-jobs */
         SELECT count(*) FILTER (WHERE "leaseOwner" IS NULL OR "leaseExpiresAt" < now())::int AS queued,
                count(*) FILTER (WHERE "leaseOwner" IS NOT NULL AND "leaseExpiresAt" >= now())::int AS running
           FROM "Job" WHERE state = 'STARTED'`);
      this.set({ state: 'queued' }, rows[0]?.queued ?? 0);
      this.set({ state: 'running' }, rows[0]?.running ?? 0);
    } catch (error) {
      // The database is unreachable: the other metrics are still served (/readyz says why).
      logger().warn({ err: error }, 'metrics: reading the job queue failed');
    }
  },
});

new Gauge({
  name: 'db_pool_connections',
  help: 'PostgreSQL connection pool: open connections (total), idle ones, requests waiting for one, and the maximum (absent on embedded PGlite)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    const stats = database().poolStats?.();
    if (!stats) return;
    for (const [state, value] of Object.entries(stats)) this.set({ state }, value);
  },
});

type Pair = [{ inc(): void }, { observe(value: number): void }];

export interface MetricsOptions {
  /** METRICS_TOKEN: /metrics on the public port answers this bearer token. */
  token?: string;
  /** METRICS_PORT / METRICS_HOST: /metrics on a listener of its own, without a token. */
  port?: number;
  host?: string;
}

/** Records every request of the app and serves /metrics as configured. */
export async function registerMetrics(app: FastifyInstance, options: MetricsOptions): Promise<void> {
  const children = new Map<string, Pair>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${route} ${reply.statusCode}`;
    let pair = children.get(key);
    if (!pair) {
      const labels = [request.method, route, String(reply.statusCode)] as const;
      pair = [httpRequests.labels(...labels), httpDuration.labels(...labels)] as Pair;
      children.set(key, pair);
    }
    pair[0].inc();
    pair[1].observe(reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', async (request, reply) => {
    if (!options.token) {
      return sendEnvelope(
        reply,
        403,
        options.port
          ? `Metrics are served on port ${options.port} (METRICS_PORT)`
          : 'Metrics are off on this port: set METRICS_TOKEN (bearer token here) or METRICS_PORT (a port of their own)',
      );
    }
    if (!operatorTokenMatches(request.headers.authorization, options.token))
      return sendEnvelope(reply, 403, 'Send Authorization: Bearer <METRICS_TOKEN>');
    return reply.type(registry.contentType).send(await registry.metrics());
  });

  if (options.port !== undefined) {
    const server = await listenForMetrics(options.port, options.host ?? '127.0.0.1');
    app.addHook('onClose', async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
  }
}

/** The metrics listener: GET /metrics and nothing else. */
async function listenForMetrics(port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is served here\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`Metrics failed: ${error.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/**
 * A Yoga plugin counting every executed operation by name, type and outcome:
 * GraphQL over HTTP and WebSocket, and the REST routes (each runs one).
 */
export function useOperationMetrics(): Plugin {
  return {
    // Operations refused by validation never execute: counted as 'invalid'.
    onValidate({ params }) {
      const start = performance.now();
      return ({ valid }) => {
        if (valid) return;
        const operation = getOperationAST(params.documentAST);
        recordGraphQLOperation(
          operation?.name?.value,
          operation?.operation ?? 'unknown',
          'invalid',
          (performance.now() - start) / 1000,
        );
      };
    },
    onExecute({ args }) {
      const start = performance.now();
      const operation = getOperationAST(args.document, args.operationName);
      const name = operation?.name?.value;
      const type = operation?.operation ?? 'unknown';
      return {
        onExecuteDone({ result }) {
          // Incremental results (@defer, @stream) are counted as a success when they start.
          const failed = !isAsyncIterable(result) && (result.errors?.length ?? 0) > 0;
          recordGraphQLOperation(name, type, failed ? 'error' : 'success', (performance.now() - start) / 1000);
        },
      };
    },
  };
}

const isAsyncIterable = (value: object): value is AsyncIterable<unknown> => Symbol.asyncIterator in value;

// The service's Prometheus instruments (prom-client), in one registry. Code of
// any layer records through the functions here (jobs, publication, webhook
// deliveries, GraphQL operations and compilations); src/http/metrics.ts adds the HTTP request
// metrics, the scrape-time gauges (job queue, database pool) and serves
// /metrics. Recording is a counter increment and a histogram observation:
// cheap enough for every request.
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();

// Process memory, CPU, event-loop lag (nodejs_eventloop_lag_*), GC and handles.
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LONG_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600];

const graphqlOperations = new Counter({
  name: 'graphql_operations_total',
  help: 'GraphQL operations (REST requests included: each runs one), by operation name, type and outcome (success, error; invalid: refused by validation)',
  labelNames: ['operation', 'type', 'outcome'] as const,
  registers: [registry],
});
const graphqlDuration = new Histogram({
  name: 'graphql_operation_duration_seconds',
  help: 'Execution time of GraphQL operations',
  labelNames: ['operation', 'type', 'outcome'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

const graphqlCompilations = new Counter({
  name: 'graphql_compilations_total',
  help: "GraphQL documents compiled for execution (a REST route's on its first run, a client's on its second), by outcome (compiled; refused: graphql-jit cannot compile it, the generic executor runs it)",
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** A document compiled for execution (src/http/compiled-documents.ts), or refused by the compiler. */
export function recordGraphQLCompilation(outcome: 'compiled' | 'refused'): void {
  graphqlCompilations.inc({ outcome });
}

const jobs = new Counter({
  name: 'jobs_finished_total',
  help: 'Jobs that reached a final state, by kind and outcome (SUCCESS, FAILED, CANCELLED)',
  labelNames: ['kind', 'outcome'] as const,
  registers: [registry],
});
const jobDuration = new Histogram({
  name: 'job_duration_seconds',
  help: "Time from a job's creation to its final state (waiting in the queue included)",
  labelNames: ['kind', 'outcome'] as const,
  buckets: LONG_BUCKETS,
  registers: [registry],
});

const publications = new Counter({
  name: 'publications_total',
  help: 'Hosting publications, by outcome (success, failed)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});
const publicationDuration = new Histogram({
  name: 'publication_duration_seconds',
  help: 'Time a publication took, from claiming the environment to serving the new version (or failing)',
  labelNames: ['outcome'] as const,
  buckets: LONG_BUCKETS,
  registers: [registry],
});

const webhookDeliveries = new Counter({
  name: 'webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

// Operation names come from clients: past this many distinct names, new ones
// are counted as "other", so a client cannot grow the registry without bound.
const MAX_OPERATION_NAMES = 500;
const operationNames = new Set<string>();

function operationLabel(name: string | undefined): string {
  if (!name) return 'anonymous';
  if (operationNames.has(name)) return name;
  if (operationNames.size >= MAX_OPERATION_NAMES || name.length > 100) return 'other';
  operationNames.add(name);
  return name;
}

/**
 * The labelled children of each operation's counter and histogram, cached: a
 * lookup by a label object hashes it each time, a few per cent of a small
 * REST read's CPU (docs/benchmarks.md, "The service's own cost of a small
 * read"). Bounded like the labels themselves (MAX_OPERATION_NAMES × types × outcomes).
 */
const operationChildren = new Map<string, [{ inc(): void }, { observe(value: number): void }]>();

export function recordGraphQLOperation(
  name: string | undefined,
  type: string,
  outcome: 'success' | 'error' | 'invalid',
  seconds: number,
): void {
  const operation = operationLabel(name);
  const key = `${operation} ${type} ${outcome}`;
  let children = operationChildren.get(key);
  if (!children) {
    const labels = { operation, type, outcome };
    children = [graphqlOperations.labels(labels), graphqlDuration.labels(labels)];
    operationChildren.set(key, children);
  }
  children[0].inc();
  children[1].observe(seconds);
}

export function recordJob(kind: string, outcome: string, seconds: number): void {
  jobs.inc({ kind, outcome });
  jobDuration.observe({ kind, outcome }, seconds);
}

export function recordPublication(outcome: 'success' | 'failed', seconds: number): void {
  publications.inc({ outcome });
  publicationDuration.observe({ outcome }, seconds);
}

/** One webhook delivery attempt, e.g. outcome 'success', 'failed' or 'gave_up'. */
export function recordWebhookDelivery(outcome: string): void {
  webhookDeliveries.inc({ outcome });
}

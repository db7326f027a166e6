// Prometheus metrics after some traffic: HTTP requests by route, method and
// status with durations, GraphQL operations by name and outcome, jobs and
// publications, webhook deliveries, job queue, database pool (PostgreSQL),
// event-loop lag and memory. /metrics needs METRICS_TOKEN on the public port
// and is served without one on METRICS_PORT.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { seedTranslations } from '../support/content.js';
import { loadConfig } from '../../src/config.js';
import { recordWebhookDelivery, registry } from '../../src/metrics.js';
import { database, setDatabase } from '../../src/db.js';
import type { Database } from '../../src/db/client.js';

const TOKEN = 'metrics-token-0123456789';
let service: TestService;
let metricsPort: number;
let apiKey: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The value of one sample line, e.g. `http_requests_total{method="GET",...}`; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).match(/^\{(.*)\}/)?.[1] ?? '';
    if (Object.entries(labels).every(([k, v]) => labelText.includes(`${k}="${v}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

const scrape = async (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
  fetch(`${service.url}/metrics`, { headers });

async function waitForJob(jobId: string) {
  for (let i = 0; i < 400; i++) {
    const job = (
      await (await fetch(`${service.url}/api/v1/jobs/${jobId}`, { headers: { 'x-service-token': apiKey } })).json()
    ).data;
    if (job.state !== 'STARTED') return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('job did not finish');
}

beforeAll(async () => {
  // The registry lives as long as the process; the files before this one in the worker counted too.
  registry.resetMetrics();
  metricsPort = await freePort();
  service = await startTestService({
    listen: true,
    env: { METRICS_TOKEN: TOKEN, METRICS_PORT: String(metricsPort), JOB_POLL_MS: '50' },
  });
  const account = await service.account();
  const project = await account.project('metrics');
  apiKey = project.apiKey;
  await seedTranslations(service.db, {
    projectToken: project.projectToken,
    translations: { en: { hello: 'Hello' }, de: {} },
  });

  const api = (method: string, url: string, body?: unknown) =>
    fetch(`${service.url}${url}`, {
      method,
      headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  await api('GET', '/api/v1/languages');
  await api('GET', '/api/v1/languages');
  await api('GET', '/api/v1/customers/nobody');
  await api('GET', '/no/such/path');
  await api('POST', '/graphql', { query: 'query MetricsProbe { languages { key } }' });
  await api('POST', '/graphql', { query: 'query MetricsBroken { customer(key: "nobody") { key } }' });
  await api('POST', '/graphql', { query: 'query MetricsInvalid { noSuchField }' });
  await api('POST', '/graphql', { query: 'query MetricsInvalid { noSuchField }' });
  const job = (
    await (
      await api('POST', '/api/v1/jobs/auto-translate', {
        translationProvider: 'PSEUDO',
        targetProjectLanguage: 'de',
        targetLanguage: 'de',
        sourceProjectLanguage: 'en',
      })
    ).json()
  ).data;
  expect((await waitForJob(job.jobId)).state).toBe('SUCCESS');
  expect((await api('POST', '/api/v2/environments/_latest/publish', {})).status).toBe(200);
  recordWebhookDelivery('success');
});

afterAll(async () => {
  await service?.close();
});

describe('/metrics', () => {
  it('refuses a missing or wrong token on the public port', async () => {
    const missing = await scrape({});
    expect(missing.status).toBe(403);
    expect((await missing.json()).msg).toMatch(/METRICS_TOKEN/);
    expect((await scrape({ authorization: 'Bearer wrong-token-0123456789' })).status).toBe(403);
  });

  it('reports HTTP, GraphQL, job, publication, webhook and process metrics after traffic', async () => {
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();

    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/api/v1/languages', status: '200' })).toBe(2);
    expect(
      sample(text, 'http_requests_total', { method: 'GET', route: '/api/v1/customers/:customerKey', status: '404' }),
    ).toBe(1);
    expect(sample(text, 'http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/languages', status: '200' }),
    ).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_bucket', { route: '/api/v1/languages', le: '+Inf' })).toBe(2);

    expect(
      sample(text, 'graphql_operations_total', { operation: 'MetricsProbe', type: 'query', outcome: 'success' }),
    ).toBe(1);
    expect(
      sample(text, 'graphql_operations_total', { operation: 'MetricsBroken', type: 'query', outcome: 'error' }),
    ).toBe(1);
    expect(
      sample(text, 'graphql_operations_total', { operation: 'MetricsInvalid', type: 'query', outcome: 'invalid' }),
    ).toBe(2);
    // REST requests run their GraphQL operation through the same path.
    expect(sample(text, 'graphql_operations_total', { operation: 'RestLanguages', outcome: 'success' })).toBe(2);
    expect(sample(text, 'graphql_operation_duration_seconds_count', { operation: 'MetricsProbe' })).toBe(1);

    expect(sample(text, 'jobs_finished_total', { outcome: 'SUCCESS' })).toBe(1);
    expect(sample(text, 'job_duration_seconds_count', { outcome: 'SUCCESS' })).toBe(1);
    expect(sample(text, 'job_queue_depth', { state: 'queued' })).toBe(0);
    expect(sample(text, 'job_queue_depth', { state: 'running' })).toBe(0);
    expect(sample(text, 'publications_total', { outcome: 'success' })).toBe(1);
    expect(sample(text, 'publication_duration_seconds_count', { outcome: 'success' })).toBe(1);
    expect(sample(text, 'webhook_deliveries_total', { outcome: 'success' })).toBe(1);

    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    if (service.db.kind === 'postgres') {
      expect(sample(text, 'db_pool_connections', { state: 'max' })).toBeGreaterThan(0);
      expect(sample(text, 'db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    } else {
      expect(sample(text, 'db_pool_connections')).toBeUndefined();
    }
  });

  it('is served without a token on METRICS_PORT, and nothing else there', async () => {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(
      sample(await res.text(), 'http_requests_total', { route: '/api/v1/languages', status: '200' }),
    ).toBeGreaterThanOrEqual(2);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/v1/languages`)).status).toBe(404);
  });

  it('still answers while the database is unreachable, without the job queue', async () => {
    const real = database();
    setDatabase({
      ...real,
      prisma: { $queryRawUnsafe: () => Promise.reject(new Error('connection refused')) },
    } as unknown as Database);
    try {
      const res = await scrape();
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(sample(text, 'job_queue_depth')).toBeUndefined();
      expect(sample(text, 'http_requests_total', { route: '/api/v1/languages', status: '200' })).toBe(2);
    } finally {
      setDatabase(real);
    }
  });

  it('checks the metrics settings at start-up', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_PORT: '8080' })).toThrow(/METRICS_PORT must differ/);
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ token: undefined, port: 9464, host: '127.0.0.1' });
  });
});

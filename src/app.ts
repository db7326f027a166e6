// Builds the whole service: database (PGlite by default, PostgreSQL with
// DATABASE_URL), migrations, seed data, GraphQL, REST and health routes.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { embeddedDataDir, type Config } from './config.js';
import { PROJECT_DIR } from './paths.js';
import { openDatabase, type Database, type DatabaseOptions } from './db/client.js';
import { migrate } from './db/migrate.js';
import { setDatabase } from './db.js';
import { nameUnnamedLanguages } from './content/language-name.js';
import { seedPlans } from './plans/plans.js';
import { bootstrapAdmin } from './accounts/accounts.js';
import { schema } from './schema/index.js';
import { attachWebSocket, createGraphQLServer, registerGraphQL } from './http/graphql.js';
import { frameworkErrors, registerErrorHandlers } from './http/errors.js';
import { registerHealth } from './http/health.js';
import { registerRateLimit } from './http/rate-limit.js';
import { registerAdmission, type Admission } from './http/admission.js';
import { registerBodyLimits, serverLimits } from './http/limits-request.js';
import { registerInputText } from './http/input-text.js';
import { registerBodyIdleTimeout, serverTimeouts } from './http/timeouts.js';
import type { RedisConnection } from './events/redis.js';
import { shareAuthThroughRedis } from './auth/shared-through-redis.js';
import { registerDownloads } from './http/downloads.js';
import { registerScreenshotFiles } from './http/screenshot-files.js';
import { registerInContextScript } from './http/in-context-script.js';
import { WebSocketOnlyUpgrades } from './http/upgrade.js';
import { ALL_ROUTES, registerRestRoutes } from '../rest-compat/index.js';
import { buildOpenApi } from '../rest-compat/openapi.js';
import { registerDocs } from './http/docs.js';
import { registerMetrics } from './http/metrics.js';
import { registerAdmin } from './http/admin.js';
import { registerCdn } from './http/cdn.js';
import { registerConsole } from './http/console.js';
import { startHosting } from './hosting/runtime.js';
import { startScreenshots } from './screenshots/runtime.js';
import { startPublicationTakeover } from './hosting/takeover.js';
import { JobWorker } from './jobs/worker.js';
import { FindingsUpdater } from './findings/updater.js';
import { MemoryTermUpdater } from './memory/term-updater.js';
import { closeCheckPool, setCheckThreads } from './findings/pool.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { AutomationRunner } from './automations/runner.js';
import { instanceId } from './instance.js';
import { createLogger, logger, setLogger } from './log.js';
import { onConnectionRetry } from './db/connection-loss.js';
import { openSecrets } from './auth/sealed-secrets.js';
import { sealStoredProviderKeys } from './jobs/provider-keys.js';
import { startUploadSweeper } from './transfer/upload-sweep.js';
import { registerGitHooks } from './http/git-hooks.js';
import { startGitSchedules } from './gitsync/schedule.js';
import { settleForgeHooks } from './gitsync/hooks.js';

const SERVICE_VERSION = (JSON.parse(readFileSync(join(PROJECT_DIR, 'package.json'), 'utf8')) as { version: string })
  .version;

export interface Service {
  app: FastifyInstance;
  db: Database;
  config: Config;
  /** The admission queues (absent with ADMISSION=false): their counts of admitted and refused requests. */
  admission?: Admission;
  close(): Promise<void>;
}

export function databaseOptions(config: Config): DatabaseOptions {
  if (config.databaseUrl) return { kind: 'postgres', url: config.databaseUrl };
  mkdirSync(config.dataDir, { recursive: true });
  return { kind: 'pglite', dataDir: embeddedDataDir(config.dataDir) };
}

/** Opens the database, migrates and seeds it. Tests pass an already open one. */
export async function prepareDatabase(config: Config, db?: Database): Promise<Database> {
  const opened = db ?? (await openDatabase(databaseOptions(config)));
  setDatabase(opened);
  await migrate(opened);
  // The server key (SECRET_KEY), checked against the database; then the data migration to sealed provider keys.
  await openSecrets(config);
  await sealStoredProviderKeys();
  await seedPlans();
  await nameUnnamedLanguages();
  await bootstrapAdmin(config.admin, config.defaultPlan);
  return opened;
}

export async function buildService(
  config: Config,
  options: { db?: Database; logger?: boolean; worker?: { leaseMs?: number; pollMs?: number } | false } = {},
): Promise<Service> {
  // The service's logger from the start, so start-up (the server key, migrations) logs at its level too (src/log.ts).
  const log = createLogger(options.logger === false ? 'silent' : config.logLevel);
  const restoreLogger = setLogger(log);
  let db: Database;
  try {
    db = await prepareDatabase(config, options.db);
  } catch (error) {
    restoreLogger();
    throw error;
  }
  // Redis's client is loaded only when one is configured.
  const redis: RedisConnection | undefined = config.redisUrl
    ? await (await import('./events/redis.js')).connectRedis(config.redisUrl)
    : undefined;
  const stopAuthSharing = redis ? await shareAuthThroughRedis(redis.client) : undefined;
  const stopHosting = await startHosting(config);
  const stopScreenshots = startScreenshots(config);
  // Publications whose instance died are taken over (src/hosting/takeover.ts).
  const stopTakeover = startPublicationTakeover(config.publicationLeaseSeconds);
  const { maxHeaderSize, clientErrorHandler } = serverLimits(config.requestLimits);
  // Slow or stalled clients are disconnected (src/http/timeouts.ts).
  const { http: httpTimeouts, ...timeouts } = serverTimeouts(config.timeouts);
  const app = Fastify({
    // On close, end idle keep-alive connections at once instead of waiting for their timeout; requests in
    // flight are answered first (true would destroy their sockets too: test/api/shutdown-drain.test.ts).
    forceCloseConnections: 'idle',
    // Pretty lines on a terminal, JSON otherwise (src/log.ts).
    ...(options.logger === false ? { logger: false } : { loggerInstance: log as FastifyBaseLogger }),
    bodyLimit: 64 * 1024 * 1024,
    // Only WebSocket handshakes are upgrades: Java clients' `Upgrade: h2c` requests are served as HTTP/1.1 (src/http/upgrade.ts).
    http: { IncomingMessage: WebSocketOnlyUpgrades, maxHeaderSize, ...httpTimeouts },
    ...timeouts,
    clientErrorHandler,
    frameworkErrors,
  });
  // A statement or transaction sent again after a lost database connection (src/db/connection-loss.ts).
  onConnectionRetry((retry) => logger().warn(retry, 'database connection lost: retried'));
  // JSON is the only body type of the REST contract (uploads are multipart, registered by their routes).
  app.removeContentTypeParser('text/plain');
  // Under overload, what cannot be served in time is refused at once (src/http/admission.ts): the first hook.
  const admission = registerAdmission(app, config.admission);
  registerErrorHandlers(app);
  registerBodyIdleTimeout(app, config.timeouts);
  // Text no route can store (NUL) is refused at the edge: URL, headers, JSON bodies (src/http/input-text.ts).
  registerInputText(app, '/graphql');
  await registerMetrics(app, config.metrics);
  // Body limits per route class, for every route declared from here on (src/http/limits-request.ts).
  registerBodyLimits(app, config.requestLimits);
  await registerRateLimit(app, {
    perMinute: config.rateLimitPerMinute,
    redis: redis?.client,
    cdnPath: new URL(config.cdnUrl).pathname,
  });
  registerHealth(app, redis);
  registerDownloads(app, config);
  registerScreenshotFiles(app);
  registerInContextScript(app);
  const yoga = createGraphQLServer(schema, config);
  const uploadDir = join(config.dataDir, 'tmp');
  // On the embedded database no other process shares DATA_DIR (src/db/lock.ts).
  const stopUploadSweeper = await startUploadSweeper(uploadDir, {
    intervalMs: config.uploadSweepMs,
    exclusive: !config.databaseUrl,
  });
  const uploads = {
    maxUploadBytes: config.maxUploadBytes,
    uploadDir,
    maxFields: config.requestLimits.multipartFields,
    maxFiles: config.requestLimits.multipartFiles,
    maxFieldBytes: config.requestLimits.bodyBytes,
  };
  registerGraphQL(app, yoga, uploads);
  await registerRestRoutes(app, yoga, schema, ALL_ROUTES, uploads);
  registerAdmin(app, config);
  registerGitHooks(app, config);
  registerDocs(app, buildOpenApi(schema, ALL_ROUTES, { serverUrl: config.publicUrl, version: SERVICE_VERSION }));
  registerCdn(app, config);
  await registerConsole(app);
  const ws = attachWebSocket(app, yoga);
  const worker =
    options.worker === false || config.jobWorkers === 0
      ? undefined
      : new JobWorker({ owner: instanceId(), leaseMs: config.jobLeaseMs, pollMs: config.jobPollMs, ...options.worker });
  worker?.start();
  // Webhook deliveries go out from the job workers' instances (the outbox, src/webhooks/).
  const dispatcher = worker
    ? new WebhookDispatcher({
        pollMs: options.worker ? (options.worker.pollMs ?? config.jobPollMs) : config.jobPollMs,
        leaseMs: config.webhooks.timeoutMs * 3,
        config: config.webhooks,
      })
    : undefined;
  dispatcher?.start();
  // Automation runs and schedule ticks too (src/automations/runner.ts).
  const automations = worker
    ? new AutomationRunner({
        owner: instanceId(),
        pollMs: options.worker ? (options.worker.pollMs ?? config.jobPollMs) : config.jobPollMs,
        leaseMs: config.jobLeaseMs * 2,
        config,
      })
    : undefined;
  automations?.start();
  // Scheduled Git pushes run where the workers run (src/gitsync/schedule.ts).
  const stopGitSchedules = worker ? startGitSchedules(config) : undefined;
  // Quality-check findings of written cells, computed off the request path (src/findings/, docs/quality-checks.md).
  setCheckThreads(config.findings.threads);
  const findings =
    config.findings.threads === 0
      ? undefined
      : new FindingsUpdater({
          owner: instanceId(),
          batch: config.findings.batch,
          lanes: config.findings.lanes,
          pollMs: config.findings.pollMs,
          gapMs: config.findings.gapMs,
        });
  findings?.start();
  // The translation memory's word index on PostgreSQL, brought current off the write path (src/memory/term-updater.ts);
  // the embedded database keeps its index in this process (src/memory/ngram-index.ts).
  const memoryTerms = db.kind === 'postgres' ? new MemoryTermUpdater(config.memoryTerms) : undefined;
  memoryTerms?.start();
  return {
    app,
    db,
    config,
    admission,
    async close() {
      stopUploadSweeper();
      await worker?.stop();
      await dispatcher?.stop();
      await automations?.stop();
      await stopGitSchedules?.();
      await findings?.stop();
      await memoryTerms?.stop();
      await closeCheckPool();
      await ws.sessions.stop();
      await ws.server.dispose();
      ws.wss.close();
      // A connection whose request was in flight when the close began is idle once answered: ended then, as
      // the close ended the connections idle at its start (its keep-alive timeout would hold the close).
      const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
      await app.close().finally(() => clearInterval(sweep));
      // Pulls that forge webhooks started finish before the database closes.
      await settleForgeHooks();
      await stopTakeover();
      stopScreenshots();
      await stopHosting();
      await stopAuthSharing?.();
      await redis?.close();
      await db.close();
      setDatabase(undefined);
      restoreLogger();
    },
  };
}

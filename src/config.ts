// Configuration from environment variables, validated once at start-up: a bad
// value stops the service with a message naming the variable.
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  publicUrl: string;
  cdnUrl: string;
  redisUrl?: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  admin?: { email: string; password: string; token?: string };
  defaultPlan: string;
  publishRateLimit: number;
  /** A publication's lease: its instance renews it every third of it; another instance takes over a publication whose lease ran out (docs/hosting.md). */
  publicationLeaseSeconds: number;
  maxUploadBytes: number;
  /** Period of the pass removing upload temp folders left by killed imports (src/transfer/upload-sweep.ts). */
  uploadSweepMs: number;
  /** Texts per chunk of an import read as a stream (JSON): its memory follows the chunk. */
  importChunkCells: number;
  exportTtlSeconds: number;
  /** Where published files are stored (docs/hosting.md). */
  storage: StorageConfig;
  /** Limits of uploaded screenshots (docs/screenshots.md). */
  screenshots: { maxBytes: number; maxPixels: number };
  /** Job lease: how long a dead instance's job waits before another instance takes it over. */
  jobLeaseMs: number;
  jobPollMs: number;
  /** 1: this instance runs a job worker (default); 0: API only. */
  jobWorkers: number;
  /** Service processes on this machine sharing the port (src/cluster.ts); more than 1 needs PostgreSQL and Redis. */
  processes: number;
  /**
   * Quality-check findings (src/findings/): worker threads computing them (0: no updater on this instance), cells per
   * batch, batches in flight, the idle poll, the least time between two rounds' starts without a backlog.
   */
  findings: { threads: number; batch: number; lanes: number; pollMs: number; gapMs: number };
  /**
   * The translation memory's word index on PostgreSQL (src/memory/term-updater.ts): queue entries per round, the
   * poll (the next round follows at once only after a full one).
   */
  memoryTerms: { batch: number; pollMs: number };
  /** API requests per credential per minute; 0 disables the limit. */
  rateLimitPerMinute: number;
  /** ALLOW_SIGNUP: anyone may create an account (signUp); default: accounts come from the operator and invitations. */
  allowSignup: boolean;
  /** SMTP server for invitation e-mails (smtp:// or smtps://); unset: links are handed to the inviter. */
  smtpUrl?: string;
  /** Sender of invitation e-mails. */
  mailFrom: string;
  /** /metrics: a bearer token on the public port, and/or a port of its own (src/http/metrics.ts). */
  metrics: { token?: string; port?: number; host: string };
  /** Webhook delivery (docs/history-and-webhooks.md). */
  webhooks: WebhookConfig;
  /** Git sync (docs/git-sync.md). */
  git: GitConfig;
  /** Limits on GraphQL documents (src/http/limits-graphql.ts). */
  graphqlLimits: GraphQLLimits;
  /** Limits on HTTP requests (src/http/limits-request.ts). */
  requestLimits: RequestLimits;
  /** Admission by measured capacity per class of request, 503 beyond it (src/http/admission.ts). */
  admission: AdmissionConfig;
  /** How long a client may take to send a request, and keep an idle connection (src/http/timeouts.ts). */
  timeouts: Timeouts;
  /** SECRET_KEY as given (32 bytes, base64 or hex); absent: generated into DATA_DIR (src/auth/sealed-secrets.ts). */
  secretKey?: Buffer;
  /** Web console sessions: lifetime, and failed sign-ins allowed per account and per address in 15 minutes. */
  session: { ttlSeconds: number; failuresPerAccount: number; failuresPerAddress: number };
}

export interface GraphQLLimits {
  maxAliases: number;
  maxDepth: number;
  maxTokens: number;
  maxDirectives: number;
  /** Largest cost: every field counts 1, times the page size of the lists above it. */
  maxCost: number;
  /** The size assumed for a list without a page-size argument. */
  listSize: number;
}

export interface Timeouts {
  /** HEADERS_TIMEOUT_MS: from the connection (or the previous answer) to the end of a request's headers. */
  headersMs: number;
  /** BODY_IDLE_TIMEOUT_MS: the longest pause while a body is being received (a stalled upload). */
  bodyIdleMs: number;
  /** REQUEST_TIMEOUT_MS: the whole request, headers and body, received within this. */
  requestMs: number;
  /** KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed after this. */
  keepAliveMs: number;
}

export type AdmissionClass = 'read' | 'write' | 'transfer';

export interface AdmissionConfig {
  /** false: every request is admitted at once (ADMISSION=false). */
  enabled: boolean;
  /** Requests of each class running at once (ADMISSION_READS, ADMISSION_WRITES, ADMISSION_TRANSFERS). */
  concurrency: Record<AdmissionClass, number>;
  /** Longest wait for a slot of the class; a request whose measured wait is longer is refused at once (ADMISSION_MAX_QUEUE_MS). */
  maxQueueMs: number;
  /** While the event loop is later than this, ms, every API request is refused at once (ADMISSION_MAX_LAG_MS). */
  maxLagMs: number;
}

export interface RequestLimits {
  /** JSON body of an ordinary REST route. */
  bodyBytes: number;
  /** JSON body of the bulk routes (GraphQL, v1 translations, bulk key delete). */
  bulkBodyBytes: number;
  /** Request line and headers together. */
  headerBytes: number;
  /** Non-file fields of a multipart request. */
  multipartFields: number;
  /** Files of one GraphQL multipart request (REST uploads take exactly one). */
  multipartFiles: number;
  /** Imports, exports, publications and auto-translations running at once per credential; 0: no cap. */
  heavyOperationsPerCredential: number;
}

export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE: deliver to loopback, private, link-local and metadata addresses too. */
  allowPrivate: boolean;
  /** First retry delay; doubles with each failed attempt (capped at an hour). */
  retryBaseMs: number;
  /** How long a delivery is retried before it is given up. */
  retryForMs: number;
  /** Failed deliveries in a row after which a webhook is disabled. */
  disableAfterFailures: number;
  /** Time allowed for one HTTP attempt. */
  timeoutMs: number;
}

export interface GitConfig {
  /** GIT_ALLOW_PRIVATE_HOSTS: remotes and forge APIs on loopback or private addresses (a self-hosted forge). */
  allowPrivateHosts: boolean;
  /** GIT_TIMEOUT_MS: one git command or forge API call. */
  timeoutMs: number;
  /** GIT_SCHEDULE_POLL_MS: how often scheduled pushes are looked for. */
  schedulePollMs: number;
}

export type StorageConfig =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint?: string;
      forcePathStyle: boolean;
      accessKeyId?: string;
      secretAccessKey?: string;
      prefix: string;
    };

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function url(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: string | undefined,
  protocols: string[],
): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol))
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  return raw.replace(/\/+$/, '');
}

/** S3-compatible storage when S3_BUCKET is set; otherwise the local disk under DATA_DIR/cdn. */
function storageConfig(env: NodeJS.ProcessEnv, dataDir: string): StorageConfig {
  const bucket = env.S3_BUCKET;
  if (!bucket) {
    const stray = [
      'S3_ENDPOINT',
      'S3_REGION',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'S3_FORCE_PATH_STYLE',
      'S3_PREFIX',
    ].find((name) => env[name]);
    if (stray) throw new ConfigError(`${stray} needs S3_BUCKET`);
    return { kind: 'local', dir: resolve(dataDir, 'cdn') };
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new ConfigError(
      `S3_BUCKET must be a bucket name (3-63 lowercase letters, digits, dots, hyphens), got "${bucket}"`,
    );
  const endpoint = url(env, 'S3_ENDPOINT', undefined, ['http:', 'https:']);
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (!accessKeyId !== !secretAccessKey)
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be given together');
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  if (pathStyle && pathStyle !== 'true' && pathStyle !== 'false')
    throw new ConfigError(`S3_FORCE_PATH_STYLE must be true or false, got "${pathStyle}"`);
  const prefix = (env.S3_PREFIX ?? '').replace(/^\/+|\/+$/g, '');
  return {
    kind: 's3',
    bucket,
    region: env.S3_REGION || 'us-east-1',
    endpoint,
    // Most S3-compatible servers need path-style URLs; AWS itself prefers virtual hosts.
    forcePathStyle: pathStyle ? pathStyle === 'true' : endpoint !== undefined,
    accessKeyId,
    secretAccessKey,
    prefix: prefix ? `${prefix}/` : '',
  };
}

function metricsConfig(env: NodeJS.ProcessEnv, port: number): Config['metrics'] {
  const token = env.METRICS_TOKEN || undefined;
  if (token && token.length < 16) throw new ConfigError('METRICS_TOKEN must have at least 16 characters');
  const metricsPort = env.METRICS_PORT ? int(env, 'METRICS_PORT', 0, 0, 65535) : undefined;
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port)
    throw new ConfigError('METRICS_PORT must differ from PORT');
  return { token, port: metricsPort, host: env.METRICS_HOST || '127.0.0.1' };
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (value !== 'true' && value !== 'false') throw new ConfigError(`${name} must be true or false, got "${value}"`);
  return value === 'true';
}

/** SECRET_KEY: 32 bytes as base64 (44 characters) or hex (64 characters). */
function secretKey(env: NodeJS.ProcessEnv): Buffer | undefined {
  const raw = env.SECRET_KEY?.trim();
  if (!raw) return undefined;
  const key = /^[0-9a-fA-F]{64}$/.test(raw)
    ? Buffer.from(raw, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(raw)
      ? Buffer.from(raw, 'base64')
      : undefined;
  if (key?.length !== 32)
    throw new ConfigError(
      'SECRET_KEY must be 32 random bytes as 64 hex digits or 44 base64 characters (openssl rand -base64 32)',
    );
  return key;
}

/** Where the embedded database keeps its files inside DATA_DIR. */
export function embeddedDataDir(dataDir: string): string {
  return resolve(dataDir, 'pglite');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST || '0.0.0.0';
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port}`, ['http:', 'https:'])!;
  const cdnUrl = url(env, 'CDN_URL', `${publicUrl}/cdn`, ['http:', 'https:'])!;
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  const email = env.ADMIN_EMAIL;
  const password = env.ADMIN_PASSWORD;
  if ((email && !password) || (!email && password))
    throw new ConfigError('ADMIN_EMAIL and ADMIN_PASSWORD must be given together');
  if (email && !/^[^@\s]+@[^@\s]+$/.test(email))
    throw new ConfigError(`ADMIN_EMAIL must be an e-mail address, got "${email}"`);
  if (password && password.length < 8) throw new ConfigError('ADMIN_PASSWORD must have at least 8 characters');
  if (env.ADMIN_TOKEN && !email) throw new ConfigError('ADMIN_TOKEN needs ADMIN_EMAIL and ADMIN_PASSWORD');
  if (env.ADMIN_TOKEN && env.ADMIN_TOKEN.length < 20)
    throw new ConfigError('ADMIN_TOKEN must have at least 20 characters');
  const dataDir = resolve(env.DATA_DIR || './data');
  const processes = int(env, 'PROCESSES', 1, 1, 64);
  // Each process is an instance of docs/instances.md: they share what instances share.
  if (processes > 1 && !env.DATABASE_URL)
    throw new ConfigError(
      'PROCESSES above 1 needs DATABASE_URL (PostgreSQL): the embedded database belongs to one process',
    );
  if (processes > 1 && !env.REDIS_URL)
    throw new ConfigError(
      'PROCESSES above 1 needs REDIS_URL: subscription events and rate-limit counters are shared through Redis',
    );
  // Read where it is used (src/mt/config.ts instanceProvider), checked here so a typo stops the start.
  const mtDefault = env.MT_DEFAULT_PROVIDER?.trim();
  const providers = ['MT_PROVIDER_A', 'MT_PROVIDER_B', 'PSEUDO', 'LLM_OPENAI', 'LLM_ANTHROPIC'];
  if (mtDefault && !providers.includes(mtDefault))
    throw new ConfigError(`MT_DEFAULT_PROVIDER must be one of ${providers.join(', ')}, got "${mtDefault}"`);
  return {
    port,
    host,
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:']),
    publicUrl,
    cdnUrl,
    redisUrl: url(env, 'REDIS_URL', undefined, ['redis:', 'rediss:']),
    logLevel,
    admin: email && password ? { email, password, token: env.ADMIN_TOKEN || undefined } : undefined,
    defaultPlan: env.DEFAULT_PLAN || 'business',
    publishRateLimit: int(env, 'PUBLISH_RATE_LIMIT', 10, 1, 100_000),
    publicationLeaseSeconds: int(env, 'PUBLICATION_LEASE_SECONDS', 6, 2, 3_600),
    maxUploadBytes: int(env, 'MAX_UPLOAD_BYTES', 50 * 1024 * 1024, 1024, 2 ** 31),
    uploadSweepMs: int(env, 'UPLOAD_SWEEP_MS', 10 * 60_000, 100, 24 * 3_600_000),
    // The defaults are CELL_CHUNK's and EMBEDDED_CELL_CHUNK's (src/transfer/write-bundle.ts says why they are that size).
    importChunkCells: int(env, 'IMPORT_CHUNK_CELLS', env.DATABASE_URL ? 10_000 : 5_000, 1, 10_000_000),
    exportTtlSeconds: int(env, 'EXPORT_TTL_SECONDS', 24 * 3600, 60, 30 * 24 * 3600),
    storage: storageConfig(env, dataDir),
    screenshots: {
      maxBytes: int(env, 'SCREENSHOT_MAX_BYTES', 10 * 1024 * 1024, 1024, 2 ** 31),
      // 40 megapixels: an 8K screen (33 MP) fits; decoding one takes about 160 MB.
      maxPixels: int(env, 'SCREENSHOT_MAX_PIXELS', 40_000_000, 1, 1_000_000_000),
    },
    jobLeaseMs: int(env, 'JOB_LEASE_MS', 30_000, 500, 3_600_000),
    jobPollMs: int(env, 'JOB_POLL_MS', 2_000, 50, 600_000),
    jobWorkers: int(env, 'JOB_WORKERS', 1, 0, 1),
    processes,
    findings: {
      threads: int(env, 'FINDINGS_THREADS', Math.max(1, Math.min(4, availableParallelism() - 1)), 0, 64),
      // The embedded database runs the updater's statements in this process's
      // memory, which it never gives back: smaller batches, one at a time
      // (docs/quality-checks.md, "Memory").
      batch: int(env, 'FINDINGS_BATCH', env.DATABASE_URL ? 2_000 : 1_000, 10, 100_000),
      lanes: int(env, 'FINDINGS_LANES', env.DATABASE_URL ? 2 : 1, 1, 8),
      pollMs: int(env, 'FINDINGS_POLL_MS', 1_000, 20, 600_000),
      gapMs: int(env, 'FINDINGS_GAP_MS', 250, 0, 60_000),
    },
    memoryTerms: {
      batch: int(env, 'MEMORY_TERMS_BATCH', 2_000, 1, 1_000_000),
      pollMs: int(env, 'MEMORY_TERMS_POLL_MS', 1_000, 20, 3_600_000),
    },
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 3_000, 0, 10_000_000),
    allowSignup: bool(env, 'ALLOW_SIGNUP', false),
    smtpUrl: url(env, 'SMTP_URL', undefined, ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM || `Localization service <noreply@${new URL(publicUrl).hostname}>`,
    metrics: metricsConfig(env, port),
    webhooks: {
      allowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false),
      retryBaseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 10_000, 10, 3_600_000),
      retryForMs: int(env, 'WEBHOOK_RETRY_FOR_MS', 24 * 3_600_000, 1_000, 7 * 24 * 3_600_000),
      disableAfterFailures: int(env, 'WEBHOOK_DISABLE_AFTER_FAILURES', 20, 1, 10_000),
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    },
    git: {
      allowPrivateHosts: bool(env, 'GIT_ALLOW_PRIVATE_HOSTS', false),
      timeoutMs: int(env, 'GIT_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
      schedulePollMs: int(env, 'GIT_SCHEDULE_POLL_MS', 30_000, 50, 3_600_000),
    },
    graphqlLimits: {
      maxAliases: int(env, 'GRAPHQL_MAX_ALIASES', 100, 1, 100_000),
      maxDepth: int(env, 'GRAPHQL_MAX_DEPTH', 20, 2, 1_000),
      maxTokens: int(env, 'GRAPHQL_MAX_TOKENS', 20_000, 100, 10_000_000),
      maxDirectives: int(env, 'GRAPHQL_MAX_DIRECTIVES', 50, 1, 100_000),
      maxCost: int(env, 'GRAPHQL_MAX_COST', 1_000_000, 100, 1_000_000_000),
      listSize: int(env, 'GRAPHQL_LIST_SIZE', 10, 1, 100_000),
    },
    requestLimits: {
      bodyBytes: int(env, 'MAX_BODY_BYTES', 1024 * 1024, 1024, 2 ** 31),
      bulkBodyBytes: int(env, 'MAX_BULK_BODY_BYTES', 32 * 1024 * 1024, 1024, 2 ** 31),
      headerBytes: int(env, 'MAX_HEADER_BYTES', 16 * 1024, 1024, 1024 * 1024),
      multipartFields: int(env, 'MAX_MULTIPART_FIELDS', 20, 1, 10_000),
      multipartFiles: int(env, 'MAX_MULTIPART_FILES', 10, 1, 1_000),
      heavyOperationsPerCredential: int(env, 'MAX_HEAVY_OPERATIONS', 4, 0, 10_000),
    },
    admission: {
      // Off unless asked for: on by default it refused (503) the test suite's bursts of 20 simultaneous
      // writes on a loaded machine (docs/benchmarks.md, overload).
      enabled: bool(env, 'ADMISSION', false),
      // The embedded database runs one statement at a time in the service's own thread: more reads and
      // transfers at once only wait inside it, unmeasured.
      concurrency: env.DATABASE_URL
        ? {
            read: int(env, 'ADMISSION_READS', 16, 1, 10_000),
            write: int(env, 'ADMISSION_WRITES', 16, 1, 10_000),
            // Two: with four, the exports admitted at once held the thread long enough to set the p99 of
            // every class (the soak on a quiet machine: p99 1,020 ms with four, 673 ms with two, at more
            // admitted requests per second; docs/benchmarks.md, overload).
            transfer: int(env, 'ADMISSION_TRANSFERS', 2, 1, 10_000),
          }
        : {
            read: int(env, 'ADMISSION_READS', 4, 1, 10_000),
            // One-cell writes that wait together go as one transaction (src/content/translations/batched-writes.ts).
            write: int(env, 'ADMISSION_WRITES', 16, 1, 10_000),
            transfer: int(env, 'ADMISSION_TRANSFERS', 1, 1, 10_000),
          },
      maxQueueMs: int(env, 'ADMISSION_MAX_QUEUE_MS', 500, 0, 600_000),
      maxLagMs: int(env, 'ADMISSION_MAX_LAG_MS', 200, 1, 600_000),
    },
    timeouts: {
      headersMs: int(env, 'HEADERS_TIMEOUT_MS', 20_000, 100, 600_000),
      bodyIdleMs: int(env, 'BODY_IDLE_TIMEOUT_MS', 30_000, 100, 3_600_000),
      requestMs: int(env, 'REQUEST_TIMEOUT_MS', 900_000, 100, 24 * 3_600_000),
      keepAliveMs: int(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
    },
    secretKey: secretKey(env),
    session: {
      ttlSeconds: int(env, 'SESSION_TTL_SECONDS', 12 * 3600, 1, 90 * 24 * 3600),
      failuresPerAccount: int(env, 'SIGN_IN_FAILURES_PER_ACCOUNT', 5, 1, 10_000),
      failuresPerAddress: int(env, 'SIGN_IN_FAILURES_PER_ADDRESS', 20, 1, 100_000),
    },
  };
}

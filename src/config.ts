// Configuration from environment variables, validated once at start-up: a bad
// value stops the service with a message naming the variable.
import { resolve } from 'node:path';

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
  maxUploadBytes: number;
  exportTtlSeconds: number;
  /** Where published files are stored (docs/hosting.md). */
  storage: StorageConfig;
  /** Job lease: how long a dead instance's job waits before another instance takes it over. */
  jobLeaseMs: number;
  jobPollMs: number;
  /** 1: this instance runs a job worker (default); 0: API only. */
  jobWorkers: number;
  /** API requests per credential per minute; 0 disables the limit. */
  rateLimitPerMinute: number;
  /** Web console sessions: lifetime, and failed sign-ins allowed per account and per address in 15 minutes. */
  session: { ttlSeconds: number; failuresPerAccount: number; failuresPerAddress: number };
}

export type StorageConfig =
  | { kind: 'local'; dir: string }
  | { kind: 's3'; bucket: string; region: string; endpoint?: string; forcePathStyle: boolean; accessKeyId?: string; secretAccessKey?: string; prefix: string };

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

function url(env: NodeJS.ProcessEnv, name: string, fallback: string | undefined, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  return raw.replace(/\/+$/, '');
}

/** S3-compatible storage when S3_BUCKET is set; otherwise the local disk under DATA_DIR/cdn. */
function storageConfig(env: NodeJS.ProcessEnv, dataDir: string): StorageConfig {
  const bucket = env.S3_BUCKET;
  if (!bucket) {
    const stray = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX'].find((name) => env[name]);
    if (stray) throw new ConfigError(`${stray} needs S3_BUCKET`);
    return { kind: 'local', dir: resolve(dataDir, 'cdn') };
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError(`S3_BUCKET must be a bucket name (3-63 lowercase letters, digits, dots, hyphens), got "${bucket}"`);
  const endpoint = url(env, 'S3_ENDPOINT', undefined, ['http:', 'https:']);
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (!accessKeyId !== !secretAccessKey) throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be given together');
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  if (pathStyle && pathStyle !== 'true' && pathStyle !== 'false') throw new ConfigError(`S3_FORCE_PATH_STYLE must be true or false, got "${pathStyle}"`);
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST || '0.0.0.0';
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port}`, ['http:', 'https:'])!;
  const cdnUrl = url(env, 'CDN_URL', `${publicUrl}/cdn`, ['http:', 'https:'])!;
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  const email = env.ADMIN_EMAIL;
  const password = env.ADMIN_PASSWORD;
  if ((email && !password) || (!email && password)) throw new ConfigError('ADMIN_EMAIL and ADMIN_PASSWORD must be given together');
  if (email && !/^[^@\s]+@[^@\s]+$/.test(email)) throw new ConfigError(`ADMIN_EMAIL must be an e-mail address, got "${email}"`);
  if (password && password.length < 8) throw new ConfigError('ADMIN_PASSWORD must have at least 8 characters');
  if (env.ADMIN_TOKEN && !email) throw new ConfigError('ADMIN_TOKEN needs ADMIN_EMAIL and ADMIN_PASSWORD');
  if (env.ADMIN_TOKEN && env.ADMIN_TOKEN.length < 20) throw new ConfigError('ADMIN_TOKEN must have at least 20 characters');
  const dataDir = resolve(env.DATA_DIR || './data');
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
    maxUploadBytes: int(env, 'MAX_UPLOAD_BYTES', 50 * 1024 * 1024, 1024, 2 ** 31),
    exportTtlSeconds: int(env, 'EXPORT_TTL_SECONDS', 24 * 3600, 60, 30 * 24 * 3600),
    storage: storageConfig(env, dataDir),
    jobLeaseMs: int(env, 'JOB_LEASE_MS', 30_000, 500, 3_600_000),
    jobPollMs: int(env, 'JOB_POLL_MS', 2_000, 50, 600_000),
    jobWorkers: int(env, 'JOB_WORKERS', 1, 0, 1),
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 3_000, 0, 10_000_000),
    session: {
      ttlSeconds: int(env, 'SESSION_TTL_SECONDS', 12 * 3600, 1, 90 * 24 * 3600),
      failuresPerAccount: int(env, 'SIGN_IN_FAILURES_PER_ACCOUNT', 5, 1, 10_000),
      failuresPerAddress: int(env, 'SIGN_IN_FAILURES_PER_ADDRESS', 20, 1, 100_000),
    },
  };
}

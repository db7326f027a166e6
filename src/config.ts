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
}

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
  return {
    port,
    host,
    dataDir: resolve(env.DATA_DIR || './data'),
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
  };
}

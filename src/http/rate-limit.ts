// Request rate limit per credential (API key, token or basic login; the client
// address without one), counted in Redis when REDIS_URL is set so that every
// instance shares the counters, in process otherwise.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

function credentialKey(request: FastifyRequest): string {
  const credential = (request.headers['x-service-token'] ??
    request.headers['x-simplelocalize-token'] ??
    request.headers.authorization) as string | undefined;
  return credential ? `c:${createHash('sha256').update(credential).digest('hex').slice(0, 32)}` : `ip:${request.ip}`;
}

export async function registerRateLimit(
  app: FastifyInstance,
  options: { perMinute: number; redis?: Redis; cdnPath: string },
): Promise<void> {
  if (options.perMinute <= 0) return;
  await app.register(rateLimit, {
    global: true,
    max: options.perMinute,
    timeWindow: 60_000,
    redis: options.redis,
    nameSpace: 'lms-rate-limit:',
    keyGenerator: credentialKey,
    // Health checks and published files are not API calls.
    allowList: (request) =>
      request.url.startsWith('/healthz') ||
      request.url.startsWith('/readyz') ||
      request.url.startsWith(options.cdnPath),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      msg: `Too many requests: at most ${context.max} per minute; retry in ${Math.ceil(context.ttl / 1000)} s`,
      status: 429,
    }),
  });
}

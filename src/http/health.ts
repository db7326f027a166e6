import type { FastifyInstance } from 'fastify';
import { database } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import type { RedisConnection } from '../events/redis.js';

export function registerHealth(app: FastifyInstance, redis?: RedisConnection): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const checks: Record<string, string> = {};
    try {
      await database().prisma.$queryRaw(Prisma.sql`/* http:ready */ SELECT 1`);
      checks.database = 'ok';
    } catch (error) {
      checks.database = `unreachable: ${(error as Error).message}`;
    }
    if (redis) checks.redis = (await redis.ping()) ? 'ok' : 'unreachable';
    const ready = Object.values(checks).every((v) => v === 'ok');
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });
}

// Several instances: subscription events travel through Redis pub/sub
// (graphql-yoga's Redis event target), so a subscriber connected to one
// instance receives what another instance publishes. The server (src/app.ts)
// shares other state through the same client (src/auth/shared-through-redis.ts).
import { Redis } from 'ioredis';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { setEventTarget } from './pubsub.js';

export interface RedisConnection {
  /** General-purpose client (rate limit and sign-in failure counters, health checks). */
  client: Redis;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export async function connectRedis(url: string): Promise<RedisConnection> {
  // Named, so that an operator's CLIENT LIST tells the service's connections and their process.
  const options = {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: true,
    connectionName: `localization-service:${process.pid}`,
  };
  const publishClient = new Redis(url, options);
  const subscribeClient = new Redis(url, options);
  await Promise.all([publishClient.connect(), subscribeClient.connect()]);
  setEventTarget(createRedisEventTarget({ publishClient, subscribeClient }));
  return {
    client: publishClient,
    async ping() {
      try {
        return (await publishClient.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      setEventTarget(undefined);
      subscribeClient.disconnect();
      await publishClient.quit().catch(() => publishClient.disconnect());
    },
  };
}

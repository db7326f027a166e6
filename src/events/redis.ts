// Several instances: subscription events travel through Redis pub/sub
// (graphql-yoga's Redis event target), so a subscriber connected to one
// instance receives what another instance publishes.
import { Redis } from 'ioredis';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { setEventTarget } from './pubsub.js';
import { connectCredentialBroadcast } from '../auth/credential-cache.js';
import { redisFailureStore, useFailureStore } from '../auth/sign-in-limit.js';

export interface RedisConnection {
  /** General-purpose client (rate limit and sign-in failure counters, health checks). */
  client: Redis;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export async function connectRedis(url: string): Promise<RedisConnection> {
  const options = { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: true };
  const publishClient = new Redis(url, options);
  const subscribeClient = new Redis(url, options);
  await Promise.all([publishClient.connect(), subscribeClient.connect()]);
  setEventTarget(createRedisEventTarget({ publishClient, subscribeClient }));
  // A credential ended on one instance is forgotten by the caches of all (src/auth/credential-cache.ts).
  const stopCredentialBroadcast = await connectCredentialBroadcast(publishClient);
  // Failed sign-ins are counted where every instance sees them (src/auth/sign-in-limit.ts).
  useFailureStore(redisFailureStore(publishClient));
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
      useFailureStore(undefined);
      await stopCredentialBroadcast();
      subscribeClient.disconnect();
      await publishClient.quit().catch(() => publishClient.disconnect());
    },
  };
}

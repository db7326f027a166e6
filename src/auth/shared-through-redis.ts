// Several instances: what the authorization rules keep in memory is shared
// through Redis — a credential ended on one instance is forgotten by the
// caches of all (credential-cache.ts), and failed sign-ins are counted where
// every instance sees them (sign-in-limit.ts).
import type { Redis } from 'ioredis';
import { connectCredentialBroadcast } from './credential-cache.js';
import { redisFailureStore, useFailureStore } from './sign-in-limit.js';

/** Starts sharing; returns the function that stops it (back to this instance alone). */
export async function shareAuthThroughRedis(publisher: Redis): Promise<() => Promise<void>> {
  const stopCredentialBroadcast = await connectCredentialBroadcast(publisher);
  useFailureStore(redisFailureStore(publisher));
  return async () => {
    useFailureStore(undefined);
    await stopCredentialBroadcast();
  };
}

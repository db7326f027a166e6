// The limit on failed web console sign-ins, per account and per client
// address, in a fixed window. The counters live where every instance sees them
// and a restart keeps them: in Redis when REDIS_URL is set (several instances),
// in the database otherwise (the embedded single instance). One limiter, two
// stores with the same three operations.
//
// An attempt is counted before the password is checked (and taken back when
// it succeeds): parallel guesses cannot all pass a check made before any of
// them failed.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { prisma } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { tooManyRequests, said } from '../errors.js';

export const FAILURE_WINDOW_MS = 15 * 60_000;

interface Count {
  count: number;
  resetAt: number;
}

export interface FailureStore {
  /** Counts one attempt on each key (atomically per key); each key's count and end of window. */
  attempt(keys: readonly string[], now: number): Promise<Count[]>;
  /** The attempt succeeded: the account's failures are forgotten, the address's attempt is taken back. */
  succeeded(accountKey: string, addressKey: string, now: number): Promise<void>;
}

/** Stored keys are digests: neither store keeps e-mail addresses or client addresses. */
const digest = (key: string) => createHash('sha256').update(key).digest('base64url');

const databaseStore: FailureStore = {
  async attempt(keys, now) {
    const at = new Date(now);
    const rows = await prisma().$queryRaw<
      { key: string; count: number; resetAt: Date }[]
    >(Prisma.sql`/* auth:sign-in-attempt */
      INSERT INTO "SignInFailure" AS f (key, count, "resetAt")
       SELECT k, 1, ${new Date(now + FAILURE_WINDOW_MS)}::timestamp FROM unnest(${keys.map(digest)}::text[]) AS k
       ON CONFLICT (key) DO UPDATE
         SET count = CASE WHEN f."resetAt" <= ${at}::timestamp THEN 1 ELSE f.count + 1 END,
             "resetAt" = CASE WHEN f."resetAt" <= ${at}::timestamp THEN EXCLUDED."resetAt" ELSE f."resetAt" END
       RETURNING key, count, "resetAt"`);
    const byKey = new Map(rows.map((r) => [r.key, { count: r.count, resetAt: r.resetAt.getTime() }]));
    return keys.map((k) => byKey.get(digest(k))!);
  },
  async succeeded(accountKey, addressKey, now) {
    // Expired windows go here too (a spray of addresses leaves rows behind).
    const account = digest(accountKey);
    const address = digest(addressKey);
    const at = new Date(now);
    await prisma().$executeRaw(Prisma.sql`/* auth:sign-in-succeeded */
      WITH gone AS (DELETE FROM "SignInFailure" WHERE key = ${account} OR ("resetAt" <= ${at}::timestamp AND key <> ${address}))
       UPDATE "SignInFailure" SET count = count - 1 WHERE key = ${address} AND count > 0 AND "resetAt" > ${at}::timestamp`);
  },
};

const REDIS_PREFIX = 'lms:sign-in-failures:';

/** Takes one back from a counter that still exists (a DECR would recreate an expired one without expiry). */
const TAKE_BACK = `if redis.call('exists', KEYS[1]) == 1 and tonumber(redis.call('get', KEYS[1])) > 0 then return redis.call('decr', KEYS[1]) end return 0`;

export function redisFailureStore(redis: Redis): FailureStore {
  return {
    async attempt(keys, now) {
      const multi = redis.multi();
      // The window starts with the first attempt: the key is created with its expiry, then counted.
      for (const key of keys)
        multi
          .set(REDIS_PREFIX + digest(key), 0, 'PX', FAILURE_WINDOW_MS, 'NX')
          .incr(REDIS_PREFIX + digest(key))
          .pttl(REDIS_PREFIX + digest(key));
      const replies = (await multi.exec()) ?? [];
      for (const [error] of replies) if (error) throw error;
      return keys.map((_, i) => ({
        count: Number(replies[i * 3 + 1]![1]),
        resetAt: now + Math.max(0, Number(replies[i * 3 + 2]![1])),
      }));
    },
    async succeeded(accountKey, addressKey) {
      await redis
        .multi()
        .del(REDIS_PREFIX + digest(accountKey))
        .eval(TAKE_BACK, 1, REDIS_PREFIX + digest(addressKey))
        .exec();
    },
  };
}

let store: FailureStore = databaseStore;

/** Counts in Redis (shareAuthThroughRedis); undefined: back to the database. */
export function useFailureStore(redisStore: FailureStore | undefined): void {
  store = redisStore ?? databaseStore;
}

export interface SignInLimits {
  failuresPerAccount: number;
  failuresPerAddress: number;
}

/**
 * Counts a sign-in attempt of `login` from `address`; refused with
 * TOO_MANY_REQUESTS (and a retry delay) once either has failed too often in
 * the window. Call the returned function when the password was right.
 */
export async function countSignInAttempt(
  login: string,
  address: string,
  limits: SignInLimits,
): Promise<() => Promise<void>> {
  const now = Date.now();
  const accountKey = `a:${login}`;
  const addressKey = `ip:${address}`;
  const [account, client] = await store.attempt([accountKey, addressKey], now);
  const over = [
    account!.count > limits.failuresPerAccount ? account! : undefined,
    client!.count > limits.failuresPerAddress ? client! : undefined,
  ].filter((c) => c !== undefined);
  if (over.length) {
    const retry = Math.max(1, Math.ceil((Math.max(...over.map((c) => c.resetAt)) - now) / 1000));
    throw tooManyRequests(said('too-many-sign-ins', { seconds: retry }), retry);
  }
  return () => store.succeeded(accountKey, addressKey, now);
}

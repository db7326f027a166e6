// Resolved credentials, kept in memory so that a request with a known API key
// or personal token costs no database statement. Safe because every change
// that ends a credential (project deleted, key rotated, token revoked) calls
// forgetCredentials(): this instance drops its cache at once, and the other
// instances through Redis pub/sub (connectCredentialBroadcast) before the
// change's answer leaves this instance. Entries also expire after a minute, a
// backstop for a write made outside the service (a SQL console).
import type { Redis } from 'ioredis';

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
const CHANNEL = 'lms:credentials:forget';

interface Entry<T> {
  value: T;
  until: number;
}

const entries = new Map<string, Entry<unknown>>();
/** Bumped by every forget: a lookup that started before it must not fill the cache. */
let generation = 0;
let broadcast: ((message: string) => Promise<unknown>) | undefined;

/**
 * The cached value for a credential hash, or `load()`'s (a value of
 * `undefined` is not kept: unknown credentials are looked up each time).
 */
export async function cachedCredential<T>(hash: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
  const entry = entries.get(hash);
  if (entry && entry.until > Date.now()) return entry.value as T;
  entries.delete(hash);
  const started = generation;
  const value = await load();
  if (value !== undefined && started === generation) {
    // Insertion order is age: the oldest entry goes first when full.
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    entries.set(hash, { value, until: Date.now() + TTL_MS });
  }
  return value;
}

function dropAll(): void {
  generation++;
  entries.clear();
}

/**
 * Forgets every cached credential, here and (with Redis) on every instance.
 * Call it after the change that ends a credential has committed.
 */
export async function forgetCredentials(): Promise<void> {
  dropAll();
  await broadcast?.(String(process.pid)).catch(() => {
    // Redis down: the other instances keep their entries at most TTL_MS.
  });
}

/** Subscribes this instance to the forget messages of the others; returns the unsubscribe. */
export async function connectCredentialBroadcast(publisher: Redis): Promise<() => Promise<void>> {
  const subscriber = publisher.duplicate();
  subscriber.on('message', (channel) => {
    if (channel === CHANNEL) dropAll();
  });
  await subscriber.subscribe(CHANNEL);
  broadcast = (message) => publisher.publish(CHANNEL, message);
  return async () => {
    broadcast = undefined;
    subscriber.disconnect();
  };
}

// Retries of provider calls: only MtProviderError of kind 'retryable' (429,
// 5xx, network failures) is retried, with exponential backoff and jitter; a
// Retry-After from the provider is honoured (never waited less). Everything
// is injectable so tests run with tiny delays.
import { MtProviderError } from './types.js';

export interface RetryOptions {
  /** Attempts in all, the first included. Default 5. */
  maxAttempts?: number;
  /** Delay before the first retry, doubled for each further one. Default 500 ms. */
  baseDelayMs?: number;
  /** Cap of the backoff delay. Default 30 s. */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown. Default 120 s. */
  maxRetryAfterMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Source of jitter in [0, 1). */
  random?: () => number;
  signal?: AbortSignal;
  onRetry?: (info: { attempt: number; delayMs: number; error: MtProviderError }) => void;
}

export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Retry-After as milliseconds: delay-seconds or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Delay before retry number `attempt` (1 = first retry). */
export function backoffDelay(attempt: number, error: MtProviderError, options: RetryOptions = {}): number {
  const base = options.baseDelayMs ?? 500;
  const cap = options.maxDelayMs ?? 30_000;
  const random = options.random ?? Math.random;
  const exp = Math.min(cap, base * 2 ** (attempt - 1));
  const jittered = exp / 2 + random() * (exp / 2);
  return Math.round(Math.max(jittered, error.retryAfterMs ?? 0));
}

export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  const maxRetryAfter = options.maxRetryAfterMs ?? 120_000;
  const wait = options.sleep ?? sleep;
  const { signal } = options;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw abortError(signal);
    try {
      return await fn(attempt);
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      if (!(error instanceof MtProviderError) || error.kind !== 'retryable') throw error;
      if (attempt >= maxAttempts) throw error;
      if (error.retryAfterMs !== undefined && error.retryAfterMs > maxRetryAfter) throw error;
      const delayMs = backoffDelay(attempt, error, options);
      options.onRetry?.({ attempt, delayMs, error });
      await wait(delayMs, signal);
    }
  }
}

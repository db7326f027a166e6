import { describe, expect, it } from 'vitest';
import { codePoints, jsonElementBytes, splitIntoBatches } from '../../../src/mt/batching.js';
import { backoffDelay, parseRetryAfter, sleep, withRetry } from '../../../src/mt/retry.js';
import { MtProviderError, type BatchLimits } from '../../../src/mt/types.js';

const limits = (maxTexts: number, maxSize: number): BatchLimits => ({
  maxTexts,
  maxSize,
  sizeOf: codePoints,
  maxSingle: Infinity,
});

describe('batching', () => {
  it('cuts at the text count and at the size, keeping order', () => {
    const texts = Array.from({ length: 7 }, (_, i) => `t${i}`);
    expect(splitIntoBatches(texts, limits(3, 100), (t) => t)).toEqual([['t0', 't1', 't2'], ['t3', 't4', 't5'], ['t6']]);
    expect(splitIntoBatches(['aaaa', 'bbbb', 'cc', 'dddddddddd', 'e'], limits(50, 8), (t) => t)).toEqual([
      ['aaaa', 'bbbb'],
      ['cc'],
      ['dddddddddd'],
      ['e'],
    ]);
    expect(splitIntoBatches([], limits(3, 10), (t: string) => t)).toEqual([]);
  });

  it('measures code points and JSON bytes', () => {
    expect(codePoints('a😀é')).toBe(3);
    expect(jsonElementBytes('é"')).toBe(Buffer.byteLength('"é\\""') + 1);
  });
});

const retryable = (retryAfterMs?: number) =>
  new MtProviderError({
    provider: 'MT_PROVIDER_B',
    kind: 'retryable',
    reason: 'rate_limit',
    status: 429,
    providerMessage: 'Too many requests',
    retryAfterMs,
  });
const fatal = () =>
  new MtProviderError({
    provider: 'MT_PROVIDER_B',
    kind: 'fatal',
    reason: 'quota',
    status: 456,
    providerMessage: 'Quota exceeded',
  });

describe('retry', () => {
  it('parses Retry-After seconds and dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped, and never below Retry-After', () => {
    const opts = { baseDelayMs: 100, maxDelayMs: 1000, random: () => 1 };
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, retryable(), opts))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffDelay(1, retryable(), { ...opts, random: () => 0 })).toBe(50);
    expect(backoffDelay(1, retryable(5000), opts)).toBe(5000);
  });

  it('retries retryable errors, then succeeds', async () => {
    const delays: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls++;
        if (calls < 3) throw retryable(calls === 1 ? 1500 : undefined);
        return 'ok';
      },
      { sleep: async (ms) => void delays.push(ms), random: () => 0, baseDelayMs: 10 },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    expect(delays).toEqual([1500, 10]);
  });

  it('gives up after maxAttempts, at once on fatal errors, and when Retry-After is too long', async () => {
    let calls = 0;
    await expect(
      withRetry(async () => (calls++, Promise.reject(retryable())), { maxAttempts: 3, sleep: async () => {} }),
    ).rejects.toMatchObject({ status: 429 });
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      withRetry(async () => (calls++, Promise.reject(fatal())), { sleep: async () => {} }),
    ).rejects.toMatchObject({ reason: 'quota' });
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      withRetry(async () => (calls++, Promise.reject(retryable(600_000))), { sleep: async () => {} }),
    ).rejects.toBeInstanceOf(MtProviderError);
    expect(calls).toBe(1);
  });

  it('stops waiting when aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const promise = withRetry(async () => Promise.reject(retryable()), {
      baseDelayMs: 60_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('job cancelled')), 20);
    await expect(promise).rejects.toThrow('job cancelled');
    // The retry delay is a minute: anything well under it proves the abort cut the wait short.
    expect(Date.now() - started).toBeLessThan(30_000);
    await expect(sleep(10, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  }, 60_000);
});

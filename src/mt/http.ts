// One HTTP exchange with a provider through the global fetch: a timeout per
// request, the caller's abort signal, and network failures turned into
// retryable MtProviderErrors. Status handling is the provider module's.
import { abortError, type RetryOptions } from './retry.js';
import { MtProviderError, type TranslationProviderId } from './types.js';

export interface HttpOptions {
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Per request. Default 60 s. */
  timeoutMs?: number;
  /** Retries of the provider's own look-ups (glossary); translateTexts has its own. */
  retry?: RetryOptions;
  /** Sent as User-Agent. */
  userAgent?: string;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: unknown;
  text: string;
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const message = error instanceof Error ? error.message : String(error);
  return cause?.code ? `${message} (${cause.code})` : cause?.message ? `${message} (${cause.message})` : message;
}

export async function send(
  provider: TranslationProviderId,
  url: string,
  init: RequestInit,
  options: HttpOptions,
  signal?: AbortSignal,
): Promise<HttpAnswer> {
  if (signal?.aborted) throw abortError(signal);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const fail = (error: unknown): never => {
    if (signal?.aborted) throw abortError(signal);
    if (timeout.aborted) {
      throw new MtProviderError({
        provider,
        kind: 'retryable',
        reason: 'timeout',
        status: 0,
        providerMessage: `no answer within ${timeoutMs} ms`,
        cause: error,
      });
    }
    throw new MtProviderError({
      provider,
      kind: 'retryable',
      reason: 'network',
      status: 0,
      providerMessage: `request failed: ${describe(error)}`,
      cause: error,
    });
  };
  const headers = new Headers(init.headers);
  headers.set('User-Agent', options.userAgent ?? 'localization-service');
  let response: Response;
  let text: string;
  try {
    response = await (options.fetch ?? fetch)(url, { ...init, headers, signal: combined });
    text = await response.text();
  } catch (error) {
    return fail(error);
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** A short excerpt of a non-JSON error body, for messages. */
export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/**
 * The translated strings of a provider's answer, one per text sent, read from
 * `field` of each item; any other shape is a retryable bad answer.
 */
export function translationsOf(
  provider: TranslationProviderId,
  status: number,
  items: unknown,
  count: number,
  field: string,
): string[] {
  if (
    !Array.isArray(items) ||
    items.length !== count ||
    items.some((t) => typeof (t as Record<string, unknown> | null)?.[field] !== 'string')
  ) {
    throw new MtProviderError({
      provider,
      kind: 'retryable',
      reason: 'bad_response',
      status,
      providerMessage: `unexpected answer: expected ${count} translations`,
    });
  }
  return items.map((t) => (t as Record<string, string>)[field]!);
}

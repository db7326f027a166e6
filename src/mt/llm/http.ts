// One POST of JSON to a model server, through the SSRF guard the webhooks use
// (src/webhooks/safe-target.ts): the host is resolved and checked (loopback and
// private addresses only with LLM_ALLOW_PRIVATE, since a project may set its
// own base URL), and the connection goes to the checked address. A time limit
// for the whole request (a server trickling its answer byte by byte would pass
// an idle timeout forever), the caller's abort signal, no redirects, a cap on
// the answer.
// Network failures and timeouts are retryable MtProviderErrors.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveTarget, UnsafeTargetError } from '../../webhooks/safe-target.js';
import { abortError } from '../retry.js';
import { MtProviderError, type LlmProviderId } from '../types.js';

const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export interface LlmHttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Parsed JSON, undefined when the body is not JSON. */
  body: unknown;
}

export async function postJson(
  provider: LlmProviderId,
  urlText: string,
  body: unknown,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivate: boolean; signal?: AbortSignal },
): Promise<LlmHttpAnswer> {
  const { signal } = options;
  if (signal?.aborted) throw abortError(signal);
  const url = new URL(urlText);
  let target: { address: string; family: 4 | 6 };
  try {
    target = await resolveTarget(url, options.allowPrivate);
  } catch (error) {
    const message =
      error instanceof UnsafeTargetError
        ? error.message.replace('WEBHOOK_ALLOW_PRIVATE', 'LLM_ALLOW_PRIVATE')
        : (error as Error).message;
    // An address the operator did not allow is a configuration error, not worth retrying.
    throw new MtProviderError({
      provider,
      kind: 'fatal',
      reason: 'bad_request',
      status: 0,
      providerMessage: `the model server was not contacted: ${message}`,
    });
  }
  const pinned: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const payload = JSON.stringify(body);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<LlmHttpAnswer>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        headers: {
          'user-agent': 'localization-service',
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          accept: 'application/json',
        },
        timeout: options.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            request.destroy();
            fail(
              new MtProviderError({
                provider,
                kind: 'retryable',
                reason: 'bad_response',
                status: response.statusCode ?? 0,
                providerMessage: `answer larger than ${MAX_ANSWER_BYTES} bytes`,
              }),
            );
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          signal?.removeEventListener('abort', onAbort);
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body: parsed });
        });
        response.on('error', (error) =>
          fail(
            new MtProviderError({
              provider,
              kind: 'retryable',
              reason: 'network',
              status: 0,
              providerMessage: `request failed: ${error.message}`,
              cause: error,
            }),
          ),
        );
      },
    );
    const onAbort = () => {
      request.destroy();
      fail(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const deadline = setTimeout(() => {
      request.destroy();
      fail(
        new MtProviderError({
          provider,
          kind: 'retryable',
          reason: 'timeout',
          status: 0,
          providerMessage: `the answer was not complete within ${options.timeoutMs} ms`,
        }),
      );
    }, options.timeoutMs);
    request.on('timeout', () => {
      request.destroy();
      fail(
        new MtProviderError({
          provider,
          kind: 'retryable',
          reason: 'timeout',
          status: 0,
          providerMessage: `no answer within ${options.timeoutMs} ms`,
        }),
      );
    });
    request.on('error', (error) =>
      fail(
        new MtProviderError({
          provider,
          kind: 'retryable',
          reason: 'network',
          status: 0,
          providerMessage: `request failed: ${error.message}`,
          cause: error,
        }),
      ),
    );
    request.end(payload);
  });
}

// One HTTP attempt of a delivery: POST the signed body to the checked address
// (safe-target.ts) with the URL's host name for Host and TLS, no redirects
// followed, a time limit, and the first 2 KiB of the answer kept for the log.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveTarget } from './safe-target.js';

export const RESPONSE_LOG_BYTES = 2048;

export interface AttemptResult {
  status: number | null;
  error: string | null;
  response: string;
  durationMs: number;
}

export async function postSigned(
  urlText: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<AttemptResult> {
  const started = Date.now();
  const done = (status: number | null, error: string | null, response = ''): AttemptResult => ({
    status,
    error,
    response,
    durationMs: Date.now() - started,
  });
  const url = new URL(urlText);
  let target: { address: string; family: 4 | 6 };
  try {
    target = await resolveTarget(url, options.allowPrivate);
  } catch (error) {
    return done(null, (error as Error).message);
  }
  // The connection goes to the address checked above, whatever a second lookup would say.
  const pinned: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'localization-service-webhooks/1',
          ...headers,
        },
        timeout: options.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_LOG_BYTES) {
            chunks.push(chunk.subarray(0, RESPONSE_LOG_BYTES - kept));
            kept += Math.min(chunk.length, RESPONSE_LOG_BYTES - kept);
          }
        });
        response.on('end', () =>
          resolve(done(response.statusCode ?? null, null, Buffer.concat(chunks).toString('utf8'))),
        );
        response.on('error', (error) =>
          resolve(done(response.statusCode ?? null, error.message, Buffer.concat(chunks).toString('utf8'))),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', (error) => resolve(done(null, error.message)));
    request.end(body);
  });
}

// Shared plumbing of the fake provider servers: a node:http server on
// 127.0.0.1 (port 0), a record of every request received, and scripted
// failures answered instead of the next requests.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string | string[]>;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Parsed JSON or form body (repeated form fields become arrays); undefined when empty or unreadable. */
  body: unknown;
  at: number;
}

export interface FailOptions {
  /** Extra response headers, e.g. { 'Retry-After': '1' }. */
  headers?: Record<string, string>;
  /** Error message in the provider's error body. */
  message?: string;
  /** Google only: the `reason` of the error (e.g. dailyLimitExceeded, userRateLimitExceeded, keyInvalid). */
  reason?: string;
  /** Which requests fail: the translate endpoint (default), glossary look-ups, or any. */
  endpoint?: 'translate' | 'glossaries' | 'any';
}

export interface ScriptedFailure extends FailOptions {
  status: number;
}

export interface FakeServerBase {
  /** Base URL (http://127.0.0.1:PORT), usable as MT_PROVIDER_A_URL / MT_PROVIDER_B_URL. */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** The next `n` matching requests are answered with `status` and the provider's error body. */
  failNext(n: number, status: number, options?: FailOptions): void;
  /** Answers every following request only after `ms` milliseconds (0: at once), to act as a slow provider. */
  setDelay(ms: number): void;
  /** Forgets recorded requests and pending failures (the delay stays). */
  reset(): void;
  close(): Promise<void>;
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (!raw) return undefined;
  if (contentType?.includes('application/x-www-form-urlencoded')) {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(raw)) {
      const prev = out[k];
      out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    return out;
  }
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export interface Handler {
  (req: RecordedRequest, res: ServerResponse, failure: ScriptedFailure | undefined): void;
  endpointOf(req: RecordedRequest): 'translate' | 'glossaries' | 'other';
}

export async function startFakeServer(handler: Handler): Promise<FakeServerBase> {
  const requests: RecordedRequest[] = [];
  let failures: ScriptedFailure[] = [];
  let delayMs = 0;

  const takeFailure = (req: RecordedRequest): ScriptedFailure | undefined => {
    const endpoint = handler.endpointOf(req);
    const index = failures.findIndex(
      (f) => (f.endpoint ?? 'translate') === 'any' || (f.endpoint ?? 'translate') === endpoint,
    );
    if (index < 0) return undefined;
    return failures.splice(index, 1)[0];
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const query: Record<string, string | string[]> = {};
      for (const [k, v] of url.searchParams) {
        const prev = query[k];
        query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query,
        headers: req.headers,
        rawBody,
        body: parseBody(rawBody, req.headers['content-type']),
        at: Date.now(),
      };
      requests.push(recorded);
      const failure = takeFailure(recorded);
      const answer = () => {
        if (res.destroyed) return;
        try {
          handler(recorded, res, failure);
        } catch (error) {
          sendJson(res, 500, { message: `fake server error: ${(error as Error).message}` });
        }
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(n, status, options = {}) {
      for (let i = 0; i < n; i++) failures.push({ status, ...options });
    },
    setDelay(ms) {
      delayMs = Math.max(0, ms);
    },
    reset() {
      requests.length = 0;
      failures = [];
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}

/** Applies `fn` to the text between markup tags, leaving tags (and what protected elements hold) as they are. */
export function mapTextNodes(markup: string, fn: (text: string) => string): string {
  let out = '';
  let last = 0;
  let protectedDepth = 0;
  for (const m of markup.matchAll(/<(\/)?([A-Za-z][\w:.-]*)[^>]*?(\/)?>/g)) {
    const text = markup.slice(last, m.index);
    out += protectedDepth ? text : fn(text);
    out += m[0];
    last = m.index + m[0].length;
    const isProtected = /translate="no"/.test(m[0]);
    if (!m[1] && !m[3] && (isProtected || protectedDepth)) protectedDepth++;
    else if (m[1] && protectedDepth) protectedDepth--;
  }
  const rest = markup.slice(last);
  return out + (protectedDepth ? rest : fn(rest));
}

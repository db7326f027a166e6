// Limits on HTTP requests, each refused in the contract's envelope:
//   - body size per route class (413): the bulk routes (GraphQL, the v1
//     translation updates, the bulk key delete) take MAX_BULK_BODY_BYTES, every
//     other JSON route MAX_BODY_BYTES; uploads have their own MAX_UPLOAD_BYTES;
//   - request line and headers (431), read by Node's HTTP parser;
//   - multipart field and file counts (413; graphql-upload.ts, rest-compat/upload.ts);
//   - expensive operations running at once per credential (429; limits-heavy.ts).
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestLimits } from '../config.js';

/** Routes whose JSON bodies are lists of items: path → methods (all when empty). */
const BULK_ROUTES: Record<string, string[]> = {
  '/graphql': [],
  '/api/v1/translations': ['POST', 'PATCH'],
  '/api/v1/translation-keys/bulk': [],
};

type BodyClass = 'bulk' | 'regular';
const SETTING: Record<BodyClass, string> = { bulk: 'MAX_BULK_BODY_BYTES', regular: 'MAX_BODY_BYTES' };

function bodyClass(url: string, method: string | string[]): BodyClass {
  const methods = BULK_ROUTES[url];
  if (!methods) return 'regular';
  return methods.length === 0 || [method].flat().some((m) => methods.includes(m)) ? 'bulk' : 'regular';
}

/** Gives every route declared after it the body limit of its class (an explicit bodyLimit stays). */
export function registerBodyLimits(app: FastifyInstance, limits: RequestLimits): void {
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit !== undefined) return;
    const kind = bodyClass(route.url, route.method);
    route.bodyLimit = kind === 'bulk' ? limits.bulkBodyBytes : limits.bodyBytes;
    route.config = { ...(route.config as object), bodyClass: kind } as typeof route.config;
  });
}

/** The msg of a 413 for a JSON body: the route's limit and its setting. */
export function bodyTooLargeMessage(request: FastifyRequest): string {
  const kind = (request.routeOptions.config as { bodyClass?: BodyClass } | undefined)?.bodyClass ?? 'regular';
  return `The request body is larger than ${request.routeOptions.bodyLimit} bytes (${SETTING[kind]})`;
}

function envelopeResponse(status: number, reason: string, msg: string): string {
  const body = JSON.stringify({ msg, status });
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * Fastify server options: Node's header limit, and an answer in the envelope
 * when the HTTP parser refuses a request (Node would send a bare status line).
 */
export function serverLimits(limits: RequestLimits) {
  return {
    maxHeaderSize: limits.headerBytes,
    clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
      if (!socket.writable) return void socket.destroy();
      const answer =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? envelopeResponse(
              431,
              'Request Header Fields Too Large',
              `The request line and headers are larger than ${limits.headerBytes} bytes (MAX_HEADER_BYTES)`,
            )
          : // Node's headers and request timeouts (src/http/timeouts.ts).
            error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? envelopeResponse(408, 'Request Timeout', 'The request was not received in time')
            : envelopeResponse(400, 'Bad Request', 'Malformed HTTP request');
      socket.end(answer, () => socket.destroy());
    },
  };
}

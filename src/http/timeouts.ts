// How long a client may take (config.timeouts, docs/robustness.md): a slow or
// stalled client is disconnected instead of holding a connection and its
// buffers. Node's HTTP server bounds the headers (HEADERS_TIMEOUT_MS), the
// whole request (REQUEST_TIMEOUT_MS: generous, a 50 MiB upload on a slow link
// fits) and idle keep-alive connections (KEEP_ALIVE_TIMEOUT_MS); a body is
// bounded by inactivity (BODY_IDLE_TIMEOUT_MS), so a large upload that keeps
// sending is never cut while one that stops is. A refusal is a 408 in the
// envelope when the answer can still be sent; the connection is closed.
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Timeouts } from '../config.js';

/** Fastify/Node server options for the timeouts. */
export function serverTimeouts(timeouts: Timeouts) {
  return {
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // Node checks the header and request timeouts on this interval (30 s by default): a fraction of the shortest.
    http: {
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      connectionsCheckingInterval: Math.max(
        50,
        Math.min(1_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)),
      ),
    },
  };
}

export function timeoutAnswer(): string {
  const body = JSON.stringify({ msg: 'The request was not received in time', status: 408 });
  return `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * The body's inactivity timeout: while a request's body is being received, a
 * pause of BODY_IDLE_TIMEOUT_MS without a byte ends the connection (a 408 in
 * the envelope first). Watched on the socket's byte count, so Node's own
 * socket timeout (which would also end a long-running answer) stays unused.
 */
export function registerBodyIdleTimeout(app: FastifyInstance, timeouts: Timeouts): void {
  const ms = timeouts.bodyIdleMs;
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const socket = raw.socket;
    // Injected requests (app.inject) carry a stand-in socket with no bytes to watch.
    if (raw.complete || !(socket instanceof Socket)) return done();
    // A request with neither header has no body (RFC 9112, 6.3): nothing to watch, no timer per GET.
    const length = raw.headers['content-length'];
    if (raw.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return done();
    let lastBytes = socket.bytesRead;
    let lastAt = Date.now();
    const timer = setInterval(
      () => {
        if (raw.complete || socket.destroyed) return clearInterval(timer);
        if (socket.bytesRead !== lastBytes) {
          lastBytes = socket.bytesRead;
          lastAt = Date.now();
          return;
        }
        if (Date.now() - lastAt < ms) return;
        clearInterval(timer);
        request.log.info({ idleMs: ms }, 'request body stalled: connection closed');
        if (!reply.sent && socket.writable) socket.end(timeoutAnswer(), () => socket.destroy());
        else socket.destroy();
      },
      Math.max(10, Math.floor(ms / 4)),
    );
    timer.unref();
    raw.once('close', () => clearInterval(timer));
    done();
  });
}

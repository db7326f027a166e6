// Every answer of the service is an envelope, including Fastify's own errors
// (malformed JSON, wrong content type, body too large) and unknown paths or methods.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendEnvelope } from './envelope.js';
import { bodyTooLargeMessage } from './limits-request.js';
import { databaseUnavailable, RETRY_AFTER_SECONDS } from './database-unavailable.js';
import { urlProblem } from './input-text.js';

/**
 * Fastify's `frameworkErrors`: the router's own refusals, before any hook runs
 * (a path parameter that does not decode, one too long), in the envelope.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const msg =
    error.code === 'FST_ERR_BAD_URL'
      ? (urlProblem(request.raw.url ?? '') ?? 'The path is not a valid URL')
      : error.message;
  sendEnvelope(reply, status, msg);
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { msg?: string }, request, reply) => {
    // Plugins' own error answers (rate limit) come as {statusCode, msg}.
    if (error.statusCode === 429) return sendEnvelope(reply, 429, error.msg ?? error.message ?? 'Too many requests');
    const unavailable = databaseUnavailable(error, request.log, { method: request.method, url: request.url });
    if (unavailable) {
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return sendEnvelope(reply, 503, unavailable.message);
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return sendEnvelope(reply, 500, 'Internal server error');
    }
    const msg =
      error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? `Unsupported content type '${request.headers['content-type'] ?? ''}'; send application/json`
        : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body is empty; send a JSON object'
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? bodyTooLargeMessage(request)
            : error.message.startsWith('Unexpected') || error.message.includes('JSON')
              ? `Malformed JSON body: ${error.message}`
              : error.message;
    return sendEnvelope(reply, status, msg);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = METHODS.filter((method) => method !== request.method && app.hasRoute({ method, url: path }));
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendEnvelope(
        reply,
        405,
        `Method ${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
      );
    }
    return sendEnvelope(reply, 404, `No endpoint ${request.method} ${path}`);
  });
}

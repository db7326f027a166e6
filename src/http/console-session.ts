// What GraphQL over HTTP adds for web console sessions (src/auth/sessions.ts):
// the HTTP exchange the sign-in mutation sets its cookies on, and the CSRF rule:
// an operation authenticated by the session cookie alone may read, but a
// mutation needs the session's CSRF token in the X-CSRF-Token header (another
// site can make the browser send the cookie, never read the token).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { getOperationAST, OperationTypeNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config.js';
import type { Context, HttpExchange } from '../context.js';
import { forbidden, said } from '../errors.js';

export function httpExchange(
  initial: { req?: FastifyRequest; reply?: FastifyReply },
  config: Config,
): HttpExchange | undefined {
  const { req, reply } = initial;
  if (!req || !reply) return undefined;
  const forwarded = req.headers['x-forwarded-proto'];
  const secure =
    config.publicUrl.startsWith('https:') ||
    req.protocol === 'https' ||
    (typeof forwarded === 'string' && forwarded.split(',')[0]!.trim() === 'https');
  return {
    address: req.ip,
    userAgent: req.headers['user-agent'] ?? '',
    secure,
    jsonBody: /^application\/(graphql-response\+)?json\b/i.test(req.headers['content-type'] ?? ''),
    // Fastify appends repeated set-cookie headers instead of replacing them.
    setCookie: (value) => void reply.header('set-cookie', value),
  };
}

const CSRF_REFUSAL = said('csrf-missing');

export function useSessionCsrf(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const principal = (args.contextValue as unknown as Context).principal;
      if (principal?.kind !== 'account' || principal.scheme !== 'session' || principal.csrf) return;
      if (getOperationAST(args.document, args.operationName)?.operation === OperationTypeNode.QUERY) return;
      setResultAndStopExecution({ errors: [forbidden(CSRF_REFUSAL)] });
    },
  };
}

// The response envelope of the contract: {msg, status, data?}.
import type { FastifyReply } from 'fastify';
import type { GraphQLError } from 'graphql';
import { HTTP_STATUS, isErrorCode } from '../src/errors.js';

export function sendEnvelope(reply: FastifyReply, status: number, msg: string, data?: unknown, headers: Record<string, string> = {}): FastifyReply {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.status(status).type('application/json; charset=utf-8').send(data === undefined ? { msg, status } : { msg, status, data });
}

/** A 200 whose fields sit at the root of the body beside msg and status (RestResult.root). */
export function sendRoot(reply: FastifyReply, fields: Record<string, unknown>, headers: Record<string, string> = {}): FastifyReply {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.status(200).type('application/json; charset=utf-8').send({ msg: 'OK', status: 200, ...fields });
}

export interface MappedError {
  status: number;
  msg: string;
  headers: Record<string, string>;
}

/**
 * Maps the first GraphQL error to an HTTP status through the one code table.
 * Errors without a code are variable coercion / validation failures (400);
 * anything else was masked by Yoga and is a 500.
 */
export function mapGraphQLError(error: GraphQLError): MappedError {
  const code = error.extensions?.code;
  const headers: Record<string, string> = {};
  if (isErrorCode(code)) {
    const retryAfter = error.extensions?.retryAfter;
    if (typeof retryAfter === 'number') headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfter)));
    return { status: HTTP_STATUS[code], msg: error.message, headers };
  }
  // Without a path the error happened before execution (parsing, validation,
  // variable coercion such as a number given for a string field): bad input.
  if (code === 'BAD_USER_INPUT' || code === 'GRAPHQL_VALIDATION_FAILED' || (code === undefined && (!error.originalError || error.path === undefined))) {
    return { status: 400, msg: error.message, headers };
  }
  return { status: 500, msg: 'Internal server error', headers };
}

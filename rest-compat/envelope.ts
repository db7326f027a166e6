// REST's reading of a GraphQL error: the HTTP status and msg of the envelope
// (the envelope itself is written by src/http/envelope.ts).
import type { GraphQLError } from 'graphql';
import { HTTP_STATUS, isErrorCode } from '../src/errors.js';

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
  if (
    code === 'BAD_USER_INPUT' ||
    code === 'GRAPHQL_VALIDATION_FAILED' ||
    (code === undefined && (!error.originalError || error.path === undefined))
  ) {
    return { status: 400, msg: error.message, headers };
  }
  return { status: 500, msg: 'Internal server error', headers };
}

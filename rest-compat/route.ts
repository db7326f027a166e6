// A REST route of the contract is a declaration: method, path, auth scheme, a
// GraphQL document (parsed and validated at boot) and two mappings, request →
// variables and data → envelope payload. Routes never touch the database.
import type { FastifyRequest } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { Scheme } from '../src/auth/principal.js';
import type { UploadedFile } from './upload.js';
import type { VariableNaming } from './variables.js';

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
  raw: FastifyRequest;
  /** The uploaded file of a `multipart` route. */
  file?: UploadedFile;
}

export interface RestResult {
  /** Omitted for delete operations: the envelope then carries only msg and status. */
  data?: unknown;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /**
   * Fields placed at the root of the body, next to msg and status, instead of
   * a `data` envelope: for clients that read them there (the official
   * command-line client's download reads `files` at the root).
   */
  root?: Record<string, unknown>;
}

export interface RestRoute<Data = any> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  auth: Scheme;
  deprecated?: boolean;
  summary: string;
  /** A GraphQL document with one operation. */
  document: string;
  /** Builds the operation's variables; throws AppError (400) for bad input. */
  toVariables(request: RestRequest, schema: GraphQLSchema): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Maps the operation's data to the envelope payload. */
  toResponse(data: Data, request: RestRequest): RestResult;
  /**
   * How the operation's variables are named in the request, for the 400 that
   * a value of the wrong type gets (rest-compat/variables.ts); default: `$input` is the body.
   */
  naming?: VariableNaming;
  /** Requests with a multipart body (file uploads) read the file themselves. */
  multipart?: boolean;
}

export function defineRoute<Data = any>(route: RestRoute<Data>): RestRoute<Data> {
  return route;
}

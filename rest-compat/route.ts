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

/** A JSON Schema (OpenAPI 3.1). `$ref: '#/components/schemas/<name>'` may name a GraphQL input or enum type. */
export type JsonSchema = Record<string, unknown>;

/** A query parameter as the OpenAPI description states it; toVariables reads and checks it. */
export interface QueryParameter {
  name: string;
  description?: string;
  required?: boolean;
  /** Default: string. */
  type?: 'string' | 'integer';
  /** Repeatable: `a=X&a=Y` or comma-joined `a=X,Y`. */
  list?: boolean;
  /** The accepted values are those of this GraphQL enum (in any letter case). */
  enum?: string;
  /** The contract spells the enum's values in lower case. */
  lowerCase?: boolean;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  default?: string | number;
}

export interface RestRoute<Data = any> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  auth: Scheme;
  deprecated?: boolean;
  summary: string;
  /** Longer prose for the API reference. */
  description?: string;
  /** The query parameters (OpenAPI description, rest-compat/openapi.ts). */
  query?: QueryParameter[];
  /** The JSON body's schema (OpenAPI description). */
  body?: JsonSchema;
  /** Whether a JSON body must be sent (default true when `body` is declared). */
  bodyRequired?: boolean;
  /**
   * The success body, for the OpenAPI description, when toResponse reshapes
   * the operation's result. By default `data` is the operation's one root
   * field as the document selects it. `data: null`: no data (deletes);
   * a function: derived from that selected shape.
   */
  response?:
    { data: JsonSchema | null | ((selected: JsonSchema) => JsonSchema) } | { root: Record<string, JsonSchema> };
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

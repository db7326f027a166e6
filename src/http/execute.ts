// The one GraphQL execution path. Every operation, whatever carried it, runs
// through Yoga's envelope (its plugins, its error masking and the one context
// factory, createContext in src/context.ts, which Yoga calls with the
// request's headers):
//   - GraphQL over HTTP: Yoga's own handler (graphql.ts);
//   - GraphQL multipart requests (uploads): graphql-upload.ts;
//   - GraphQL over WebSocket (graphql-ws): graphql.ts's onSubscribe;
//   - REST routes: rest-compat/index.ts, with the route's compiled document.
// Each of them copies the request headers with requestHeaders and opens the
// operation with openOperation.
import type { IncomingHttpHeaders } from 'node:http';
import { GraphQLError, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';

/** What the entry points hand to Yoga besides the headers (read by resolvers that log or need the raw request). */
export interface ServerContext {
  req?: FastifyRequest;
  reply?: FastifyReply;
}

export type AnyYoga = YogaServerInstance<any, any>;

/**
 * The request headers as Fetch Headers, the only form the context factory
 * reads. Repeated headers keep every value; `overrides` (graphql-ws
 * connectionParams) replace the request's.
 */
export function requestHeaders(
  source: IncomingHttpHeaders | undefined,
  overrides?: Record<string, unknown> | null,
): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(source ?? {})) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  // The Origin stays the browser's own: a page chooses its connectionParams, never its Origin (in-context tokens are checked against it).
  for (const [name, value] of Object.entries(overrides ?? {}))
    if (typeof value === 'string' && name.toLowerCase() !== 'origin') headers.set(name, value);
  return headers;
}

export interface OperationInput {
  document: DocumentNode;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** An operation opened on Yoga's envelope: its context is built, its document can be parsed, validated and run. */
export interface OpenOperation {
  readonly schema: GraphQLSchema;
  readonly context: Context;
  /** The query parsed, or the syntax error. */
  parse(query: string): DocumentNode | GraphQLError;
  validate(document: DocumentNode): readonly GraphQLError[];
  execute(input: OperationInput): Promise<ExecutionResult>;
  /** The arguments of an execution, for graphql-ws (which runs execute or subscribe itself). */
  executionArgs(input: OperationInput): ExecutionArgs & { rootValue: { execute: unknown; subscribe: unknown } };
}

/**
 * Opens an operation: Yoga's envelope with the given initial context (the
 * request's headers, and what the entry point adds, such as the Fastify
 * request), and the context built by the one context factory. When building
 * the context failed, the error Yoga's masking made of it instead (graphql.ts:
 * the credential's lookup on a lost database is SERVICE_UNAVAILABLE, a 503),
 * which each entry point answers as it answers any refusal.
 */
export async function openOperation(
  yoga: AnyYoga,
  headers: Headers,
  initial: Record<string, unknown> & { method?: string; url?: string } = {},
): Promise<OpenOperation | GraphQLError> {
  const { method = 'POST', url = yoga.graphqlEndpoint, ...extra } = initial;
  const enveloped = yoga.getEnveloped({ ...extra, request: { headers, method, url } });
  let context: Context;
  try {
    context = (await enveloped.contextFactory()) as unknown as Context;
  } catch (error) {
    if (error instanceof GraphQLError) return error;
    throw error;
  }
  const argsOf = ({ document, variables, operationName }: OperationInput) => ({
    schema: enveloped.schema,
    document,
    variableValues: variables ?? undefined,
    operationName: operationName ?? undefined,
    contextValue: context,
  });
  return {
    schema: enveloped.schema,
    context,
    parse(query) {
      try {
        return enveloped.parse(query);
      } catch (error) {
        return error as GraphQLError;
      }
    },
    validate: (document) => enveloped.validate(enveloped.schema, document),
    execute: async (input) => (await enveloped.execute(argsOf(input))) as ExecutionResult,
    executionArgs: (input) => ({
      ...argsOf(input),
      rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
    }),
  };
}

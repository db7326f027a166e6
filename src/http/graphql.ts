// GraphQL over HTTP (graphql-yoga, GraphiQL in a browser), multipart uploads
// (graphql-upload.ts) and WebSocket (graphql-ws on the same path). Yoga's
// context option is the one context factory (createContext, from the request's
// headers); every path runs through Yoga's envelope (execute.ts).
import type { FastifyInstance } from 'fastify';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { createYoga, maskError, type YogaServerInstance } from 'graphql-yoga';
// GraphiQL bundled in the package: the page works with no internet access.
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { createContext } from '../context.js';
import { useChangeOrigin } from '../schema/change-origin.js';
import type { Config } from '../config.js';
import { handleMultipart, type MultipartOptions } from './graphql-upload.js';
import { openOperation, requestHeaders, type ServerContext } from './execute.js';
import { useOperationMetrics } from './metrics.js';
import { useCompiledDocuments } from './compiled-documents.js';
import { graphqlLimitPlugins } from './limits-graphql.js';
import { connectionParamsProblem, graphqlRefusal, textInputPlugin } from './input-text.js';
import { heavyOperationsPlugin } from './limits-heavy.js';
import { variableErrorsPlugin } from './variable-errors.js';
import { httpExchange, useSessionCsrf } from './console-session.js';
import { watchSessionSockets } from './session-sockets.js';
import { databaseUnavailable, RETRY_AFTER_SECONDS } from './database-unavailable.js';
import { logger } from '../log.js';
import { yogaCors } from './in-context-cors.js';

export type { ServerContext };

export function createGraphQLServer(schema: GraphQLSchema, config: Config): YogaServerInstance<ServerContext, object> {
  return createYoga<ServerContext>({
    schema,
    graphqlEndpoint: '/graphql',
    logging: false,
    maskedErrors: { maskError: maskUnexpected },
    landingPage: false,
    graphiql: { subscriptionsProtocol: 'WS', title: 'Localization service' },
    // GraphiQL's page (megabytes of script) is loaded when a browser first asks for it.
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    // Origins are reflected but never with credentials: the console's session cookie works on its own origin only.
    // The in-context editor's requests only from origins a project allows (in-context-cors.ts).
    cors: (request) => yogaCors(request),
    // Writes record who made them and through what (src/history/); operations are counted (src/metrics.ts);
    // aliases, depth, tokens, directives and cost, and the cap on expensive operations per
    // credential, apply on every path through the envelope (limits-graphql.ts, limits-heavy.ts), and so
    // does the refusal of text that cannot be stored in variables and literals (input-text.ts); a
    // variable of the wrong type is refused without its value quoted (variable-errors.ts);
    // cookie-authenticated mutations need the console's CSRF token (console-session.ts).
    // The REST routes' fixed documents run compiled (compiled-documents.ts); first, so that the others wrap it.
    plugins: [
      useCompiledDocuments(),
      useSessionCsrf(),
      useChangeOrigin(),
      useOperationMetrics(),
      ...graphqlLimitPlugins(config.graphqlLimits),
      textInputPlugin(),
      variableErrorsPlugin(),
      heavyOperationsPlugin(config.requestLimits.heavyOperationsPerCredential),
    ],
    // The one context factory: every entry point opens its operation with the request's headers (execute.ts).
    context: async (initial: { request: { headers: Headers } } & ServerContext) =>
      createContext(initial.request.headers, config, httpExchange(initial, config)),
  });
}

/**
 * Yoga's masking of errors that are not the schema's own (INTERNAL_SERVER_ERROR),
 * with two additions: each is logged with its cause, and a lost database
 * connection is SERVICE_UNAVAILABLE (503 with Retry-After over REST) instead.
 */
function maskUnexpected(error: unknown, message: string, isDev?: boolean): Error {
  const masked = maskError(error, message, isDev);
  if (masked === error) return masked;
  const located = error instanceof GraphQLError ? error : undefined;
  const original = located?.originalError ?? error;
  const path = located?.path?.join('.');
  const unavailable = databaseUnavailable(original, logger(), { path });
  if (!unavailable) {
    logger().error({ err: original, path }, 'GraphQL operation failed: answered INTERNAL_SERVER_ERROR');
    return masked;
  }
  return new GraphQLError(unavailable.message, {
    nodes: located?.nodes,
    path: located?.path,
    extensions: {
      ...unavailable.extensions,
      http: { status: 503, headers: { 'retry-after': String(RETRY_AFTER_SECONDS) }, spec: false },
    },
  });
}

/** Content types whose answers Yoga writes over time (subscriptions over SSE, incremental delivery). */
const STREAMED = /^\s*(text\/event-stream|multipart\/)/i;

export function registerGraphQL(
  app: FastifyInstance,
  yoga: YogaServerInstance<ServerContext, object>,
  options: MultipartOptions,
): void {
  app.register(async (scope) => {
    // Multipart uploads (GraphQL multipart request spec) are read from the raw
    // stream by graphql-upload.ts: a body announced beyond MAX_UPLOAD_BYTES is refused unread.
    scope.addContentTypeParser('multipart/form-data', {}, (req, _payload, done) => {
      const length = Number(req.headers['content-length']);
      if (length > options.maxUploadBytes + 64 * 1024) {
        return done(
          Object.assign(new Error(`The upload is larger than ${options.maxUploadBytes} bytes (MAX_UPLOAD_BYTES)`), {
            statusCode: 413,
          }),
          undefined,
        );
      }
      done(null);
    });
    scope.route({
      url: yoga.graphqlEndpoint,
      method: ['GET', 'POST', 'OPTIONS'],
      handler: async (req, reply) => {
        if (req.method === 'POST' && req.headers['content-type']?.startsWith('multipart/form-data'))
          return handleMultipart(req, reply, yoga, options);
        const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
        response.headers.forEach((value, key) => {
          reply.header(key, value);
        });
        reply.status(response.status);
        // A whole answer (JSON, GraphiQL's page) is Yoga's string, sent as it is: its `body` would be a stream
        // made of that string and piped (the bench's 500-cell read: 3.6 → 3.45 ms of CPU per request).
        // Only event streams and multipart answers arrive over time.
        if (STREAMED.test(response.headers.get('content-type') ?? '')) reply.send(response.body);
        else reply.send(await response.text());
        return reply;
      },
    });
  });
}

/**
 * graphql-ws on the HTTP server's upgrade requests to /graphql. A socket
 * signed in by a web console session closes when the session ends (session-sockets.ts).
 */
export function attachWebSocket(app: FastifyInstance, yoga: YogaServerInstance<ServerContext, object>) {
  const wss = new WebSocketServer({ server: app.server, path: yoga.graphqlEndpoint });
  const sessions = watchSessionSockets();
  const server = useServer(
    {
      execute: (args: any) => args.rootValue.execute(args),
      subscribe: (args: any) => args.rootValue.subscribe(args),
      onSubscribe: async (ctx, _id, params) => {
        // The upgrade request's headers, overridden by connectionParams (a browser cannot set WebSocket headers);
        // the upgrade request's own passed the edge rule, connectionParams meet it here.
        const problem = connectionParamsProblem(ctx.connectionParams);
        if (problem) return [graphqlRefusal(problem)];
        const operation = await openOperation(yoga, requestHeaders(ctx.extra.request.headers, ctx.connectionParams), {
          method: 'GET',
          socket: ctx.extra.socket,
          params,
        });
        // The context could not be built (a lost database): the subscription's error, not the socket closed.
        if (operation instanceof GraphQLError) return [operation];
        const principal = operation.context.principal;
        if (principal.kind === 'account' && principal.scheme === 'session')
          sessions.track(principal.sessionId, ctx.extra.socket);
        const document = operation.parse(params.query);
        if (document instanceof Error) return [document];
        const errors = operation.validate(document);
        if (errors.length) return [...errors];
        return operation.executionArgs({ document, variables: params.variables, operationName: params.operationName });
      },
    },
    wss,
  );
  return { wss, server, sessions };
}

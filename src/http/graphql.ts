// GraphQL over HTTP (graphql-yoga, GraphiQL in a browser) and over WebSocket
// (graphql-ws on the same path), both building their context with createContext.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
// GraphiQL bundled in the package: the page works with no internet access.
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { IncomingMessage } from 'node:http';
import { createContext } from '../context.js';
import type { Config } from '../config.js';
import { handleMultipart, type MultipartOptions } from './graphql-upload.js';

export interface ServerContext { req?: FastifyRequest; reply?: FastifyReply }

/** Headers of a WebSocket connection: the upgrade request's, overridden by connectionParams. */
function socketHeaders(request: IncomingMessage | undefined, connectionParams: Record<string, unknown> | undefined): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request?.headers ?? {})) if (typeof value === 'string') headers.set(name, value);
  for (const [name, value] of Object.entries(connectionParams ?? {})) if (typeof value === 'string') headers.set(name, value);
  return headers;
}

export function createGraphQLServer(schema: GraphQLSchema, config: Config): YogaServerInstance<ServerContext, object> {
  return createYoga<ServerContext>({
    schema,
    graphqlEndpoint: '/graphql',
    logging: false,
    landingPage: false,
    graphiql: { subscriptionsProtocol: 'WS', title: 'Localization service' },
    renderGraphiQL,
    context: async (initial: any) => {
      const headers: Headers = initial.request?.headers ?? socketHeaders(initial.extra?.request, initial.connectionParams);
      return createContext(headers, config);
    },
  });
}

export function registerGraphQL(app: FastifyInstance, yoga: YogaServerInstance<ServerContext, object>, options: MultipartOptions): void {
  app.register(async (scope) => {
    // Multipart uploads (GraphQL multipart request spec) are read from the raw
    // stream by graphql-upload.ts: a body announced beyond MAX_UPLOAD_BYTES is refused unread.
    scope.addContentTypeParser('multipart/form-data', {}, (req, _payload, done) => {
      const length = Number(req.headers['content-length']);
      if (length > options.maxUploadBytes + 64 * 1024) {
        return done(Object.assign(new Error(`The upload is larger than ${options.maxUploadBytes} bytes (MAX_UPLOAD_BYTES)`), { statusCode: 413 }), undefined);
      }
      done(null);
    });
    scope.route({
      url: yoga.graphqlEndpoint,
      method: ['GET', 'POST', 'OPTIONS'],
      handler: async (req, reply) => {
        if (req.method === 'POST' && req.headers['content-type']?.startsWith('multipart/form-data')) return handleMultipart(req, reply, yoga, options);
        const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
        response.headers.forEach((value, key) => reply.header(key, value));
        reply.status(response.status);
        reply.send(response.body);
        return reply;
      },
    });
  });
}

/** graphql-ws on the HTTP server's upgrade requests to /graphql. */
export function attachWebSocket(app: FastifyInstance, yoga: YogaServerInstance<ServerContext, object>) {
  const wss = new WebSocketServer({ server: app.server, path: yoga.graphqlEndpoint });
  const server = useServer(
    {
      execute: (args: any) => args.rootValue.execute(args),
      subscribe: (args: any) => args.rootValue.subscribe(args),
      onSubscribe: async (ctx, _id, params) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
        });
        const args = {
          schema,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        if (errors.length) return errors;
        return args;
      },
    },
    wss,
  );
  return { wss, server };
}

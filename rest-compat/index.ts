// Registers the contract's REST routes on Fastify. Each request is executed as
// its GraphQL operation in process, through Yoga's envelope (src/http/execute.ts:
// the one execution path, with the same plugins, context factory and error
// masking as GraphQL over HTTP and WebSocket), never as an HTTP call to ourselves.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import {
  GraphQLError,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { AppError, forbidden } from '../src/errors.js';
import { schemeOf, type Scheme } from '../src/auth/principal.js';
import { openOperation, requestHeaders, type AnyYoga } from '../src/http/execute.js';
import { compileDocument } from '../src/http/compiled-documents.js';
import { mapGraphQLError } from './envelope.js';
import { sendEnvelope, sendRoot } from '../src/http/envelope.js';
import type { RestRequest, RestRoute } from './route.js';
import { routes as projectRoutes } from './routes/projects.js';
import { routes as jobRoutes } from './routes/jobs.js';
import { routes as hostingRoutes } from './routes/hosting.js';
import { routes as transferRoutes } from './routes/transfer.js';
import { routes as languageRoutes } from './routes/languages.js';
import { routes as customerRoutes } from './routes/customers.js';
import { routes as translationKeyRoutes } from './routes/translation-keys.js';
import { routes as translationRoutes } from './routes/translations.js';
import { routes as cliRoutes } from './routes/cli.js';
import { routes as memberRoutes } from './routes/members.js';
import { routes as activityRoutes } from './routes/activity.js';
import { routes as webhookRoutes } from './routes/webhooks.js';
import { routes as memoryRoutes } from './routes/translation-memory.js';
import { routes as screenshotRoutes } from './routes/screenshots.js';
import { routes as glossaryRoutes } from './routes/glossary.js';
import { routes as qualityRoutes } from './routes/quality.js';
import { readUpload } from './upload.js';
import { checkVariables, DEFAULT_NAMING } from './variables.js';

export const ALL_ROUTES: RestRoute[] = [
  ...projectRoutes,
  ...jobRoutes,
  ...hostingRoutes,
  ...transferRoutes,
  ...languageRoutes,
  ...customerRoutes,
  ...translationKeyRoutes,
  ...translationRoutes,
  ...cliRoutes,
  ...memberRoutes,
  ...activityRoutes,
  ...webhookRoutes,
  ...memoryRoutes,
  ...screenshotRoutes,
  ...glossaryRoutes,
  ...qualityRoutes,
];

const SCHEME_NAMES: Record<Scheme, string> = {
  apiKey: 'a project API key in the X-Service-Token (or X-SimpleLocalize-Token) header',
  basic: 'basic credentials (Authorization: Basic base64(login:password))',
  personalToken: 'a personal token in the Authorization header',
  inContext: 'an in-context token (GraphQL only)',
  session: 'a web console session',
};

interface CompiledRoute {
  route: RestRoute;
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

// Per schema and list of routes: a process that builds several services on one schema (a test worker runs one
// per file) parses and validates the routes' documents once.
const compiledRoutes = new WeakMap<GraphQLSchema, WeakMap<RestRoute[], CompiledRoute[]>>();

export function compileRoutes(schema: GraphQLSchema, routes: RestRoute[] = ALL_ROUTES): CompiledRoute[] {
  let ofSchema = compiledRoutes.get(schema);
  if (!ofSchema) compiledRoutes.set(schema, (ofSchema = new WeakMap()));
  let compiled = ofSchema.get(routes);
  if (!compiled) ofSchema.set(routes, (compiled = validateRoutes(schema, routes)));
  return compiled;
}

function validateRoutes(schema: GraphQLSchema, routes: RestRoute[]): CompiledRoute[] {
  return routes.map((route) => {
    const document = parse(route.document);
    const errors = validate(schema, document);
    if (errors.length)
      throw new Error(`REST route ${route.method} ${route.path}: ${errors.map((e) => e.message).join('; ')}`);
    const operation = document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    )!;
    // Executed compiled (src/http/compiled-documents.ts) when graphql-jit can compile it.
    compileDocument(document);
    return { route, document, operation };
  });
}

export interface RestOptions {
  /** Largest file a multipart route accepts (MAX_UPLOAD_BYTES). */
  maxUploadBytes: number;
  /** Where uploads are streamed to while a request runs (the OS temp folder by default). */
  uploadDir?: string;
  /** Non-file fields of an upload (MAX_MULTIPART_FIELDS). */
  maxFields?: number;
}

export async function registerRestRoutes(
  app: FastifyInstance,
  yoga: AnyYoga,
  schema: GraphQLSchema,
  routes: RestRoute[] = ALL_ROUTES,
  options: RestOptions = { maxUploadBytes: 50 * 1024 * 1024 },
): Promise<void> {
  const declare = (scope: FastifyInstance, route: CompiledRoute) =>
    scope.route({
      method: route.route.method,
      url: route.route.path,
      schema: { summary: route.route.summary, deprecated: route.route.deprecated, hide: false } as object,
      handler: (request, reply) => handle(route, yoga, schema, request, reply, options),
    });
  const compiled = compileRoutes(schema, routes);
  for (const c of compiled.filter((c) => !c.route.multipart)) declare(app, c);
  // Upload routes get the multipart parser in a scope of their own.
  const uploads = compiled.filter((c) => c.route.multipart);
  if (uploads.length) {
    await app.register(async (scope) => {
      await scope.register(multipart, { limits: { fileSize: options.maxUploadBytes, files: 1 } });
      for (const c of uploads) declare(scope, c);
    });
  }
}

async function handle(
  { route, document, operation: definition }: CompiledRoute,
  yoga: AnyYoga,
  schema: GraphQLSchema,
  request: FastifyRequest,
  reply: FastifyReply,
  options: RestOptions,
) {
  const headers = requestHeaders(request.headers);
  try {
    // The scheme is checked before anything else: a valid credential of the
    // wrong kind is refused like a missing one.
    if (schemeOf(headers) !== route.auth) throw forbidden(`This endpoint needs ${SCHEME_NAMES[route.auth]}`);
    const restRequest: RestRequest = {
      params: (request.params ?? {}) as Record<string, string>,
      query: (request.query ?? {}) as RestRequest['query'],
      body: request.body,
      raw: request,
    };
    const operation = await openOperation(yoga, headers, { method: request.method, url: request.url, restRequest });
    if (operation instanceof GraphQLError) throw operation;
    // A wrong credential is refused before the input is read, like a missing one.
    const principal = operation.context.principal;
    if (principal.kind === 'invalid') throw forbidden(principal.reason ?? 'Invalid credentials');
    if (route.multipart)
      restRequest.file = await readUpload(request, options.maxUploadBytes, options.uploadDir, options.maxFields);
    let result: ExecutionResult;
    try {
      const variables = await route.toVariables(restRequest, schema);
      checkVariables(schema, definition, variables, route.naming ?? DEFAULT_NAMING);
      result = await operation.execute({ document, variables });
    } finally {
      await restRequest.file?.remove();
    }
    if (result.errors?.length) {
      const mapped = mapGraphQLError(result.errors[0]!);
      // A 503 (lost database connection) was logged with its cause where it was mapped (src/http/database-unavailable.ts).
      if (mapped.status >= 500 && mapped.status !== 503)
        request.log.error({ errors: result.errors }, 'REST operation failed');
      return sendEnvelope(reply, mapped.status, mapped.msg, undefined, mapped.headers);
    }
    const { data, headers: extra, root } = route.toResponse(result.data as never, restRequest);
    if (root) return sendRoot(reply, root, extra);
    return sendEnvelope(reply, 200, 'OK', data, extra);
  } catch (error) {
    // An AppError; or what the error masking made of a failure while the context was built (openOperation): the
    // credential's lookup on a lost database is SERVICE_UNAVAILABLE (503 with Retry-After), as in GraphQL.
    const mapped = error instanceof GraphQLError ? mapGraphQLError(error) : undefined;
    if (mapped && (error instanceof AppError || mapped.status === 503))
      return sendEnvelope(reply, mapped.status, mapped.msg, undefined, mapped.headers);
    request.log.error({ err: error }, 'REST handler failed');
    return sendEnvelope(reply, 500, 'Internal server error');
  }
}

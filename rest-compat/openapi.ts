// The OpenAPI 3.1 description of the REST contract, generated from the route
// declarations (rest-compat/routes/*.ts) and the GraphQL schema they run on:
// the `data` of a response is the operation's one root field as its document
// selects it (unless the route declares how toResponse reshapes it), bodies
// built from GraphQL input types refer to them, and enum parameters list the
// GraphQL enum's values. Served at /openapi.json (src/http/docs.ts);
// test/api/openapi.test.ts validates it and checks the running service
// against it.
import { CUSTOMER_ID_NAMING } from './variables.js';
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  Kind,
  parse,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  OperationTypeNode,
} from 'graphql';
import type { Scheme } from '../src/auth/principal.js';
import type { JsonSchema, QueryParameter, RestRoute } from './route.js';
import { INPUT_FIELD_LIMITS, PATH_PARAMETERS } from './openapi-limits.js';

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, JsonSchema>; [part: string]: unknown };
};

/** Error statuses every operation declares (the contract's list), with the envelope {msg, status}. */
const ERROR_STATUSES: Record<number, string> = {
  400: 'Bad input: a missing or malformed parameter or body field, an unknown format or value',
  402: 'The plan of the account does not allow this (publishing, more customers or projects)',
  403: 'Missing, wrong or wrong kind of credentials',
  404: 'The addressed resource does not exist',
  409: 'Conflicts with the current state (an existing key, a publication already running)',
  429: 'Too many requests: wait the number of seconds given in Retry-After',
  500: 'Internal server error',
};

const SECURITY: Record<Scheme, Record<string, string[]>[]> = {
  // The vendor's own clients send the API key as X-SimpleLocalize-Token: the same scheme.
  apiKey: [{ apiKey: [] }, { apiKeyVendorHeader: [] }],
  basic: [{ basic: [] }],
  personalToken: [{ personalToken: [] }],
  // The console's cookie session is for GraphQL only; no REST route takes it.
  session: [],
  // In-context tokens (the i18next plugin's) are for GraphQL only too.
  inContext: [],
};

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  JSON: {},
};

/** `schema` or null. */
function nullable(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (type === undefined) return schema.anyOf || schema.$ref ? { anyOf: [schema, { type: 'null' }] } : schema;
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('null')) return schema;
  const out: JsonSchema = { ...schema, type: [...types, 'null'] };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A field's schema with the domain's limits added (lists: to the list and its items). */
function withLimits(schema: JsonSchema, limits: JsonSchema | undefined): JsonSchema {
  if (!limits) return schema;
  const { items, ...own } = limits;
  const out: JsonSchema = { ...schema, ...own };
  if (items) out.items = { ...(schema.items as JsonSchema), ...(items as JsonSchema) };
  return out;
}

class Generator {
  readonly components: Record<string, JsonSchema> = {};

  constructor(private readonly schema: GraphQLSchema) {}

  /** A GraphQL enum as a component (its values as declared). */
  enumRef(type: GraphQLEnumType): JsonSchema {
    if (!this.components[type.name]) {
      this.components[type.name] = {
        type: 'string',
        enum: type.getValues().map((v) => v.name),
        ...(type.description && { description: type.description }),
      };
    }
    return ref(type.name);
  }

  /** A GraphQL input object as a component: the JSON body fields it accepts. */
  inputRef(type: GraphQLInputObjectType): JsonSchema {
    if (!this.components[type.name]) {
      this.components[type.name] = {}; // placeholder: input types may refer to themselves
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const field of Object.values(type.getFields())) {
        const schema = withLimits(this.inputType(field.type), INPUT_FIELD_LIMITS[type.name]?.[field.name]);
        // REST bodies spell some fields the contract's way (customerKey is customerId there).
        const name = CUSTOMER_ID_NAMING.renamed?.[field.name] ?? field.name;
        properties[name] = field.description ? { ...schema, description: field.description } : schema;
        if (field.type instanceof GraphQLNonNull && field.defaultValue === undefined) required.push(name);
      }
      this.components[type.name] = {
        type: 'object',
        properties,
        ...(required.length && { required }),
        ...(type.description && { description: type.description }),
      };
    }
    return ref(type.name);
  }

  inputType(type: GraphQLInputType): JsonSchema {
    if (type instanceof GraphQLNonNull) return this.inputTypeInner(type.ofType);
    return nullable(this.inputTypeInner(type));
  }

  private inputTypeInner(type: GraphQLInputType): JsonSchema {
    if (type instanceof GraphQLList) return { type: 'array', items: this.inputType(type.ofType) };
    if (type instanceof GraphQLEnumType) return this.enumRef(type);
    if (type instanceof GraphQLInputObjectType) return this.inputRef(type);
    if (type instanceof GraphQLScalarType) return { ...(SCALARS[type.name] ?? {}) };
    throw new Error(`Unexpected input type ${String(type)}`);
  }

  /** The JSON a GraphQL selection produces: every selected field is present (null where nullable). */
  output(
    type: GraphQLOutputType,
    selection: SelectionSetNode | undefined,
    fragments: Map<string, FragmentDefinitionNode>,
  ): JsonSchema {
    if (type instanceof GraphQLNonNull) return this.outputInner(type.ofType, selection, fragments);
    return nullable(this.outputInner(type, selection, fragments));
  }

  private outputInner(
    type: GraphQLOutputType,
    selection: SelectionSetNode | undefined,
    fragments: Map<string, FragmentDefinitionNode>,
  ): JsonSchema {
    if (type instanceof GraphQLList) return { type: 'array', items: this.output(type.ofType, selection, fragments) };
    if (type instanceof GraphQLEnumType) return { type: 'string', enum: type.getValues().map((v) => v.name) };
    if (type instanceof GraphQLScalarType) return { ...(SCALARS[type.name] ?? {}) };
    if (!(type instanceof GraphQLObjectType) || !selection)
      throw new Error(`Unsupported output type ${String(type)} in a REST document`);
    const properties: Record<string, JsonSchema> = {};
    const collect = (set: SelectionSetNode) => {
      for (const node of set.selections) {
        if (node.kind === Kind.FIELD) {
          const field = type.getFields()[node.name.value];
          if (!field) throw new Error(`${type.name} has no field ${node.name.value}`);
          const schema = this.output(field.type, node.selectionSet, fragments);
          properties[node.alias?.value ?? node.name.value] = field.description
            ? { ...schema, description: field.description }
            : schema;
        } else if (node.kind === Kind.FRAGMENT_SPREAD) {
          collect(fragments.get(node.name.value)!.selectionSet);
        } else {
          collect(node.selectionSet);
        }
      }
    };
    collect(selection);
    return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
  }

  /** The operation's one root field, as the route's document selects it. */
  selectedData(route: RestRoute): JsonSchema {
    const document = parse(route.document);
    const operation = document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    )!;
    const fragments = new Map(
      document.definitions
        .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d]),
    );
    const root =
      operation.operation === OperationTypeNode.MUTATION ? this.schema.getMutationType()! : this.schema.getQueryType()!;
    const fieldNode = operation.selectionSet.selections[0];
    if (operation.selectionSet.selections.length !== 1 || fieldNode?.kind !== Kind.FIELD)
      throw new Error(`${route.method} ${route.path}: the document must select one root field`);
    const field = root.getFields()[fieldNode.name.value]!;
    return this.output(field.type, fieldNode.selectionSet, fragments);
  }

  parameter(param: QueryParameter): Record<string, unknown> {
    let schema: JsonSchema;
    let description = param.description ?? '';
    if (param.enum) {
      const type = this.schema.getType(param.enum);
      if (!(type instanceof GraphQLEnumType)) throw new Error(`${param.name}: ${param.enum} is not a GraphQL enum`);
      const values = type.getValues().map((v) => (param.lowerCase ? v.name.toLowerCase() : v.name));
      schema = { type: 'string', enum: values };
      description = `${description}${description ? ' ' : ''}Any letter case is accepted.`;
    } else if (param.type === 'integer') {
      schema = {
        type: 'integer',
        format: 'int32',
        ...(param.minimum !== undefined && { minimum: param.minimum }),
        ...(param.maximum !== undefined && { maximum: param.maximum }),
      };
    } else {
      schema = { type: 'string', ...(param.maxLength !== undefined && { maxLength: param.maxLength }) };
    }
    if (param.default !== undefined) schema.default = param.default;
    if (param.list) {
      schema = { type: 'array', items: schema };
      description = `${description}${description ? ' ' : ''}Repeat the parameter or join the values with commas.`;
    }
    return {
      name: param.name,
      in: 'query',
      required: param.required ?? false,
      ...(description && { description }),
      schema,
      ...(param.list && { style: 'form', explode: true }),
    };
  }

  /** Fills in the components a declared body refers to by GraphQL type name. */
  resolveRefs(schema: unknown): void {
    if (Array.isArray(schema)) return schema.forEach((s) => this.resolveRefs(s));
    if (typeof schema !== 'object' || schema === null) return;
    const target = (schema as JsonSchema).$ref;
    if (typeof target === 'string' && target.startsWith('#/components/schemas/')) {
      const name = target.slice('#/components/schemas/'.length);
      const type = this.schema.getType(name);
      if (type instanceof GraphQLInputObjectType) this.inputRef(type);
      else if (type instanceof GraphQLEnumType) this.enumRef(type);
      else if (!this.components[name])
        throw new Error(`A route body refers to ${name}, which is no GraphQL input or enum type`);
    }
    for (const value of Object.values(schema)) this.resolveRefs(value);
  }
}

const envelope = (extra: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  properties: { msg: { type: 'string', const: 'OK' }, status: { type: 'integer', const: 200 }, ...extra },
  required: ['msg', 'status', ...required],
  additionalProperties: false,
});

function operationId(route: RestRoute): string {
  const words = [route.method.toLowerCase(), ...route.path.split(/[/\-:]+/).filter(Boolean)];
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}

function tagOf(route: RestRoute): string {
  if (route.path.startsWith('/cli/')) return 'command-line client';
  const resource = route.path.split('/')[3] ?? '';
  return resource === 'project' ? 'projects' : resource;
}

export interface OpenApiOptions {
  serverUrl: string;
  version: string;
}

export function buildOpenApi(schema: GraphQLSchema, routes: RestRoute[], options: OpenApiOptions): OpenApiDocument {
  const generator = new Generator(schema);
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const selected = generator.selectedData(route);
    let success: JsonSchema;
    const response = route.response;
    if (response && 'root' in response) success = envelope(response.root, Object.keys(response.root));
    else if (response && response.data === null) success = envelope({}, []);
    else if (response && typeof response.data === 'function')
      success = envelope({ data: response.data(selected) }, ['data']);
    else if (response && response.data) success = envelope({ data: response.data as JsonSchema }, ['data']);
    else success = envelope({ data: selected }, ['data']);
    generator.resolveRefs(success);
    if (route.body) generator.resolveRefs(route.body);

    const responses: Record<string, unknown> = {
      200: { description: 'OK', content: { 'application/json': { schema: success } } },
    };
    for (const status of [...Object.keys(ERROR_STATUSES).map(Number), ...(route.multipart ? [413] : [])].sort()) {
      responses[status] = { $ref: `#/components/responses/Error${status}` };
    }
    const operation: Record<string, unknown> = {
      operationId: operationId(route),
      summary: route.summary,
      ...(route.description && { description: route.description }),
      tags: [tagOf(route)],
      ...(route.deprecated && { deprecated: true }),
      security: SECURITY[route.auth],
      parameters: [
        ...pathParams.map((name) => {
          const { description, ...schema } = PATH_PARAMETERS[name] ?? { type: 'string' };
          return { name, in: 'path', required: true, ...(description !== undefined && { description }), schema };
        }),
        ...(route.query ?? []).map((p) => generator.parameter(p)),
      ],
      responses,
    };
    if (route.multipart) {
      operation.requestBody = {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                file: {
                  type: 'string',
                  contentMediaType: 'application/octet-stream',
                  description: 'The translation file',
                },
              },
              required: ['file'],
            },
          },
        },
      };
    } else if (route.body) {
      operation.requestBody = {
        required: route.bodyRequired ?? true,
        content: { 'application/json': { schema: route.body } },
      };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }

  const errorResponses: Record<string, unknown> = {};
  for (const [status, description] of Object.entries({
    ...ERROR_STATUSES,
    413: 'The uploaded file is larger than MAX_UPLOAD_BYTES',
  })) {
    errorResponses[`Error${status}`] = {
      description,
      ...(status === '429' && {
        headers: {
          'Retry-After': { description: 'Seconds to wait before the next request', schema: { type: 'integer' } },
        },
      }),
      content: {
        'application/json': { schema: { allOf: [ref('Error')], properties: { status: { const: Number(status) } } } },
      },
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Localization service REST API',
      version: options.version,
      description:
        'The REST interface of the localization service. Every JSON answer is an envelope {msg, status, data?}; errors carry msg and status. The same operations are available over GraphQL at /graphql.',
    },
    servers: [{ url: options.serverUrl }],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          description: 'The error envelope: status repeats the HTTP status, msg says what went wrong',
          properties: { msg: { type: 'string' }, status: { type: 'integer' } },
          required: ['msg', 'status'],
          additionalProperties: false,
        },
        ...generator.components,
      },
      responses: errorResponses,
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Service-Token',
          description: 'The project API key (project-level endpoints)',
        },
        apiKeyVendorHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-SimpleLocalize-Token',
          description:
            "The project API key under the vendor's header name, as its own clients send it; the same scheme as X-Service-Token",
        },
        personalToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'A personal token, the whole header value (no prefix)',
        },
        basic: { type: 'http', scheme: 'basic', description: 'The account e-mail and password' },
      },
    },
  };
}

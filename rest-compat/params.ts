// Reading query and body values for GraphQL variables, with 400 messages that
// name the parameter. Enumerations are checked against the GraphQL schema, so
// REST and GraphQL accept the same values.
import { GraphQLEnumType, type GraphQLSchema } from 'graphql';
import { badRequest } from '../src/errors.js';
import { formatOf } from '../src/transfer/options.js';

type Query = Record<string, string | string[] | undefined>;

export function queryString(query: Query, name: string, options: { maxLength?: number } = {}): string | undefined {
  const raw = query[name];
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (value !== undefined && options.maxLength !== undefined && value.length > options.maxLength) {
    throw badRequest(`${name} must have at most ${options.maxLength} characters`);
  }
  return value;
}

/** A repeatable parameter: `a=X&a=Y` or `a=X,Y`. */
export function queryList(query: Query, name: string): string[] {
  const raw = query[name];
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export function queryInt(
  query: Query,
  name: string,
  options: { min?: number; max?: number; fallback?: number } = {},
): number | undefined {
  const value = queryString(query, name);
  if (value === undefined || value === '') return options.fallback;
  if (!/^-?\d+$/.test(value)) throw badRequest(`${name} must be an integer, got '${value}'`);
  const n = Number(value);
  if (options.min !== undefined && n < options.min) throw badRequest(`${name} must be at least ${options.min}`);
  if (options.max !== undefined && n > options.max) throw badRequest(`${name} must be at most ${options.max}`);
  return n;
}

export function queryBoolean(query: Query, name: string): boolean | undefined {
  const value = queryString(query, name);
  if (value === undefined || value === '') return undefined;
  if (value !== 'true' && value !== 'false') throw badRequest(`${name} must be true or false, got '${value}'`);
  return value === 'true';
}

/** Maps a REST value (any letter case) to the GraphQL enum value of the same name. */
export function enumValue(
  schema: GraphQLSchema,
  typeName: string,
  param: string,
  value: string | undefined,
): string | undefined {
  if (value === undefined || value === '') return undefined;
  const type = schema.getType(typeName);
  if (!(type instanceof GraphQLEnumType)) throw new Error(`${typeName} is not an enum`);
  const names = type.getValues().map((v) => v.name);
  const name = names.find((n) => n === value.toUpperCase());
  if (!name)
    throw badRequest(`${param} must be one of ${names.map((n) => n.toLowerCase()).join(', ')}; got '${value}'`);
  return name;
}

export function enumList(schema: GraphQLSchema, typeName: string, param: string, values: string[]): string[] {
  return values.map((v) => enumValue(schema, typeName, param, v)!);
}

/**
 * A body's enum value in any letter case, as the enum's name. Anything but a
 * string goes on as it is, for the operation's variable check to refuse in
 * words (variables.ts).
 */
export function bodyEnum(schema: GraphQLSchema, typeName: string, param: string, value: unknown): unknown {
  return typeof value === 'string' ? enumValue(schema, typeName, param, value) : value;
}

/** A body's array of enum values, each as bodyEnum reads it; anything but an array goes on as it is. */
export function bodyEnumList(schema: GraphQLSchema, typeName: string, param: string, value: unknown): unknown {
  return Array.isArray(value) ? value.map((v, i) => bodyEnum(schema, typeName, `${param}[${i}]`, v)) : value;
}

/** The JSON body as an object, or a 400. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('The request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** The named fields of a JSON body object that are present, for a GraphQL input (unknown fields are ignored). */
export function bodyFields(body: unknown, fields: readonly string[]): Record<string, unknown> {
  const object = bodyObject(body);
  return Object.fromEntries(fields.filter((f) => object[f] !== undefined).map((f) => [f, object[f]]));
}

/** A body array of objects (e.g. `content`), each reduced to the named fields; 400 naming the position otherwise. */
export function bodyList(value: unknown, name: string, fields: readonly string[]): Record<string, unknown>[] {
  if (!Array.isArray(value)) throw badRequest(`${name} must be an array of objects`);
  return value.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw badRequest(`${name}[${i}] must be an object`);
    return bodyFields(item, fields);
  });
}

/**
 * The query of a URL as a client that joins it by hand sends it (the official
 * command-line client: values not URL-encoded): `+` is a plus, not a space;
 * valid percent escapes are decoded, anything else is taken as it is. A
 * repeated name keeps every value (queryString takes the last).
 */
export function rawQuery(url: string): Query {
  const out: Record<string, string | string[]> = {};
  const start = url.indexOf('?');
  if (start < 0) return out;
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  for (const pair of url.slice(start + 1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const previous = out[name];
    out[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return out;
}

/** A required query value (trimmed); 400 `<name> is required` when absent or blank. */
export function requiredQuery(query: Query, name: string): string {
  const value = queryString(query, name)?.trim();
  if (!value) throw badRequest(`${name} is required`);
  return value;
}

/** An optional query value (trimmed): absent and blank are the same. */
export const optionalQuery = (query: Query, name: string) => queryString(query, name)?.trim() || undefined;

/**
 * A format identifier of the contract (`single-language-json`) as the
 * FormatId enum value of the schema (SINGLE_LANGUAGE_JSON); an unknown one
 * gets the engine's own 400 listing the formats.
 */
export function formatParam(schema: GraphQLSchema, param: 'uploadFormat' | 'downloadFormat', id: string): string {
  const { format } = formatOf(id, param);
  const type = schema.getType('FormatId') as GraphQLEnumType;
  return type.getValues().find((v) => v.value === format.id)!.name;
}

// Small helpers for the response shapes routes declare when toResponse
// reshapes the operation's result (RestRoute.response, rest-compat/openapi.ts).
import type { JsonSchema } from './route.js';

/** An object schema whose named properties may be left out. */
export function optionalFields(schema: JsonSchema, names: readonly string[]): JsonSchema {
  return { ...schema, required: (schema.required as string[]).filter((n) => !names.includes(n)) };
}

/**
 * An object schema whose nullable properties are left out instead when they
 * are null (the contract's "optional" fields).
 */
export function nullsLeftOut(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema>;
  const nullable = Object.keys(properties).filter(
    (n) => Array.isArray(properties[n]!.type) && (properties[n]!.type as string[]).includes('null'),
  );
  const strict = Object.fromEntries(
    Object.entries(properties).map(([n, p]) => [
      n,
      nullable.includes(n) ? { ...p, type: (p.type as string[]).filter((t) => t !== 'null') } : p,
    ]),
  );
  return { ...optionalFields(schema, nullable), properties: strict };
}

/** The items of an array schema. */
export const itemsOf = (schema: JsonSchema): JsonSchema => schema.items as JsonSchema;

/** The named property of an object schema. */
export const propertyOf = (schema: JsonSchema, name: string): JsonSchema =>
  (schema.properties as Record<string, JsonSchema>)[name]!;

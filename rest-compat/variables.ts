// The REST contract's type errors, from the GraphQL operation's own variable
// types: a REST client that sends `"text": 5` or leaves out a required field
// gets "text must be a string" / "key is required" in the envelope, named the
// way it wrote the request, instead of a GraphQL coercion message. The schema
// stays strict; only the wording of its refusals is REST's.
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  coerceInputValue,
  getNamedType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { badRequest } from '../src/errors.js';

export interface VariableNaming {
  /** Variables whose input object is the request body: its fields are named on their own (`key`, not `input.key`). */
  bodyVariables?: readonly string[];
  /** GraphQL field or variable names that REST spells differently (`customerKey` → `customerId`). */
  renamed?: Readonly<Record<string, string>>;
}

/** How REST routes name their variables by default: `$input` is the body object. */
export const DEFAULT_NAMING: VariableNaming = { bodyVariables: ['input'] };

/** The contract names a customer's key `customerId`; the schema, customerKey. */
export const CUSTOMER_ID_NAMING: VariableNaming = { bodyVariables: ['input'], renamed: { customerKey: 'customerId' } };

const SCALAR_WORDS: Record<string, string> = {
  String: 'a string',
  ID: 'a string',
  Int: 'an integer',
  Float: 'a number',
  Boolean: 'a boolean',
};

/** Throws a 400 naming the first variable value that does not fit its declared type. */
export function checkVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  naming: VariableNaming = DEFAULT_NAMING,
): void {
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    if (!type) continue;
    const value = variables[name];
    if (value === undefined && !(type instanceof GraphQLNonNull)) continue;
    const root = naming.bodyVariables?.includes(name) ? [] : [naming.renamed?.[name] ?? name];
    coerceInputValue(value, type, (path, invalid, error) => {
      // A missing field of an object is reported at the object, with the field's name in the message.
      const missing = /^Field "(\w+)" of required type ".*" was not provided\.$/.exec(error.message)?.[1];
      const at = missing ? [...path, missing] : path;
      const named = [...root, ...at.map((p) => (typeof p === 'string' ? (naming.renamed?.[p] ?? p) : p))];
      throw badRequest(describe(named, missing ? undefined : invalid, error.message, typeAt(type, at)));
    });
  }
}

/** The declared type at a path inside a variable's value. */
function typeAt(type: GraphQLInputType, path: readonly (string | number)[]): GraphQLInputType | undefined {
  let current: GraphQLInputType | undefined = type;
  for (const segment of path) {
    if (current instanceof GraphQLNonNull) current = current.ofType;
    if (typeof segment === 'number' && current instanceof GraphQLList) current = current.ofType;
    else if (typeof segment === 'string' && current instanceof GraphQLInputObjectType)
      current = current.getFields()[segment]?.type;
    else return undefined;
  }
  return current;
}

function describe(
  path: readonly (string | number)[],
  invalid: unknown,
  graphqlMessage: string,
  type: GraphQLInputType | undefined,
): string {
  const where =
    path.reduce<string>((text, p) => (typeof p === 'number' ? `${text}[${p}]` : text ? `${text}.${p}` : p), '') ||
    'The request body';
  if (invalid === undefined || invalid === null) return `${where} is required`;
  const nullable = type instanceof GraphQLNonNull ? type.ofType : type;
  if (nullable instanceof GraphQLList) return `${where} must be an array`;
  if (nullable instanceof GraphQLInputObjectType) return `${where} must be an object`;
  const named = type && getNamedType(type);
  if (named instanceof GraphQLEnumType) {
    const names = named.getValues().map((v) => v.name);
    return `${where} must be one of ${names.join(', ')}; got '${typeof invalid === 'string' ? invalid : JSON.stringify(invalid)}'`;
  }
  if (named instanceof GraphQLScalarType && SCALAR_WORDS[named.name])
    return `${where} must be ${SCALAR_WORDS[named.name]}`;
  return `${where}: ${graphqlMessage}`;
}

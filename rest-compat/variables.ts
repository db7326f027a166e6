// The REST contract's type errors, from the GraphQL operation's own variable
// types: a REST client that sends `"text": 5` or leaves out a required field
// gets "text must be a string" / "key is required" in the envelope, named the
// way it wrote the request, instead of a GraphQL coercion message. The schema
// stays strict; only the wording of its refusals is REST's (the words are the
// GraphQL path's too: src/http/variable-errors.ts). One rule is REST's own:
// where the schema has a list, the JSON body must have an array (GraphQL takes
// a single value as a list of one; a REST client that sends
// `"options": "AUTO_PUBLISH"` has misread the contract).
import {
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  isLeafType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { badRequest } from '../src/errors.js';
import { coercionProblems, pathText } from '../src/http/variable-errors.js';

export interface VariableNaming {
  /** Variables whose input object is the request body: its fields are named on their own (`key`, not `input.key`). */
  bodyVariables?: readonly string[];
  /** GraphQL field or variable names that REST spells differently (`customerKey` → `customerId`). */
  renamed?: Readonly<Record<string, string>>;
  /** List fields whose one item is made of the body's own fields (v1's one target): named without the list. */
  inlined?: readonly string[];
}

/** How REST routes name their variables by default: `$input` is the body object. */
export const DEFAULT_NAMING: VariableNaming = { bodyVariables: ['input'] };

/** The contract names a customer's key `customerId`; the schema, customerKey. */
export const CUSTOMER_ID_NAMING: VariableNaming = { bodyVariables: ['input'], renamed: { customerKey: 'customerId' } };

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
    const where = (path: readonly (string | number)[]) =>
      pathText([...root, ...restPath(path, naming)]) || 'The request body';
    const single: (string | number)[] = [];
    if (notAnArray(value, type, single)) throw badRequest(`${where(single)} must be an array`);
    const first = coercionProblems(type, value, 1)[0];
    if (first)
      throw badRequest(
        `${where(first.path)} ${first.problem}${first.notInEnum === undefined ? '' : `; got '${first.notInEnum}'`}`,
      );
  }
}

/** A path inside a variable as the REST request spells it. */
function restPath(path: readonly (string | number)[], naming: VariableNaming): (string | number)[] {
  const out: (string | number)[] = [];
  for (let i = 0; i < path.length; i++) {
    const p = path[i]!;
    if (typeof p === 'string' && naming.inlined?.includes(p) && path[i + 1] === 0) i++;
    else out.push(typeof p === 'string' ? (naming.renamed?.[p] ?? p) : p);
  }
  return out;
}

/** Whether a list is given something other than an array; `path` then holds where (it is a stack meanwhile). */
function notAnArray(value: unknown, type: GraphQLInputType, path: (string | number)[]): boolean {
  if (value === undefined || value === null) return false;
  const nullable = type instanceof GraphQLNonNull ? type.ofType : type;
  if (nullable instanceof GraphQLList) {
    if (!Array.isArray(value)) return true;
    // Items of a leaf type hold no list: the common bulk case (a list of texts) is not walked.
    const item = nullable.ofType instanceof GraphQLNonNull ? nullable.ofType.ofType : nullable.ofType;
    if (isLeafType(item)) return false;
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      if (notAnArray(value[i], nullable.ofType, path)) return true;
      path.pop();
    }
  } else if (nullable instanceof GraphQLInputObjectType && typeof value === 'object' && !Array.isArray(value)) {
    for (const [name, field] of Object.entries(nullable.getFields())) {
      path.push(name);
      if (notAnArray((value as Record<string, unknown>)[name], field.type, path)) return true;
      path.pop();
    }
  }
  return false;
}

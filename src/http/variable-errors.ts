// A variable that does not fit its declared type is refused saying where and
// what was expected, never quoting the value. graphql-js quotes it (`got
// invalid value { "X-Org": "sk-…" }`), and a value sent in the wrong shape may
// be a secret: an LLM provider's header in the JSON object the API once took,
// an API key sent as a number. The REST routes word their 400s with the same
// function (rest-compat/variables.ts). Inline literals are the document's own
// text and keep graphql-js's validation messages.
import {
  GraphQLEnumType,
  GraphQLError,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  Kind,
  coerceInputValue,
  getNamedType,
  typeFromAST,
  type ExecutionResult,
  type GraphQLInputType,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

export interface CoercionProblem {
  /** Inside the value; for a missing or unknown field, ending with the field's name. */
  path: (string | number)[];
  /** What is wrong, quoting nothing the client sent: `is required`, `must be a string`, `is not a field`. */
  problem: string;
  /** The text sent where an enum value belongs (REST quotes it: an enum value is no secret). */
  notInEnum?: string;
}

const SCALAR_WORDS: Record<string, string> = {
  String: 'a string',
  ID: 'a string',
  Int: 'an integer',
  Float: 'a number',
  Boolean: 'a boolean',
};

// Thrown to stop coerceInputValue at the limit. Made once: an Error records its stack when made, and
// every REST request's variables are checked (1 % of a one-cell write's CPU when made per call).
const ENOUGH = new Error('enough problems');

/** The places where `value` does not fit `type` (at most `limit`), in graphql-js's order. */
export function coercionProblems(type: GraphQLInputType, value: unknown, limit = Infinity): CoercionProblem[] {
  const problems: CoercionProblem[] = [];
  try {
    coerceInputValue(value, type, (path, invalid, error) => {
      // A missing or unknown field of an object is reported at the object, with the field's name in the message.
      const missing = /^Field "(\w+)" of required type ".*" was not provided\.$/.exec(error.message)?.[1];
      const unknown = /^Field "(.+?)" is not defined by type "\w+"\./.exec(error.message)?.[1];
      if (missing) problems.push({ path: [...path, missing], problem: 'is required' });
      else if (unknown) problems.push({ path: [...path, unknown], problem: 'is not a field' });
      else problems.push({ path: [...path], ...describe(invalid, error.message, typeAt(type, path)) });
      // coerceInputValue goes on after a problem unless its callback throws.
      if (problems.length >= limit) throw ENOUGH;
    });
  } catch (error) {
    if (error !== ENOUGH) throw error;
  }
  return problems;
}

/** A path as text: `targets[0].targetLanguage`; empty for the whole value. */
export function pathText(path: readonly (string | number)[]): string {
  return path.reduce<string>((text, p) => (typeof p === 'number' ? `${text}[${p}]` : text ? `${text}.${p}` : p), '');
}

/** The declared type at a path inside a value. */
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
  invalid: unknown,
  graphqlMessage: string,
  type: GraphQLInputType | undefined,
): Omit<CoercionProblem, 'path'> {
  if (invalid === undefined || invalid === null) return { problem: 'is required' };
  const nullable = type instanceof GraphQLNonNull ? type.ofType : type;
  if (nullable instanceof GraphQLList) return { problem: 'must be an array' };
  if (nullable instanceof GraphQLInputObjectType) return { problem: 'must be an object' };
  const named = type && getNamedType(type);
  if (named instanceof GraphQLEnumType)
    return {
      problem: `must be one of ${named
        .getValues()
        .map((v) => v.name)
        .join(', ')}`,
      notInEnum: typeof invalid === 'string' ? invalid : JSON.stringify(invalid),
    };
  if (named instanceof GraphQLScalarType && SCALAR_WORDS[named.name])
    return { problem: `must be ${SCALAR_WORDS[named.name]}` };
  // The schema's own scalars (DateTime, Upload) word their refusals without the value.
  return { problem: `is not valid: ${graphqlMessage}` };
}

/** As many as graphql-js reports at most (its `maxErrors`). */
const MAX_PROBLEMS = 50;

/** graphql-js's refusal of a variable's value (the one kind of its variable errors that quotes the value). */
function quotesValue(error: GraphQLError): VariableDefinitionNode | undefined {
  const node = error.nodes?.[0];
  if (node?.kind !== Kind.VARIABLE_DEFINITION) return undefined;
  return error.message.startsWith(`Variable "$${node.variable.name.value}" got invalid value `) ? node : undefined;
}

function withoutValues(
  result: ExecutionResult,
  schema: GraphQLSchema,
  variables: Record<string, unknown>,
): ExecutionResult | undefined {
  const errors = result.errors ?? [];
  if (result.data !== undefined || !errors.some(quotesValue)) return undefined;
  const worded = new Set<VariableDefinitionNode>();
  const rewritten: GraphQLError[] = [];
  for (const error of errors) {
    const definition = quotesValue(error);
    if (!definition) {
      rewritten.push(error);
      continue;
    }
    // graphql-js reports each problem of a variable in turn: all of them are worded at its first.
    if (worded.has(definition)) continue;
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType;
    const problems = coercionProblems(type, variables[name], MAX_PROBLEMS).map(
      ({ path, problem }) =>
        new GraphQLError(`Variable "$${name}"${path.length ? ` at "${name}${pathPart(path)}"` : ''} ${problem}`, {
          nodes: definition,
          extensions: error.extensions,
        }),
    );
    // Should its own check find nothing, the variable is still named, its value still not quoted.
    const words = problems.length
      ? problems
      : [new GraphQLError(`Variable "$${name}" got an invalid value`, { nodes: definition })];
    worded.add(definition);
    rewritten.push(...words);
  }
  return { ...result, errors: rewritten };
}

const pathPart = (path: readonly (string | number)[]) => {
  const text = pathText(path);
  return typeof path[0] === 'number' ? text : `.${text}`;
};

/** The variables as sent (envelop types them `any`), read only to word graphql-js's refusal of them. */
const variablesOf = (values: unknown) => (values ?? {}) as Record<string, unknown>;

/** The Yoga plugin: graphql-js's variable errors worded again, for operations and subscriptions alike. */
export function variableErrorsPlugin(): Plugin {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          const worded = withoutValues(result, args.schema as GraphQLSchema, variablesOf(args.variableValues));
          if (worded) setResult(worded);
        },
      };
    },
    onSubscribe({ args }) {
      return {
        onSubscribeResult({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          const worded = withoutValues(result, args.schema as GraphQLSchema, variablesOf(args.variableValues));
          if (worded) setResult(worded);
        },
      };
    },
  };
}

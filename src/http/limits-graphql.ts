// Limits on GraphQL documents, as Yoga/envelop plugins, so that every entry
// point running through Yoga's envelope (execute.ts: HTTP POST and GET,
// multipart uploads, graphql-ws, the REST routes) is held to them:
//   - nesting: brackets ({ [ () nested deeper than MAX_NESTING, found by a
//     scan of the raw text before parsing (graphql's parser is recursive: a
//     deep enough document overflows the stack before any rule could run);
//   - aliases, depth, directives (GraphQL Armor validation rules) and tokens
//     (GraphQL Armor's parser, which stops counting at the limit: a huge
//     document is refused before it is parsed whole);
//   - a cost (graphql-query-complexity, checked before execution with the
//     operation's variables, since page sizes are usually variables).
// Introspection is held to the same depth and cost: the standard
// introspection query passes, a nested one is refused before it runs.
// A refusal is a 400 whose message names the limit and its setting.
import {
  GraphQLError,
  getNullableType,
  isListType,
  visit,
  type ASTNode,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import type { GraphQLLimits } from '../config.js';

/** The environment variable of each limit, named in refusals (docs/security.md). */
export const LIMIT_SETTINGS = {
  aliases: 'GRAPHQL_MAX_ALIASES',
  depth: 'GRAPHQL_MAX_DEPTH',
  tokens: 'GRAPHQL_MAX_TOKENS',
  directives: 'GRAPHQL_MAX_DIRECTIVES',
  cost: 'GRAPHQL_MAX_COST',
} as const;

export type GraphQLLimit = keyof typeof LIMIT_SETTINGS;

/**
 * A refusal: code BAD_REQUEST (REST maps it to 400, rest-compat/envelope.ts)
 * and an HTTP status Yoga honours whatever the Accept header (`spec: false`).
 */
export function limitError(limit: GraphQLLimit, detail: string): GraphQLError {
  return new GraphQLError(`The query exceeds the ${limit} limit: ${detail} (${LIMIT_SETTINGS[limit]})`, {
    extensions: { code: 'BAD_REQUEST', limit, setting: LIMIT_SETTINGS[limit], http: { status: 400, spec: false } },
  });
}

// GraphQL Armor's messages start with "Syntax Error: " whatever the limit.
const detailOf = (error: GraphQLError) => error.message.replace(/^Syntax Error:\s*/, '').replace(/\.$/, '');

/** Armor's validation rules report the limit's own error into the validation result. */
const report = (limit: GraphQLLimit) => ({
  exposeLimits: true,
  propagateOnRejection: false,
  onReject: [
    (context: { reportError(error: GraphQLError): void } | null, error: GraphQLError) =>
      context?.reportError(limitError(limit, detailOf(error))),
  ],
});

/**
 * Brackets a document may nest: far beyond the selection depth allowed
 * (GRAPHQL_MAX_DEPTH, 20 by default) plus the input literals of an argument,
 * far below what the parser's recursion survives on Node's stack (docs/benchmarks.md).
 */
export const MAX_NESTING = 256;

/**
 * Whether a document nests brackets ({ [ ( ) deeper than `max`: one pass over
 * the text, skipping strings, block strings and comments, that stops at the
 * first bracket too deep. Unbalanced text is left to the parser to report.
 */
export function nestsDeeperThan(source: string, max: number): boolean {
  let depth = 0;
  const n = source.length;
  for (let i = 0; i < n; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x7b || c === 0x5b || c === 0x28) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d || c === 0x29) {
      depth--;
    } else if (c === 0x23) {
      // A comment runs to the end of the line.
      while (i < n && source.charCodeAt(i) !== 0x0a && source.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22) {
      if (source.startsWith('"""', i)) {
        // A block string ends at the next unescaped """.
        i += 3;
        while (i < n && !(source.startsWith('"""', i) && source.charCodeAt(i - 1) !== 0x5c)) i++;
        i += 2;
      } else {
        for (i++; i < n && source.charCodeAt(i) !== 0x22 && source.charCodeAt(i) !== 0x0a; i++)
          if (source.charCodeAt(i) === 0x5c) i++;
      }
    }
  }
  return false;
}

/** Page-size arguments: the list they bound holds at most that many items. */
const PAGE_ARGUMENTS = ['first', 'last', 'size'] as const;
/** Assumed when a page-size argument is left out: the largest default page (keys, translations, connections). */
const DEFAULT_PAGE_SIZE = 100;

/**
 * Every field costs 1, times the number of items of each list above it: the
 * page size asked for (`first`, `last`, `size`), or `listSize` for lists
 * without one (languages, projects, introspection's types and fields). A page
 * argument on a wrapper (a connection, a page with metadata) bounds the lists
 * inside it, which were counted at `listSize`: their count is rescaled.
 */
export function costEstimator(listSize: number): ComplexityEstimator {
  return ({ field, args, childComplexity }) => {
    const isList = isListType(getNullableType(field.type));
    const pageArgument = PAGE_ARGUMENTS.find((name) => field.args.some((arg) => arg.name === name));
    if (!pageArgument) return (isList ? listSize : 1) * (1 + childComplexity);
    const asked = PAGE_ARGUMENTS.map((name) => args[name]).find((value) => typeof value === 'number');
    const page = asked === undefined ? DEFAULT_PAGE_SIZE : Math.max(0, asked);
    return isList ? page * (1 + childComplexity) : 1 + Math.ceil((page / listSize) * childComplexity);
  };
}

/** The cost of an operation; Infinity when the document is too large to count. */
export function costOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
  listSize: number,
): number {
  return count(schema, document, variables, operationName, listSize).cost;
}

function count(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
  listSize: number,
): { cost: number; counted: boolean } {
  try {
    return {
      cost: getComplexity({
        schema,
        query: document,
        variables: variables ?? {},
        operationName,
        estimators: [costEstimator(listSize)],
        maxQueryNodes: 100_000,
      }),
      counted: true,
    };
  } catch (error) {
    // Too many nodes to count is a refusal; bad variables are left to execution, which names them.
    if (error instanceof GraphQLError && /maximum query nodes/i.test(error.message))
      return { cost: Infinity, counted: false };
    return { cost: 0, counted: false };
  }
}

/**
 * The variables an operation's cost can change with: only those given to a
 * page-size argument (`first`, `last`, `size`) or a directive (@include,
 * @skip) change what the estimator counts.
 */
function costVariables(document: DocumentNode): string[] {
  const names = new Set<string>();
  const collect = (node: ASTNode) =>
    visit(node, {
      Variable(variable) {
        names.add(variable.name.value);
      },
    });
  visit(document, {
    Field(node) {
      for (const a of node.arguments ?? [])
        if ((PAGE_ARGUMENTS as readonly string[]).includes(a.name.value)) collect(a.value);
    },
    Directive(node) {
      for (const a of node.arguments ?? []) collect(a.value);
    },
  });
  return [...names];
}

/** Costs kept per document: at most this many (page sizes, operation names) each; then counted afresh. */
const KEPT_COSTS = 256;

/**
 * Costs counted once per document and the values of the variables it depends
 * on (costVariables): the REST routes' documents are parsed at boot and Yoga
 * reuses the document of a query it has seen, so the usual request costs a
 * lookup, whatever its page size (a REST page of cells counted its cost on
 * every request: 3 % of its time). Only a count that succeeded is kept (bad
 * variables are not the document's).
 */
const knownCosts = new WeakMap<
  GraphQLSchema,
  WeakMap<DocumentNode, { variables: string[]; costs: Map<string, number> }>
>();

function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
  listSize: number,
): number {
  const ofSchema = knownCosts.get(schema) ?? knownCosts.set(schema, new WeakMap()).get(schema)!;
  let known = ofSchema.get(document);
  if (known === undefined) ofSchema.set(document, (known = { variables: costVariables(document), costs: new Map() }));
  const values = known.variables.length ? JSON.stringify(known.variables.map((name) => variables?.[name] ?? null)) : '';
  const key = `${listSize}\u0000${operationName ?? ''}\u0000${values}`;
  const cached = known.costs.get(key);
  if (cached !== undefined) return cached;
  const { cost, counted } = count(schema, document, variables, operationName, listSize);
  if (counted) {
    if (known.costs.size >= KEPT_COSTS) known.costs.clear();
    known.costs.set(key, cost);
  }
  return cost;
}

interface ExecutionArgsLike {
  schema: GraphQLSchema;
  document: DocumentNode;
  variableValues?: Record<string, unknown> | null;
  operationName?: string | null;
}

function costRefusal(args: ExecutionArgsLike, limits: GraphQLLimits): GraphQLError | undefined {
  const cost = operationCost(
    args.schema,
    args.document,
    args.variableValues ?? undefined,
    args.operationName ?? undefined,
    limits.listSize,
  );
  if (cost <= limits.maxCost) return undefined;
  const found = Number.isFinite(cost) ? `cost ${cost}` : 'too many fields to count';
  return limitError('cost', `${found}, at most ${limits.maxCost}; ask for smaller pages or fewer fields`);
}

/** Yoga plugins enforcing the limits (createYoga's `plugins`). */
export function graphqlLimitPlugins(limits: GraphQLLimits): Plugin[] {
  return [
    {
      // First of the parse hooks: a document too deep is refused before any parser sees it.
      onParse({ params }) {
        const source = typeof params.source === 'string' ? params.source : params.source.body;
        if (nestsDeeperThan(source, MAX_NESTING))
          throw limitError('depth', `brackets nested more than ${MAX_NESTING} deep, refused before parsing`);
      },
    },
    maxTokensPlugin({
      n: limits.maxTokens,
      exposeLimits: true,
      // The parser has no validation context: the refusal is thrown, and parse errors reach the client as they are.
      onReject: [
        (_context: unknown, error: GraphQLError) => {
          throw limitError('tokens', detailOf(error));
        },
      ],
    }) as Plugin,
    maxAliasesPlugin({ n: limits.maxAliases, ...report('aliases') }) as Plugin,
    maxDepthPlugin({
      n: limits.maxDepth,
      ignoreIntrospection: false,
      flattenFragments: true,
      ...report('depth'),
    }) as Plugin,
    maxDirectivesPlugin({ n: limits.maxDirectives, ...report('directives') }) as Plugin,
    {
      // Yoga marks parse errors as spec errors (a 200 for application/json clients) after the
      // parser's hooks have run; a refused document is a 400 for every client.
      onResultProcess({ result }) {
        for (const error of (result as { errors?: readonly GraphQLError[] }).errors ?? []) {
          const extensions = error.extensions as { limit?: string; http?: { spec?: boolean } } | undefined;
          if (extensions?.limit && extensions.http) extensions.http.spec = false;
        }
      },
      onExecute({ args, setResultAndStopExecution }) {
        const refusal = costRefusal(args, limits);
        if (refusal) setResultAndStopExecution({ errors: [refusal] });
      },
      onSubscribe({ args, setResultAndStopExecution }) {
        const refusal = costRefusal(args, limits);
        if (refusal) setResultAndStopExecution({ errors: [refusal] });
      },
    },
  ];
}

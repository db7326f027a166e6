// Compiled execution of GraphQL documents (graphql-jit): a document's
// execution is compiled once into a function instead of being walked by the
// generic executor on every request. The fixed documents behind the REST
// routes are compiled on their first run; a document sent over GraphQL once it
// runs again (Yoga's parser cache hands the same document object for the same
// text, so an app's fixed operations and a dashboard's polls are compiled,
// while a one-off query does not pay for a compilation). The compiled
// function replaces only the executor at the bottom of Yoga's envelope: every
// other plugin's onExecute (change origin, metrics, limits, CSRF, text rule,
// heavy-operation cap, variable errors) still wraps it, so every path keeps
// the one execution path (execute.ts).
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import {
  GraphQLError,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
  type Source,
  type SourceLocation,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { recordGraphQLCompilation } from '../metrics.js';

/** A document sent over GraphQL is compiled on this run of it (the first is executed by the generic executor). */
export const HOT_RUN = 2;

// A REST route's document is compiled on its first execution, not at boot: compiling every
// route's document lengthens start-up (docs/benchmarks.md, "Figures behind
// constants in the code") for what most processes (a test's, a CLI's, a
// short-lived instance's) would spend on routes they never call.
const fixed = new WeakSet<DocumentNode>();
/** Per document, by operation name ('' for none): its compiled form (null: graphql-jit cannot compile it), or its runs so far. */
const known = new WeakMap<DocumentNode, Map<string, CompiledQuery | null | number>>();
let enabled = true;

/** Turns compiled execution off and on (the benchmark compares both in one process: bench/request-cost.ts). */
export function setCompiledExecution(on: boolean): void {
  enabled = on;
}

/** Marks a fixed document to be run compiled from its first run. */
export function compileDocument(document: DocumentNode): void {
  fixed.add(document);
}

/**
 * The compiled form of an operation, compiled now if this is the run that makes it hot; undefined while it is
 * not, or when graphql-jit cannot compile it (it is then executed by the generic executor).
 */
function compiledFor(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
): CompiledQuery | undefined {
  let operations = known.get(document);
  if (!operations) known.set(document, (operations = new Map()));
  const name = operationName ?? '';
  const state = operations.get(name);
  if (state === null) return undefined;
  if (typeof state === 'object') return state;
  const runs = (state ?? 0) + 1;
  if (!fixed.has(document) && runs < HOT_RUN) {
    operations.set(name, runs);
    return undefined;
  }
  const result = compileQuery(schema, document, operationName ?? undefined, {
    // The schema's scalars serialise their own values; error stacks are not shown to clients.
    disablingCapturingStackErrors: true,
  });
  const query = isCompiledQuery(result) ? result : null;
  recordGraphQLCompilation(query ? 'compiled' : 'refused');
  operations.set(name, query);
  return query ?? undefined;
}

/** The offset in a document's text of a line and column (both from 1), as graphql-js counts lines. */
function offsetOf(body: string, { line, column }: SourceLocation): number {
  const breaks = /\r\n|[\n\r]/g;
  let start = 0;
  for (let l = 1; l < line && breaks.exec(body); l++) start = breaks.lastIndex;
  return start + column - 1;
}

/**
 * graphql-jit's errors with the source and positions graphql-js's carry. jit's (of a class of its own, made
 * to pass for graphql-js's) hold their locations only as line and column, and Yoga writes an error out anew from
 * its source and positions (or nodes): without them a compiled run's error would lose the `locations` that the
 * first run's had.
 */
function locatedErrors(result: ExecutionResult, source: Source | undefined): ExecutionResult {
  if (!source || !result.errors?.some((error) => error.locations && !error.positions)) return result;
  const errors = result.errors.map((error) =>
    error.locations && !error.positions
      ? new GraphQLError(error.message, {
          source,
          positions: error.locations.map((location) => offsetOf(source.body, location)),
          path: error.path,
          originalError: error.originalError,
          extensions: error.extensions,
        })
      : error,
  );
  return { ...result, errors };
}

/**
 * The Yoga plugin running compiled documents. It must come first among the
 * plugins: those after it wrap the executor it sets.
 */
export function useCompiledDocuments(): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const query = enabled ? compiledFor(args.schema, args.document, args.operationName) : undefined;
      if (!query) return;
      setExecuteFn((execution: ExecutionArgs) => {
        const result = query.query(execution.rootValue, execution.contextValue, execution.variableValues ?? {}) as
          ExecutionResult | Promise<ExecutionResult>;
        // Variables that do not fit their types are refused before anything runs, with no data: the generic
        // executor words that refusal, so that a client reads the same errors on every run of a document
        // (and variable-errors.ts finds the wording it rewrites).
        if (!(result instanceof Promise) && !('data' in result)) return executeFn(execution);
        const source = execution.document.loc?.source;
        return result instanceof Promise
          ? result.then((done) => locatedErrors(done, source))
          : locatedErrors(result, source);
      });
    },
  };
}

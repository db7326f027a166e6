// Compiled execution of the fixed GraphQL documents behind the REST routes
// (graphql-jit): a route's document is known at boot, so its execution is
// compiled once (on first use) into a function instead of being walked by the generic
// executor on every request. The compiled function replaces only the executor
// at the bottom of Yoga's envelope: every other plugin's onExecute (change
// origin, metrics, limits, CSRF, text rule, heavy-operation cap) still wraps
// it, so REST keeps the one execution path (execute.ts). Documents sent over
// GraphQL are executed as before.
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';

// A document is compiled on its first execution, not at boot: compiling every
// route's document lengthens start-up (docs/benchmarks.md, "Figures behind
// constants in the code") for what most processes (a test's, a CLI's, a
// short-lived instance's) would spend on routes they never call.
const pending = new WeakMap<DocumentNode, GraphQLSchema>();
const compiled = new WeakMap<DocumentNode, CompiledQuery | null>();
let enabled = true;

/** Turns compiled execution off and on (the benchmark compares both in one process: bench/request-cost.ts). */
export function setCompiledExecution(on: boolean): void {
  enabled = on;
}

/** Marks a fixed document to be run compiled against the schema (useCompiledDocuments compiles it when first run). */
export function compileDocument(schema: GraphQLSchema, document: DocumentNode): void {
  pending.set(document, schema);
}

/**
 * The compiled form of a marked document, compiled now if it is its first
 * run; undefined when it is not marked or graphql-jit cannot compile it (it
 * is then executed by the generic executor, like any other document).
 */
function compiledFor(document: DocumentNode): CompiledQuery | undefined {
  const known = compiled.get(document);
  if (known !== undefined) return known ?? undefined;
  const schema = pending.get(document);
  if (!schema) return undefined;
  const result = compileQuery(schema, document, undefined, {
    // The schema's scalars serialise their own values; error stacks are not shown to clients.
    disablingCapturingStackErrors: true,
  });
  const query = isCompiledQuery(result) ? result : null;
  compiled.set(document, query);
  return query ?? undefined;
}

/** Whether a document is run compiled (tests). */
export function isCompiled(document: DocumentNode): boolean {
  return compiledFor(document) !== undefined;
}

/**
 * The Yoga plugin running compiled documents. It must come first among the
 * plugins: those after it wrap the executor it sets.
 */
export function useCompiledDocuments(): Plugin {
  return {
    onExecute({ args, setExecuteFn }) {
      const query = enabled ? compiledFor(args.document) : undefined;
      if (!query) return;
      setExecuteFn(
        (execution) =>
          query.query(execution.rootValue, execution.contextValue, execution.variableValues ?? {}) as
            ExecutionResult | Promise<ExecutionResult>,
      );
    },
  };
}

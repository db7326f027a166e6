// Compiled execution of the fixed GraphQL documents behind the REST routes
// (graphql-jit): a route's document is known at boot, so its execution is
// compiled once into a function instead of being walked by the generic
// executor on every request. The compiled function replaces only the executor
// at the bottom of Yoga's envelope: every other plugin's onExecute (change
// origin, metrics, limits, CSRF, text rule, heavy-operation cap) still wraps
// it, so REST keeps the one execution path (execute.ts). Documents sent over
// GraphQL are executed as before.
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const compiled = new WeakMap<DocumentNode, CompiledQuery>();
let enabled = true;

/** Turns compiled execution off and on (the benchmark compares both in one process: bench/request-cost.ts). */
export function setCompiledExecution(on: boolean): void {
  enabled = on;
}

/**
 * Compiles a fixed document against the schema, for useCompiledDocuments to
 * run. Returns false when graphql-jit cannot compile it: the document is
 * then executed by the generic executor, like any other.
 */
export function compileDocument(schema: GraphQLSchema, document: DocumentNode): boolean {
  const result = compileQuery(schema, document, undefined, {
    // The schema's scalars serialise their own values; error stacks are not shown to clients.
    disablingCapturingStackErrors: true,
  });
  if (!isCompiledQuery(result)) return false;
  compiled.set(document, result);
  return true;
}

/** Whether a document is run compiled (tests). */
export function isCompiled(document: DocumentNode): boolean {
  return compiled.has(document);
}

/**
 * The Yoga plugin running compiled documents. It must come first among the
 * plugins: those after it wrap the executor it sets.
 */
export function useCompiledDocuments(): Plugin {
  return {
    onExecute({ args, setExecuteFn }) {
      const query = enabled ? compiled.get(args.document) : undefined;
      if (!query) return;
      setExecuteFn(
        (execution) =>
          query.query(execution.rootValue, execution.contextValue, execution.variableValues ?? {}) as
            ExecutionResult | Promise<ExecutionResult>,
      );
    },
  };
}

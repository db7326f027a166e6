// A cap on expensive operations (imports, exports, publications,
// auto-translations) running at once per credential, as a Yoga plugin: REST
// routes and GraphQL alike run through Yoga's envelope (execute.ts), so one
// count covers both. Over the cap the operation is refused before it starts:
// 429 with Retry-After, in the envelope for REST. Counted per instance.
import { GraphQLError, Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Principal } from '../auth/principal.js';

/** Root fields whose work lasts as long as the request: reading or writing a whole project. */
export const HEAVY_FIELDS = new Set([
  'importFile',
  'previewImport',
  'exportTranslations',
  'publishEnvironment',
  'autoTranslate',
]);

function operationOf(document: DocumentNode, name: string | null | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  return name ? operations.find((o) => o.name?.value === name) : operations[0];
}

/**
 * Each document's answer by operation name: REST documents are parsed once and
 * Yoga's parser cache gives a repeated query the same document, so the walk
 * is done once, not on every execution.
 */
const heavyByDocument = new WeakMap<DocumentNode, Map<string, boolean>>();

/** Whether the operation asks for a heavy root field (directly or through a fragment). */
export function isHeavy(document: DocumentNode, operationName?: string | null): boolean {
  let byName = heavyByDocument.get(document);
  if (!byName) heavyByDocument.set(document, (byName = new Map()));
  let heavy = byName.get(operationName ?? '');
  if (heavy === undefined) byName.set(operationName ?? '', (heavy = walkHeavy(document, operationName)));
  return heavy;
}

function walkHeavy(document: DocumentNode, operationName?: string | null): boolean {
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  const seen = new Set<string>();
  const visit = (selections: readonly import('graphql').SelectionNode[]): boolean =>
    selections.some((selection) => {
      if (selection.kind === Kind.FIELD) return HEAVY_FIELDS.has(selection.name.value);
      if (selection.kind === Kind.INLINE_FRAGMENT) return visit(selection.selectionSet.selections);
      if (seen.has(selection.name.value)) return false;
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      return fragment ? visit(fragment.selectionSet.selections) : false;
    });
  const operation = operationOf(document, operationName);
  return operation ? visit(operation.selectionSet.selections) : false;
}

/** Whose count an operation takes: the project of an API key, the account of a token or login. */
function holderOf(principal: Principal | undefined): string | undefined {
  if (principal?.kind === 'project') return `project:${principal.projectId}`;
  if (principal?.kind === 'account') return `account:${principal.accountId}`;
  if (principal?.kind === 'inContext') return `inContext:${principal.tokenId}`;
  // Without a valid credential the operation is refused by access checks anyway.
  return undefined;
}

const tooMany = (perCredential: number) =>
  new GraphQLError(
    `Too many requests: at most ${perCredential} imports, exports, publications or auto-translations at once per credential (MAX_HEAVY_OPERATIONS); retry when one has finished`,
    {
      extensions: {
        code: 'TOO_MANY_REQUESTS',
        retryAfter: 1,
        limit: 'heavyOperations',
        setting: 'MAX_HEAVY_OPERATIONS',
        http: { status: 429, headers: { 'retry-after': '1' }, spec: false },
      },
    },
  );

export function heavyOperationsPlugin(perCredential: number): Plugin {
  const running = new Map<string, number>();
  const release = (holder: string) => {
    const left = (running.get(holder) ?? 1) - 1;
    if (left > 0) running.set(holder, left);
    else running.delete(holder);
  };
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (perCredential <= 0 || !isHeavy(args.document, args.operationName)) return;
      const holder = holderOf((args.contextValue as { principal?: Principal }).principal);
      if (!holder) return;
      // Counted when the execution really starts (a later plugin may still stop it), released however it ends.
      setExecuteFn(async (executionArgs) => {
        const count = running.get(holder) ?? 0;
        if (count >= perCredential) return { errors: [tooMany(perCredential)] };
        running.set(holder, count + 1);
        try {
          return await executeFn(executionArgs);
        } finally {
          release(holder);
        }
      });
    },
  };
}

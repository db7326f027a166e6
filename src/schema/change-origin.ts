// Every GraphQL execution — GraphQL over HTTP and WebSocket, the REST routes,
// the CLI routes — runs inside its change origin (src/content/origin.ts): the
// principal is the actor, the entry point the source. When it ends, the
// changes it committed are announced (src/history/notify.ts).
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../context.js';
import { withOrigin, sourceOfRequest, type Origin } from '../content/origin.js';
import { announceChanges } from '../history/notify.js';

interface ExecutionContext extends Partial<Context> {
  request?: { url?: string; headers?: { get(name: string): string | null } };
  restRequest?: unknown;
}

export function originOf(context: ExecutionContext): Origin {
  const principal = context.principal;
  const source = sourceOfRequest({
    url: context.request?.url,
    rest: context.restRequest !== undefined,
    principalScheme: principal && 'scheme' in principal ? principal.scheme : undefined,
    sourceHeader: context.request?.headers?.get('x-change-source'),
    cliVersionHeader: context.request?.headers?.get('x-simplelocalize-cli-version'),
  });
  if (principal?.kind === 'account') return { actorKind: 'ACCOUNT', actorId: String(principal.accountId), source };
  if (principal?.kind === 'project') return { actorKind: 'API_KEY', actorId: null, source };
  // An in-context token acts for the account that made it (null once that account is deleted).
  if (principal?.kind === 'inContext')
    return principal.accountId === null
      ? { actorKind: 'SYSTEM', actorId: null, source }
      : { actorKind: 'ACCOUNT', actorId: String(principal.accountId), source };
  return { actorKind: 'SYSTEM', actorId: null, source };
}

export function useChangeOrigin(): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const origin = originOf(args.contextValue as ExecutionContext);
      setExecuteFn(
        (execArgs) => withOrigin(origin, async (): Promise<unknown> => executeFn(execArgs), announceChanges) as never,
      );
    },
  };
}

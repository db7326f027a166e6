// Who is acting and through what: every change event records its origin. The
// GraphQL execution (every API: REST, GraphQL, the CLI routes, the console)
// and the job worker run their work inside `withOrigin`, so a domain function
// deep in a write path reads the origin here instead of every signature
// carrying it. Outside any origin (start-up, maintenance) the system acts.
//
// The scope also collects the changes opened while it runs, so that once the
// work has finished (its transactions committed or rolled back) they can be
// announced to live subscribers (src/history/notify.ts).
import { AsyncLocalStorage } from 'node:async_hooks';

export type ActorKind = 'ACCOUNT' | 'API_KEY' | 'JOB' | 'SYSTEM' | 'AUTOMATION';
/** GIT: a Git sync (docs/git-sync.md) imported or exported it. */
export type ChangeSource = 'API' | 'GRAPHQL' | 'WEB' | 'CLI' | 'SYSTEM' | 'AUTOMATION' | 'GIT';

export const ACTOR_KINDS: readonly ActorKind[] = ['ACCOUNT', 'API_KEY', 'JOB', 'SYSTEM', 'AUTOMATION'];
export const CHANGE_SOURCES: readonly ChangeSource[] = ['API', 'GRAPHQL', 'WEB', 'CLI', 'SYSTEM', 'AUTOMATION', 'GIT'];

/** The automation run a piece of work belongs to (src/automations/): its rule never fires on it. */
export interface AutomationScope {
  ruleId: number;
  runId: string;
  /** The run's depth: changes made in it trigger runs of depth + 1 (at most MAX_AUTOMATION_DEPTH). */
  depth: number;
}

export interface Origin {
  actorKind: ActorKind;
  /** Account id, job id or automation rule id; null for a project API key and the system. */
  actorId: string | null;
  source: ChangeSource;
  /**
   * Set while an automation run acts (actor AUTOMATION, the rule) and for the
   * jobs it starts (actor JOB, source AUTOMATION): loop prevention and the
   * chain depth read it.
   */
  automation?: AutomationScope;
}

export const SYSTEM: Origin = { actorKind: 'SYSTEM', actorId: null, source: 'SYSTEM' };

interface Scope {
  origin: Origin;
  /** Activity ids opened in this scope, announced when it ends. */
  opened: { projectId: number; id: bigint }[];
  /** Run once when the scope ends (afterWork); absent in a scope that has no end of its own. */
  after?: Set<() => void>;
}

const storage = new AsyncLocalStorage<Scope>();

/** Runs `fn` as `origin`; `done` gets the changes opened meanwhile (after `fn` settled). */
export async function withOrigin<T>(
  origin: Origin,
  fn: () => Promise<T>,
  done?: (opened: Scope['opened']) => Promise<void> | void,
): Promise<T> {
  const scope: Scope = { origin, opened: [], after: new Set() };
  try {
    return await storage.run(scope, fn);
  } finally {
    for (const after of scope.after!) after();
    if (done && scope.opened.length) await done(scope.opened);
  }
}

/**
 * Runs `fn` once the current work has ended (its transactions committed or
 * rolled back), however often it is asked for meanwhile. False outside such
 * work: the caller decides without it.
 */
export function afterWork(fn: () => void): boolean {
  const after = storage.getStore()?.after;
  after?.add(fn);
  return after !== undefined;
}

/**
 * Workers of this process woken once the work that queued for them has ended (its transactions committed):
 * `note()` as it queues, once per piece of work however often; outside such work, shortly after. Woken before
 * the commit, a worker would pass over the rows the writer has not committed yet.
 */
export function afterWorkWakers() {
  const wakers = new Set<() => void>();
  let timer: NodeJS.Timeout | undefined;
  const wakeAll = () => {
    for (const wake of wakers) wake();
  };
  return {
    /** Adds a worker; returns its removal. */
    register(wake: () => void): () => void {
      wakers.add(wake);
      return () => wakers.delete(wake);
    },
    note(): void {
      if (!wakers.size || afterWork(wakeAll) || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        wakeAll();
      }, 50);
      timer.unref();
    },
  };
}

/**
 * Runs `fn` as the current actor through another source (a Git sync started
 * from GraphQL is the account's, through GIT); its changes are announced with
 * the enclosing scope's. Outside a scope: the system, through that source.
 */
export function withSource<T>(source: ChangeSource, fn: () => Promise<T>): Promise<T> {
  const outer = storage.getStore();
  return storage.run(
    { origin: { ...(outer?.origin ?? SYSTEM), source }, opened: outer?.opened ?? [], after: outer?.after },
    fn,
  );
}

export function currentOrigin(): Origin {
  return storage.getStore()?.origin ?? SYSTEM;
}

/** Records that a change was opened in the current scope (for the announcement after commit). */
export function noteOpened(projectId: number, id: bigint): void {
  storage.getStore()?.opened.push({ projectId, id });
}

/**
 * The source of a request: the REST routes are the API, except the official
 * command-line client's calls (its own /cli/… routes, and the contract's
 * routes it calls with its version header or `source=CLI`); GraphQL
 * otherwise. The console marks its requests as WEB with its session principal
 * or the `X-Change-Source: WEB` header.
 */
export function sourceOfRequest(request: {
  url?: string;
  rest: boolean;
  principalScheme?: string;
  sourceHeader?: string | null;
  cliVersionHeader?: string | null;
}): ChangeSource {
  if (request.principalScheme === 'session' || request.sourceHeader?.trim().toUpperCase() === 'WEB') return 'WEB';
  if (!request.rest) return 'GRAPHQL';
  if (request.cliVersionHeader) return 'CLI';
  const raw = request.url ?? '/';
  // A path that cannot name the CLI and no query: no URL to parse (parsing one was 4 % of a small read's CPU).
  if (!raw.includes('?') && !raw.includes('/cli/') && !raw.includes('\\')) return 'API';
  const url = new URL(raw, 'http://x');
  const cli = url.pathname.startsWith('/cli/') || url.searchParams.get('source')?.toUpperCase() === 'CLI';
  return cli ? 'CLI' : 'API';
}

// One context for every entry point: GraphQL over HTTP, graphql-ws and the
// REST compatibility layer all build it from request headers here.
import { randomUUID } from 'node:crypto';
import DataLoader from 'dataloader';
import { resolvePrincipal, type CredentialHeaders, type Principal } from './auth/principal.js';
import type { Config } from './config.js';
import { projectStats, type ProjectStats } from './projects/stats.js';
import { createKeyCellsLoader } from './content/translations/loaders.js';
import { consistencyFindingsOfKeys, type KeyFinding } from './findings/read.js';
import { languagesOfProjects } from './content/languages.js';
import type { Language } from './generated/prisma/client.js';

export interface Loaders {
  projectStats: DataLoader<number, ProjectStats>;
  keyCells: ReturnType<typeof createKeyCellsLoader>;
  /** The open consistency findings of a key (by key id). */
  keyConsistency: DataLoader<number, KeyFinding[]>;
  /** A project's languages in their order (by project id). */
  projectLanguages: DataLoader<number, Language[]>;
}

/** The HTTP exchange behind a GraphQL request over HTTP (absent on WebSocket and REST): what sign-in needs. */
export interface HttpExchange {
  /** The client's address (rate limit of failed sign-ins). */
  address: string;
  /** The User-Agent header (shown in the account's list of sessions). */
  userAgent: string;
  /** Reached over HTTPS: cookies get the Secure attribute. */
  secure: boolean;
  /** The body is JSON: no HTML form of another site can send it (forms send urlencoded, multipart or text). */
  jsonBody: boolean;
  setCookie(value: string): void;
}

export interface Context {
  requestId: string;
  principal: Principal;
  config: Config;
  loaders: Loaders;
  http?: HttpExchange;
}

/** Each loader made on its first use: most requests use none (four made for every request were 1.5 % of a small read's CPU). */
function createLoaders(): Loaders {
  let projectStatsLoader: Loaders['projectStats'] | undefined;
  let keyCells: Loaders['keyCells'] | undefined;
  let keyConsistency: Loaders['keyConsistency'] | undefined;
  let projectLanguages: Loaders['projectLanguages'] | undefined;
  return {
    get projectStats() {
      return (projectStatsLoader ??= new DataLoader(async (ids) => {
        const stats = await projectStats(ids);
        return ids.map((id) => stats.get(id) ?? new Error(`Project ${id} not found`));
      }));
    },
    get keyCells() {
      return (keyCells ??= createKeyCellsLoader());
    },
    get keyConsistency() {
      return (keyConsistency ??= new DataLoader(async (ids) => {
        const byKey = new Map<number, KeyFinding[]>(ids.map((id) => [id, []]));
        for (const f of await consistencyFindingsOfKeys(ids)) byKey.get(f.keyId)?.push(f);
        return ids.map((id) => byKey.get(id)!);
      }));
    },
    get projectLanguages() {
      return (projectLanguages ??= new DataLoader(languagesOfProjects));
    },
  };
}

export async function createContext(headers: CredentialHeaders, config: Config, http?: HttpExchange): Promise<Context> {
  return {
    http,
    requestId: headers.get('x-request-id') ?? randomUUID(),
    principal: await resolvePrincipal(headers),
    config,
    loaders: createLoaders(),
  };
}

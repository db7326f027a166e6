// One context for every entry point: GraphQL over HTTP, graphql-ws and the
// REST compatibility layer all build it from request headers here.
import { randomUUID } from 'node:crypto';
import DataLoader from 'dataloader';
import { resolvePrincipal, type CredentialHeaders, type Principal } from './auth/principal.js';
import type { Config } from './config.js';
import { projectStats, type ProjectStats } from './projects/stats.js';
import { createKeyCellsLoader } from './translations/loaders.js';

export interface Loaders {
  projectStats: DataLoader<number, ProjectStats>;
  keyCells: ReturnType<typeof createKeyCellsLoader>;
}

export interface Context {
  requestId: string;
  principal: Principal;
  config: Config;
  loaders: Loaders;
}

function createLoaders(): Loaders {
  return {
    projectStats: new DataLoader(async (ids) => {
      const stats = await projectStats(ids);
      return ids.map((id) => stats.get(id) ?? new Error(`Project ${id} not found`));
    }),
    keyCells: createKeyCellsLoader(),
  };
}

export async function createContext(headers: CredentialHeaders, config: Config): Promise<Context> {
  return {
    requestId: headers.get('x-request-id') ?? randomUUID(),
    principal: await resolvePrincipal(headers),
    config,
    loaders: createLoaders(),
  };
}

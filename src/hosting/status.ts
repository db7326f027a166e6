// The contract's Environment status: the served publication's counts and
// resources. Before the first publication the counts are 0, createdAt is null
// and there are no resources.
import { prisma } from '../db.js';
import { notFound, said } from '../errors.js';
import type { PublishedResource } from './layout.js';

export interface EnvironmentStatus {
  environmentKey: string;
  numberOfKeys: number;
  numberOfLanguages: number;
  numberOfNonEmptyTranslations: number;
  createdAt: Date | null;
  version: string | null;
  label: string | null;
  resources: PublishedResource[];
}

export async function environmentStatus(projectId: number, environmentKey: string): Promise<EnvironmentStatus> {
  const environment = await prisma().environment.findUnique({
    where: { projectId_key: { projectId, key: environmentKey } },
    select: { currentPublication: true },
  });
  if (!environment) throw notFound(said('environment-not-found', { environment: environmentKey }));
  const p = environment.currentPublication;
  return {
    environmentKey,
    numberOfKeys: p?.numberOfKeys ?? 0,
    numberOfLanguages: p?.numberOfLanguages ?? 0,
    numberOfNonEmptyTranslations: p?.numberOfNonEmptyTranslations ?? 0,
    createdAt: p?.createdAt ?? null,
    version: p?.version ?? null,
    label: p?.label ?? null,
    resources: (p?.resources as unknown as PublishedResource[] | undefined) ?? [],
  };
}

// A project's own provider API keys, stored sealed with the server key
// (src/auth/sealed-secrets.ts) in the project's settings and never returned
// by any API once set: only the job that calls the provider opens them.
import { badRequest } from '../errors.js';
import { prisma } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { isSealed, open, seal } from '../auth/sealed-secrets.js';
import { readSettings, updateSettings, type ProjectSettings } from '../projects/settings.js';

const PROVIDERS_WITH_KEYS = ['MT_PROVIDER_A', 'MT_PROVIDER_B', 'LLM_OPENAI', 'LLM_ANTHROPIC'] as const;
type ProviderWithKey = (typeof PROVIDERS_WITH_KEYS)[number];

/** The associated data of a sealed key: it opens only for this project and provider. */
const purpose = (projectId: number, provider: string) => `provider-key:${projectId}:${provider}`;

/** Stores the project's own provider key (used before the service's; needed for glossaries). */
export async function setProviderApiKey(projectId: number, provider: string, apiKey: string | null): Promise<void> {
  if (!(PROVIDERS_WITH_KEYS as readonly string[]).includes(provider))
    throw badRequest(`provider must be one of ${PROVIDERS_WITH_KEYS.join(', ')}`);
  if (apiKey !== null && (apiKey.trim() === '' || apiKey.length > 500))
    throw badRequest('apiKey must be a non-empty string of at most 500 characters');
  const current = (await readSettings(projectId)).providerApiKeys ?? {};
  const next = {
    ...current,
    [provider]: apiKey === null ? undefined : seal(apiKey.trim(), purpose(projectId, provider)),
  };
  await updateSettings(projectId, { providerApiKeys: JSON.parse(JSON.stringify(next)) });
}

/** Which providers the project has its own key of: only whether it is set, never any part of it. */
export async function providerKeyStatus(projectId: number): Promise<{ provider: ProviderWithKey; set: boolean }[]> {
  const stored = (await readSettings(projectId)).providerApiKeys ?? {};
  return PROVIDERS_WITH_KEYS.map((provider) => ({ provider, set: typeof stored[provider] === 'string' }));
}

/** The project's own key of a provider, opened; undefined when it has none. */
export function providerApiKey(projectId: number, settings: ProjectSettings, provider: string): string | undefined {
  const stored = settings.providerApiKeys?.[provider as ProviderWithKey];
  if (stored === undefined) return undefined;
  // A value from before keys were sealed, until sealStoredProviderKeys has run.
  return isSealed(stored) ? open(stored, purpose(projectId, provider)) : stored;
}

/**
 * The data migration of sealed provider keys: seals every key still stored in
 * plain text (run at start-up, after the SQL migrations; does nothing once all are sealed).
 */
export async function sealStoredProviderKeys(): Promise<number> {
  const rows = await prisma().$queryRaw<
    { id: number; settings: ProjectSettings }[]
  >(Prisma.sql`/* jobs:projects-with-provider-keys */
    SELECT id, settings FROM "Project" WHERE settings ? 'providerApiKeys'`);
  let sealed = 0;
  for (const { id, settings } of rows) {
    const keys = settings.providerApiKeys ?? {};
    const plain = Object.entries(keys).filter(([, value]) => typeof value === 'string' && !isSealed(value));
    if (plain.length === 0) continue;
    const next = {
      ...keys,
      ...Object.fromEntries(plain.map(([provider, value]) => [provider, seal(value!, purpose(id, provider))])),
    };
    await updateSettings(id, { providerApiKeys: next });
    sealed += plain.length;
  }
  return sealed;
}

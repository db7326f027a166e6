import { badRequest } from '../errors.js';
import { readSettings, updateSettings } from '../projects/settings.js';

const PROVIDERS_WITH_KEYS = ['MT_PROVIDER_A', 'MT_PROVIDER_B'] as const;

/** Stores the project's own provider key (used before the service's; needed for glossaries). */
export async function setProviderApiKey(projectId: number, provider: string, apiKey: string | null): Promise<void> {
  if (!(PROVIDERS_WITH_KEYS as readonly string[]).includes(provider)) throw badRequest(`provider must be one of ${PROVIDERS_WITH_KEYS.join(', ')}`);
  if (apiKey !== null && (apiKey.trim() === '' || apiKey.length > 500)) throw badRequest('apiKey must be a non-empty string of at most 500 characters');
  const current = (await readSettings(projectId)).providerApiKeys ?? {};
  const next = { ...current, [provider]: apiKey?.trim() ?? undefined };
  await updateSettings(projectId, { providerApiKeys: JSON.parse(JSON.stringify(next)) });
}

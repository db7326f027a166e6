// The provider a job uses, with the project's own key taking precedence over
// the service's (contract: providerGlossaryId needs the project's own key).
import { resolveCredentials } from '../mt/config.js';
import { getProvider } from '../mt/index.js';
import type { TranslationProvider, TranslationProviderId, ProviderCredentials } from '../mt/types.js';
import { readSettings } from '../projects/settings.js';
import { providerApiKey } from './provider-keys.js';

export async function providerForProject(projectId: number, id: TranslationProviderId): Promise<{ provider: TranslationProvider; credentials: ProviderCredentials }> {
  const settings = await readSettings(projectId);
  const projectApiKey = id === 'PSEUDO' ? undefined : providerApiKey(projectId, settings, id);
  const credentials = resolveCredentials(id, { projectApiKey });
  return { provider: getProvider(id, credentials), credentials };
}

// The provider a job uses, with the project's own key taking precedence over
// the service's (contract: providerGlossaryId needs the project's own key).
// Language models also take the project's own URL, model and headers.
import { ConfigError } from '../config.js';
import { badRequest } from '../errors.js';
import { resolveCredentials } from '../mt/config.js';
import { getProvider } from '../mt/index.js';
import { createLlmClient, type LlmClient } from '../mt/llm/client.js';
import { resolveLlmConfig } from '../mt/llm/config.js';
import type { RetryOptions } from '../mt/retry.js';
import type { LlmProviderId, TranslationProvider, TranslationProviderId, ProviderCredentials } from '../mt/types.js';
import { recordExchange } from '../llm/log.js';
import { readSettings } from '../projects/settings.js';
import { projectLlmSettings } from './llm-settings.js';
import { providerApiKey } from './provider-keys.js';

export async function providerForProject(
  projectId: number,
  id: TranslationProviderId,
): Promise<{ provider: TranslationProvider; credentials: ProviderCredentials }> {
  const settings = await readSettings(projectId);
  const projectApiKey = id === 'PSEUDO' || id === 'MEMORY' ? undefined : providerApiKey(projectId, settings, id);
  const credentials = resolveCredentials(id, { projectApiKey });
  return { provider: getProvider(id, credentials), credentials };
}

/**
 * A language-model client configured for the project, whose every request is
 * kept in the log (LlmExchange) under the job, or none for the editor's.
 */
export async function llmClientForProject(
  projectId: number,
  id: LlmProviderId,
  log: { jobId: string | null; retry?: Omit<RetryOptions, 'signal'> },
): Promise<LlmClient> {
  const settings = await readSettings(projectId);
  let config;
  try {
    config = resolveLlmConfig(id, {
      projectApiKey: providerApiKey(projectId, settings, id),
      project: projectLlmSettings(projectId, settings, id),
    });
  } catch (error) {
    if (error instanceof ConfigError) throw badRequest(`${id} is not configured correctly: ${error.message}`);
    throw error;
  }
  return createLlmClient(config, {
    onExchange: (exchange) => recordExchange(projectId, log.jobId, exchange),
    retry: log.retry,
  });
}

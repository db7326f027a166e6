// The project's glossary handed to a provider that takes one (MT_PROVIDER_B):
// for each batch of a job, the terms found in its texts (never the whole
// glossary) become a glossary at the provider, used for the batch and removed
// after it. Terms marked forbidden have no translation to give; terms kept as
// written map to themselves. A job given its own providerGlossaryId keeps it.
// The hand-off is a help, not a condition: when the provider refuses the
// glossary (a language pair it has no glossaries for), the batch is
// translated without it and the job's log says why.
import { glossaryMatchesOfTexts } from '../glossary/index.js';
import { logger } from '../log.js';
import { providerCodeFor } from '../mt/languages.js';
import { MtProviderError, type GlossaryEntry, type TranslateOptions, type TranslationProvider } from '../mt/types.js';

export async function withBatchGlossary<T>(
  provider: TranslationProvider,
  job: { id: string; projectId: number; sourceKey: string; targetKey: string },
  texts: readonly string[],
  options: TranslateOptions,
  run: (options: TranslateOptions, terms: number) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  if (!provider.createGlossary || options.glossaryId) return run(options, 0);
  const entries = new Map<string, GlossaryEntry>();
  for (const matches of await glossaryMatchesOfTexts(job.projectId, job.sourceKey, job.targetKey, texts)) {
    for (const m of matches) {
      if (m.term.forbidden || m.translation === null) continue;
      entries.set(m.term.term, { source: m.term.term, target: m.term.doNotTranslate ? m.term.term : m.translation });
    }
  }
  // A glossary is for one language pair: the provider needs the source language.
  const sourceLanguage = options.sourceLanguage ?? providerCodeFor(provider.id, job.sourceKey, 'source');
  if (entries.size === 0 || !sourceLanguage) return run(options, 0);
  let glossary;
  try {
    glossary = await provider.createGlossary([...entries.values()], sourceLanguage, options.targetLanguage, signal);
  } catch (error) {
    if (!(error instanceof MtProviderError)) throw error;
    logger().warn(
      { jobId: job.id, provider: provider.id, reason: error.providerMessage },
      'the provider refused the glossary of the batch; translating without it',
    );
    return run(options, 0);
  }
  try {
    return await run({ ...options, sourceLanguage, glossaryId: glossary.glossaryId }, entries.size);
  } finally {
    await glossary
      .remove()
      .catch((error: unknown) =>
        logger().warn(
          { jobId: job.id, glossaryId: glossary.glossaryId, error: (error as Error).message },
          'a batch glossary was not removed at the provider',
        ),
      );
  }
}

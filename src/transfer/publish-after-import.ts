// PUBLISH_AFTER_IMPORT, for both import paths (POST /api/v1/translations and
// the file import: POST /api/v2/import, the importFile mutation), and
// AUTO_PUBLISH of auto-translation jobs: publish _latest once the write has
// committed. One documented outcome (docs/import-export.md): the write stays
// committed whatever happens, and a failed publication is a warning of the
// answer, never an error status — an error after a committed write would make
// a client retry an import that already happened. Whether the plan allows
// publishing is checked before anything is written (assertPublishingAllowed).
import { AppError } from '../errors.js';

export type PublishOutcome =
  | { published: true }
  /** warning: the sentence; code (" (CONFLICT)" or '') and reason: its parts. */
  | { published: false; warning: string; code: string; reason: string };

/** Publishes _latest; never throws: a failure comes back as the warning to report. */
export async function publishAfterWrite(
  projectId: number,
  option: 'PUBLISH_AFTER_IMPORT' | 'AUTO_PUBLISH' = 'PUBLISH_AFTER_IMPORT',
): Promise<PublishOutcome> {
  try {
    // The hosting domain is large and rarely needed on a write path: loaded on first use.
    const { publishEnvironment } = await import('../hosting/publish.js');
    await publishEnvironment({ projectId, environmentKey: '_latest' });
    return { published: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const code = error instanceof AppError ? ` (${error.code})` : '';
    const written = option === 'AUTO_PUBLISH' ? 'the translations are' : 'the import is';
    return { published: false, warning: `${option} failed${code}: ${reason}; ${written} committed`, code, reason };
  }
}

// Real-world translation files live in ../shared/corpus beside the repository
// (never copied into it); tests that read them skip when the folder is absent,
// except in CI, where test/unit/corpus-present.test.ts fails the run.
import { join, resolve } from 'node:path';

// CORPUS_DIR names it elsewhere (a git worktree's ../shared is not the repository's).
export const CORPUS_ROOT = process.env.CORPUS_DIR ?? resolve(import.meta.dirname, '..', '..', '..', 'shared', 'corpus');

export function corpusPath(...parts: string[]): string {
  return join(CORPUS_ROOT, ...parts);
}

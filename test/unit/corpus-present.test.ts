// The format tests read real files from ../shared/corpus and skip their corpus
// cases when it is absent (a developer's checkout without shared/). In CI the
// corpus is always laid beside the clone, so there a missing folder must fail
// the run instead of letting dozens of tests pass by skipping.
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORPUS_ROOT, corpusPath } from '../support/corpus.js';

/** Every corpus folder a format test (or the screenshot tests) reads. */
const FOLDERS = [
  'android',
  'arb',
  'csv',
  'js',
  'json',
  'localizable-strings',
  'php',
  'po',
  'properties',
  'qt-ts',
  'resx',
  'stringsdict',
  'xcstrings',
  'xliff',
  'yaml',
  'screenshots',
];

const inCI = process.env.CI === 'true';
const present = existsSync(CORPUS_ROOT);

describe('shared corpus', () => {
  it.skipIf(!inCI && !present)(
    `is present at ${CORPUS_ROOT} (required when CI=true; skipped locally without it)`,
    () => {
      expect(present, `the corpus folder ${CORPUS_ROOT} is missing`).toBe(true);
      for (const folder of FOLDERS) {
        const path = corpusPath(folder);
        expect(existsSync(path), `${path} is missing`).toBe(true);
        expect(readdirSync(path, { recursive: true }).length, `${path} is empty`).toBeGreaterThan(0);
      }
    },
  );
});

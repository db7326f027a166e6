// Rules every translation write obeys, whatever the path (v2 PATCH, v1 POST
// and PATCH): a locked key keeps its translations, and a text may not be
// longer than its key's charactersLimit.
import { describeKey, type KeyAddress } from '../keys/write.js';
import { charCount } from './fields.js';

export interface KeyGuard extends KeyAddress {
  lock: boolean;
  charactersLimit: number | null;
}

export function lockProblem(key: KeyGuard): string | undefined {
  return key.lock ? `${describeKey(key)} is locked; its translations cannot be changed` : undefined;
}

export function limitProblem(key: KeyGuard, text: string): string | undefined {
  if (key.charactersLimit === null) return undefined;
  const length = charCount(text);
  return length > key.charactersLimit
    ? `text has ${length} characters, more than the charactersLimit of ${key.charactersLimit} of ${describeKey(key)}`
    : undefined;
}

/** Why this text may not be written to this key, or undefined when it may. */
export function writeProblem(key: KeyGuard, text: string): string | undefined {
  return lockProblem(key) ?? limitProblem(key, text);
}

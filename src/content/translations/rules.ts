// How the write gate's refusals (gate.ts) read: one sentence per refused
// cell (v1 failures, v2/GraphQL errors) and one warning per reason with its
// count (import results, job summaries). The rules themselves live in the
// gate and nowhere else.
import { describeKey, keyRef } from '../keys/write.js';
import { errorInEnglish, said } from '../../errors.js';
import type { MessageText } from '../../message-text.js';
import type { Refusal, RefusalReason } from './gate.js';

/** A refused cell's sentence as data (src/error-messages.ts). */
export function refusalText(refusal: Refusal): MessageText {
  return refusal.reason === 'LOCKED'
    ? said('texts-locked', { key: keyRef(refusal) })
    : said('over-characters-limit', {
        length: refusal.length,
        limit: refusal.charactersLimit ?? 0,
        key: keyRef(refusal),
      });
}

export function refusalMessage(refusal: Refusal): string {
  return errorInEnglish(refusalText(refusal));
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One warning per reason with refusals, naming up to `examples` keys. */
export function refusalWarnings(
  refused: Record<RefusalReason, number>,
  refusals: readonly Refusal[],
  examples = 5,
): string[] {
  const warnings: string[] = [];
  const named = (reason: RefusalReason) => {
    const keys = [...new Set(refusals.filter((r) => r.reason === reason).map((r) => describeKey(r)))];
    return keys.length ? ` (${keys.slice(0, examples).join(', ')}${keys.length > examples ? ', …' : ''})` : '';
  };
  if (refused.LOCKED) {
    warnings.push(
      `${plural(refused.LOCKED, 'translation was', 'translations were')} not written because the key is locked${named('LOCKED')}`,
    );
  }
  if (refused.CHARACTERS_LIMIT) {
    warnings.push(
      `${plural(refused.CHARACTERS_LIMIT, 'translation was', 'translations were')} not written: longer than the key's charactersLimit${named('CHARACTERS_LIMIT')}`,
    );
  }
  return warnings;
}

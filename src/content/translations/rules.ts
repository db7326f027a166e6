// How the write gate's refusals (gate.ts) read: one sentence per refused
// cell (v1 failures, v2/GraphQL errors) and one warning per reason with its
// count (import results, job summaries). The rules themselves live in the
// gate and nowhere else.
import { describeKey } from '../keys/write.js';
import type { Refusal, RefusalReason } from './gate.js';

export function refusalMessage(refusal: Refusal): string {
  return refusal.reason === 'LOCKED'
    ? `${describeKey(refusal)} is locked; its translations cannot be changed`
    : `text has ${refusal.length} characters, more than the charactersLimit of ${refusal.charactersLimit} of ${describeKey(refusal)}`;
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

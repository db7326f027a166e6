// translateTexts: the whole way from source texts to translations through one
// provider. Texts are cut into units with their placeholders protected
// (placeholders.ts), identical units are sent once, units are packed into
// requests within the provider's limits (batching.ts), each request is
// retried on retryable errors (retry.ts), and the answers are decoded and
// reassembled. Per text the outcome is either the translation or a failure
// with a reason (a lost placeholder, a text too large for the provider); a
// fatal provider error (quota, auth, refused request) or retries running out
// rejects the whole call with the MtProviderError, after onText has reported
// every text finished until then.
import { codePoints, splitIntoBatches } from './batching.js';
import { parseIcu } from './icu.js';
import { assembleText, decodeUnit, prepareText, type PreparedText, type Segment } from './placeholders.js';
import { withRetry, type RetryOptions } from './retry.js';
import type { TranslateOptions, TranslationProvider } from './types.js';

export type TextFailure = 'placeholders' | 'too_large';

export type TextOutcome = { ok: true; text: string } | { ok: false; reason: TextFailure; message: string };

export interface TranslateProgress {
  doneTexts: number;
  totalTexts: number;
  requests: number;
}

export interface TranslateTextsOptions {
  signal?: AbortSignal;
  retry?: Omit<RetryOptions, 'signal'>;
  /** After each request. */
  onProgress?: (progress: TranslateProgress) => void;
  /** As soon as a text's outcome is known (texts finish out of order). */
  onText?: (index: number, outcome: TextOutcome) => void;
}

export interface TranslateTextsResult {
  outcomes: TextOutcome[];
  stats: {
    texts: number;
    translated: number;
    failed: number;
    /** Code points of the source texts translated successfully. */
    characters: number;
    /** Code points sent to the provider (markup included, duplicates once). */
    sentCharacters: number;
    requests: number;
    retries: number;
  };
}

interface Item {
  encoded: string;
  refs: { text: number; unit: number }[];
}

export async function translateTexts(
  provider: TranslationProvider,
  texts: readonly string[],
  options: TranslateOptions,
  run: TranslateTextsOptions = {},
): Promise<TranslateTextsResult> {
  const prepared: PreparedText[] = texts.map((t) => prepareText(t, provider.markup));
  const translations: (Segment[] | null)[][] = prepared.map((p) => p.units.map(() => null));
  const pending = prepared.map((p) => p.units.filter((u) => u.translatable).length);
  const outcomes: (TextOutcome | undefined)[] = texts.map(() => undefined);
  const stats: TranslateTextsResult['stats'] = {
    texts: texts.length,
    translated: 0,
    failed: 0,
    characters: 0,
    sentCharacters: 0,
    requests: 0,
    retries: 0,
  };
  let done = 0;

  const finish = (index: number, outcome: TextOutcome) => {
    if (outcomes[index]) return;
    outcomes[index] = outcome;
    done++;
    if (outcome.ok) {
      stats.translated++;
      stats.characters += codePoints(texts[index]!);
    } else stats.failed++;
    run.onText?.(index, outcome);
  };

  const complete = (index: number) => {
    const p = prepared[index]!;
    const text = assembleText(p, translations[index]!);
    // A message with plural/select arguments must still be one after reassembly.
    if (p.units[0]!.icu && !parseIcu(text)) {
      finish(index, { ok: false, reason: 'placeholders', message: 'the translation is not a valid ICU message' });
    } else finish(index, { ok: true, text });
  };

  // Distinct units to send, in text order.
  const byEncoded = new Map<string, Item>();
  prepared.forEach((p, text) =>
    p.units.forEach((u, unit) => {
      if (!u.translatable) return;
      let item = byEncoded.get(u.encoded);
      if (!item) byEncoded.set(u.encoded, (item = { encoded: u.encoded, refs: [] }));
      item.refs.push({ text, unit });
    }),
  );

  for (let i = 0; i < texts.length; i++) if (pending[i] === 0) complete(i);

  const limits = provider.batchLimits(options);
  const items: Item[] = [];
  for (const item of byEncoded.values()) {
    if (limits.sizeOf(item.encoded) > limits.maxSingle) {
      for (const ref of item.refs) {
        finish(ref.text, {
          ok: false,
          reason: 'too_large',
          message: `the text is larger than ${provider.id} accepts in one request`,
        });
      }
    } else items.push(item);
  }

  for (const batch of splitIntoBatches(items, limits, (item) => item.encoded)) {
    // Texts already failed need no more requests.
    const live = batch.filter((item) => item.refs.some((ref) => !outcomes[ref.text]));
    if (!live.length) continue;
    const encoded = live.map((item) => item.encoded);
    const answers = await withRetry(
      (attempt) => {
        stats.requests++;
        if (attempt > 1) stats.retries++;
        return provider.translateBatch(encoded, options, run.signal);
      },
      { ...run.retry, signal: run.signal },
    );
    for (const item of live) stats.sentCharacters += codePoints(item.encoded);
    live.forEach((item, k) => {
      for (const ref of item.refs) {
        if (outcomes[ref.text]) continue;
        const unit = prepared[ref.text]!.units[ref.unit]!;
        const segments = decodeUnit(answers[k]!, unit, provider.markup);
        if (!segments) {
          finish(ref.text, {
            ok: false,
            reason: 'placeholders',
            message: `${provider.id} did not keep the text's placeholders or markup intact`,
          });
          continue;
        }
        translations[ref.text]![ref.unit] = segments;
        if (--pending[ref.text]! === 0) complete(ref.text);
      }
    });
    run.onProgress?.({ doneTexts: done, totalTexts: texts.length, requests: stats.requests });
  }

  return { outcomes: outcomes as TextOutcome[], stats };
}

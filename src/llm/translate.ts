// Texts translated by a language model with their context: contexts loaded per
// key (context.ts), items packed into requests within the token budget
// (LLM_TOKEN_BUDGET, tokens estimated as characters / 4), each answer checked
// (validate.ts). A text whose answer fails is sent once more with the failure
// named in its item (previousAttempt); failing again, it is reported and left
// unwritten. Provider errors that retries do not cure reject the call (the job
// ends with the provider's message), as with the other providers; the tokens
// already spent ride on the error (MtProviderError.spent) for the job's usage.
//
// Screenshots (when the provider sends images): each request carries the
// screenshots of its texts, each once, at most LLM_MAX_IMAGES, scaled to
// IMAGE_SIDE with the texts' boxes drawn on; their estimated tokens count
// against the budget like the text.
import type { LlmClient } from '../mt/llm/client.js';
import { estimateTokens } from '../mt/llm/config.js';
import { MtProviderError } from '../mt/types.js';
import type { PromptImage } from '../mt/llm/protocol.js';
import { screenshotForModel } from '../screenshots/for-model.js';
import type { MemoryScope } from '../memory/scope.js';
import { loadKeyContexts, type KeyContext, type LanguagePair } from './context.js';
import { readTranslations, translationPrompt, type PromptHeader, type PromptItem } from './prompt.js';
import { blockingProblems } from './validate.js';

export type ContextualOutcome = { ok: true; text: string } | { ok: false; message: string };

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  requests: number;
}

export interface ContextualResult {
  /** By key id. */
  outcomes: Map<number, ContextualOutcome>;
  usage: Usage;
  /** Texts that passed only on the second attempt. */
  retriedTexts: number;
}

export interface ContextualInput {
  client: LlmClient;
  pair: LanguagePair;
  header: PromptHeader;
  keys: readonly { id: number; source: string }[];
  scope: MemoryScope;
  signal?: AbortSignal;
}

/** The long side of a screenshot as sent. */
export const IMAGE_SIDE = 1024;

/** Estimated tokens of an image as sent (Anthropic's published width × height / 750; OpenAI's tiles come close). */
export function imageTokens(screenshot: { width: number; height: number }): number {
  const scale = Math.min(1, IMAGE_SIDE / Math.max(screenshot.width, screenshot.height));
  return Math.ceil((screenshot.width * scale * screenshot.height * scale) / 750);
}

/**
 * Items in requests whose estimated prompt stays within the budget; an item
 * larger than the budget goes alone. With `maxImages`, an item's screenshots
 * not yet in its request join it while there is room for them.
 */
export function packByBudget(
  header: PromptHeader,
  items: readonly PromptItem[],
  budget: number,
  maxImages = 0,
): PromptItem[][] {
  const empty = translationPrompt(header, []);
  const base = estimateTokens(empty.system + empty.user);
  const batches: PromptItem[][] = [];
  let current: PromptItem[] = [];
  let images = new Set<number>();
  let size = base;
  for (const item of items) {
    const one = translationPrompt(header, [item]);
    const text = estimateTokens(one.user) - estimateTokens(empty.user);
    const fresh = (within: Set<number>) => item.context.screenshots.filter((s) => !within.has(s.screenshotId));
    const imageCost = (within: Set<number>) =>
      fresh(within)
        .slice(0, Math.max(0, maxImages - within.size))
        .reduce((n, s) => n + imageTokens(s), 0);
    if (current.length && size + text + imageCost(images) > budget) {
      batches.push(current);
      current = [];
      images = new Set();
      size = base;
    }
    size += text;
    for (const shot of fresh(images).slice(0, Math.max(0, maxImages - images.size))) {
      if (size + imageTokens(shot) > budget && current.length) continue;
      images.add(shot.screenshotId);
      size += imageTokens(shot);
    }
    current.push(item);
  }
  if (current.length) batches.push(current);
  return batches;
}

/** The screenshots of a request's items (at most `maxImages`, each once, boxes labelled with item ids), and the items pointing at them. */
export async function withScreenshots(
  items: readonly PromptItem[],
  maxImages: number,
): Promise<{ items: PromptItem[]; images: PromptImage[] }> {
  const chosen = new Map<
    number,
    {
      ref: PromptItem['context']['screenshots'][number];
      marks: { label: string; rectangle: PromptItem['context']['screenshots'][number]['rectangle'] }[];
    }
  >();
  for (const item of items) {
    for (const shot of item.context.screenshots) {
      const entry = chosen.get(shot.screenshotId) ?? (chosen.size < maxImages ? { ref: shot, marks: [] } : undefined);
      if (!entry) continue;
      entry.marks.push({ label: item.id, rectangle: shot.rectangle });
      chosen.set(shot.screenshotId, entry);
    }
  }
  const images: PromptImage[] = [];
  const refs = new Map<string, NonNullable<PromptItem['screenshots']>>();
  for (const { ref, marks } of chosen.values()) {
    const image = await screenshotForModel(ref, marks, IMAGE_SIDE);
    // A screenshot deleted meanwhile is simply not shown.
    if (!image) continue;
    images.push({
      mediaType: image.mediaType,
      data: image.bytes.toString('base64'),
      width: image.width,
      height: image.height,
    });
    for (const [label, box] of image.boxes)
      refs.set(label, [...(refs.get(label) ?? []), { image: images.length, box }]);
  }
  return {
    items: items.map((item) => (refs.has(item.id) ? { ...item, screenshots: refs.get(item.id) } : item)),
    images,
  };
}

export async function translateWithContext(input: ContextualInput): Promise<ContextualResult> {
  const { client, header } = input;
  const { config } = client;
  const images = config.screenshots ? config.maxImages : 0;
  const contexts = await loadKeyContexts(input.pair, input.keys, input.scope, { screenshots: images > 0 });
  const outcomes = new Map<number, ContextualOutcome>();
  const usage: Usage = { inputTokens: 0, outputTokens: 0, requests: 0 };
  let retriedTexts = 0;

  const round = async (items: PromptItem[]): Promise<PromptItem[]> => {
    const failed: PromptItem[] = [];
    for (const packed of packByBudget(header, items, config.tokenBudget, images)) {
      const { items: batch, images: attached } = images
        ? await withScreenshots(packed, images)
        : { items: packed, images: [] };
      let result;
      try {
        result = await client.completeJson(translationPrompt(header, batch, attached), readTranslations, input.signal);
      } catch (error) {
        // The whole call's tokens so far, this request's failed attempts included.
        if (error instanceof MtProviderError) {
          const spent = error.spent ?? { inputTokens: 0, outputTokens: 0, requests: 0 };
          error.spent = {
            inputTokens: usage.inputTokens + spent.inputTokens,
            outputTokens: usage.outputTokens + spent.outputTokens,
            requests: usage.requests + spent.requests,
          };
        }
        throw error;
      }
      usage.inputTokens += result.inputTokens;
      usage.outputTokens += result.outputTokens;
      usage.requests += result.requests;
      for (const item of batch) {
        const text = result.value.get(item.id);
        const problems =
          text === undefined
            ? ['the reply had no translation for this item']
            : blockingProblems({
                source: item.context.source,
                target: text,
                sourceLanguage: header.sourceLanguage,
                targetLanguage: header.targetLanguage,
                charactersLimit: item.context.charactersLimit,
                glossary: item.context.glossary,
              });
        if (problems.length === 0) {
          outcomes.set(item.context.keyId, { ok: true, text: text! });
          if (item.previous) retriedTexts++;
        } else if (item.previous) {
          outcomes.set(item.context.keyId, { ok: false, message: problems.join('; ') });
        } else {
          failed.push({ id: item.id, context: item.context, previous: { text: text ?? '', problems } });
        }
      }
    }
    return failed;
  };

  const items = contexts.map((context: KeyContext, i): PromptItem => ({ id: `t${i + 1}`, context }));
  const again = await round(items);
  if (again.length) await round(again);
  return { outcomes, usage, retriedTexts };
}

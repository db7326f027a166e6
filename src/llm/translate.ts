// Texts translated by a language model with their context: contexts loaded per
// key (context.ts), items packed into requests within the token budget
// (LLM_TOKEN_BUDGET, tokens estimated as characters / 4), each answer checked
// (validate.ts). A text whose answer fails is sent once more with the failure
// named in its item (previousAttempt); failing again, it is reported and left
// unwritten. Provider errors that retries do not cure reject the call (the job
// ends with the provider's message), as with the other providers.
import type { LlmClient } from '../mt/llm/client.js';
import { estimateTokens } from '../mt/llm/config.js';
import type { MemoryScope } from '../memory/scope.js';
import { loadKeyContexts, type KeyContext, type LanguagePair } from './context.js';
import { readTranslations, translationPrompt, type PromptHeader, type PromptItem } from './prompt.js';
import { blockingProblems } from './validate.js';

export type ContextualOutcome =
  | { ok: true; text: string }
  | { ok: false; message: string };

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

/** Items in requests whose estimated prompt stays within the budget; an item larger than the budget goes alone. */
export function packByBudget(header: PromptHeader, items: readonly PromptItem[], budget: number): PromptItem[][] {
  const empty = translationPrompt(header, []);
  const base = estimateTokens(empty.system + empty.user);
  const batches: PromptItem[][] = [];
  let current: PromptItem[] = [];
  let size = base;
  for (const item of items) {
    const one = translationPrompt(header, [item]);
    const cost = estimateTokens(one.user) - estimateTokens(empty.user);
    if (current.length && size + cost > budget) {
      batches.push(current);
      current = [];
      size = base;
    }
    current.push(item);
    size += cost;
  }
  if (current.length) batches.push(current);
  return batches;
}

export async function translateWithContext(input: ContextualInput): Promise<ContextualResult> {
  const { client, header } = input;
  const contexts = await loadKeyContexts(input.pair, input.keys, input.scope);
  const outcomes = new Map<number, ContextualOutcome>();
  const usage: Usage = { inputTokens: 0, outputTokens: 0, requests: 0 };
  let retriedTexts = 0;

  const round = async (items: PromptItem[]): Promise<PromptItem[]> => {
    const failed: PromptItem[] = [];
    for (const batch of packByBudget(header, items, client.config.tokenBudget)) {
      const result = await client.completeJson(translationPrompt(header, batch), readTranslations, input.signal);
      usage.inputTokens += result.inputTokens;
      usage.outputTokens += result.outputTokens;
      usage.requests += result.requests;
      for (const item of batch) {
        const text = result.value.get(item.id);
        const problems = text === undefined
          ? ['the reply had no translation for this item']
          : blockingProblems({ source: item.context.source, target: text, sourceLanguage: header.sourceLanguage, targetLanguage: header.targetLanguage, charactersLimit: item.context.charactersLimit, glossary: item.context.glossary });
        if (problems.length === 0) {
          outcomes.set(item.context.keyId, { ok: true, text: text! });
          if (item.previous) retriedTexts++;
        } else if (item.previous) {
          outcomes.set(item.context.keyId, { ok: false, message: problems.join('; ') });
        } else {
          failed.push({ ...item, previous: { text: text ?? '', problems } });
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

// The editor's assistant on one cell: "suggest" translates the key's source
// text with the same context and checks as a job; "rephrase", "shorten",
// "more formal" and "less formal" rewrite the text being edited. Nothing is
// written: the answer is a proposal naming the provider and model it came
// from, with the problems the quality checks still find in it.
import { prisma } from '../db.js';
import { AppError, notFound, badRequest, serviceUnavailable } from '../errors.js';
import { MtProviderError } from '../mt/types.js';
import type { LlmClient } from '../mt/llm/client.js';
import { contextFor } from './context-settings.js';
import { loadKeyContexts, projectMemoryScope } from './context.js';
import { formatRules, glossaryEntry } from './prompt.js';
import { translateWithContext } from './translate.js';
import { blockingProblems } from './validate.js';

export const REWRITE_MODES = ['REPHRASE', 'SHORTEN', 'MORE_FORMAL', 'LESS_FORMAL'] as const;
export type RewriteMode = (typeof REWRITE_MODES)[number];

export interface Proposal {
  /** null when the model gave nothing usable (see problems). */
  text: string | null;
  provider: string;
  model: string;
  /** Errors the quality checks find in the text (a suggestion that failed them twice has text null). */
  problems: string[];
  inputTokens: number;
  outputTokens: number;
}

export interface CellRef {
  projectId: number;
  key: string;
  namespace?: string | null;
  languageKey: string;
}

async function cellOf({ projectId, key: name, namespace, languageKey }: CellRef) {
  const [key, languages] = await Promise.all([
    prisma().translationKey.findFirst({
      where: { projectId, key: name, namespace: namespace ?? '' },
      select: { id: true, key: true, charactersLimit: true },
    }),
    prisma().language.findMany({ where: { projectId }, select: { id: true, key: true, isDefault: true } }),
  ]);
  if (!key) throw notFound(`key '${name}'${namespace ? ` in namespace '${namespace}'` : ''} not found`);
  const target = languages.find((l) => l.key === languageKey);
  if (!target) throw notFound(`language '${languageKey}' not found`);
  const source = languages.find((l) => l.isDefault) ?? languages[0]!;
  if (source.id === target.id)
    throw badRequest(`'${languageKey}' is the project's default language: there is nothing to translate it from`);
  const sourceText =
    (
      await prisma().translation.findUnique({
        where: { keyId_languageId: { keyId: key.id, languageId: source.id } },
        select: { text: true },
      })
    )?.text ?? '';
  return { key, source, target, sourceText };
}

/**
 * A provider's failure as the editor's error: still failing after the retries
 * (rate limit, server, timeout) is 503 with a retry hint; refused (key, model,
 * request, an address not allowed) is 400 with the provider's message.
 */
async function asAppError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof MtProviderError)) throw error;
    if (error.kind === 'retryable')
      return Promise.reject(serviceUnavailable(error.message, Math.ceil((error.retryAfterMs ?? 10_000) / 1000)));
    throw new AppError('BAD_REQUEST', error.message, { provider: error.provider, reason: error.reason });
  }
}

export function suggestTranslation(client: LlmClient, input: CellRef & { signal?: AbortSignal }): Promise<Proposal> {
  return asAppError(() => suggestCell(client, input));
}

export function rewriteText(
  client: LlmClient,
  input: CellRef & { text: string; mode: RewriteMode; signal?: AbortSignal },
): Promise<Proposal> {
  return asAppError(() => rewriteCell(client, input));
}

async function suggestCell(client: LlmClient, input: CellRef & { signal?: AbortSignal }): Promise<Proposal> {
  const cell = await cellOf(input);
  if (!cell.sourceText.trim())
    throw badRequest(`key '${input.key}' has no text in the default language '${cell.source.key}' to translate`);
  const context = await contextFor(input.projectId, cell.target.id);
  const result = await translateWithContext({
    client,
    pair: {
      projectId: input.projectId,
      sourceLanguageId: cell.source.id,
      sourceLanguage: cell.source.key,
      targetLanguageId: cell.target.id,
      targetLanguage: cell.target.key,
    },
    header: {
      projectDescription: context.description,
      style: context.style,
      sourceLanguage: cell.source.key,
      targetLanguage: cell.target.key,
    },
    keys: [{ id: cell.key.id, source: cell.sourceText }],
    scope: await projectMemoryScope(input.projectId),
    signal: input.signal,
  });
  const outcome = result.outcomes.get(cell.key.id);
  return {
    text: outcome?.ok ? outcome.text : null,
    provider: client.config.provider,
    model: client.config.model,
    problems: outcome && !outcome.ok ? [outcome.message] : [],
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
  };
}

const INSTRUCTIONS: Record<RewriteMode, (limit: number | null) => string> = {
  REPHRASE: () => 'Rephrase the text: same meaning and register, different wording, natural for the language.',
  SHORTEN: (limit) =>
    limit !== null
      ? `Shorten the text to at most ${limit} characters, keeping its meaning.`
      : 'Shorten the text noticeably, keeping its meaning.',
  MORE_FORMAL: () =>
    'Rewrite the text in a more formal register (e.g. the polite form of address where the language has one).',
  LESS_FORMAL: () =>
    'Rewrite the text in a less formal, friendlier register (e.g. the familiar form of address where the language has one).',
};

async function rewriteCell(
  client: LlmClient,
  input: CellRef & { text: string; mode: RewriteMode; signal?: AbortSignal },
): Promise<Proposal> {
  if (!input.text.trim()) throw badRequest('text must not be empty');
  if (input.text.length > 10_000) throw badRequest('text must have at most 10000 characters');
  const cell = await cellOf(input);
  const context = await contextFor(input.projectId, cell.target.id);
  const [keyContext] = await loadKeyContexts(
    {
      projectId: input.projectId,
      sourceLanguageId: cell.source.id,
      sourceLanguage: cell.source.key,
      targetLanguageId: cell.target.id,
      targetLanguage: cell.target.key,
    },
    [{ id: cell.key.id, source: cell.sourceText }],
    { projectId: input.projectId, projectIds: [input.projectId], memoryIds: [] },
  );
  const limit = cell.key.charactersLimit;
  const document = {
    ...(context.description && { project: { description: context.description } }),
    ...(context.style && { styleInstructions: context.style }),
    language: cell.target.key,
    key: cell.key.key,
    ...(keyContext?.description && { description: keyContext.description }),
    ...(limit !== null && { maxCharacters: limit }),
    sourceText: cell.sourceText,
    rules: formatRules(input.text, cell.target.key),
    ...(keyContext?.glossary.length && { glossary: keyContext.glossary.map(glossaryEntry) }),
    text: input.text,
  };
  const prompt = {
    system: [
      `You edit user-interface texts in ${cell.target.key}. ${INSTRUCTIONS[input.mode](limit)}`,
      'Keep every placeholder, ICU argument and tag of the text exactly as written. The user message is a JSON document with the text and its context.',
      'Reply with only a JSON object {"text": "<the rewritten text>"}.',
    ].join('\n'),
    user: JSON.stringify(document, null, 1),
    schema: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    },
    schemaName: 'rewrite',
  };
  const result = await client.completeJson(
    prompt,
    (json) => {
      const text = (json as { text?: unknown })?.text;
      if (typeof text !== 'string') throw new Error('no "text" string');
      return text;
    },
    input.signal,
  );
  const problems = cell.sourceText
    ? blockingProblems({
        source: cell.sourceText,
        target: result.value,
        sourceLanguage: cell.source.key,
        targetLanguage: cell.target.key,
        charactersLimit: limit,
        glossary: keyContext?.glossary,
      })
    : [];
  return {
    text: result.value,
    provider: client.config.provider,
    model: client.config.model,
    problems,
    inputTokens: result.inputTokens,
    outputTokens: result.outputTokens,
  };
}

// Language models (src/llm/, docs/llm-translation.md): what a project tells the
// model (description, style per language), its own settings of each model
// provider, and the editor's assistant on one cell (suggest, rewrite).
import { builder } from '../builder.js';
import { badRequest } from '../errors.js';
import { resolveLanguageSettings } from '../jobs/language-settings.js';
import { readLlmSettings, setLlmSettings, type LlmSettingsView } from '../jobs/llm-settings.js';
import { llmClientForProject } from '../jobs/provider.js';
import { REWRITE_MODES, rewriteText, suggestTranslation, type Proposal } from '../llm/assist.js';
import { readTranslationContext, setTranslationContext, type TranslationContextView } from '../llm/context-settings.js';
import { instanceProvider } from '../mt/config.js';
import { LLM_PROVIDER_IDS, isLlmProviderId, type LlmProviderId } from '../mt/types.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';

/** Someone is waiting in the editor: one retry, no long waits for Retry-After. */
const EDITOR_RETRY = { maxAttempts: 2, maxRetryAfterMs: 5_000 };

const LlmProviderEnum = builder.enumType('LlmProvider', {
  description:
    'LLM_OPENAI: OpenAI-compatible chat completions (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp, LM Studio); LLM_ANTHROPIC: Anthropic messages.',
  values: LLM_PROVIDER_IDS,
});

const RewriteModeEnum = builder.enumType('RewriteMode', { values: REWRITE_MODES });

const StyleType = builder.objectRef<TranslationContextView['styles'][number]>('LanguageStyle').implement({
  fields: (t) => ({ languageKey: t.exposeString('languageKey'), instructions: t.exposeString('instructions') }),
});

const TranslationContextType = builder.objectRef<TranslationContextView>('TranslationContext').implement({
  description:
    "What language models are told about the project: its description and each language's style instructions.",
  fields: (t) => ({
    description: t.exposeString('description'),
    styles: t.field({ type: [StyleType], resolve: (c) => c.styles }),
  }),
});

const StyleInput = builder.inputType('LanguageStyleInput', {
  fields: (t) => ({
    languageKey: t.string({ required: true }),
    instructions: t.string({ required: true, description: 'Formality, tone, terms to keep; empty removes them.' }),
  }),
});

const LlmSettingsType = builder.objectRef<LlmSettingsView>('LlmProviderSettings').implement({
  description:
    "A project's own settings of a language-model provider; null fields take the instance's (environment). The API key is set with setProviderApiKey.",
  fields: (t) => ({
    provider: t.field({ type: LlmProviderEnum, resolve: (s) => s.provider }),
    url: t.exposeString('url', { nullable: true }),
    model: t.exposeString('model', { nullable: true }),
    headerNames: t.exposeStringList('headerNames', {
      description: 'Names of the extra headers; their values are never returned.',
    }),
    responseFormat: t.exposeString('responseFormat', { nullable: true }),
    priceInput: t.exposeFloat('priceInput', { nullable: true, description: 'Per million input tokens.' }),
    priceOutput: t.exposeFloat('priceOutput', { nullable: true, description: 'Per million output tokens.' }),
    screenshots: t.exposeBoolean('screenshots', {
      nullable: true,
      description: "Whether the keys' screenshots are sent as images; null: the instance's setting.",
    }),
  }),
});

// A list of pairs, not a JSON object: GraphQL checks its shape, and no error quotes a value (a key, often).
const LlmHeaderInput = builder.inputType('LlmHeaderInput', {
  description: 'An extra header of the requests to the model server.',
  fields: (t) => ({
    name: t.string({
      required: true,
      description: "A header name (letters, digits, !#$%&'*+.^_`|~-); not Host, Content-Length or Content-Type.",
    }),
    value: t.string({ required: true, description: 'Write-only: never returned, never quoted in an error.' }),
  }),
});

const LlmSettingsInput = builder.inputType('LlmProviderSettingsInput', {
  fields: (t) => ({
    url: t.string({
      required: false,
      description:
        'Base URL (e.g. http://ollama.internal:11434); a private address needs LLM_ALLOW_PRIVATE on the instance.',
    }),
    model: t.string({ required: false }),
    headers: t.field({
      type: [LlmHeaderInput],
      required: false,
      description:
        'Extra headers (stored sealed). Left out: the stored headers stay; null or an empty list removes them.',
    }),
    responseFormat: t.string({
      required: false,
      description: 'LLM_OPENAI: json_schema, json_object or none. LLM_ANTHROPIC: tool or none.',
    }),
    priceInput: t.float({ required: false }),
    priceOutput: t.float({ required: false }),
    screenshots: t.boolean({
      required: false,
      description: "Send the keys' screenshots as images (a vision model); null: the instance's setting.",
    }),
  }),
});

const ProposalType = builder.objectRef<Proposal>('LlmProposal').implement({
  description: "A language model's proposal for a cell; nothing is written.",
  fields: (t) => ({
    text: t.exposeString('text', {
      nullable: true,
      description: 'null when the model gave nothing that passed the checks (see problems).',
    }),
    provider: t.field({ type: LlmProviderEnum, resolve: (p) => p.provider as LlmProviderId }),
    model: t.exposeString('model'),
    source: t.string({
      description: 'Where the proposal came from, to show beside it.',
      resolve: (p) => `${p.provider === 'LLM_OPENAI' ? 'OpenAI-compatible' : 'Anthropic'} model ${p.model}`,
    }),
    problems: t.exposeStringList('problems', { description: 'Errors the quality checks find in the text.' }),
    inputTokens: t.exposeInt('inputTokens'),
    outputTokens: t.exposeInt('outputTokens'),
  }),
});

/** The model for the editor: the one asked for, else the language's auto-translation provider, else the instance's, when it is a language model. */
async function editorProvider(
  projectId: number,
  languageKey: string,
  asked: LlmProviderId | null | undefined,
): Promise<LlmProviderId> {
  if (asked) return asked;
  const settings = (await resolveLanguageSettings(projectId)).find((s) => s.languageKey === languageKey);
  if (isLlmProviderId(settings?.translationProvider)) return settings.translationProvider;
  const instance = instanceProvider(new Set());
  if (isLlmProviderId(instance)) return instance;
  throw badRequest(
    `No language model for '${languageKey}': give provider, or choose LLM_OPENAI or LLM_ANTHROPIC in the language's auto-translation settings`,
  );
}

builder.queryFields((t) => ({
  translationContext: t.field({
    type: TranslationContextType,
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      readTranslationContext(await resolveProject(ctx.principal, args.projectToken, need('translationContext'))),
  }),
  llmProviderSettings: t.field({
    type: LlmSettingsType,
    args: {
      projectToken: t.arg.string({ required: false }),
      provider: t.arg({ type: LlmProviderEnum, required: true }),
    },
    resolve: async (_root, args, ctx) =>
      readLlmSettings(
        await resolveProject(ctx.principal, args.projectToken, need('llmProviderSettings')),
        args.provider,
      ),
  }),
}));

builder.mutationFields((t) => ({
  setTranslationContext: t.field({
    type: TranslationContextType,
    description:
      "Sets the project's description (when given) and style instructions of the languages named, for language models.",
    args: {
      projectToken: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      styles: t.arg({ type: [StyleInput], required: false }),
    },
    resolve: async (_root, args, ctx) =>
      setTranslationContext(
        await resolveProject(ctx.principal, args.projectToken, need('setTranslationContext')),
        args,
      ),
  }),
  setLlmProviderSettings: t.field({
    type: LlmSettingsType,
    description:
      "Replaces the project's own settings of a language-model provider (a field left out: the instance's; headers left out: kept).",
    args: {
      projectToken: t.arg.string({ required: false }),
      provider: t.arg({ type: LlmProviderEnum, required: true }),
      settings: t.arg({ type: LlmSettingsInput, required: true }),
    },
    resolve: async (_root, args, ctx) =>
      setLlmSettings(
        await resolveProject(ctx.principal, args.projectToken, need('setLlmProviderSettings')),
        args.provider,
        args.settings,
      ),
  }),
  suggestTranslation: t.field({
    type: ProposalType,
    description:
      "A language model's translation of a key into a language, with the key's context and checked like a job's; nothing is written.",
    args: {
      projectToken: t.arg.string({ required: false }),
      key: t.arg.string({ required: true }),
      namespace: t.arg.string({ required: false }),
      languageKey: t.arg.string({ required: true }),
      provider: t.arg({ type: LlmProviderEnum, required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('suggestTranslation'), {
        languages: [args.languageKey],
      });
      const client = await llmClientForProject(
        projectId,
        await editorProvider(projectId, args.languageKey, args.provider),
        { jobId: null, retry: EDITOR_RETRY },
      );
      return suggestTranslation(client, {
        projectId,
        key: args.key,
        namespace: args.namespace,
        languageKey: args.languageKey,
      });
    },
  }),
  rewriteTranslation: t.field({
    type: ProposalType,
    description:
      "A language model rewrites a text of a cell (REPHRASE, SHORTEN to the key's limit, MORE_FORMAL, LESS_FORMAL); nothing is written.",
    args: {
      projectToken: t.arg.string({ required: false }),
      key: t.arg.string({ required: true }),
      namespace: t.arg.string({ required: false }),
      languageKey: t.arg.string({ required: true }),
      text: t.arg.string({ required: true }),
      mode: t.arg({ type: RewriteModeEnum, required: true }),
      provider: t.arg({ type: LlmProviderEnum, required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('rewriteTranslation'), {
        languages: [args.languageKey],
      });
      const client = await llmClientForProject(
        projectId,
        await editorProvider(projectId, args.languageKey, args.provider),
        { jobId: null, retry: EDITOR_RETRY },
      );
      return rewriteText(client, {
        projectId,
        key: args.key,
        namespace: args.namespace,
        languageKey: args.languageKey,
        text: args.text,
        mode: args.mode,
      });
    },
  }),
}));

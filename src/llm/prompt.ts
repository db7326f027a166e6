// The prompt of one request: a system message with the task and the rules,
// a user message holding a JSON document (project, style, languages, and one
// item per text with its context and format rules), and the JSON schema the
// reply must follow: {"translations": [{"id", "text"}]}.
import { TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { readTags } from '../checks/markup.js';
import { readPlaceholders } from '../checks/placeholders.js';
import { pluralElements, pluralNeeds } from '../checks/plurals.js';
import type { LlmPrompt, PromptImage } from '../mt/llm/protocol.js';
import type { KeyContext } from './context.js';

export interface PromptHeader {
  projectDescription: string;
  style: string;
  sourceLanguage: string;
  targetLanguage: string;
}

export interface PromptItem {
  id: string;
  context: KeyContext;
  /** A previous answer that failed validation, and why: the retry names the failure. */
  previous?: { text: string; problems: string[] };
  /** The request's images showing this text: image number (1-based) and the box around the text, in that image's pixels. */
  screenshots?: { image: number; box: { x: number; y: number; width: number; height: number } }[];
}

export const REPLY_SCHEMA = {
  type: 'object',
  properties: {
    translations: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, text: { type: 'string' } },
        required: ['id', 'text'],
        additionalProperties: false,
      },
    },
  },
  required: ['translations'],
  additionalProperties: false,
} as const;

function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag.replace(/_/g, '-'));
    return name && name !== tag ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}

function hasSelectOrdinal(elements: MessageFormatElement[] | null): boolean {
  return pluralElements(elements).some((p) => p.pluralType === 'ordinal');
}

/** Format rules of a source text for the target language: what must survive, which plural categories are needed. */
export function formatRules(source: string, targetLanguage: string): Record<string, unknown> {
  const reading = readPlaceholders(source, 'auto');
  const rules: Record<string, unknown> = {};
  // Simple ICU arguments ({name}) are placeholders too; plural/select heads and # are covered by the ICU rules.
  const placeholders = [
    ...new Set(
      reading.tokens.filter((t) => !t.icu || (t.raw.startsWith('{') && !t.raw.endsWith('…}'))).map((t) => t.raw),
    ),
  ];
  if (placeholders.length) rules.placeholders = placeholders;
  if (
    reading.icu &&
    reading.icu.some((e) => e.type === TYPE.plural || e.type === TYPE.select || pluralElements([e]).length > 0)
  ) {
    const args = [
      ...new Set(reading.tokens.filter((t) => t.icu && t.key !== 'icu:#').map((t) => t.key.replace(/^icu:/, ''))),
    ];
    rules.icu = {
      arguments: args,
      note: 'ICU MessageFormat: keep argument names, types and keywords (plural, select, selectordinal, offset, #) unchanged; translate only the texts inside the branches',
    };
    const plurals = pluralElements(reading.icu);
    if (plurals.some((p) => p.pluralType !== 'ordinal')) {
      rules.pluralCategories = pluralNeeds(targetLanguage).needed;
      rules.pluralNote = `the plural branches must be exactly the CLDR categories ${targetLanguage} needs: ${pluralNeeds(targetLanguage).needed.join(', ')} (=N branches of the source may stay)`;
    }
    if (hasSelectOrdinal(reading.icu)) rules.ordinalCategories = pluralNeeds(targetLanguage, true).needed;
  }
  const tags = [...new Set(readTags(reading.prose).map((t) => source.slice(t.start, t.end)))];
  if (tags.length) rules.tags = tags;
  return rules;
}

/** A glossary term as the model reads it: what to write, or what never to write. */
export function glossaryEntry(term: KeyContext['glossary'][number]): Record<string, unknown> {
  const out: Record<string, unknown> = { term: term.term };
  if (term.forbidden) out.rule = 'forbidden: never use this term in the translation';
  else if (term.doNotTranslate) out.rule = 'keep as written, do not translate';
  else if (term.translation !== null) out.translation = term.translation;
  if (term.description) out.description = term.description;
  return out;
}

function itemOf(item: PromptItem, targetLanguage: string): Record<string, unknown> {
  const c = item.context;
  const out: Record<string, unknown> = { id: item.id, key: c.key };
  if (c.namespace) out.namespace = c.namespace;
  if (c.description) out.description = c.description;
  if (c.charactersLimit !== null) out.maxCharacters = c.charactersLimit;
  out.source = c.source;
  const rules = formatRules(c.source, targetLanguage);
  if (Object.keys(rules).length) out.rules = rules;
  if (c.otherLanguages.length) out.reviewedTranslations = c.otherLanguages;
  if (c.memory.length) out.memoryMatches = c.memory;
  if (c.glossary.length) out.glossary = c.glossary.map(glossaryEntry);
  if (item.screenshots?.length) out.screenshots = item.screenshots;
  if (c.neighbours.length)
    out.neighbouringKeys = c.neighbours.map((n) => (n.translation === null ? { key: n.key, source: n.source } : n));
  if (item.previous) {
    out.previousAttempt = { text: item.previous.text, rejectedBecause: item.previous.problems };
  }
  return out;
}

export function translationPrompt(
  header: PromptHeader,
  items: readonly PromptItem[],
  images: readonly PromptImage[] = [],
): LlmPrompt {
  const system = [
    `You are a professional software localizer. Translate user-interface texts from ${languageName(header.sourceLanguage)} to ${languageName(header.targetLanguage)}.`,
    'The user message is a JSON document: the project, style instructions, and items, each with the source text and its context (key name, description, reviewed translations in other languages, neighbouring keys, translation-memory matches, glossary terms).',
    'Rules:',
    "- Keep every placeholder listed in an item's rules.placeholders exactly as written (same characters); move it where the grammar needs it.",
    '- Keep HTML/XML tags listed in rules.tags, with their attributes, properly nested.',
    '- ICU MessageFormat: keep argument names and keywords; write exactly the plural categories listed in rules.pluralCategories.',
    '- Respect maxCharacters when given (count characters of the whole translation).',
    '- Use the memory matches and reviewed translations for consistent terminology; follow the style instructions.',
    '- An item\'s glossary is binding: write each term as its translation, keep terms marked "keep as written" unchanged, never use a forbidden term.',
    '- When an item has previousAttempt, that answer was rejected for the reasons given: fix them.',
    ...(images.length
      ? [
          "- Images are screenshots of the application, numbered from 1 in the order attached. An item's screenshots give the image and the box (pixels) where its text appears, also outlined on the image and labelled with the item id: use them to understand where the text is shown and how much room it has.",
        ]
      : []),
    'Reply with only a JSON object {"translations": [{"id": "<item id>", "text": "<translation>"}]}, one entry per item, no commentary.',
  ].join('\n');
  const document: Record<string, unknown> = {};
  if (header.projectDescription) document.project = { description: header.projectDescription };
  if (header.style) document.styleInstructions = header.style;
  document.sourceLanguage = header.sourceLanguage;
  document.targetLanguage = header.targetLanguage;
  document.items = items.map((i) => itemOf(i, header.targetLanguage));
  return {
    system,
    user: JSON.stringify(document, null, 1),
    ...(images.length ? { images } : {}),
    schema: REPLY_SCHEMA as unknown as Record<string, unknown>,
    schemaName: 'translations',
  };
}

/** The translations of a reply by item id; throws when the reply does not have the expected shape. */
export function readTranslations(json: unknown): Map<string, string> {
  const list = (json as { translations?: unknown })?.translations;
  if (!Array.isArray(list)) throw new Error('no "translations" array');
  const out = new Map<string, string>();
  for (const entry of list) {
    const { id, text } = (entry ?? {}) as { id?: unknown; text?: unknown };
    if (typeof id === 'string' && typeof text === 'string') out.set(id, text);
  }
  if (out.size === 0 && list.length > 0) throw new Error('no entry with a string "id" and "text"');
  return out;
}

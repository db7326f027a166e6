// What a project tells the language model about itself: a description of the
// product and, per language, style instructions (formality, tone, "keep brand
// names"). Stored in the project's settings (translationContext), the styles
// by language id so a renamed language keeps its instructions.
import { prisma } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { readSettings, updateSettings, type ProjectSettings } from '../projects/settings.js';

export const MAX_DESCRIPTION = 4000;
export const MAX_STYLE = 2000;

interface StoredContext {
  description?: string;
  styles?: Record<string, string>;
}

export interface TranslationContextView {
  description: string;
  styles: { languageKey: string; instructions: string }[];
}

function stored(settings: ProjectSettings): StoredContext {
  return (settings.translationContext ?? {}) as StoredContext;
}

/** The description and the style instructions of one language (empty strings when none). */
export async function contextFor(
  projectId: number,
  languageId: number,
): Promise<{ description: string; style: string }> {
  const context = stored(await readSettings(projectId));
  return { description: context.description ?? '', style: context.styles?.[String(languageId)] ?? '' };
}

export async function readTranslationContext(projectId: number): Promise<TranslationContextView> {
  const [settings, languages] = await Promise.all([
    readSettings(projectId),
    prisma().language.findMany({
      where: { projectId },
      select: { id: true, key: true },
      orderBy: [{ order: 'asc' }, { id: 'asc' }],
    }),
  ]);
  const context = stored(settings);
  return {
    description: context.description ?? '',
    styles: languages
      .filter((l) => context.styles?.[String(l.id)])
      .map((l) => ({ languageKey: l.key, instructions: context.styles![String(l.id)]! })),
  };
}

/**
 * Sets the description (when given) and the style instructions of languages
 * (an empty text removes them). All checked before anything is written.
 */
export async function setTranslationContext(
  projectId: number,
  input: { description?: string | null; styles?: readonly { languageKey: string; instructions: string }[] | null },
): Promise<TranslationContextView> {
  if (input.description != null && input.description.length > MAX_DESCRIPTION)
    throw badRequest(`description must have at most ${MAX_DESCRIPTION} characters`);
  const languages = await prisma().language.findMany({ where: { projectId }, select: { id: true, key: true } });
  const changes: [string, string][] = [];
  for (const style of input.styles ?? []) {
    const language = languages.find((l) => l.key === style.languageKey);
    if (!language) throw notFound(`Language '${style.languageKey}' not found`);
    if (style.instructions.length > MAX_STYLE)
      throw badRequest(`instructions must have at most ${MAX_STYLE} characters`);
    changes.push([String(language.id), style.instructions.trim()]);
  }
  const current = stored(await readSettings(projectId));
  const styles = { ...(current.styles ?? {}) };
  for (const [id, text] of changes) {
    if (text) styles[id] = text;
    else delete styles[id];
  }
  const next: StoredContext = {
    description: input.description != null ? input.description.trim() : (current.description ?? ''),
    styles,
  };
  await updateSettings(projectId, { translationContext: next });
  return readTranslationContext(projectId);
}

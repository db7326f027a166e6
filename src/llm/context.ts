// The context sent with each text, chosen per key (docs/llm-translation.md):
// the key (name, namespace, description, characters limit), its reviewed texts
// in the other languages, a few neighbouring keys of its namespace with their
// translations, and the translation-memory matches of this text only. Read
// set-based for a batch of keys (one statement for keys and languages, one for
// neighbours); the memory is asked once per text (src/memory/suggest.ts).
//
// Glossary: the terms that occur in the text (src/glossary, glossaryMatches),
// per text like the memory, never the whole glossary; prompt.ts sends them and
// validate.ts blocks a translation that misses a required term or uses a
// forbidden one (the glossary check of src/checks).
//
// Screenshots: when the provider sends images (LLM_<P>_SCREENSHOTS), the two
// latest screenshots marking each key, with the key's rectangle; translate.ts
// sends each screenshot once per request (screenshots/for-model.ts).
import { Prisma } from '../generated/prisma/client.js';
import { arrayLiteral } from '../db/array-literal.js';
import { prisma } from '../db.js';
import { memoryScope, type MemoryScope } from '../memory/scope.js';
import { suggest } from '../memory/suggest.js';
import { glossaryMatches } from '../glossary/index.js';
import type { GlossaryCheckTerm } from '../checks/glossary.js';

export interface KeyContext {
  keyId: number;
  key: string;
  namespace: string;
  description: string;
  charactersLimit: number | null;
  /** The text to translate. */
  source: string;
  /** Reviewed texts of the key in languages other than source and target. */
  otherLanguages: { language: string; text: string }[];
  /** Keys next to this one (by name) in its namespace. */
  neighbours: { key: string; source: string; translation: string | null }[];
  /** Memory matches for this text (score ≥ MEMORY_MIN_SCORE). */
  memory: { source: string; translation: string; score: number }[];
  /** Glossary terms found in this text (see above). */
  glossary: (GlossaryCheckTerm & { description: string })[];
  /** Screenshots showing the key (empty unless asked for). */
  screenshots: KeyScreenshotRef[];
}

export interface KeyScreenshotRef {
  screenshotId: number;
  storageFolder: string;
  width: number;
  height: number;
  rectangle: { x: number; y: number; width: number; height: number };
}

export interface LanguagePair {
  projectId: number;
  sourceLanguageId: number;
  sourceLanguage: string;
  targetLanguageId: number;
  targetLanguage: string;
}

const NEIGHBOURS_EACH_SIDE = 2;
const MEMORY_MATCHES = 3;
export const MEMORY_MIN_SCORE = 75;
const OTHER_LANGUAGES = 5;
const SCREENSHOTS_PER_KEY = 2;

/** The project's memory as the project itself sees it (its texts and the memories it reads). */
export function projectMemoryScope(projectId: number): Promise<MemoryScope> {
  return memoryScope({ kind: 'project', projectId, scheme: 'apiKey' }, projectId);
}

/** Context of each key, in the order of `keys`; `source` is the text to translate (the key's source text or its name). */
export async function loadKeyContexts(
  pair: LanguagePair,
  keys: readonly { id: number; source: string }[],
  scope: MemoryScope,
  options: { screenshots?: boolean } = {},
): Promise<KeyContext[]> {
  if (keys.length === 0) return [];
  const ids = arrayLiteral(keys.map((k) => k.id));
  const [meta, others, neighbours, defaultLanguage, shots] = await Promise.all([
    prisma().$queryRaw<
      { id: number; key: string; namespace: string; description: string; charactersLimit: number | null }[]
    >(Prisma.sql`/* llm:key-context */
      SELECT id, key, namespace, description, "charactersLimit" FROM "TranslationKey"
       WHERE "projectId" = ${pair.projectId} AND id = ANY(${ids}::int[])`),
    prisma().$queryRaw<{ keyId: number; language: string; text: string }[]>(Prisma.sql`/* llm:other-languages */
      SELECT t."keyId", l.key AS language, t.text FROM "Translation" t JOIN "Language" l ON l.id = t."languageId"
       WHERE t."projectId" = ${pair.projectId} AND t."keyId" = ANY(${ids}::int[])
         AND t."reviewStatus" = 'REVIEWED' AND t.text <> ''
         AND t."languageId" NOT IN (${pair.sourceLanguageId}, ${pair.targetLanguageId})
       ORDER BY t."keyId", l."order", l.id`),
    prisma().$queryRaw<
      { forKey: number; key: string; source: string; translation: string | null }[]
    >(Prisma.sql`/* llm:neighbours */
      SELECT b.id AS "forKey", n.key, coalesce(s.text, '') AS source, nullif(t.text, '') AS translation
        FROM "TranslationKey" b
        CROSS JOIN LATERAL (
          (SELECT k.id, k.key FROM "TranslationKey" k WHERE k."projectId" = b."projectId" AND k.namespace = b.namespace AND k.key < b.key ORDER BY k.key DESC LIMIT ${NEIGHBOURS_EACH_SIDE})
          UNION ALL
          (SELECT k.id, k.key FROM "TranslationKey" k WHERE k."projectId" = b."projectId" AND k.namespace = b.namespace AND k.key > b.key ORDER BY k.key LIMIT ${NEIGHBOURS_EACH_SIDE})
        ) n
        LEFT JOIN "Translation" s ON s."keyId" = n.id AND s."languageId" = ${pair.sourceLanguageId}
        LEFT JOIN "Translation" t ON t."keyId" = n.id AND t."languageId" = ${pair.targetLanguageId}
       WHERE b."projectId" = ${pair.projectId} AND b.id = ANY(${ids}::int[])
       ORDER BY b.id, n.key`),
    prisma().language.findFirst({ where: { projectId: pair.projectId, isDefault: true }, select: { id: true } }),
    options.screenshots
      ? prisma().$queryRaw<
          {
            keyId: number;
            screenshotId: number;
            storageFolder: string;
            width: number;
            height: number;
            x: number;
            y: number;
            w: number;
            h: number;
          }[]
        >(Prisma.sql`/* llm:key-screenshots */
        SELECT ks."keyId", s.id AS "screenshotId", s."storageFolder", s.width, s.height, ks.x, ks.y, ks.width AS w, ks.height AS h
          FROM (SELECT *, row_number() OVER (PARTITION BY "keyId" ORDER BY id DESC) AS rank FROM "KeyScreenshot" WHERE "keyId" = ANY(${ids}::int[])) ks
          JOIN "Screenshot" s ON s.id = ks."screenshotId"
         WHERE ks.rank <= ${SCREENSHOTS_PER_KEY} AND s."projectId" = ${pair.projectId}
         ORDER BY ks."keyId", ks.id DESC`)
      : Promise.resolve([]),
  ]);
  const metaOf = new Map(meta.map((m) => [m.id, m]));
  const contexts: KeyContext[] = [];
  for (const { id, source } of keys) {
    const m = metaOf.get(id);
    if (!m) continue;
    // The memory pairs the default language with the target: only a job from the default language can use it.
    const memory =
      defaultLanguage?.id === pair.sourceLanguageId && source.trim()
        ? await suggest(scope, {
            text: source,
            sourceLanguage: pair.sourceLanguage,
            targetLanguage: pair.targetLanguage,
            key: { id, key: m.key, namespace: m.namespace },
            limit: MEMORY_MATCHES,
            minScore: MEMORY_MIN_SCORE,
          })
        : [];
    const glossary = source.trim()
      ? await glossaryMatches(pair.projectId, pair.sourceLanguage, pair.targetLanguage, source)
      : [];
    contexts.push({
      keyId: id,
      key: m.key,
      namespace: m.namespace,
      description: m.description,
      charactersLimit: m.charactersLimit,
      source,
      otherLanguages: others
        .filter((o) => o.keyId === id)
        .slice(0, OTHER_LANGUAGES)
        .map((o) => ({ language: o.language, text: o.text })),
      neighbours: neighbours
        .filter((n) => n.forKey === id)
        .map((n) => ({ key: n.key, source: n.source, translation: n.translation })),
      memory: memory.map((s) => ({ source: s.source, translation: s.text, score: s.score })),
      glossary: glossary.map(({ term, translation }) => ({
        term: term.term,
        translation,
        forbidden: term.forbidden,
        doNotTranslate: term.doNotTranslate,
        caseSensitive: term.caseSensitive,
        abbreviation: term.abbreviation,
        description: term.description,
      })),
      screenshots: shots
        .filter((r) => r.keyId === id)
        .map((r) => ({
          screenshotId: r.screenshotId,
          storageFolder: r.storageFolder,
          width: r.width,
          height: r.height,
          rectangle: { x: r.x, y: r.y, width: r.w, height: r.h },
        })),
    });
  }
  return contexts;
}

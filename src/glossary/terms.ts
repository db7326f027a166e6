// Glossary terms: the rules of a term (docs/glossary.md), listing and
// searching, and the writes. A change to a project's own glossary is an entry
// of the project's activity log, in the transaction that makes it.
import { Prisma } from '../generated/prisma/client.js';
import type { Principal } from '../auth/principal.js';
import { arrayLiteral } from '../db/array-literal.js';
import { prisma, type Db } from '../db.js';
import { badRequest, conflict, isUniqueViolation } from '../errors.js';
import { openChange, type Change } from '../content/changes.js';
import { recordAfter, recordBefore } from './history.js';
import { reachGlossary, reachTerm, type GlossaryTarget, type ReachedGlossary } from './access.js';
import type { GlossaryTermFields } from './term-fields.js';

export const TERM_LIMITS = { term: 500, description: 2000, partOfSpeech: 50, translation: 500, languages: 200 };
const LANGUAGE_KEY = /^[A-Za-z0-9][A-Za-z0-9_@.-]{0,34}$/;

export interface TermInput {
  term: string;
  description?: string | null;
  partOfSpeech?: string | null;
  forbidden?: boolean | null;
  doNotTranslate?: boolean | null;
  caseSensitive?: boolean | null;
  abbreviation?: boolean | null;
  /** Replaces the term's translations when given. */
  translations?: { language: string; text: string }[] | null;
}

export interface TermView extends GlossaryTermFields {
  glossaryId: number;
  updatedAt: Date;
  translations: { language: string; text: string }[];
}

export interface CheckedTerm {
  term: string;
  description: string;
  partOfSpeech: string;
  forbidden: boolean;
  doNotTranslate: boolean;
  caseSensitive: boolean;
  abbreviation: boolean;
  translations: { language: string; text: string }[] | null;
}

function text(value: string | null | undefined, field: string, max: number): string {
  const trimmed = (value ?? '').trim();
  if (trimmed.length > max) throw badRequest(`${field}: at most ${max} characters`);
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(trimmed))
    throw badRequest(`${field}: control characters are not allowed`);
  return trimmed;
}

/** The term as stored, or BAD_REQUEST naming the field at fault (`at` says where, for files). */
export function checkTerm(input: TermInput, at = ''): CheckedTerm {
  const where = at ? `${at}: ` : '';
  const term = text(input.term, `${where}term`, TERM_LIMITS.term).normalize('NFC');
  if (!term) throw badRequest(`${where}term: must not be empty`);
  if (/[\r\n]/.test(term)) throw badRequest(`${where}term: one line`);
  let translations: CheckedTerm['translations'] = null;
  if (input.translations) {
    if (input.translations.length > TERM_LIMITS.languages)
      throw badRequest(`${where}translations: at most ${TERM_LIMITS.languages} languages`);
    const seen = new Set<string>();
    translations = [];
    for (const t of input.translations) {
      if (!LANGUAGE_KEY.test(t.language))
        throw badRequest(`${where}translations: "${t.language.slice(0, 40)}" is not a language key`);
      if (seen.has(t.language)) throw badRequest(`${where}translations: ${t.language} given twice`);
      seen.add(t.language);
      const value = text(t.text, `${where}translations.${t.language}`, TERM_LIMITS.translation).normalize('NFC');
      if (value) translations.push({ language: t.language, text: value });
    }
  }
  const forbidden = input.forbidden ?? false;
  const doNotTranslate = input.doNotTranslate ?? false;
  if (forbidden && doNotTranslate) throw badRequest(`${where}a term cannot be both forbidden and do-not-translate`);
  return {
    term,
    description: text(input.description, `${where}description`, TERM_LIMITS.description),
    partOfSpeech: text(input.partOfSpeech, `${where}partOfSpeech`, TERM_LIMITS.partOfSpeech),
    forbidden,
    doNotTranslate,
    caseSensitive: input.caseSensitive ?? false,
    abbreviation: input.abbreviation ?? false,
    translations,
  };
}

const TERM_SELECT = {
  id: true,
  glossaryId: true,
  term: true,
  description: true,
  partOfSpeech: true,
  forbidden: true,
  doNotTranslate: true,
  caseSensitive: true,
  abbreviation: true,
  updatedAt: true,
  translations: { select: { language: true, text: true }, orderBy: { language: 'asc' } },
} as const satisfies Prisma.GlossaryTermSelect;

export async function termsById(ids: number[], db: Db = prisma()): Promise<TermView[]> {
  if (!ids.length) return [];
  const rows = await db.glossaryTerm.findMany({ where: { id: { in: ids } }, select: TERM_SELECT });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is TermView => !!r);
}

export interface TermPage {
  glossaryId: number;
  sourceLanguage: string;
  total: number;
  terms: TermView[];
}

export interface TermListOptions {
  search?: string | null;
  /** Each flag given keeps only the terms that have it (true) or lack it (false). */
  forbidden?: boolean | null;
  doNotTranslate?: boolean | null;
  caseSensitive?: boolean | null;
  first?: number | null;
  offset?: number | null;
}

/** A page of a glossary's terms in term order; `search` matches the term, its description or a translation (case-insensitive). */
export async function listTerms(
  principal: Principal,
  target: GlossaryTarget,
  options: TermListOptions,
): Promise<TermPage> {
  const glossary = await reachGlossary(principal, target, 'read');
  const first = options.first ?? 100;
  const offset = options.offset ?? 0;
  if (first < 1 || first > 1000) throw badRequest('first: 1 to 1000');
  if (offset < 0) throw badRequest('offset: 0 or more');
  const search = text(options.search, 'search', 200);
  const where: Prisma.GlossaryTermWhereInput = {
    glossaryId: glossary.glossaryId,
    ...(options.forbidden != null && { forbidden: options.forbidden }),
    ...(options.doNotTranslate != null && { doNotTranslate: options.doNotTranslate }),
    ...(options.caseSensitive != null && { caseSensitive: options.caseSensitive }),
    ...(search && {
      OR: [
        { term: { contains: search, mode: 'insensitive' } },
        { description: { contains: search, mode: 'insensitive' } },
        { translations: { some: { text: { contains: search, mode: 'insensitive' } } } },
      ],
    }),
  };
  const [total, terms] = await Promise.all([
    prisma().glossaryTerm.count({ where }),
    prisma().glossaryTerm.findMany({
      where,
      select: TERM_SELECT,
      orderBy: [{ term: 'asc' }, { id: 'asc' }],
      take: first,
      skip: offset,
    }),
  ]);
  return { glossaryId: glossary.glossaryId, sourceLanguage: glossary.sourceLanguage, total, terms };
}

/** Records a change of a project's glossary in its activity log (shared glossaries have no project log: null). */
export async function logGlossaryChange(
  tx: Db,
  glossary: ReachedGlossary,
  details: Record<string, unknown>,
  kind: 'SETTINGS' | 'IMPORT' = 'SETTINGS',
): Promise<Change | null> {
  if (glossary.projectId === null) return null;
  return openChange(tx, glossary.projectId, kind, { glossary: { ...details, glossaryId: glossary.glossaryId } });
}

function duplicate(error: unknown, term: string): never {
  if (isUniqueViolation(error)) throw conflict(`The glossary already has the term "${term}"`);
  throw error;
}

export async function createTerm(principal: Principal, target: GlossaryTarget, input: TermInput): Promise<TermView> {
  const glossary = await reachGlossary(principal, target, 'write');
  const term = checkTerm(input);
  const id = await prisma()
    .$transaction(async (tx) => {
      const { translations, ...fields } = term;
      const created = await tx.glossaryTerm.create({
        data: { ...fields, glossaryId: glossary.glossaryId, translations: { create: translations ?? [] } },
        select: { id: true },
      });
      await recordAfter(tx, await logGlossaryChange(tx, glossary, { created: term.term }), glossary.glossaryId, [
        created.id,
      ]);
      return created.id;
    })
    .catch((error: unknown) => duplicate(error, term.term));
  return (await termsById([id]))[0]!;
}

export async function updateTerm(
  principal: Principal,
  termId: number,
  input: TermInput,
  projectToken?: string | null,
): Promise<TermView> {
  const glossary = await reachTerm(principal, termId, 'write', projectToken);
  const term = checkTerm(input);
  await prisma()
    .$transaction(async (tx) => {
      const { translations, ...fields } = term;
      const change = await logGlossaryChange(tx, glossary, { updated: term.term });
      await recordBefore(tx, change, [termId]);
      await tx.glossaryTerm.update({ where: { id: termId }, data: fields });
      if (translations) {
        await tx.glossaryTranslation.deleteMany({ where: { termId } });
        if (translations.length)
          await tx.glossaryTranslation.createMany({ data: translations.map((t) => ({ ...t, termId })) });
      }
      await recordAfter(tx, change, glossary.glossaryId, [termId]);
    })
    .catch((error: unknown) => duplicate(error, term.term));
  return (await termsById([termId]))[0]!;
}

export async function deleteTerm(principal: Principal, termId: number, projectToken?: string | null): Promise<boolean> {
  const glossary = await reachTerm(principal, termId, 'write', projectToken);
  await prisma().$transaction(async (tx) => {
    const { term } = await tx.glossaryTerm.findUniqueOrThrow({ where: { id: termId }, select: { term: true } });
    const change = await logGlossaryChange(tx, glossary, { deleted: term });
    await recordBefore(tx, change, [termId]);
    await tx.glossaryTerm.delete({ where: { id: termId } });
    await recordAfter(tx, change, glossary.glossaryId, [termId]);
  });
  return true;
}

export interface TermWriteResult {
  created: number;
  updated: number;
}

/**
 * Writes many terms at once (imports), set-based; `terms` holds each (term,
 * part of speech) once. A term already in the glossary (same text and part
 * of speech) gets the file's fields, and the file's translations
 * replace its translations in the languages the file gives.
 */
export async function upsertTerms(
  tx: Db,
  glossaryId: number,
  terms: CheckedTerm[],
  change: Change | null = null,
): Promise<TermWriteResult> {
  let created = 0;
  let updated = 0;
  const CHUNK = 2000;
  for (let at = 0; at < terms.length; at += CHUNK) {
    const chunk = terms.slice(at, at + CHUNK);
    if (change) {
      const existing = await tx.$queryRaw<{ id: number }[]>(Prisma.sql`/* glossary:upsert-existing */
        SELECT g.id FROM "GlossaryTerm" g
          JOIN unnest(${arrayLiteral(chunk, (t) => t.term)}::text[], ${arrayLiteral(chunk, (t) => t.partOfSpeech)}::text[]) AS u(t, p) ON g.term = u.t AND g."partOfSpeech" = u.p
         WHERE g."glossaryId" = ${glossaryId}`);
      await recordBefore(
        tx,
        change,
        existing.map((e) => e.id),
      );
    }
    const rows = await tx.$queryRaw<
      { id: number; term: string; partOfSpeech: string; inserted: boolean }[]
    >(Prisma.sql`/* glossary:upsert-terms */
      INSERT INTO "GlossaryTerm" ("glossaryId", term, description, "partOfSpeech", forbidden, "doNotTranslate", "caseSensitive", abbreviation, "updatedAt")
      SELECT ${glossaryId}, t, d, p, f, n, c, a, now()
        FROM unnest(${arrayLiteral(chunk, (t) => t.term)}::text[], ${arrayLiteral(chunk, (t) => t.description)}::text[], ${arrayLiteral(chunk, (t) => t.partOfSpeech)}::text[],
                    ${arrayLiteral(chunk, (t) => t.forbidden)}::boolean[], ${arrayLiteral(chunk, (t) => t.doNotTranslate)}::boolean[],
                    ${arrayLiteral(chunk, (t) => t.caseSensitive)}::boolean[], ${arrayLiteral(chunk, (t) => t.abbreviation)}::boolean[]) AS u(t, d, p, f, n, c, a)
      ON CONFLICT ("glossaryId", term, "partOfSpeech") DO UPDATE SET description = EXCLUDED.description, forbidden = EXCLUDED.forbidden,
        "doNotTranslate" = EXCLUDED."doNotTranslate", "caseSensitive" = EXCLUDED."caseSensitive", abbreviation = EXCLUDED.abbreviation, "updatedAt" = now()
      RETURNING id, term, "partOfSpeech", (xmax = 0) AS inserted`);
    const idOf = new Map(rows.map((r) => [`${r.term}\u0000${r.partOfSpeech}`, r.id]));
    for (const r of rows) {
      if (r.inserted) created++;
      else updated++;
    }
    const pairs = chunk.flatMap((t) =>
      (t.translations ?? []).map((tr) => ({ termId: idOf.get(`${t.term}\u0000${t.partOfSpeech}`)!, ...tr })),
    );
    if (pairs.length) {
      await tx.$executeRaw(Prisma.sql`/* glossary:upsert-translations */
        INSERT INTO "GlossaryTranslation" ("termId", language, text)
        SELECT * FROM unnest(${arrayLiteral(pairs, (p) => p.termId)}::int[], ${arrayLiteral(pairs, (p) => p.language)}::text[], ${arrayLiteral(pairs, (p) => p.text)}::text[])
        ON CONFLICT ("termId", language) DO UPDATE SET text = EXCLUDED.text`);
    }
    await recordAfter(
      tx,
      change,
      glossaryId,
      rows.map((row) => row.id),
    );
  }
  return { created, updated };
}

/**
 * For terms an import has written already (a file giving a term again, in a
 * later batch): their translations in the languages the term still lacks;
 * the first reading of a term keeps its fields and other translations.
 */
export async function addMissingTranslations(
  tx: Db,
  glossaryId: number,
  terms: CheckedTerm[],
  change: Change | null = null,
): Promise<void> {
  const pairs = terms.flatMap((t) =>
    (t.translations ?? []).map((tr) => ({ term: t.term, pos: t.partOfSpeech, ...tr })),
  );
  if (!pairs.length) return;
  const added = await tx.$queryRaw<{ id: number }[]>(Prisma.sql`/* glossary:add-missing-translations */
    WITH added AS (
      INSERT INTO "GlossaryTranslation" ("termId", language, text)
      SELECT g.id, u.l, u.x
        FROM unnest(${arrayLiteral(pairs, (p) => p.term)}::text[], ${arrayLiteral(pairs, (p) => p.pos)}::text[],
                    ${arrayLiteral(pairs, (p) => p.language)}::text[], ${arrayLiteral(pairs, (p) => p.text)}::text[]) AS u(t, p, l, x)
        JOIN "GlossaryTerm" g ON g."glossaryId" = ${glossaryId} AND g.term = u.t AND g."partOfSpeech" = u.p
      ON CONFLICT ("termId", language) DO NOTHING
      RETURNING "termId")
    SELECT DISTINCT "termId" AS id FROM added`);
  await recordAfter(
    tx,
    change,
    glossaryId,
    added.map((r) => r.id),
  );
}

// Glossary (src/glossary/, docs/glossary.md): terms of a project's glossary or
// a shared one, the terms found in a text, shared glossaries and their links.
import { builder } from '../builder.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import { prisma } from '../db.js';
import { badRequest } from '../errors.js';
import { glossaryMatches, type GlossaryMatch } from '../glossary/index.js';
import { createTerm, deleteTerm, listTerms, updateTerm, type TermPage, type TermView } from '../glossary/terms.js';
import { exportGlossaryFile, importGlossary, type GlossaryImportResult } from '../glossary/files.js';
import { ExportedFileType } from './transfer.js';
import { termHistory, type TermHistoryEntry, type TermSnapshot } from '../glossary/term-history.js';
import { ActivityEntryType } from './activity.js';
import {
  createSharedGlossary,
  deleteSharedGlossary,
  linkProjectGlossary,
  listSharedGlossaries,
  projectGlossaries,
  type GlossaryView,
} from '../glossary/shared.js';

const TermTranslationType = builder.objectRef<{ language: string; text: string }>('GlossaryTermTranslation').implement({
  fields: (t) => ({
    language: t.exposeString('language', { description: 'A language key.' }),
    text: t.exposeString('text'),
  }),
});

const TermType = builder.objectRef<TermView>('GlossaryTerm').implement({
  description: 'A term of a glossary, in its source language, with its translations.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    glossaryId: t.exposeInt('glossaryId'),
    term: t.exposeString('term'),
    description: t.exposeString('description'),
    partOfSpeech: t.exposeString('partOfSpeech', {
      description: 'Free text (noun, verb, ...); TBX files use noun, verb, adjective, adverb, properNoun, other.',
    }),
    forbidden: t.exposeBoolean('forbidden', {
      description: 'Must not be used: the quality check flags it in a translation.',
    }),
    doNotTranslate: t.exposeBoolean('doNotTranslate', { description: 'Must appear unchanged in translations.' }),
    caseSensitive: t.exposeBoolean('caseSensitive', {
      description: 'Matches only as written (else case-insensitive).',
    }),
    abbreviation: t.exposeBoolean('abbreviation', {
      description: 'Matches only its exact words (no plural or inflection rule).',
    }),
    updatedAt: t.field({ type: 'DateTime', resolve: (x) => x.updatedAt }),
    translations: t.field({ type: [TermTranslationType], resolve: (x) => x.translations }),
  }),
});

const TermPageType = builder.objectRef<TermPage>('GlossaryTermPage').implement({
  fields: (t) => ({
    glossaryId: t.exposeInt('glossaryId'),
    sourceLanguage: t.exposeString('sourceLanguage'),
    total: t.exposeInt('total', { description: 'Terms matching the search in the glossary.' }),
    terms: t.field({ type: [TermType], resolve: (p) => p.terms }),
  }),
});

const MatchType = builder.objectRef<GlossaryMatch>('GlossaryMatch').implement({
  description: 'A glossary term found in a text.',
  fields: (t) => ({
    termId: t.int({ resolve: (m) => m.term.id }),
    glossaryId: t.int({ resolve: (m) => m.term.glossaryId }),
    term: t.string({ resolve: (m) => m.term.term }),
    description: t.string({ resolve: (m) => m.term.description }),
    partOfSpeech: t.string({ resolve: (m) => m.term.partOfSpeech }),
    forbidden: t.boolean({ resolve: (m) => m.term.forbidden }),
    doNotTranslate: t.boolean({ resolve: (m) => m.term.doNotTranslate }),
    caseSensitive: t.boolean({ resolve: (m) => m.term.caseSensitive }),
    abbreviation: t.boolean({ resolve: (m) => m.term.abbreviation }),
    translation: t.exposeString('translation', {
      nullable: true,
      description: 'For the target language (null: the glossary has none).',
    }),
    start: t.exposeInt('start', { description: 'First occurrence: UTF-16 offset in the text.' }),
    end: t.exposeInt('end'),
    text: t.exposeString('text', { description: 'The text as written there.' }),
    occurrences: t.exposeInt('occurrences'),
  }),
});

const GlossaryProjectType = builder.objectRef<GlossaryView['projects'][number]>('GlossaryProject').implement({
  fields: (t) => ({ projectToken: t.exposeString('projectToken'), projectName: t.exposeString('projectName') }),
});

export const GlossaryType = builder.objectRef<GlossaryView>('Glossary').implement({
  description: "A project's own glossary, or a shared one an account owns and links projects to.",
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    sourceLanguage: t.exposeString('sourceLanguage'),
    shared: t.boolean({ resolve: (g) => g.projectToken === null }),
    projectToken: t.exposeString('projectToken', {
      nullable: true,
      description: 'The project whose own glossary it is (null: shared).',
    }),
    terms: t.exposeInt('terms'),
    owned: t.boolean({
      description: 'A shared glossary the caller owns: it alone changes it, imports into it and links projects to it.',
      resolve: (g, _args, ctx) =>
        g.projectToken === null && ctx.principal.kind === 'account' && g.ownerId === ctx.principal.accountId,
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (g) => g.createdAt }),
    projects: t.field({
      type: [GlossaryProjectType],
      description: 'Projects linked to a shared glossary.',
      resolve: (g) => g.projects,
    }),
  }),
});

const TermSnapshotType = builder.objectRef<TermSnapshot>('GlossaryTermSnapshot').implement({
  description: 'A term as a change found or left it.',
  fields: (t) => ({
    term: t.exposeString('term'),
    description: t.exposeString('description'),
    partOfSpeech: t.exposeString('partOfSpeech'),
    forbidden: t.exposeBoolean('forbidden'),
    doNotTranslate: t.exposeBoolean('doNotTranslate'),
    caseSensitive: t.exposeBoolean('caseSensitive'),
    abbreviation: t.exposeBoolean('abbreviation'),
    translations: t.field({ type: [TermTranslationType], resolve: (x) => x.translations }),
  }),
});

const TermHistoryEntryType = builder.objectRef<TermHistoryEntry>('GlossaryTermHistoryEntry').implement({
  description:
    "A change of the project's activity log that touched a term; revertChange(activityId) reverts the whole change.",
  fields: (t) => ({
    change: t.field({ type: ActivityEntryType, resolve: (e) => e.change }),
    before: t.field({
      type: TermSnapshotType,
      nullable: true,
      description: 'null: the change created the term.',
      resolve: (e) => e.before,
    }),
    after: t.field({
      type: TermSnapshotType,
      nullable: true,
      description: 'null: the change deleted the term.',
      resolve: (e) => e.after,
    }),
  }),
});

const TermTranslationInput = builder.inputType('GlossaryTermTranslationInput', {
  fields: (t) => ({ language: t.string({ required: true }), text: t.string({ required: true }) }),
});

export const TermInput = builder.inputType('GlossaryTermInput', {
  fields: (t) => ({
    term: t.string({ required: true }),
    description: t.string({ required: false }),
    partOfSpeech: t.string({ required: false }),
    forbidden: t.boolean({ required: false }),
    doNotTranslate: t.boolean({ required: false }),
    caseSensitive: t.boolean({ required: false }),
    abbreviation: t.boolean({ required: false }),
    translations: t.field({
      type: [TermTranslationInput],
      required: false,
      description: 'Replaces the translations when given; an empty text removes one.',
    }),
  }),
});

builder.queryFields((t) => ({
  glossaries: t.field({
    type: [GlossaryType],
    description:
      'The glossaries whose terms count in the project: its own (once it has one) and the shared ones linked to it.',
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: (_root, args, ctx) => projectGlossaries(ctx.principal, args.projectToken),
  }),
  glossaryTerms: t.field({
    type: TermPageType,
    description:
      "A page of the terms of the project's own glossary, or of a glossary by id (a shared one its reader may see), in term order.",
    args: {
      projectToken: t.arg.string({ required: false }),
      glossaryId: t.arg.int({ required: false }),
      search: t.arg.string({
        required: false,
        description: 'Part of a term, description or translation (case-insensitive).',
      }),
      forbidden: t.arg.boolean({
        required: false,
        description: 'Only forbidden terms (true) or only the others (false).',
      }),
      doNotTranslate: t.arg.boolean({
        required: false,
        description: 'Only do-not-translate terms (true) or only the others (false).',
      }),
      caseSensitive: t.arg.boolean({
        required: false,
        description: 'Only case-sensitive terms (true) or only the others (false).',
      }),
      first: t.arg.int({ required: false, description: '1–1000, default 100.' }),
      offset: t.arg.int({ required: false }),
    },
    resolve: (_root, args, ctx) =>
      listTerms(ctx.principal, { projectToken: args.projectToken, glossaryId: args.glossaryId }, args),
  }),
  glossaryTermHistory: t.field({
    type: [TermHistoryEntryType],
    description:
      "The changes of the project's activity log that touched a term of its own glossary (a deleted one too), newest first, at most 100.",
    args: { projectToken: t.arg.string({ required: false }), termId: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) =>
      termHistory(await resolveProject(ctx.principal, args.projectToken, need('glossaryTermHistory')), args.termId),
  }),
  glossaryMatches: t.field({
    type: [MatchType],
    description:
      "The terms of the project's glossaries found in a text of its default language, with their translation for targetLanguage.",
    args: {
      projectToken: t.arg.string({ required: false }),
      text: t.arg.string({ required: true }),
      targetLanguage: t.arg.string({ required: true }),
      sourceLanguage: t.arg.string({
        required: false,
        description: "The text's language; default: the project's default language.",
      }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('glossaryMatches'));
      if (args.text.length > 10_000) throw badRequest('text: at most 10000 characters');
      const source =
        args.sourceLanguage ??
        (await prisma().language.findFirst({ where: { projectId, isDefault: true }, select: { key: true } }))?.key ??
        'en';
      return glossaryMatches(projectId, source, args.targetLanguage, args.text);
    },
  }),
  sharedGlossaries: t.field({
    type: [GlossaryType],
    description: 'The shared glossaries the account owns or that projects it is a member of are linked to.',
    resolve: (_root, _args, ctx) => listSharedGlossaries(ctx.principal),
  }),
}));

const GlossaryFormatEnum = builder.enumType('GlossaryFormat', {
  values: {
    TBX: { description: 'TBX (ISO 30042): reads TBX v2 (martif, TBX-Basic) and v3 core; writes TBX-Basic.' },
    CSV: { description: 'term, description, partOfSpeech, flags, one column per language.' },
  } as const,
});

const ImportResultType = builder.objectRef<GlossaryImportResult>('GlossaryImportResult').implement({
  fields: (t) => ({
    created: t.exposeInt('created'),
    updated: t.exposeInt('updated', {
      description:
        'Terms already in the glossary (same text and part of speech), given the fields and translations of the file.',
    }),
    skipped: t.exposeInt('skipped', { description: "TBX entries without a term in the glossary's source language." }),
  }),
});

builder.mutationFields((t) => ({
  importGlossary: t.field({
    type: ImportResultType,
    description:
      "Imports a TBX or CSV file into the project's glossary (projectToken) or a shared glossary its caller owns (glossaryId). All or nothing. The format is taken from format, else the file name, else the content.",
    args: {
      projectToken: t.arg.string({ required: false }),
      glossaryId: t.arg.int({ required: false }),
      file: t.arg({ type: 'Upload', required: true }),
      format: t.arg({ type: GlossaryFormatEnum, required: false }),
    },
    resolve: (_root, args, ctx) =>
      importGlossary(
        ctx.principal,
        { projectToken: args.projectToken, glossaryId: args.glossaryId },
        args.file,
        args.format,
      ),
  }),
  exportGlossary: t.field({
    type: ExportedFileType,
    description:
      "The project's glossary, or a shared glossary linked to it (glossaryId), as a TBX or CSV file to download.",
    args: {
      projectToken: t.arg.string({ required: false }),
      glossaryId: t.arg.int({ required: false }),
      format: t.arg({ type: GlossaryFormatEnum, required: true }),
    },
    resolve: (_root, args, ctx) =>
      exportGlossaryFile(
        ctx.principal,
        ctx.config,
        { projectToken: args.projectToken, glossaryId: args.glossaryId },
        args.format,
      ),
  }),
  createGlossaryTerm: t.field({
    type: TermType,
    description:
      "Adds a term to the project's glossary (projectToken) or to a shared glossary its caller owns (glossaryId).",
    args: {
      projectToken: t.arg.string({ required: false }),
      glossaryId: t.arg.int({ required: false }),
      input: t.arg({ type: TermInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      createTerm(ctx.principal, { projectToken: args.projectToken, glossaryId: args.glossaryId }, args.input),
  }),
  updateGlossaryTerm: t.field({
    type: TermType,
    args: {
      projectToken: t.arg.string({ required: false }),
      id: t.arg.int({ required: true }),
      input: t.arg({ type: TermInput, required: true }),
    },
    resolve: (_root, args, ctx) => updateTerm(ctx.principal, args.id, args.input, args.projectToken),
  }),
  deleteGlossaryTerm: t.boolean({
    args: { projectToken: t.arg.string({ required: false }), id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => deleteTerm(ctx.principal, args.id, args.projectToken),
  }),
  createSharedGlossary: t.field({
    type: GlossaryType,
    args: { name: t.arg.string({ required: true }), sourceLanguage: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => createSharedGlossary(ctx.principal, args.name, args.sourceLanguage),
  }),
  deleteSharedGlossary: t.boolean({
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => deleteSharedGlossary(ctx.principal, args.id),
  }),
  setProjectGlossaryLink: t.field({
    type: GlossaryType,
    description:
      'Links a project to a shared glossary its caller owns (the caller needs GLOSSARY in the project), or unlinks it.',
    args: {
      glossaryId: t.arg.int({ required: true }),
      projectToken: t.arg.string({ required: true }),
      linked: t.arg.boolean({ required: true }),
    },
    resolve: (_root, args, ctx) => linkProjectGlossary(ctx.principal, args.glossaryId, args.projectToken, args.linked),
  }),
}));

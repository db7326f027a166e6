// Translation memory (src/memory/, docs/translation-memory.md): suggestions
// for a text, shared memories and the projects linked to them.
import { builder } from '../builder.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import { lastEditorOf, suggestionsInProject, type SuggestionsResult } from '../memory/lookup.js';
import {
  createSharedMemory,
  deleteSharedMemory,
  linkProject,
  listSharedMemories,
  renameSharedMemory,
  type SharedMemoryView,
} from '../memory/shared.js';
import type { Suggestion } from '../memory/suggest.js';
import type { Substitution } from '../memory/normalize.js';
import { exportTmxFile, importTmx } from '../memory/tmx.js';
import { ExportedFileType } from './transfer.js';

const SubstitutionType = builder.objectRef<Substitution>('MemorySubstitution').implement({
  description: "A token of the stored source replaced by the query's in the suggested translation.",
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'tag, placeholder or number.' }),
    from: t.exposeString('from'),
    to: t.exposeString('to'),
  }),
});

const OriginType = builder.objectRef<Suggestion['origin']>('MemoryOrigin').implement({
  description: 'Where a suggestion comes from: a text of a project, or a segment imported into a memory.',
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'PROJECT (a key of a project) or IMPORTED (a TMX segment).' }),
    projectName: t.exposeString('projectName', { nullable: true }),
    key: t.exposeString('key', { nullable: true }),
    namespace: t.exposeString('namespace', { nullable: true }),
    language: t.exposeString('language', {
      description: "The target language's key as its project or file spells it.",
    }),
    memoryId: t.exposeInt('memoryId', {
      nullable: true,
      description: 'The shared memory of an imported segment (null: a project memory).',
    }),
    memoryName: t.exposeString('memoryName', { nullable: true }),
    lastEditedAt: t.field({ type: 'DateTime', resolve: (o) => o.lastEditedAt }),
    lastEditedBy: t.string({
      nullable: true,
      description:
        'Who wrote it last: the history of a project text (one lookup per suggestion asked), the changeid of an imported one.',
      resolve: (o) => (o.kind === 'PROJECT' ? lastEditorOf(o.projectId!, o.keyId!, o.languageId!) : o.lastEditedBy),
    }),
    reviewed: t.exposeBoolean('reviewed'),
  }),
});

const SuggestionType = builder.objectRef<Suggestion>('MemorySuggestion').implement({
  description: 'A translation from the memory, scored against the text asked for.',
  fields: (t) => ({
    score: t.exposeInt('score', {
      description:
        '0–100: edit distance on the normalised texts; 100 for the same text, or one differing only in placeholders, numbers, tags or whitespace that were substituted.',
    }),
    exact: t.exposeBoolean('exact', {
      description: 'The stored source is the text asked for, character for character.',
    }),
    text: t.exposeString('text', { description: 'The suggested translation, with the substitutions made.' }),
    source: t.exposeString('source', { description: 'The stored source text.' }),
    target: t.exposeString('target', { description: 'The stored translation, as stored.' }),
    substituted: t.boolean({
      description: 'Tokens of the query were substituted into the translation.',
      resolve: (s) => s.substitutions.length > 0,
    }),
    substitutions: t.field({ type: [SubstitutionType], resolve: (s) => s.substitutions }),
    sameKey: t.exposeBoolean('sameKey', {
      description: 'From a key with the same name and namespace as the one asked for.',
    }),
    origin: t.field({ type: OriginType, resolve: (s) => s.origin }),
  }),
});

const SuggestionsType = builder.objectRef<SuggestionsResult>('MemorySuggestions').implement({
  fields: (t) => ({
    sourceLanguage: t.exposeString('sourceLanguage', {
      description: "The project's default language: the memory's source side.",
    }),
    sourceText: t.exposeString('sourceText', {
      description: "The text matched: the one given, or the key's default-language text.",
    }),
    suggestions: t.field({ type: [SuggestionType], resolve: (r) => r.suggestions }),
  }),
});

const LinkType = builder.objectRef<SharedMemoryView['projects'][number]>('SharedMemoryProject').implement({
  fields: (t) => ({
    projectToken: t.exposeString('projectToken'),
    projectName: t.exposeString('projectName'),
    shares: t.exposeBoolean('shares', { description: "The project's texts feed the memory." }),
    reads: t.exposeBoolean('reads', { description: "The project's suggestions include the memory." }),
  }),
});

const SharedMemoryType = builder.objectRef<SharedMemoryView>('SharedMemory').implement({
  description:
    'A named translation memory projects share: those that share give it their texts, those that read get its suggestions.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => m.createdAt }),
    projects: t.field({ type: [LinkType], resolve: (m) => m.projects }),
    segments: t.exposeInt('segments', { description: 'Segments imported from TMX files.' }),
  }),
});

builder.queryFields((t) => ({
  memorySuggestions: t.field({
    type: SuggestionsType,
    description:
      "Translation-memory suggestions for a text (or a key's default-language text) in a target language of the project, best first.",
    args: {
      projectToken: t.arg.string({ required: false }),
      sourceText: t.arg.string({ required: false }),
      keyId: t.arg.int({ required: false }),
      key: t.arg.string({ required: false }),
      namespace: t.arg.string({ required: false }),
      targetLanguage: t.arg.string({ required: true }),
      limit: t.arg.int({ required: false, description: '1–50, default 10.' }),
      minScore: t.arg.int({ required: false, description: '0–100, default 50.' }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('memorySuggestions'));
      return suggestionsInProject(ctx.principal, projectId, args);
    },
  }),
  sharedMemories: t.field({
    type: [SharedMemoryType],
    description: 'The shared memories the account owns or that projects it is a member of are linked to.',
    resolve: (_root, _args, ctx) => listSharedMemories(ctx.principal),
  }),
}));

builder.mutationFields((t) => ({
  createSharedMemory: t.field({
    type: SharedMemoryType,
    args: { name: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => createSharedMemory(ctx.principal, args.name),
  }),
  renameSharedMemory: t.field({
    type: SharedMemoryType,
    args: { id: t.arg.int({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => renameSharedMemory(ctx.principal, args.id, args.name),
  }),
  deleteSharedMemory: t.boolean({
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => deleteSharedMemory(ctx.principal, args.id),
  }),
  importTranslationMemory: t.field({
    type: builder.objectRef<{ imported: number; skipped: number }>('MemoryImportResult').implement({
      fields: (f) => ({
        imported: f.exposeInt('imported', { description: '(source, target) pairs written.' }),
        skipped: f.exposeInt('skipped', {
          description: 'Translation units without a source variant or a second language.',
        }),
      }),
    }),
    description:
      "Imports a TMX 1.4b file into a shared memory (memoryId: its owner only) or the project's own memory (projectToken: owners and administrators). All or nothing.",
    args: {
      projectToken: t.arg.string({ required: false }),
      memoryId: t.arg.int({ required: false }),
      file: t.arg({ type: 'Upload', required: true }),
    },
    resolve: (_root, args, ctx) =>
      importTmx(
        ctx.principal,
        args.memoryId != null ? { memoryId: args.memoryId } : { projectToken: args.projectToken },
        args.file,
      ),
  }),
  exportTranslationMemory: t.field({
    type: ExportedFileType,
    description:
      "The project's memory (its texts, default language to each other language, and its imported segments) as a TMX 1.4b file; sourceLanguage and targetLanguage keep one pair.",
    args: {
      projectToken: t.arg.string({ required: false }),
      sourceLanguage: t.arg.string({ required: false }),
      targetLanguage: t.arg.string({ required: false }),
    },
    resolve: (_root, args, ctx) => exportTmxFile(ctx.principal, ctx.config, args.projectToken, args),
  }),
  setProjectMemoryLink: t.field({
    type: SharedMemoryType,
    description:
      "Links a project to a shared memory its caller owns (the caller must be the project's owner or an administrator): shares gives the memory the project's texts, reads gives the project the memory's suggestions; both false unlinks.",
    args: {
      memoryId: t.arg.int({ required: true }),
      projectToken: t.arg.string({ required: true }),
      shares: t.arg.boolean({ required: true }),
      reads: t.arg.boolean({ required: true }),
    },
    resolve: (_root, args, ctx) =>
      linkProject(ctx.principal, args.memoryId, args.projectToken, { shares: args.shares, reads: args.reads }),
  }),
}));

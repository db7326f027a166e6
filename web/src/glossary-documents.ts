// GraphQL documents of the Glossary screen (src/schema/glossary.ts,
// docs/glossary.md): the project's glossaries and a page of terms, the term
// writes, files in and out, shared glossaries and their links, a term's
// history and the revert of one of its changes.
import { graphql, type ResultOf, type VariablesOf } from './graphql';

export const GlossaryMetaQuery = graphql(`
  query GlossaryMeta($projectToken: String!) {
    project(projectToken: $projectToken) { name myPermissions languages { key name isDefault } }
    glossaries(projectToken: $projectToken) { id name sourceLanguage shared owned terms }
    sharedGlossaries { id name sourceLanguage owned terms projects { projectToken projectName } }
  }
`);
export type SharedGlossary = ResultOf<typeof GlossaryMetaQuery>['sharedGlossaries'][number];

export const GlossaryTermsQuery = graphql(`
  query GlossaryTermsPage($projectToken: String!, $glossaryId: Int, $search: String, $forbidden: Boolean, $doNotTranslate: Boolean, $caseSensitive: Boolean, $first: Int, $offset: Int) {
    glossaryTerms(projectToken: $projectToken, glossaryId: $glossaryId, search: $search, forbidden: $forbidden, doNotTranslate: $doNotTranslate, caseSensitive: $caseSensitive, first: $first, offset: $offset) {
      glossaryId sourceLanguage total
      terms { id term description partOfSpeech forbidden doNotTranslate caseSensitive abbreviation updatedAt translations { language text } }
    }
  }
`);
export type GlossaryTerm = ResultOf<typeof GlossaryTermsQuery>['glossaryTerms']['terms'][number];

export const CreateTerm = graphql(`
  mutation GlossaryCreateTerm($projectToken: String, $glossaryId: Int, $input: GlossaryTermInput!) {
    createGlossaryTerm(projectToken: $projectToken, glossaryId: $glossaryId, input: $input) { id term }
  }
`);
export type TermInput = VariablesOf<typeof CreateTerm>['input'];

export const UpdateTerm = graphql(`
  mutation GlossaryUpdateTerm($projectToken: String, $id: Int!, $input: GlossaryTermInput!) {
    updateGlossaryTerm(projectToken: $projectToken, id: $id, input: $input) { id term }
  }
`);

export const DeleteTerm = graphql(`
  mutation GlossaryDeleteTerm($projectToken: String, $id: Int!) { deleteGlossaryTerm(projectToken: $projectToken, id: $id) }
`);

export const ImportGlossary = graphql(`
  mutation GlossaryImport($projectToken: String, $glossaryId: Int, $file: Upload!) {
    importGlossary(projectToken: $projectToken, glossaryId: $glossaryId, file: $file) { created updated skipped }
  }
`);

export const ExportGlossary = graphql(`
  mutation GlossaryExport($projectToken: String, $glossaryId: Int, $format: GlossaryFormat!) {
    exportGlossary(projectToken: $projectToken, glossaryId: $glossaryId, format: $format) { url fileName size expiresAt }
  }
`);
export type GlossaryFormat = VariablesOf<typeof ExportGlossary>['format'];

export const CreateSharedGlossary = graphql(`
  mutation GlossaryCreateShared($name: String!, $sourceLanguage: String!) { createSharedGlossary(name: $name, sourceLanguage: $sourceLanguage) { id name } }
`);

export const SetGlossaryLink = graphql(`
  mutation GlossarySetLink($glossaryId: Int!, $projectToken: String!, $linked: Boolean!) {
    setProjectGlossaryLink(glossaryId: $glossaryId, projectToken: $projectToken, linked: $linked) { id name }
  }
`);

export const TermHistoryQuery = graphql(`
  query GlossaryTermHistory($projectToken: String!, $termId: Int!) {
    glossaryTermHistory(projectToken: $projectToken, termId: $termId) {
      change { id kind at source actor { kind name } revertOf }
      before { term description partOfSpeech forbidden doNotTranslate caseSensitive abbreviation translations { language text } }
      after { term description partOfSpeech forbidden doNotTranslate caseSensitive abbreviation translations { language text } }
    }
  }
`);
export type TermHistoryEntry = ResultOf<typeof TermHistoryQuery>['glossaryTermHistory'][number];
export type TermSnapshot = NonNullable<TermHistoryEntry['before']>;

export const RevertGlossaryChange = graphql(`
  mutation GlossaryRevertChange($projectToken: String!, $activityId: ID!) {
    revertChange(projectToken: $projectToken, activityId: $activityId) { unit reverted changedSince }
  }
`);

/** A term as people tell it apart: the same term may exist once per part of speech. */
export const termName = (t: { term: string; partOfSpeech: string }) =>
  t.partOfSpeech ? `${t.term} (${t.partOfSpeech})` : t.term;

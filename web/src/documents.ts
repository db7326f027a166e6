// The editor's GraphQL documents (small: at most 100 keys a window, four levels deep).
import { graphql, type ResultOf } from './graphql';

export const ProjectMeta = graphql(`
  query ProjectMeta($projectToken: String!) {
    project(projectToken: $projectToken) {
      name projectToken keys translatedKeysByLanguage
      languages { key name isDefault }
      customers { key description }
      namespaces { name }
    }
  }
`);

// The editor's project, with the first-run checklist's state: one query, so that the checklist is in the
// page with the rest and does not push the grid down when it arrives.
export const EditorProject = graphql(`
  query EditorProject($projectToken: String!) {
    project(projectToken: $projectToken) {
      name projectToken keys translatedKeysByLanguage
      languages { key name isDefault }
      customers { key description }
      namespaces { name }
      onboarding { languagesAdded textsImported teamInvited published appConnected }
    }
  }
`);

export type Onboarding = NonNullable<NonNullable<ResultOf<typeof EditorProject>['project']>['onboarding']>;

export const EditorRowsQuery = graphql(`
  query EditorRows($projectToken: String!, $filter: EditorFilter, $offset: Int!, $limit: Int!, $languages: [String!], $customerKey: String, $withBase: Boolean!) {
    editorRows(projectToken: $projectToken, filter: $filter, offset: $offset, limit: $limit) {
      totalCount totalIsExact
      keys {
        key namespace description codeDescription tags charactersLimit lock deprecated deprecatedAt createdAt modifiedAt
        translations(languages: $languages, customerKey: $customerKey) { language text reviewStatus lastModifiedAt isOverride }
        base: translations(languages: $languages) @include(if: $withBase) { language text }
        consistencyFindings(languages: $languages) { languageCode check severity message messageText { id params } }
      }
    }
  }
`);

export type Row = ResultOf<typeof EditorRowsQuery>['editorRows']['keys'][number];
export type Cell = Row['translations'][number];

export const UpdateTranslation = graphql(`
  mutation UpdateTranslation($projectToken: String!, $input: UpdateTranslationInput!) {
    updateTranslation(projectToken: $projectToken, input: $input) { language text reviewStatus lastModifiedAt isOverride }
  }
`);

// Live: the project's cell changes as they commit (any path: REST, import, a job, another browser),
// and its activity entries, whose content edits (keys created, renamed, locked or deleted; languages,
// customers) the editor answers by reloading its rows.
export const TranslationChanges = graphql(`
  subscription TranslationChanges($projectToken: String!) {
    translationChanges(projectToken: $projectToken) { key namespace language customerKey newText newReviewStatus at }
  }
`);

export type CellChange = ResultOf<typeof TranslationChanges>['translationChanges'];

export const ContentEdits = graphql(`
  subscription ContentEdits($projectToken: String!) {
    projectActivity(projectToken: $projectToken) { kind edits }
  }
`);

export const CreateKey = graphql(`
  mutation CreateKey($projectToken: String!, $input: CreateTranslationKeyInput!) { createTranslationKey(projectToken: $projectToken, input: $input) { key namespace } }
`);

export const UpdateKey = graphql(`
  mutation UpdateKey($projectToken: String!, $key: String!, $namespace: String, $input: UpdateTranslationKeyInput!) {
    updateTranslationKey(projectToken: $projectToken, key: $key, namespace: $namespace, input: $input) { key namespace }
  }
`);

export const DeleteKey = graphql(`
  mutation DeleteKey($projectToken: String!, $key: String!, $namespace: String) { deleteTranslationKey(projectToken: $projectToken, key: $key, namespace: $namespace) }
`);

// The language model's proposals for a cell (docs/llm-translation.md): nothing is written until inserted.
export const SuggestTranslation = graphql(`
  mutation SuggestTranslation($projectToken: String!, $key: String!, $namespace: String, $languageKey: String!) {
    suggestTranslation(projectToken: $projectToken, key: $key, namespace: $namespace, languageKey: $languageKey) { text source problems }
  }
`);

export const RewriteTranslation = graphql(`
  mutation RewriteTranslation($projectToken: String!, $key: String!, $namespace: String, $languageKey: String!, $text: String!, $mode: RewriteMode!) {
    rewriteTranslation(projectToken: $projectToken, key: $key, namespace: $namespace, languageKey: $languageKey, text: $text, mode: $mode) { text source problems }
  }
`);

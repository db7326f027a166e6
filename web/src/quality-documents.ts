// GraphQL documents of the Quality screen (src/schema/quality.ts): the checks
// with the project's severities, the findings' counts, a page of findings,
// dismissing and restoring, and the severities' settings.
import { i18n } from './i18n';
import { graphql, type ResultOf } from './graphql';

export const QualityChecksQuery = graphql(`
  query QualityChecks($projectToken: String!) {
    qualityChecks(projectToken: $projectToken) {
      checks { id title category defaultSeverity enabledByDefault severity }
      placeholderDialect placeholderDialects { id name }
    }
    project(projectToken: $projectToken) { myRole myPermissions languages { key name isDefault } }
  }
`);
export type QualityCheck = ResultOf<typeof QualityChecksQuery>['qualityChecks']['checks'][number];
export type PlaceholderDialect = ResultOf<typeof QualityChecksQuery>['qualityChecks']['placeholderDialects'][number];

/** Every open and dismissed count, unfiltered (first: 0: no findings). */
export const QualityCountsQuery = graphql(`
  query QualityCounts($projectToken: String!) {
    qualityFindings(projectToken: $projectToken, includeDismissed: true, first: 0) {
      pending counts { languageCode check severity count dismissed }
    }
  }
`);
export type QualityCount = ResultOf<typeof QualityCountsQuery>['qualityFindings']['counts'][number];

export const QualityFindingsQuery = graphql(`
  query QualityFindings($projectToken: String!, $languageCode: String, $severity: String, $check: String, $includeDismissed: Boolean, $first: Int, $offset: Int) {
    qualityFindings(projectToken: $projectToken, languageCode: $languageCode, severity: $severity, check: $check, includeDismissed: $includeDismissed, first: $first, offset: $offset) {
      total pending
      findings { key namespace languageCode customerKey check severity message messageText { id params } spanStart spanEnd dismissed text }
    }
  }
`);
export type QualityFinding = ResultOf<typeof QualityFindingsQuery>['qualityFindings']['findings'][number];

export const DismissFinding = graphql(`
  mutation DismissQualityFinding($projectToken: String!, $key: String!, $namespace: String, $languageCode: String!, $customerKey: String, $check: String!, $reason: String!) {
    dismissQualityFinding(projectToken: $projectToken, key: $key, namespace: $namespace, languageCode: $languageCode, customerKey: $customerKey, check: $check, reason: $reason)
  }
`);
export const RestoreFinding = graphql(`
  mutation RestoreQualityFinding($projectToken: String!, $key: String!, $namespace: String, $languageCode: String!, $customerKey: String, $check: String!) {
    restoreQualityFinding(projectToken: $projectToken, key: $key, namespace: $namespace, languageCode: $languageCode, customerKey: $customerKey, check: $check)
  }
`);
export const SetQualityChecks = graphql(`
  mutation SetQualityChecks($projectToken: String!, $checks: [QualityCheckSettingInput!], $placeholderDialect: String) {
    setQualityChecks(projectToken: $projectToken, checks: $checks, placeholderDialect: $placeholderDialect) { checks { id severity } placeholderDialect }
  }
`);

/** The severities, most serious first (the values the schema documents for a finding's severity). */
export const SEVERITIES = [
  {
    value: 'error',
    get label() {
      return i18n.t('severity.error');
    },
    get plural() {
      return i18n.t('severity.errors');
    },
  },
  {
    value: 'warning',
    get label() {
      return i18n.t('severity.warning');
    },
    get plural() {
      return i18n.t('severity.warnings');
    },
  },
  {
    value: 'info',
    get label() {
      return i18n.t('severity.info');
    },
    get plural() {
      return i18n.t('severity.infos');
    },
  },
] as const;
export const severityLabel = (value: string) => SEVERITIES.find((s) => s.value === value)?.label ?? value;

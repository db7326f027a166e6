// The editor's quality-check filters (EditorFilter.findingCheck and
// findingSeverity: keys with an open finding in the chosen languages), and the
// filters an address may carry (#/projects/<token>/translations?key=…&check=…),
// which the Quality screen's "Open in editor" links use.
import { Trans, useTranslation } from 'react-i18next';
import { useQuery } from 'urql';
import { graphql } from './graphql';
import { SEVERITIES } from './quality-documents';
import { checkTitle } from './server-text';

const ChecksQuery = graphql(
  `query EditorQualityChecks($projectToken: String!) { qualityChecks(projectToken: $projectToken) { checks { id title severity } } }`,
);

export interface QualityFilters {
  key: string;
  findingCheck: string;
  findingSeverity: string;
}

/** The filters in the address's query, and the languages it names (null: all). */
export function filtersFromAddress(): {
  filters: Partial<QualityFilters> & { namespace?: string; customerId?: string };
  languages: string[] | null;
} {
  const at = location.hash.indexOf('?');
  const params = new URLSearchParams(at < 0 ? '' : location.hash.slice(at + 1));
  const filters: Partial<QualityFilters> & { namespace?: string; customerId?: string } = {};
  if (params.get('key')) filters.key = params.get('key')!;
  if (params.get('namespace')) filters.namespace = params.get('namespace')!;
  if (params.get('check')) filters.findingCheck = params.get('check')!;
  if (params.get('severity')) filters.findingSeverity = params.get('severity')!;
  // A finding of a customer's override opens the editor seen through that customer.
  if (params.get('customer')) filters.customerId = params.get('customer')!;
  const languages = params.get('languages')?.split(',').filter(Boolean) ?? [];
  return { filters, languages: languages.length ? languages : null };
}

export function EditorQualityFilters({
  projectToken,
  value,
  onChange,
}: {
  projectToken: string;
  value: QualityFilters;
  onChange: (patch: Partial<QualityFilters>) => void;
}) {
  const { t } = useTranslation();
  const [{ data }] = useQuery({ query: ChecksQuery, variables: { projectToken } });
  const checks = data?.qualityChecks.checks.filter((c) => c.severity !== null || c.id === value.findingCheck) ?? [];
  return (
    <>
      <label>
        {t('qualityFilters.check')}
        <select value={value.findingCheck} onChange={(e) => onChange({ findingCheck: e.target.value })}>
          <option value="">{t('editor.any')}</option>
          {checks.map((c) => (
            <option key={c.id} value={c.id}>
              {checkTitle(c.id, c.title)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('qualityFilters.severity')}
        <select value={value.findingSeverity} onChange={(e) => onChange({ findingSeverity: e.target.value })}>
          <option value="">{t('editor.any')}</option>
          {SEVERITIES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      {value.key && (
        <span className="key-only">
          <Trans i18nKey="qualityFilters.keyOnly" values={{ key: value.key }} components={{ code: <code /> }} />{' '}
          <button type="button" onClick={() => onChange({ key: '' })}>
            {t('qualityFilters.showAll')}
          </button>
        </span>
      )}
    </>
  );
}

// The Quality screen's list of findings: filters (language, severity, check,
// dismissed ones too) kept in the address, a page of findings with the text
// and the span the check points at (a customer's override says whose), a link
// opening the key in the editor (through that customer), and dismissing (with a
// reason, in a dialog) or restoring a finding.
import { useTranslation } from 'react-i18next';
import { i18n } from './i18n';
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import {
  QualityFindingsQuery,
  RestoreFinding,
  SEVERITIES,
  severityLabel,
  type QualityCheck,
  type QualityFinding,
} from './quality-documents';
import { DismissDialog } from './DismissDialog';
import { screenLink } from './hash-params';
import { messageOf } from './feedback';
import { count } from './wording';
import { checkTitle, wordMessage } from './server-text';

const PAGE = 50;

export interface FindingFilter {
  language: string;
  severity: string;
  check: string;
  dismissed: boolean;
}

interface Props {
  projectToken: string;
  checks: readonly QualityCheck[];
  languages: readonly { key: string; name: string; isDefault: boolean }[];
  filter: FindingFilter;
  onFilter: (patch: Record<string, string | null>) => void;
  canDismiss: boolean;
  generation: number;
  onChanged: () => void;
}

export function FindingsList({
  projectToken,
  checks,
  languages,
  filter,
  onFilter,
  canDismiss,
  generation,
  onChanged,
}: Props) {
  const { t } = useTranslation();
  const [offset, setOffset] = useState(0);
  const filterKey = JSON.stringify(filter);
  useEffect(() => setOffset(0), [filterKey]);
  const variables = {
    projectToken,
    languageCode: filter.language || null,
    severity: filter.severity || null,
    check: filter.check || null,
    includeDismissed: filter.dismissed,
    first: PAGE,
    offset,
  };
  const [{ data, error }, refetch] = useQuery({ query: QualityFindingsQuery, variables });
  useEffect(() => {
    if (generation > 0) refetch({ requestPolicy: 'network-only' });
  }, [generation, refetch]);
  const [dismissing, setDismissing] = useState<QualityFinding | undefined>();
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  const [, restore] = useMutation(RestoreFinding);
  const title = (id: string) => checkTitle(id, checks.find((c) => c.id === id)?.title);
  // A customer's override is told apart from the base cell by its customer.
  const cellOf = (f: QualityFinding) =>
    f.customerKey ? t('findings.override', { language: f.languageCode, customer: f.customerKey }) : f.languageCode;
  const name = (f: QualityFinding) => t('findings.name', { check: title(f.check), key: f.key, language: cellOf(f) });
  const page = data?.qualityFindings;
  // The editor opens on the key with the source language beside the finding's.
  const source = languages.find((l) => l.isDefault)?.key;
  const editorLink = (f: QualityFinding) =>
    screenLink(projectToken, 'translations', {
      key: f.key,
      namespace: f.namespace || '(default)',
      check: f.check,
      languages: [...new Set([source, f.languageCode].filter(Boolean))].join(','),
      customer: f.customerKey,
    });

  const doRestore = async (f: QualityFinding) => {
    const result = await restore({
      projectToken,
      key: f.key,
      namespace: f.namespace,
      languageCode: f.languageCode,
      customerKey: f.customerKey,
      check: f.check,
    });
    if (result.error) return setFailure(messageOf(result.error));
    setFailure('');
    setStatus(t('findings.restored', { name: name(f) }));
    onChanged();
  };

  return (
    <section aria-labelledby="findings-heading">
      <h2 id="findings-heading">{t('findings.title')}</h2>
      <form className="ops-row findings-filters" aria-label={t('findings.filter')} onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('findings.language')}
          <select value={filter.language} onChange={(e) => onFilter({ language: e.target.value })}>
            <option value="">{t('findings.allLanguages')}</option>
            {languages.map((l) => (
              <option key={l.key} value={l.key}>
                {l.name} ({l.key})
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('findings.severity')}
          <select value={filter.severity} onChange={(e) => onFilter({ severity: e.target.value })}>
            <option value="">{t('findings.allSeverities')}</option>
            {SEVERITIES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('findings.check')}
          <select value={filter.check} onChange={(e) => onFilter({ check: e.target.value })}>
            <option value="">{t('findings.allChecks')}</option>
            {checks.map((c) => (
              <option key={c.id} value={c.id}>
                {checkTitle(c.id, c.title)}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={filter.dismissed}
            onChange={(e) => onFilter({ dismissed: e.target.checked ? '1' : null })}
          />{' '}
          {t('findings.showDismissed')}
        </label>
        {(filter.language || filter.severity || filter.check || filter.dismissed) && (
          <button
            type="button"
            onClick={() => onFilter({ language: null, severity: null, check: null, dismissed: null })}
          >
            {t('findings.clear')}
          </button>
        )}
      </form>
      {error && (
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      )}
      {page && (
        <p className="findings-total">
          {page.total === 0
            ? t('findings.noMatch')
            : page.total > PAGE
              ? t('findings.shown', {
                  total: count(page.total, 'finding'),
                  from: offset + 1,
                  to: Math.min(offset + PAGE, page.total),
                })
              : count(page.total, 'finding')}
        </p>
      )}
      {page && page.findings.length > 0 && (
        <table className="data-table findings-table">
          <caption className="visually-hidden">{t('findings.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('findings.key')}</th>
              <th scope="col">{t('findings.language')}</th>
              <th scope="col">{t('findings.check')}</th>
              <th scope="col">{t('findings.text')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('findings.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {page.findings.map((f, i) => (
              <tr
                key={`${f.namespace}\u0000${f.key}\u0000${f.languageCode}\u0000${f.customerKey}\u0000${f.check}\u0000${i}`}
                className={f.dismissed ? 'dismissed' : undefined}
              >
                <th scope="row">
                  {f.namespace && <span className="namespace">{f.namespace}:</span>}
                  {f.key}
                </th>
                <td>{cellOf(f)}</td>
                <td>
                  <span className={`severity severity-${f.severity}`}>{severityLabel(f.severity)}</span>{' '}
                  <strong>{title(f.check)}</strong>
                  {f.dismissed && <span className="state"> {t('findings.stateDismissed')}</span>}
                  <div className="finding-message">{wordMessage('checks', f.messageText, f.message)}</div>
                </td>
                <td>
                  <MarkedText text={f.text} start={f.spanStart} end={f.spanEnd} />
                </td>
                <td className="finding-actions">
                  <a href={editorLink(f)} aria-label={t('findings.openLabel', { key: f.key, language: cellOf(f) })}>
                    {t('findings.open')}
                  </a>
                  {canDismiss &&
                    (f.dismissed ? (
                      <button
                        type="button"
                        onClick={() => void doRestore(f)}
                        aria-label={t('findings.restoreLabel', { name: name(f) })}
                      >
                        {t('findings.restore')}
                      </button>
                    ) : (
                      <button
                        type="button"
                        onClick={() => setDismissing(f)}
                        aria-label={t('findings.dismissLabel', { name: name(f) })}
                      >
                        {t('findings.dismiss')}
                      </button>
                    ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page && page.total > PAGE && (
        <div className="ops-row">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            {t('findings.previous')}
          </button>
          <button type="button" disabled={offset + PAGE >= page.total} onClick={() => setOffset(offset + PAGE)}>
            {t('findings.next')}
          </button>
        </div>
      )}
      <p role="status" className="status">
        {status}
      </p>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      {dismissing && (
        <DismissDialog
          projectToken={projectToken}
          finding={dismissing}
          title={name(dismissing)}
          onCancel={() => setDismissing(undefined)}
          onDone={() => {
            setStatus(t('findings.dismissed', { name: name(dismissing) }));
            setFailure('');
            setDismissing(undefined);
            onChanged();
          }}
        />
      )}
    </section>
  );
}

/** The text with the span the check points at marked; an empty span (something missing there) marked as a caret. */
function MarkedText({
  text,
  start,
  end,
}: {
  text: string;
  start: number | null | undefined;
  end: number | null | undefined;
}) {
  if (start == null || end == null || start < 0 || end > text.length || end < start)
    return <span className="finding-text">{text}</span>;
  return (
    <span className="finding-text">
      {text.slice(0, start)}
      {end > start ? (
        <mark>{text.slice(start, end)}</mark>
      ) : (
        <mark className="caret" title={i18n.t('findings.here')}>
          ‸
        </mark>
      )}
      {text.slice(end)}
    </span>
  );
}

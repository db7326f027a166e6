// Quality: the stored findings of the quality checks (src/findings/) — their
// counts per check, severity and language, each linking to the list filtered
// by it; the list itself with filters kept in the address (the publication
// gate links to ?severity=error), dismissing with a reason and restoring;
// and, for members with the SETTINGS permission, each check's severity.
// Checks, their titles and severities are the service's: read, never restated.
// The figures follow the project's changes live (its activity subscription).
import { useTranslation } from 'react-i18next';
import { useEffect, useRef, useState } from 'react';
import { useClient, useQuery } from 'urql';
import { ContentEdits } from './documents';
import { QualityChecksQuery, QualityCountsQuery } from './quality-documents';
import { QualityOverview } from './QualityOverview';
import { FindingsList, type FindingFilter } from './FindingsList';
import { QualitySettings } from './QualitySettings';
import { useHashParams } from './hash-params';
import { messageOf } from './feedback';

/** How often the counts are read again while written texts are still being checked. */
const PENDING_POLL_MS = 1_000;
/** A burst of changes (an import, a job) reads the figures again once. */
const CHANGE_SETTLE_MS = 300;

export function QualityScreen({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const [{ data: meta, error }, refetchMeta] = useQuery({ query: QualityChecksQuery, variables: { projectToken } });
  const [{ data: counts }, refetchCounts] = useQuery({ query: QualityCountsQuery, variables: { projectToken } });
  const [params, setParams] = useHashParams();
  // Bumped after a change so that the list is read again along with the counts.
  const [generation, setGeneration] = useState(0);
  const refresh = () => {
    refetchCounts({ requestPolicy: 'network-only' });
    setGeneration((g) => g + 1);
  };
  // Live: any change in the project (texts written, a finding dismissed elsewhere, settings) reads the
  // figures again; the texts' findings follow a moment later, which the pending count polls for.
  const client = useClient();
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscription = client.subscription(ContentEdits, { projectToken }).subscribe(() => {
      clearTimeout(timer);
      timer = setTimeout(() => refreshRef.current(), CHANGE_SETTLE_MS);
    });
    return () => {
      clearTimeout(timer);
      subscription.unsubscribe();
    };
  }, [client, projectToken]);
  const pending = counts?.qualityFindings.pending ?? 0;
  useEffect(() => {
    if (pending === 0) return;
    const timer = setTimeout(refresh, PENDING_POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, counts]);

  const filter: FindingFilter = {
    language: params.get('language') ?? '',
    severity: params.get('severity') ?? '',
    check: params.get('check') ?? '',
    dismissed: params.get('dismissed') === '1',
  };
  const checks = meta?.qualityChecks.checks ?? [];
  const permissions = meta?.project?.myPermissions ?? [];
  return (
    <main className="ops quality">
      <h1>{t('quality.title')}</h1>
      <p className="hint">{t('quality.hint')}</p>
      {error && (
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      )}
      {meta && counts && (
        <QualityOverview
          projectToken={projectToken}
          checks={checks}
          languages={meta.project?.languages ?? []}
          counts={counts.qualityFindings.counts}
          pending={pending}
        />
      )}
      {meta && (
        <FindingsList
          projectToken={projectToken}
          checks={checks}
          languages={meta.project?.languages ?? []}
          filter={filter}
          onFilter={(patch) => setParams(patch)}
          canDismiss={permissions.includes('TRANSLATE')}
          generation={generation}
          onChanged={refresh}
        />
      )}
      {meta && permissions.includes('SETTINGS') && (
        <QualitySettings
          projectToken={projectToken}
          checks={checks}
          dialect={meta.qualityChecks.placeholderDialect}
          dialects={meta.qualityChecks.placeholderDialects}
          onSaved={() => {
            refetchMeta({ requestPolicy: 'network-only' });
            refresh();
          }}
        />
      )}
    </main>
  );
}

// The quality-check gate of an environment's publications (src/findings/gate.ts):
// the "require no errors" switch, and the service's refusal shown as it gave it
// (the first errors, the counts per check, a link to the Quality screen filtered
// to errors) with the owner's "publish anyway".
import { useTranslation } from 'react-i18next';
import { formatNumber } from './i18n';
import { useEffect, useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from './graphql';
import { screenLink } from './hash-params';
import { messageOf } from './feedback';
import { wordError, wordMessage } from './server-text';
import { count } from './wording';

const SetGate = graphql(
  `mutation HostingQualityGate($projectToken: String!, $key: String!, $requireNoErrors: Boolean!) { setEnvironmentQualityGate(projectToken: $projectToken, key: $key, requireNoErrors: $requireNoErrors) { key requireNoErrors } }`,
);

/** What the service's CONFLICT carries in extensions.qualityGate. */
export interface GateRefusal {
  message: string;
  errors: number;
  pending: number;
  byCheck: Record<string, number>;
  /** messageText: the message as data (src/message-text.ts), for the console's language. */
  findings: {
    key: string;
    namespace: string;
    languageCode: string;
    /** The customer of an override; null for a base translation. */
    customerKey?: string | null;
    check: string;
    message: string;
    messageText?: unknown;
  }[];
}

/** The gate's refusal in a failed publish, if that is why it failed. */
export function gateRefusalOf(error: {
  graphQLErrors: readonly { message: string; extensions?: Record<string, unknown> }[];
}): GateRefusal | undefined {
  const first = error.graphQLErrors[0];
  const gate = first?.extensions?.qualityGate as Omit<GateRefusal, 'message'> | undefined;
  if (!gate || typeof gate.errors !== 'number') return undefined;
  return {
    message: wordError(first!),
    errors: gate.errors,
    pending: gate.pending ?? 0,
    byCheck: gate.byCheck ?? {},
    findings: gate.findings ?? [],
  };
}

export function QualityGateToggle({
  projectToken,
  environmentKey,
  requireNoErrors,
  onChanged,
}: {
  projectToken: string;
  environmentKey: string;
  requireNoErrors: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [, setGate] = useMutation(SetGate);
  const [error, setError] = useState('');
  // Shown switched at once; back to the service's value if it refuses.
  const [checked, setChecked] = useState(requireNoErrors);
  useEffect(() => setChecked(requireNoErrors), [requireNoErrors]);
  return (
    <>
      <label className="quality-gate">
        <input
          type="checkbox"
          checked={checked}
          onChange={async (e) => {
            const wanted = e.target.checked;
            setChecked(wanted);
            const result = await setGate({ projectToken, key: environmentKey, requireNoErrors: wanted });
            if (result.error) {
              setChecked(requireNoErrors);
              return setError(messageOf(result.error));
            }
            setError('');
            onChanged();
          }}
        />
        {t('gate.require')}
      </label>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </>
  );
}

/** Findings listed in the refusal (the service sends more; the Quality screen has them all). */
const LISTED = 10;

export function GateRefusalPanel({
  projectToken,
  environmentKey,
  refusal,
  checkTitle,
  canOverride,
  onOverride,
}: {
  projectToken: string;
  environmentKey: string;
  refusal: GateRefusal;
  checkTitle: (id: string) => string;
  canOverride: boolean;
  onOverride: () => void;
}) {
  const { t } = useTranslation();
  const more = refusal.errors - Math.min(LISTED, refusal.findings.length);
  return (
    <div className="gate-refusal" role="alert" aria-label={t('gate.refused', { environment: environmentKey })}>
      <h4>{t('gate.title', { environment: environmentKey })}</h4>
      {refusal.errors > 0 ? (
        <>
          <p>
            {t('gate.toFix', {
              errors: count(refusal.errors, 'error'),
              checks: Object.entries(refusal.byCheck)
                .map(([check, n]) => `${checkTitle(check)} ${formatNumber(n)}`)
                .join(', '),
            })}
          </p>
          <ul aria-label={t('gate.blocking')}>
            {refusal.findings.slice(0, LISTED).map((f, i) => (
              <li key={i}>
                <strong>
                  {f.namespace ? `${f.namespace}:` : ''}
                  {f.key}
                </strong>{' '}
                (
                {f.customerKey
                  ? t('findings.override', { language: f.languageCode, customer: f.customerKey })
                  : f.languageCode}
                ) {checkTitle(f.check)}: {wordMessage('checks', f.messageText, f.message)}
              </li>
            ))}
          </ul>
          {more > 0 && <p>{t('gate.more', { count: more })}</p>}
          <a href={screenLink(projectToken, 'quality', { severity: 'error' })}>{t('gate.showErrors')}</a>
        </>
      ) : (
        <p>{refusal.message}</p>
      )}
      {canOverride && refusal.errors > 0 && (
        <p>
          <button type="button" className="danger" onClick={onOverride}>
            {t('gate.anyway', { environment: environmentKey })}
          </button>{' '}
          <span className="hint">{t('gate.asOwner')}</span>
        </p>
      )}
    </div>
  );
}

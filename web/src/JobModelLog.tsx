// A language-model job's log, so a bad result can be explained: the texts it
// left unwritten and why, then each request to the model with its reply (the
// body sent, never the headers). Read only when opened: a log holds up to 200
// requests with their prompts.
import { useTranslation } from 'react-i18next';
import { formatDateTime } from './i18n';
import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from './graphql';
import { messageOf } from './feedback';
import { count } from './wording';

const JobLogQuery = graphql(
  `query JobModelLog($projectToken: String!, $jobId: String!) { job(projectToken: $projectToken, jobId: $jobId) { jobId failedTexts { key message } llmLog { provider model status reply error inputTokens outputTokens durationMs at request } } }`,
);

/** The texts a language-model job left unwritten, with why: in the job card and in its log. */
export function FailedTextList({ failures }: { failures: readonly { key: string; message: string }[] }) {
  return (
    <ul>
      {failures.map((f) => (
        <li key={f.key}>
          <code>{f.key}</code>: {f.message}
        </li>
      ))}
    </ul>
  );
}

export function JobModelLog({ projectToken, jobId, name }: { projectToken: string; jobId: string; name: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <details className="job-log" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t('jobLog.title', { name })}</summary>
      {open && <JobLogBody projectToken={projectToken} jobId={jobId} />}
    </details>
  );
}

function JobLogBody({ projectToken, jobId }: { projectToken: string; jobId: string }) {
  const { t } = useTranslation();
  const [{ data, fetching, error }] = useQuery({
    query: JobLogQuery,
    variables: { projectToken, jobId },
    requestPolicy: 'network-only',
  });
  if (error) return <p role="alert">{messageOf(error)}</p>;
  if (fetching || !data?.job) return <p aria-busy="true">{t('jobLog.reading')}</p>;
  const { failedTexts, llmLog } = data.job;
  return (
    <div>
      {failedTexts.length > 0 && (
        <>
          <h4>{t('jobLog.untranslated', { texts: count(failedTexts.length, 'text') })}</h4>
          <FailedTextList failures={failedTexts} />
        </>
      )}
      <h4>{t('jobLog.requests', { requests: count(llmLog.length, 'request') })}</h4>
      {llmLog.length === 0 && <p>{t('jobLog.noneKept')}</p>}
      <ol className="job-log-requests">
        {llmLog.map((e, i) => (
          <li key={i}>
            <p>
              {formatDateTime(e.at as string, { timeStyle: 'medium' })} · {e.model} ·{' '}
              {e.status === 0 ? t('jobLog.noAnswer') : t('jobLog.http', { status: e.status })} ·{' '}
              {t('jobLog.tokens', { input: e.inputTokens, output: e.outputTokens })} ·{' '}
              {t('jobLog.ms', { ms: e.durationMs })}
            </p>
            {e.error && <p className="error">{e.error}</p>}
            <details>
              <summary>{t('jobLog.sent', { n: i + 1 })}</summary>
              {/* Focusable: a long prompt scrolls, and keyboard users must reach it. */}
              <pre tabIndex={0} aria-label={t('jobLog.sentLabel', { n: i + 1 })}>
                {JSON.stringify(e.request, null, 2)}
              </pre>
            </details>
            <details>
              <summary>{t('jobLog.reply', { n: i + 1 })}</summary>
              <pre tabIndex={0} aria-label={t('jobLog.replyLabel', { n: i + 1 })}>
                {e.reply || t('jobLog.empty')}
              </pre>
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}

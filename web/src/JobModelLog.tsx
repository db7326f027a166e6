// A language-model job's log, so a bad result can be explained: the texts it
// left unwritten and why, then each request to the model with its reply (the
// body sent, never the headers). Read only when opened: a log holds up to 200
// requests with their prompts.
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
  const [open, setOpen] = useState(false);
  return (
    <details className="job-log" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Model log of {name}</summary>
      {open && <JobLogBody projectToken={projectToken} jobId={jobId} />}
    </details>
  );
}

function JobLogBody({ projectToken, jobId }: { projectToken: string; jobId: string }) {
  const [{ data, fetching, error }] = useQuery({
    query: JobLogQuery,
    variables: { projectToken, jobId },
    requestPolicy: 'network-only',
  });
  if (error) return <p role="alert">{messageOf(error)}</p>;
  if (fetching || !data?.job) return <p aria-busy="true">Reading the log…</p>;
  const { failedTexts, llmLog } = data.job;
  return (
    <div>
      {failedTexts.length > 0 && (
        <>
          <h4>{count(failedTexts.length, 'text')} left untranslated</h4>
          <FailedTextList failures={failedTexts} />
        </>
      )}
      <h4>{count(llmLog.length, 'request')} to the model</h4>
      {llmLog.length === 0 && <p>None kept (the log is pruned after its retention).</p>}
      <ol className="job-log-requests">
        {llmLog.map((e, i) => (
          <li key={i}>
            <p>
              {new Date(e.at as string).toLocaleTimeString('en')} · {e.model} ·{' '}
              {e.status === 0 ? 'no answer' : `HTTP ${e.status}`} · {e.inputTokens} tokens in, {e.outputTokens} out ·{' '}
              {e.durationMs} ms
            </p>
            {e.error && <p className="error">{e.error}</p>}
            <details>
              <summary>Request {i + 1}: what was sent</summary>
              {/* Focusable: a long prompt scrolls, and keyboard users must reach it. */}
              <pre tabIndex={0} aria-label={`Request ${i + 1} sent`}>
                {JSON.stringify(e.request, null, 2)}
              </pre>
            </details>
            <details>
              <summary>Request {i + 1}: the reply</summary>
              <pre tabIndex={0} aria-label={`Reply to request ${i + 1}`}>
                {e.reply || '(empty)'}
              </pre>
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}

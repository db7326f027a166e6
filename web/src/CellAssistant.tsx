// The language-model assistant of the key panel: for one language of the key,
// "Suggest" asks the model for a translation (with the key's context, checked
// like a job's) and "Rephrase", "Shorten", "More formal", "Less formal" act on
// the cell's current text. Each proposal names its source and lists what the
// checks still find; "Insert" (focused when a proposal arrives: Enter inserts)
// writes it through updateTranslation.
import { useState } from 'react';
import { client } from './client';
import { RewriteTranslation, SuggestTranslation, UpdateTranslation, type Row } from './documents';
import { messageOf } from './feedback';

type Mode = 'REPHRASE' | 'SHORTEN' | 'MORE_FORMAL' | 'LESS_FORMAL';
const MODES: [Mode, string][] = [
  ['REPHRASE', 'Rephrase'],
  ['SHORTEN', 'Shorten'],
  ['MORE_FORMAL', 'More formal'],
  ['LESS_FORMAL', 'Less formal'],
];

interface Proposal {
  text: string | null;
  source: string;
  problems: string[];
}

export function CellAssistant({
  projectToken,
  row,
  defaultLanguage,
  onInserted,
}: {
  projectToken: string;
  row: Row;
  defaultLanguage: string;
  onInserted(): void;
}) {
  const targets = row.translations.map((t) => t.language).filter((l) => l !== defaultLanguage);
  const [language, setLanguage] = useState(targets[0] ?? '');
  const [proposal, setProposal] = useState<Proposal | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  if (targets.length === 0) return null;
  const current = row.translations.find((t) => t.language === language)?.text ?? '';
  const address = { projectToken, key: row.key, namespace: row.namespace, languageKey: language };

  const ask = async (run: () => Promise<{ data?: Proposal; error?: Parameters<typeof messageOf>[0] }>) => {
    setBusy(true);
    setProposal(null);
    setMessage('Asking the language model…');
    const result = await run();
    setBusy(false);
    if (result.error) return setMessage(`No proposal: ${messageOf(result.error)}`);
    setMessage('');
    setProposal(result.data!);
  };
  const suggest = () =>
    ask(async () => {
      const r = await client.mutation(SuggestTranslation, address).toPromise();
      return { data: r.data?.suggestTranslation, error: r.error };
    });
  const rewrite = (mode: Mode) =>
    ask(async () => {
      const r = await client.mutation(RewriteTranslation, { ...address, text: current, mode }).toPromise();
      return { data: r.data?.rewriteTranslation, error: r.error };
    });
  const insert = async () => {
    if (!proposal?.text) return;
    const result = await client
      .mutation(UpdateTranslation, {
        projectToken,
        input: { key: row.key, namespace: row.namespace, language, text: proposal.text },
      })
      .toPromise();
    if (result.error) return setMessage(`Not inserted: ${messageOf(result.error)}`);
    setProposal(null);
    setMessage(`Inserted into ${language}`);
    onInserted();
  };

  return (
    <section className="assistant" aria-label="Language model assistant">
      <h3>Assistant</h3>
      <label>
        Language
        <select
          value={language}
          onChange={(e) => {
            setLanguage(e.target.value);
            setProposal(null);
          }}
        >
          {targets.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <div className="actions">
        <button type="button" onClick={suggest} disabled={busy}>
          Suggest
        </button>
        {MODES.map(([mode, label]) => (
          <button key={mode} type="button" onClick={() => rewrite(mode)} disabled={busy || !current.trim() || row.lock}>
            {label}
          </button>
        ))}
      </div>
      {proposal && (
        <div className="proposal">
          <p className="proposal-source">From {proposal.source}</p>
          {proposal.text !== null && (
            <p className="proposal-text" lang={language}>
              {proposal.text}
            </p>
          )}
          {proposal.problems.map((p) => (
            <p key={p} className="error">
              {p}
            </p>
          ))}
          {proposal.text !== null && !row.lock && (
            <button type="button" autoFocus onClick={insert}>
              Insert
            </button>
          )}
        </div>
      )}
      {message && <p role="status">{message}</p>}
    </section>
  );
}

// The language-model assistant of the key panel: for one language of the key,
// "Suggest" asks the model for a translation (with the key's context, checked
// like a job's) and "Rephrase", "Shorten", "More formal", "Less formal" act on
// the cell's current text. Each proposal names its source and lists what the
// checks still find; "Insert" (focused when a proposal arrives: Enter inserts)
// writes it through updateTranslation.
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { client } from './client';
import { RewriteTranslation, SuggestTranslation, UpdateTranslation, type Row } from './documents';
import { messageOf } from './feedback';

type Mode = 'REPHRASE' | 'SHORTEN' | 'MORE_FORMAL' | 'LESS_FORMAL';
const MODES: Mode[] = ['REPHRASE', 'SHORTEN', 'MORE_FORMAL', 'LESS_FORMAL'];

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
  const { t } = useTranslation();
  const targets = row.translations.map((c) => c.language).filter((l) => l !== defaultLanguage);
  const [language, setLanguage] = useState(targets[0] ?? '');
  const [proposal, setProposal] = useState<Proposal | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  if (targets.length === 0) return null;
  const current = row.translations.find((c) => c.language === language)?.text ?? '';
  const address = { projectToken, key: row.key, namespace: row.namespace, languageKey: language };

  const ask = async (run: () => Promise<{ data?: Proposal; error?: Parameters<typeof messageOf>[0] }>) => {
    setBusy(true);
    setProposal(null);
    setMessage(t('assistant.asking'));
    const result = await run();
    setBusy(false);
    if (result.error) return setMessage(t('assistant.noProposal', { message: messageOf(result.error) }));
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
    if (result.error) return setMessage(t('assistant.notInserted', { message: messageOf(result.error) }));
    setProposal(null);
    setMessage(t('assistant.inserted', { language }));
    onInserted();
  };

  return (
    <section className="assistant" aria-label={t('assistant.label')}>
      <h3>{t('assistant.title')}</h3>
      <label>
        {t('assistant.language')}
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
          {t('assistant.suggest')}
        </button>
        {MODES.map((mode) => (
          <button key={mode} type="button" onClick={() => rewrite(mode)} disabled={busy || !current.trim() || row.lock}>
            {t(`assistant.mode.${mode}`)}
          </button>
        ))}
      </div>
      {proposal && (
        <div className="proposal">
          <p className="proposal-source">{t('assistant.from', { source: proposal.source })}</p>
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
              {t('assistant.insert')}
            </button>
          )}
        </div>
      )}
      {message && <p role="status">{message}</p>}
    </section>
  );
}

// A term's history (glossaryTermHistory): each change of the project's log
// that touched it, newest first, with who made it and what it changed; a
// change can be reverted (revertChange: the whole change, so an import's
// revert takes back every term it wrote, each only where unchanged since).
import { useTranslation } from 'react-i18next';
import { formatDateTime, i18n } from './i18n';
import { useId, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Modal } from './Modal';
import {
  RevertGlossaryChange,
  TermHistoryQuery,
  termName,
  type GlossaryTerm,
  type TermHistoryEntry,
  type TermSnapshot,
} from './glossary-documents';
import { messageOf } from './feedback';
import { count } from './wording';

interface Props {
  projectToken: string;
  term: GlossaryTerm;
  canRevert: boolean;
  onClose: () => void;
  onReverted: (message: string) => void;
}

const when = (iso: string) => formatDateTime(iso);

function what(entry: TermHistoryEntry): string {
  const t = i18n.t;
  if (entry.change.kind === 'REVERT') return t('termHistory.reverted');
  if (entry.change.kind === 'IMPORT')
    return entry.before ? t('termHistory.updatedByImport') : t('termHistory.imported');
  if (!entry.before) return t('termHistory.created');
  if (!entry.after) return t('termHistory.deleted');
  return t('termHistory.edited');
}

const FIELDS: (keyof Omit<TermSnapshot, 'translations'>)[] = [
  'term',
  'partOfSpeech',
  'description',
  'forbidden',
  'doNotTranslate',
  'caseSensitive',
  'abbreviation',
];
const shown = (value: string | boolean | undefined) =>
  value === undefined || value === ''
    ? '—'
    : typeof value === 'boolean'
      ? i18n.t(value ? 'common.yes' : 'common.no')
      : i18n.t('termHistory.quoted', { value });

/** What differs between the term as the change found and left it, one line each. */
function differences(before: TermSnapshot | null, after: TermSnapshot | null): string[] {
  const lines: string[] = [];
  for (const field of FIELDS) {
    const label = i18n.t(`termHistory.field.${field}`);
    const a = before?.[field];
    const b = after?.[field];
    if (a === b || (!before && (b === '' || b === false)) || (!after && (a === '' || a === false))) continue;
    lines.push(before && after ? `${label}: ${shown(a)} → ${shown(b)}` : `${label}: ${shown(after ? b : a)}`);
  }
  const languages = [
    ...new Set([...(before?.translations ?? []), ...(after?.translations ?? [])].map((t) => t.language)),
  ].sort();
  for (const language of languages) {
    const a = before?.translations.find((t) => t.language === language)?.text;
    const b = after?.translations.find((t) => t.language === language)?.text;
    if (a === b) continue;
    lines.push(before && after ? `${language}: ${shown(a)} → ${shown(b)}` : `${language}: ${shown(after ? b : a)}`);
  }
  return lines;
}

export function GlossaryTermHistory({ projectToken, term, canRevert, onClose, onReverted }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [{ data, error, fetching }, refetch] = useQuery({
    query: TermHistoryQuery,
    variables: { projectToken, termId: term.id },
  });
  const [{ fetching: reverting }, revert] = useMutation(RevertGlossaryChange);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  const entries = data?.glossaryTermHistory ?? [];

  const doRevert = async (entry: TermHistoryEntry) => {
    const result = await revert({ projectToken, activityId: entry.change.id });
    if (result.error) return setFailure(messageOf(result.error));
    const { reverted, changedSince } = result.data!.revertChange;
    const message = changedSince
      ? t('termHistory.revertedMessageKept', { terms: count(reverted, 'term'), count: changedSince })
      : t('termHistory.revertedMessage', { terms: count(reverted, 'term') });
    setFailure('');
    setStatus(message);
    refetch({ requestPolicy: 'network-only' });
    onReverted(message);
  };

  return (
    <Modal labelledBy={`${id}-title`} onCancel={onClose}>
      <h2 id={`${id}-title`}>{t('termHistory.title', { term: termName(term) })}</h2>
      {canRevert && <p className="hint">{t('termHistory.hint')}</p>}
      {error && (
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      )}
      {data && entries.length === 0 && <p>{t('termHistory.none')}</p>}
      {fetching && !data && <p>{t('common.loading')}</p>}
      {entries.length > 0 && (
        <ol className="plain term-history" aria-label={t('termHistory.changes', { term: termName(term) })}>
          {entries.map((entry) => {
            const label = `${what(entry)}, ${when(entry.change.at)}`;
            return (
              <li key={entry.change.id} aria-label={label}>
                <div className="term-history-head">
                  <strong>{what(entry)}</strong>
                  <span className="hint">
                    {when(entry.change.at)} ·{' '}
                    {entry.change.actor.name ??
                      (entry.change.actor.kind === 'API_KEY'
                        ? t('termHistory.apiKey')
                        : entry.change.actor.kind.toLowerCase())}
                  </span>
                  {canRevert && (
                    <button
                      type="button"
                      disabled={reverting}
                      onClick={() => void doRevert(entry)}
                      aria-label={t('termHistory.revertLabel', { label })}
                    >
                      {t('termHistory.revert')}
                    </button>
                  )}
                </div>
                <ul className="term-history-changes">
                  {differences(entry.before, entry.after).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ol>
      )}
      <p role="status" className="status">
        {status}
      </p>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </Modal>
  );
}

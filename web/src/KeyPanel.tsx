// The key panel (description, code description, tags, characters limit, lock,
// deprecated, timestamps; rename and delete; the screenshots it is marked on) and the new-key form.
import { useTranslation } from 'react-i18next';
import { formatDateTime } from './i18n';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { client } from './client';
import { CreateKey, DeleteKey, UpdateKey, type Row } from './documents';
import { messageOf } from './feedback';
import { KeyScreenshots } from './KeyScreenshots';
import { CellAssistant } from './CellAssistant';

const when = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : '—');

export function KeyPanel({
  projectToken,
  address,
  row,
  notice,
  defaultLanguage,
  onClose,
  onChanged,
}: {
  projectToken: string;
  /** The project's default language: the assistant's source, not one of its targets. */
  defaultLanguage: string;
  address: { key: string; namespace: string };
  row: Row | undefined;
  /** A message to open with: the outcome of the save that renamed the key (a renamed key gets a new panel). */
  notice?: string;
  onClose(): void;
  onChanged(address: { key: string; namespace: string } | null, notice?: string): void;
}) {
  const { t } = useTranslation();
  // The form starts from the row as it is when the panel opens (the editor mounts a panel per key), so
  // what the user types at once is never replaced by a late copy of the row.
  const [name, setName] = useState(row?.key ?? address.key);
  const [description, setDescription] = useState(row?.description ?? '');
  const [tags, setTags] = useState(row?.tags.join(', ') ?? '');
  const [limit, setLimit] = useState(row?.charactersLimit == null ? '' : String(row.charactersLimit));
  const [lock, setLock] = useState(row?.lock ?? false);
  const [message, setMessage] = useState(notice ?? '');
  // What the user typed and has not saved yet. The row changes under the panel
  // (live updates reload it): an untouched form follows it, an edited one keeps
  // the user's input until it is saved.
  const edited = useRef(false);
  const shown = useRef<string | null>(row ? `${row.namespace}\u0000${row.key}` : null);
  const edit =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      edited.current = true;
      set(value);
    };
  useEffect(() => {
    if (!row) return;
    const identity = `${row.namespace}\u0000${row.key}`;
    if (edited.current && shown.current === identity) return;
    shown.current = identity;
    edited.current = false;
    setName(row.key);
    setDescription(row.description);
    setTags(row.tags.join(', '));
    setLimit(row.charactersLimit == null ? '' : String(row.charactersLimit));
    setLock(row.lock);
  }, [row]);
  if (!row) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      ...(name !== row.key ? { key: name } : {}),
      description,
      tags: tags
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
      charactersLimit: limit.trim() === '' ? -1 : Number(limit),
      lock,
    };
    // A locked key refuses metadata changes: unlock first, on its own.
    const result = await client
      .mutation(UpdateKey, {
        projectToken,
        key: row.key,
        namespace: row.namespace,
        input: row.lock && !lock ? { lock: false } : input,
      })
      .toPromise();
    if (result.error) return setMessage(t('keyPanel.notSaved', { message: messageOf(result.error) }));
    edited.current = false;
    setMessage(t('keyPanel.saved'));
    onChanged(result.data!.updateTranslationKey, t('keyPanel.saved'));
  };
  const remove = async () => {
    if (!window.confirm(t('keyPanel.confirmDelete', { key: row.key }))) return;
    const result = await client
      .mutation(DeleteKey, { projectToken, key: row.key, namespace: row.namespace })
      .toPromise();
    if (result.error) return setMessage(t('keyPanel.notDeleted', { message: messageOf(result.error) }));
    onChanged(null);
    onClose();
  };
  return (
    <aside className="key-panel" aria-label={t('keyPanel.label', { key: row.key })}>
      <div className="panel-head">
        <h2>{row.key}</h2>
        <button type="button" onClick={onClose}>
          {t('keyPanel.close')}
        </button>
      </div>
      {row.deprecated && (
        <p className="badge deprecated">{t('keyPanel.deprecatedSince', { when: when(row.deprecatedAt) })}</p>
      )}
      <form onSubmit={submit}>
        <label>
          {t('keyPanel.key')}{' '}
          <input
            value={name}
            onChange={(e) => edit(setName)(e.target.value)}
            required
            maxLength={500}
            disabled={row.lock}
          />
        </label>
        <p>{t('keyPanel.namespace', { namespace: row.namespace || t('editor.defaultNamespace') })}</p>
        <label>
          {t('keyPanel.description')}{' '}
          <textarea
            value={description}
            onChange={(e) => edit(setDescription)(e.target.value)}
            maxLength={500}
            disabled={row.lock}
          />
        </label>
        <div className="field">
          <span className="field-label">{t('keyPanel.codeDescription')}</span>
          <p className="readonly">{row.codeDescription || '—'}</p>
        </div>
        <label>
          {t('keyPanel.tags')}{' '}
          <input
            value={tags}
            onChange={(e) => edit(setTags)(e.target.value)}
            placeholder={t('editor.tagsPlaceholder')}
            disabled={row.lock}
          />
        </label>
        <label>
          {t('keyPanel.limit')}{' '}
          <input
            type="number"
            min={1}
            value={limit}
            onChange={(e) => edit(setLimit)(e.target.value)}
            disabled={row.lock}
          />
        </label>
        <label className="check">
          <input type="checkbox" checked={lock} onChange={(e) => edit(setLock)(e.target.checked)} />{' '}
          {t('keyPanel.locked')}
        </label>
        <p className="times">{t('keyPanel.times', { created: when(row.createdAt), modified: when(row.modifiedAt) })}</p>
        <div className="actions">
          <button type="submit">{t('keyPanel.save')}</button>
          <button type="button" className="danger" onClick={remove} disabled={row.lock}>
            {t('keyPanel.delete')}
          </button>
        </div>
        {message && <p role="status">{message}</p>}
      </form>
      <KeyScreenshots projectToken={projectToken} keyName={row.key} namespace={row.namespace} />
      <CellAssistant
        projectToken={projectToken}
        row={row}
        defaultLanguage={defaultLanguage}
        onInserted={() => onChanged({ key: row.key, namespace: row.namespace })}
      />
    </aside>
  );
}

export function NewKeyForm({ projectToken, onCreated }: { projectToken: string; onCreated(): void }) {
  const { t } = useTranslation();
  const [key, setKey] = useState('');
  const [namespace, setNamespace] = useState('');
  const [message, setMessage] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await client
      .mutation(CreateKey, { projectToken, input: { key, namespace: namespace || null } })
      .toPromise();
    if (result.error) return setMessage(t('newKey.notCreated', { message: messageOf(result.error) }));
    setMessage(t('newKey.created', { key }));
    setKey('');
    onCreated();
  };
  return (
    <form className="new-key" onSubmit={submit} aria-label={t('newKey.label')}>
      <label>
        {t('newKey.key')} <input value={key} onChange={(e) => setKey(e.target.value)} required maxLength={500} />
      </label>
      <label>
        {t('newKey.namespace')}{' '}
        <input value={namespace} onChange={(e) => setNamespace(e.target.value)} maxLength={128} />
      </label>
      <button type="submit">{t('newKey.submit')}</button>
      {message && <span role="status">{message}</span>}
    </form>
  );
}

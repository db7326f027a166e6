// The key panel (description, code description, tags, characters limit, lock,
// deprecated, timestamps; rename and delete; the screenshots it is marked on) and the new-key form.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { client } from './client';
import { CreateKey, DeleteKey, UpdateKey, type Row } from './documents';
import { messageOf } from './feedback';
import { KeyScreenshots } from './KeyScreenshots';
import { CellAssistant } from './CellAssistant';

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString('en') : '—');

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
        .map((t) => t.trim())
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
    if (result.error) return setMessage(`Not saved: ${messageOf(result.error)}`);
    edited.current = false;
    setMessage('Key saved');
    onChanged(result.data!.updateTranslationKey, 'Key saved');
  };
  const remove = async () => {
    if (!window.confirm(`Delete the key ${row.key} with its translations?`)) return;
    const result = await client
      .mutation(DeleteKey, { projectToken, key: row.key, namespace: row.namespace })
      .toPromise();
    if (result.error) return setMessage(`Not deleted: ${messageOf(result.error)}`);
    onChanged(null);
    onClose();
  };
  return (
    <aside className="key-panel" aria-label={`Key ${row.key}`}>
      <div className="panel-head">
        <h2>{row.key}</h2>
        <button type="button" onClick={onClose}>
          Close key panel
        </button>
      </div>
      {row.deprecated && <p className="badge deprecated">Deprecated since {when(row.deprecatedAt)}</p>}
      <form onSubmit={submit}>
        <label>
          Key{' '}
          <input
            value={name}
            onChange={(e) => edit(setName)(e.target.value)}
            required
            maxLength={500}
            disabled={row.lock}
          />
        </label>
        <p>Namespace: {row.namespace || '(default)'}</p>
        <label>
          Description{' '}
          <textarea
            value={description}
            onChange={(e) => edit(setDescription)(e.target.value)}
            maxLength={500}
            disabled={row.lock}
          />
        </label>
        <div className="field">
          <span className="field-label">Code description</span>
          <p className="readonly">{row.codeDescription || '—'}</p>
        </div>
        <label>
          Tags{' '}
          <input
            value={tags}
            onChange={(e) => edit(setTags)(e.target.value)}
            placeholder="tag1, tag2"
            disabled={row.lock}
          />
        </label>
        <label>
          Characters limit{' '}
          <input
            type="number"
            min={1}
            value={limit}
            onChange={(e) => edit(setLimit)(e.target.value)}
            disabled={row.lock}
          />
        </label>
        <label className="check">
          <input type="checkbox" checked={lock} onChange={(e) => edit(setLock)(e.target.checked)} /> Locked
          (translations read-only)
        </label>
        <p className="times">
          Created {when(row.createdAt)} · modified {when(row.modifiedAt)}
        </p>
        <div className="actions">
          <button type="submit">Save key</button>
          <button type="button" className="danger" onClick={remove} disabled={row.lock}>
            Delete key
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
  const [key, setKey] = useState('');
  const [namespace, setNamespace] = useState('');
  const [message, setMessage] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await client
      .mutation(CreateKey, { projectToken, input: { key, namespace: namespace || null } })
      .toPromise();
    if (result.error) return setMessage(`Not created: ${messageOf(result.error)}`);
    setMessage(`Created ${key}`);
    setKey('');
    onCreated();
  };
  return (
    <form className="new-key" onSubmit={submit} aria-label="Create a key">
      <label>
        New key <input value={key} onChange={(e) => setKey(e.target.value)} required maxLength={500} />
      </label>
      <label>
        Namespace <input value={namespace} onChange={(e) => setNamespace(e.target.value)} maxLength={128} />
      </label>
      <button type="submit">Create key</button>
      {message && <span role="status">{message}</span>}
    </form>
  );
}

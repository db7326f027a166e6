// The project's screenshots: upload (a GraphQL multipart request, as imports
// are sent), the thumbnails, and one screenshot opened to mark keys on it:
// drag on the image to draw a rectangle and pick its key, drag a rectangle to
// move it, select one to give it another key or remove it. Rectangles are
// kept in the image's pixels; on screen they are placed in percent of it.
import { useTranslation } from 'react-i18next';
import { useMemo, useRef, useState, type FormEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { useQuery } from 'urql';
import { client } from './client';
import { messageOf } from './feedback';
import {
  DeleteScreenshot,
  LinkScreenshotKey,
  ScreenshotsQuery,
  UnlinkScreenshotKey,
  UpdateScreenshotLink,
  UploadScreenshot,
  type Mark,
  type Screenshot,
} from './screenshot-documents';
import { uploadOperation } from './upload';
import { count } from './wording';

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const percent = (part: number, whole: number) => `${(part / whole) * 100}%`;
const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);
const keyLabel = (key: { key: string; namespace: string }) => (key.namespace ? `${key.namespace}:${key.key}` : key.key);
/** The smallest rectangle a drag makes (smaller is taken for a click). */
const MIN_SIDE = 4;

export function ScreenshotsScreen({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const [{ data, error, fetching }, refetch] = useQuery({
    query: ScreenshotsQuery,
    variables: { projectToken },
    requestPolicy: 'cache-and-network',
  });
  const [openId, setOpenId] = useState<number | null>(null);
  const [message, setMessage] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const shots = data?.screenshots.edges.map((e) => e.node) ?? [];
  const keys = data?.translationKeys.edges.map((e) => e.node) ?? [];
  const open = shots.find((s) => s.id === openId);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setUploading(true);
    const answer = await uploadOperation(UploadScreenshot, { projectToken }, file, () => {});
    setUploading(false);
    if (answer.error !== undefined) return setMessage(t('shots.notUploaded', { error: answer.error }));
    setMessage(t('shots.uploaded', { name: answer.data.uploadScreenshot.name }));
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
    setOpenId(answer.data.uploadScreenshot.id);
    reload();
  };

  return (
    <main className="screenshots">
      <h1>{t('shots.title')}</h1>
      <form className="shot-upload" onSubmit={upload}>
        <label>
          {t('shots.file')}{' '}
          <input
            ref={fileInput}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </label>
        <button type="submit" disabled={!file || uploading}>
          {uploading ? t('shots.uploading') : t('shots.upload')}
        </button>
      </form>
      <p role="status">{message}</p>
      {error && (
        <p className="error" role="alert">
          {messageOf(error)}
        </p>
      )}
      {data && shots.length === 0 && <p className="muted">{t('shots.none')}</p>}
      <ul className="shot-list" aria-label={t('shots.list')} aria-busy={fetching}>
        {shots.map((shot) => (
          <li key={shot.id}>
            <button type="button" aria-pressed={shot.id === openId} onClick={() => setOpenId(shot.id)}>
              <img src={shot.thumbnailPath} alt="" width={shot.thumbnailWidth} height={shot.thumbnailHeight} />
              <span className="shot-name">{shot.name}</span>
              <span className="muted">{count(shot.links.length, 'key')}</span>
            </button>
          </li>
        ))}
      </ul>
      {open && (
        <ScreenshotEditor
          key={open.id}
          projectToken={projectToken}
          shot={open}
          keys={keys}
          onChanged={reload}
          onDeleted={() => {
            setOpenId(null);
            setMessage(t('shots.deleted', { name: open.name }));
            reload();
          }}
        />
      )}
    </main>
  );
}

type Drag =
  | { kind: 'draw'; from: { x: number; y: number }; rect: Rect }
  | { kind: 'move'; mark: Mark; from: { x: number; y: number }; rect: Rect };

function ScreenshotEditor({
  projectToken,
  shot,
  keys,
  onChanged,
  onDeleted,
}: {
  projectToken: string;
  shot: Screenshot;
  keys: { key: string; namespace: string }[];
  onChanged(): void;
  onDeleted(): void;
}) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [draft, setDraft] = useState<Rect | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [keyName, setKeyName] = useState('');
  const [namespace, setNamespace] = useState('');
  const [message, setMessage] = useState('');
  // A moved rectangle shows where it was put until the reloaded screenshot has it.
  const [moved, setMoved] = useState<Map<number, Rect>>(new Map());
  const selected = shot.links.find((l) => l.id === selectedId);
  const namespaces = useMemo(() => [...new Set(keys.map((k) => k.namespace).filter(Boolean))], [keys]);

  /** The pointer's place in the image's pixels. */
  const pointAt = (event: ReactPointerEvent) => {
    const box = canvas.current!.getBoundingClientRect();
    return {
      x: clamp(Math.round(((event.clientX - box.left) / box.width) * shot.width), 0, shot.width),
      y: clamp(Math.round(((event.clientY - box.top) / box.height) * shot.height), 0, shot.height),
    };
  };

  const startDraw = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || (event.target !== event.currentTarget && !(event.target as HTMLElement).matches('img')))
      return;
    event.preventDefault();
    canvas.current!.setPointerCapture(event.pointerId);
    const from = pointAt(event);
    setDrag({ kind: 'draw', from, rect: { ...from, width: 0, height: 0 } });
  };
  const startMove = (mark: Mark) => (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    canvas.current!.setPointerCapture(event.pointerId);
    // Pressed is selected (the click that follows goes to the canvas, which holds the pointer).
    select(mark);
    setDrag({ kind: 'move', mark, from: pointAt(event), rect: moved.get(mark.id) ?? mark });
  };
  const onMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const at = pointAt(event);
    if (drag.kind === 'draw') {
      setDrag({
        ...drag,
        rect: {
          x: Math.min(at.x, drag.from.x),
          y: Math.min(at.y, drag.from.y),
          width: Math.abs(at.x - drag.from.x),
          height: Math.abs(at.y - drag.from.y),
        },
      });
    } else {
      const start = moved.get(drag.mark.id) ?? drag.mark;
      setDrag({
        ...drag,
        rect: {
          ...start,
          x: clamp(start.x + at.x - drag.from.x, 0, shot.width - start.width),
          y: clamp(start.y + at.y - drag.from.y, 0, shot.height - start.height),
        },
      });
    }
  };
  const onUp = async () => {
    if (!drag) return;
    setDrag(null);
    if (drag.kind === 'draw') {
      if (drag.rect.width < MIN_SIDE || drag.rect.height < MIN_SIDE) return;
      setSelectedId(null);
      setDraft(drag.rect);
      setMessage(t('shots.pickKey'));
      return;
    }
    const before = moved.get(drag.mark.id) ?? drag.mark;
    if (drag.rect.x === before.x && drag.rect.y === before.y) return;
    const rectangle = { x: drag.rect.x, y: drag.rect.y, width: drag.rect.width, height: drag.rect.height };
    setMoved(new Map(moved).set(drag.mark.id, rectangle));
    const result = await client
      .mutation(UpdateScreenshotLink, { projectToken, linkId: drag.mark.id, rectangle })
      .toPromise();
    if (result.error) {
      const back = new Map(moved);
      back.delete(drag.mark.id);
      setMoved(back);
      return setMessage(t('shots.notMoved', { message: messageOf(result.error) }));
    }
    setMessage(t('shots.moved', { key: keyLabel(drag.mark.key) }));
    onChanged();
  };

  const link = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    const result = await client
      .mutation(LinkScreenshotKey, {
        projectToken,
        screenshotId: shot.id,
        key: keyName.trim(),
        namespace: namespace || null,
        rectangle: draft,
      })
      .toPromise();
    if (result.error) return setMessage(t('shots.notMarked', { message: messageOf(result.error) }));
    setMessage(t('shots.marked', { key: keyLabel({ key: keyName.trim(), namespace }) }));
    setDraft(null);
    setKeyName('');
    onChanged();
  };
  const rekey = async (event: FormEvent) => {
    event.preventDefault();
    if (!selected) return;
    const result = await client
      .mutation(UpdateScreenshotLink, {
        projectToken,
        linkId: selected.id,
        key: keyName.trim(),
        namespace: namespace || null,
      })
      .toPromise();
    if (result.error) return setMessage(t('shots.notChanged', { message: messageOf(result.error) }));
    setMessage(t('shots.nowMarks', { key: keyLabel({ key: keyName.trim(), namespace }) }));
    onChanged();
  };
  const unlink = async () => {
    if (!selected) return;
    const result = await client.mutation(UnlinkScreenshotKey, { projectToken, linkId: selected.id }).toPromise();
    if (result.error) return setMessage(t('shots.notRemoved', { message: messageOf(result.error) }));
    setMessage(t('shots.removed', { key: keyLabel(selected.key) }));
    setSelectedId(null);
    onChanged();
  };
  const remove = async () => {
    if (!window.confirm(t('shots.confirmDelete', { name: shot.name }))) return;
    const result = await client.mutation(DeleteScreenshot, { projectToken, id: shot.id }).toPromise();
    if (result.error) return setMessage(t('shots.notDeleted', { message: messageOf(result.error) }));
    onDeleted();
  };
  const select = (mark: Mark) => {
    setSelectedId(mark.id);
    setDraft(null);
    setKeyName(mark.key.key);
    setNamespace(mark.key.namespace);
  };

  const placed = (rect: Rect) => ({
    left: percent(rect.x, shot.width),
    top: percent(rect.y, shot.height),
    width: percent(rect.width, shot.width),
    height: percent(rect.height, shot.height),
  });
  const drawing = drag?.kind === 'draw' ? drag.rect : draft;
  return (
    <section className="shot-editor" aria-label={t('shots.label', { name: shot.name })}>
      <div className="panel-head">
        <h2>{shot.name}</h2>
        <span className="muted">
          {t('shots.size', { width: shot.width, height: shot.height })}
          {shot.uploadedBy ? ` ${t('shots.uploadedBy', { name: shot.uploadedBy })}` : ''}
        </span>
        <button type="button" className="danger" onClick={remove}>
          {t('shots.delete')}
        </button>
      </div>
      <p className="muted">{t('shots.hint')}</p>
      <div className="shot-workspace">
        <div
          ref={canvas}
          className="shot-canvas"
          onPointerDown={startDraw}
          onPointerMove={onMove}
          onPointerUp={onUp}
          onPointerCancel={() => setDrag(null)}
        >
          <img src={shot.imagePath} alt={t('shots.label', { name: shot.name })} draggable={false} />
          {shot.links.map((mark) => {
            const rect = drag?.kind === 'move' && drag.mark.id === mark.id ? drag.rect : (moved.get(mark.id) ?? mark);
            return (
              <div
                key={mark.id}
                className={`shot-mark${mark.id === selectedId ? ' selected' : ''}`}
                style={placed(rect)}
                role="button"
                tabIndex={0}
                aria-label={t('shots.markOf', { key: keyLabel(mark.key) })}
                aria-pressed={mark.id === selectedId}
                onPointerDown={startMove(mark)}
                onClick={() => select(mark)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') select(mark);
                }}
              >
                <span className="shot-mark-label">{keyLabel(mark.key)}</span>
              </div>
            );
          })}
          {drawing && <div className="shot-mark draft" style={placed(drawing)} aria-hidden="true" />}
        </div>
        <div className="shot-side">
          <datalist id="screenshot-keys">
            {keys.map((k) => (
              <option key={keyLabel(k)} value={k.key}>
                {keyLabel(k)}
              </option>
            ))}
          </datalist>
          {draft && (
            <form onSubmit={link} aria-label={t('shots.markForm')}>
              <h3>{t('shots.newRectangle')}</h3>
              <p className="muted">
                {t('shots.rectangle', { x: draft.x, y: draft.y, width: draft.width, height: draft.height })}
              </p>
              <label>
                {t('shots.key')}{' '}
                <input list="screenshot-keys" value={keyName} onChange={(e) => setKeyName(e.target.value)} required />
              </label>
              <label>
                {t('shots.namespace')}
                <select value={namespace} onChange={(e) => setNamespace(e.target.value)}>
                  <option value="">{t('shots.default')}</option>
                  {namespaces.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </label>
              <div className="actions">
                <button type="submit">{t('shots.markKey')}</button>
                <button
                  type="button"
                  onClick={() => {
                    setDraft(null);
                    setMessage('');
                  }}
                >
                  {t('common.cancel')}
                </button>
              </div>
            </form>
          )}
          {selected && !draft && (
            <form onSubmit={rekey} aria-label={t('shots.selectedForm')}>
              <h3>{t('shots.markOf', { key: keyLabel(selected.key) })}</h3>
              <label>
                {t('shots.key')}{' '}
                <input list="screenshot-keys" value={keyName} onChange={(e) => setKeyName(e.target.value)} required />
              </label>
              <label>
                {t('shots.namespace')}
                <select value={namespace} onChange={(e) => setNamespace(e.target.value)}>
                  <option value="">{t('shots.default')}</option>
                  {namespaces.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </label>
              <div className="actions">
                <button type="submit">{t('shots.changeKey')}</button>
                <button type="button" className="danger" onClick={unlink}>
                  {t('shots.removeMark')}
                </button>
              </div>
            </form>
          )}
          <h3>{t('shots.markedKeys')}</h3>
          {shot.links.length === 0 ? (
            <p className="muted">{t('shots.noneYet')}</p>
          ) : (
            <ul className="shot-keys">
              {shot.links.map((mark) => (
                <li key={mark.id}>
                  <button type="button" onClick={() => select(mark)}>
                    {keyLabel(mark.key)}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <p role="status">{message}</p>
        </div>
      </div>
    </section>
  );
}

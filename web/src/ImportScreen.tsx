// A project's Import screen: files dropped or chosen, each with the format
// src/formats/suggest.ts suggests from its name and content (changeable), the
// import options of the API with what they do, a preview of what each file
// would change (previewImport: the import run and rolled back), then the
// import (importFile: the engine and limits of POST /api/v2/import), one file
// after the other, with the upload's real progress and the counts.
import { useTranslation } from 'react-i18next';
import { formatNumber, i18n } from './i18n';
import { useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { graphql, type ResultOf, type VariablesOf } from './graphql';
import { ProjectMeta } from './documents';
import { uploadOperation, type UploadProgress } from './upload';
import { suggestFormat } from '../../src/formats/suggest';
import { FileFormatsQuery, fileSize, layoutOptionsOf, type FileFormat, type LayoutOption } from './formats';
import { count as counted } from './wording';

const PreviewImport = graphql(`
  mutation PreviewImport($projectToken: String!, $file: Upload!, $uploadFormat: FormatId!, $importOptions: [ImportOption!], $languageKey: String, $customerKey: String, $namespace: String, $tags: [String!], $filePath: String) {
    previewImport(projectToken: $projectToken, file: $file, uploadFormat: $uploadFormat, importOptions: $importOptions, languageKey: $languageKey, customerKey: $customerKey, namespace: $namespace, tags: $tags, filePath: $filePath) {
      numberOfKeysFound numberOfUniqueKeysFound
      foundLanguages { key name }
      languagesToCreate
      keysToCreate { count keys { key namespace } }
      keysToDelete { count keys { key namespace } }
      translationsToInsert translationsToUpdate translationsToRefuse
      refusals { key namespace language reason message }
      warnings
    }
  }
`);

const ImportFile = graphql(`
  mutation ImportFile($projectToken: String!, $file: Upload!, $uploadFormat: FormatId!, $importOptions: [ImportOption!], $languageKey: String, $customerKey: String, $namespace: String, $tags: [String!], $filePath: String) {
    importFile(projectToken: $projectToken, file: $file, uploadFormat: $uploadFormat, importOptions: $importOptions, languageKey: $languageKey, customerKey: $customerKey, namespace: $namespace, tags: $tags, filePath: $filePath) {
      numberOfKeysFound keysCreated languagesCreated translationsInserted translationsUpdated translationsRefused keysDeleted published warnings
    }
  }
`);

type ImportVariables = VariablesOf<typeof ImportFile>;
type ImportOption = NonNullable<ImportVariables['importOptions']>[number];
type Preview = ResultOf<typeof PreviewImport>['previewImport'];
type Result = ResultOf<typeof ImportFile>['importFile'];

/** Options that choose how a file is read (LayoutOption) are set per file, next to its format. */
type GeneralOption = Exclude<ImportOption, LayoutOption>;

/** What each import option does: t() of an option without its texts does not compile, so every option of the API has them. */
const optionLabel = (o: ImportOption) => i18n.t(`importOption.${o}.label`);
const optionHelp = (o: ImportOption) => i18n.t(`importOption.${o}.help`);
const GENERAL_OPTIONS: GeneralOption[] = [
  'REPLACE_TRANSLATION_IF_FOUND',
  'TRIM_LEADING_TRAILING_SPACES',
  'UNESCAPE_NEW_LINES',
  'UNESCAPE_SINGLE_QUOTES',
  'DELETE_NOT_PRESENT_KEYS',
  'INCLUDE_FILE_PATH',
  'PUBLISH_AFTER_IMPORT',
];

/** True when a file of the format, read with these options, holds one language that it does not name itself. */
function needsLanguage(format: FileFormat | undefined, layout: LayoutOption[]): boolean {
  if (!format || format.multiLanguage || format.languageInFile) return false;
  return !(format.multiLanguageLayouts && (layout.includes('MULTI_LANGUAGE') || layout.includes('LANGUAGES_NESTED')));
}

type Stage = 'ready' | 'previewing' | 'previewed' | 'importing' | 'imported' | 'failed';

interface Item {
  id: number;
  file: File;
  /** The format's id (fileFormats id), '' until suggested. */
  format: string;
  languageKey: string;
  layout: LayoutOption[];
  reason: string;
  stage: Stage;
  progress?: UploadProgress;
  preview?: Preview;
  result?: Result;
  error?: string;
  /** The error is the service's refusal: the request changed nothing (one transaction). */
  refused?: boolean;
}

/** JSON is read whole (to parse it) up to this size; other files by their start. */
const WHOLE_JSON_BYTES = 20 << 20;
const HEAD_BYTES = 256 << 10;

async function suggestionOf(file: File) {
  const whole = /\.json$/i.test(file.name) && file.size <= WHOLE_JSON_BYTES;
  const head = new Uint8Array(await file.slice(0, whole ? file.size : HEAD_BYTES).arrayBuffer());
  return suggestFormat({ fileName: file.webkitRelativePath || file.name, head });
}

/** A figure of the preview's table. */
const count = (n: number) => formatNumber(n);

export function ImportScreen({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const [{ data: meta }] = useQuery({ query: ProjectMeta, variables: { projectToken } });
  const [{ data: formatsData, error: formatsError }] = useQuery({ query: FileFormatsQuery });
  const formats = formatsData?.fileFormats ?? [];
  const formatById = useMemo(() => new Map(formats.map((f) => [f.id, f])), [formats]);
  const [items, setItems] = useState<Item[]>([]);
  const [options, setOptions] = useState<GeneralOption[]>([]);
  const [namespace, setNamespace] = useState('');
  const [customerKey, setCustomerKey] = useState('');
  const [tags, setTags] = useState('');
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const nextId = useRef(1);
  const input = useRef<HTMLInputElement>(null);
  const project = meta?.project;

  const update = (id: number, change: Partial<Item>) =>
    setItems((list) => list.map((i) => (i.id === id ? { ...i, ...change } : i)));
  /** A changed choice makes the previews stale: they are asked again. */
  const invalidate = (list: Item[]) =>
    list.map((i) =>
      i.stage === 'imported'
        ? i
        : { ...i, stage: 'ready' as const, preview: undefined, error: undefined, progress: undefined },
    );
  const edit = (id: number, change: Partial<Item>) =>
    setItems((list) => invalidate(list.map((i) => (i.id === id ? { ...i, ...change } : i))));
  const editShared = (apply: () => void) => {
    apply();
    setItems((list) => invalidate(list));
  };

  const addFiles = async (files: File[]) => {
    const added = files.map((file) => ({
      id: nextId.current++,
      file,
      format: '',
      languageKey: '',
      layout: [],
      reason: t('import.readingFile'),
      stage: 'ready' as const,
    }));
    setItems((list) => [...list.filter((i) => i.stage !== 'imported'), ...added]);
    for (const item of added) {
      const s = await suggestionOf(item.file);
      update(item.id, {
        format: s.format,
        languageKey: s.languageKey ?? '',
        layout: s.options,
        reason: t('import.suggested', { reason: s.reason }),
      });
    }
  };

  const variablesOf = (item: Item): Omit<ImportVariables, 'file'> => {
    const format = formatById.get(item.format)!;
    const tagList = tags
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean);
    return {
      projectToken,
      uploadFormat: format.format,
      importOptions: [...options, ...item.layout.filter((o) => layoutOptionsOf(format).includes(o))],
      languageKey: item.languageKey.trim() || null,
      customerKey: customerKey || null,
      namespace: namespace.trim() || null,
      tags: tagList.length ? tagList : null,
      filePath: options.includes('INCLUDE_FILE_PATH') ? item.file.webkitRelativePath || item.file.name : null,
    };
  };

  const problemOf = (item: Item): string | undefined => {
    const format = formatById.get(item.format);
    if (!format) return t('import.chooseFormat');
    if (needsLanguage(format, item.layout) && !item.languageKey.trim()) return t('import.chooseLanguage');
    return undefined;
  };

  const runAll = async (stage: 'previewing' | 'importing') => {
    setBusy(true);
    const todo = items.filter((i) =>
      stage === 'previewing' ? i.stage === 'ready' || i.stage === 'failed' : i.stage === 'previewed',
    );
    for (const item of todo) {
      const problem = problemOf(item);
      if (problem) {
        update(item.id, { stage: 'failed', error: problem, refused: false });
        continue;
      }
      update(item.id, { stage, error: undefined, progress: { sent: 0, total: item.file.size, uploaded: false } });
      const onProgress = (progress: UploadProgress) => update(item.id, { progress });
      if (stage === 'previewing') {
        const answer = await uploadOperation(PreviewImport, variablesOf(item), item.file, onProgress);
        update(
          item.id,
          answer.error !== undefined
            ? { stage: 'failed', error: answer.error, refused: answer.answered }
            : { stage: 'previewed', preview: answer.data.previewImport },
        );
      } else {
        const answer = await uploadOperation(ImportFile, variablesOf(item), item.file, onProgress);
        update(
          item.id,
          answer.error !== undefined
            ? { stage: 'failed', error: answer.error, refused: answer.answered, preview: undefined }
            : { stage: 'imported', result: answer.data.importFile },
        );
      }
    }
    setBusy(false);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void addFiles([...event.dataTransfer.files]);
  };

  const previewed = items.filter((i) => i.stage === 'previewed').length;
  const toPreview = items.filter((i) => i.stage === 'ready' || i.stage === 'failed').length;
  const imported = items.filter((i) => i.stage === 'imported').length;
  const files = (n: number) => counted(n, 'file');
  const status = busy
    ? t('import.working')
    : imported
      ? t('import.imported', { files: files(imported) })
      : previewed
        ? t('import.previewReady', { files: files(previewed) })
        : '';
  return (
    <main className="transfer import-screen">
      <h1>{project ? t('import.titleInto', { name: project.name }) : t('import.title')}</h1>
      {formatsError && (
        <p role="alert" className="error">
          {formatsError.message}
        </p>
      )}
      <div
        className={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p>{t('import.drop')}</p>
        <label className="file-pick">
          {t('import.choose')}
          <input
            ref={input}
            type="file"
            multiple
            onChange={(e) => {
              void addFiles([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
        </label>
      </div>

      <fieldset className="import-options" disabled={busy}>
        <legend>{t('import.optionsForAll')}</legend>
        <div className="option-fields">
          <label>
            {t('import.namespace')}
            <input
              value={namespace}
              list="import-namespaces"
              onChange={(e) => editShared(() => setNamespace(e.target.value))}
              aria-describedby="namespace-help"
            />
            <span id="namespace-help" className="help">
              {t('import.namespaceHelp')}
            </span>
          </label>
          <datalist id="import-namespaces">
            {project?.namespaces.map((n) => (
              <option key={n.name} value={n.name} />
            ))}
          </datalist>
          <datalist id="import-languages">
            {project?.languages.map((l) => (
              <option key={l.key} value={l.key}>
                {l.name}
              </option>
            ))}
          </datalist>
          <label>
            {t('import.customer')}
            <select
              value={customerKey}
              onChange={(e) => editShared(() => setCustomerKey(e.target.value))}
              aria-describedby="customer-help"
            >
              <option value="">{t('import.noCustomer')}</option>
              {project?.customers.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.description ? `${c.key} – ${c.description}` : c.key}
                </option>
              ))}
            </select>
            <span id="customer-help" className="help">
              {t('import.customerHelp')}
            </span>
          </label>
          <label>
            {t('import.tags')}
            <input
              value={tags}
              onChange={(e) => editShared(() => setTags(e.target.value))}
              aria-describedby="tags-help"
            />
            <span id="tags-help" className="help">
              {t('import.tagsHelp')}
            </span>
          </label>
        </div>
        <ul className="option-list">
          {GENERAL_OPTIONS.map((o) => (
            <li key={o}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={options.includes(o)}
                  aria-describedby={`help-${o}`}
                  onChange={(e) =>
                    editShared(() =>
                      setOptions((list) => (e.target.checked ? [...list, o] : list.filter((x) => x !== o))),
                    )
                  }
                />
                {optionLabel(o)}
              </label>
              <span id={`help-${o}`} className="help">
                {optionHelp(o)}
              </span>
            </li>
          ))}
        </ul>
      </fieldset>

      {items.length > 0 && (
        <ul className="import-files" aria-label={t('import.files')}>
          {items.map((item) => (
            <FileItem
              key={item.id}
              item={item}
              formats={formats}
              busy={busy}
              onEdit={(change) => edit(item.id, change)}
              onRemove={() => setItems((list) => list.filter((i) => i.id !== item.id))}
            />
          ))}
        </ul>
      )}
      <div className="actions">
        <button
          type="button"
          disabled={busy || toPreview === 0 || formats.length === 0}
          onClick={() => void runAll('previewing')}
        >
          {t('import.preview')}
        </button>
        <button
          type="button"
          className="primary"
          disabled={busy || previewed === 0}
          onClick={() => void runAll('importing')}
        >
          {previewed > 1 ? t('import.applyMany', { count: previewed }) : t('import.apply')}
        </button>
      </div>
      <p role="status" className="status">
        {status}
      </p>
    </main>
  );
}

function FileItem({
  item,
  formats,
  busy,
  onEdit,
  onRemove,
}: {
  item: Item;
  formats: FileFormat[];
  busy: boolean;
  onEdit: (change: Partial<Item>) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const name = item.file.name;
  const format = formats.find((f) => f.id === item.format);
  const layouts = layoutOptionsOf(format);
  const running = item.stage === 'previewing' || item.stage === 'importing';
  const locked = busy || item.stage === 'imported';
  return (
    <li className={`import-file ${item.stage}`} aria-label={name}>
      <div className="file-head">
        <strong className="file-name">{name}</strong>
        <span className="file-size">{fileSize(item.file.size)}</span>
        {!locked && (
          <button type="button" onClick={onRemove} aria-label={t('import.removeLabel', { name })}>
            {t('import.remove')}
          </button>
        )}
      </div>
      <div className="file-fields">
        <label>
          {t('import.formatOf', { name })}
          <select
            value={item.format}
            disabled={locked}
            onChange={(e) => onEdit({ format: e.target.value, reason: t('import.chosen') })}
          >
            {!format && <option value="">{t('import.chooseOption')}</option>}
            {formats.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name} ({f.id})
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('import.languageOf', { name })}
          <input
            value={item.languageKey}
            disabled={locked}
            list="import-languages"
            placeholder={needsLanguage(format, item.layout) ? t('import.required') : t('import.fromFile')}
            onChange={(e) => onEdit({ languageKey: e.target.value })}
          />
        </label>
        {layouts.map((o) => (
          <span key={o} className="layout-option">
            <label className="check">
              <input
                type="checkbox"
                disabled={locked}
                checked={item.layout.includes(o)}
                aria-describedby={`help-${item.id}-${o}`}
                onChange={(e) =>
                  onEdit({ layout: e.target.checked ? [...item.layout, o] : item.layout.filter((x) => x !== o) })
                }
              />
              {optionLabel(o)}
            </label>
            <span id={`help-${item.id}-${o}`} className="help">
              {optionHelp(o)}
            </span>
          </span>
        ))}
      </div>
      <p className="reason">{item.reason}</p>
      {running && item.progress && (
        <Progress name={name} progress={item.progress} importing={item.stage === 'importing'} />
      )}
      {item.error && (
        <p role="alert" className="error transfer-error">
          {item.error}
          {item.refused ? ` ${t('import.nothingChanged')}` : ''}
        </p>
      )}
      {item.preview && item.stage === 'previewed' && <PreviewView name={name} preview={item.preview} />}
      {item.result && <ResultView name={name} result={item.result} />}
    </li>
  );
}

function Progress({ name, progress, importing }: { name: string; progress: UploadProgress; importing: boolean }) {
  const { t } = useTranslation();
  if (!progress.uploaded) {
    const percent = progress.total ? Math.floor((progress.sent / progress.total) * 100) : 0;
    return (
      <p className="progress-line">
        <progress max={progress.total || 1} value={progress.sent} aria-label={t('import.uploadOf', { name })} />
        <span>
          {t('import.uploading', { sent: fileSize(progress.sent), total: fileSize(progress.total), percent })}
        </span>
      </p>
    );
  }
  // The body is sent: the service reads and writes the file; how long that takes is not known here.
  return (
    <p className="progress-line">
      <progress aria-label={t(importing ? 'import.importOnService' : 'import.previewOnService', { name })} />
      <span>{importing ? t('import.importingOnService') : t('import.checkingOnService')}</span>
    </p>
  );
}

function Counts({ label, rows }: { label: string; rows: [string, ReactNode][] }) {
  return (
    <dl className="counts" aria-label={label}>
      {rows.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const keyName = (k: { key: string; namespace: string }) => (k.namespace ? `${k.namespace}: ${k.key}` : k.key);
const SHOWN_KEYS = 50;

function KeyList({
  title,
  changes,
}: {
  title: string;
  changes: { count: number; keys: { key: string; namespace: string }[] };
}) {
  if (changes.count === 0) return null;
  return (
    <details>
      <summary>
        {title} ({count(changes.count)})
      </summary>
      <ul className="key-list">
        {changes.keys.slice(0, SHOWN_KEYS).map((k) => (
          <li key={`${k.namespace}\u0000${k.key}`}>{keyName(k)}</li>
        ))}
        {changes.count > SHOWN_KEYS && <li>{i18n.t('import.andMore', { count: changes.count - SHOWN_KEYS })}</li>}
      </ul>
    </details>
  );
}

function PreviewView({ name, preview }: { name: string; preview: Preview }) {
  const { t } = useTranslation();
  return (
    <section className="preview" aria-label={t('import.previewOf', { name })}>
      <h2>{t('import.whatWillChange')}</h2>
      <Counts
        label={t('import.previewCounts', { name })}
        rows={[
          [t('import.keysInFile'), count(preview.numberOfKeysFound)],
          [t('import.languagesInFile'), preview.foundLanguages.map((l) => l.key).join(', ') || '–'],
          [t('import.newKeys'), count(preview.keysToCreate.count)],
          [t('import.newTranslations'), count(preview.translationsToInsert)],
          [t('import.replacedTranslations'), count(preview.translationsToUpdate)],
          [t('import.refusedTranslations'), count(preview.translationsToRefuse)],
          [t('import.newLanguages'), preview.languagesToCreate.join(', ') || '–'],
          [t('import.keysToDelete'), count(preview.keysToDelete.count)],
        ]}
      />
      <KeyList title={t('import.newKeys')} changes={preview.keysToCreate} />
      <KeyList title={t('import.keysToDelete')} changes={preview.keysToDelete} />
      {preview.refusals.length > 0 && (
        <table className="data-table refusals">
          <caption>{t('import.refusedCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('import.key')}</th>
              <th scope="col">{t('import.language')}</th>
              <th scope="col">{t('import.reason')}</th>
            </tr>
          </thead>
          <tbody>
            {preview.refusals.map((r) => (
              <tr key={`${r.namespace}\u0000${r.key}\u0000${r.language}`}>
                <td>{keyName(r)}</td>
                <td>{r.language}</td>
                <td>{r.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ResultView({ name, result }: { name: string; result: Result }) {
  const { t } = useTranslation();
  return (
    <section className="result" aria-label={t('import.resultOf', { name })}>
      <h2>{t('import.importedTitle')}</h2>
      <Counts
        label={t('import.importCounts', { name })}
        rows={[
          [t('import.keysInFile'), count(result.numberOfKeysFound)],
          [t('import.newKeys'), count(result.keysCreated)],
          [t('import.newTranslations'), count(result.translationsInserted)],
          [t('import.replacedTranslations'), count(result.translationsUpdated)],
          [t('import.refusedTranslations'), count(result.translationsRefused)],
          [t('import.newLanguages'), result.languagesCreated.join(', ') || '–'],
          [t('import.deletedKeys'), count(result.keysDeleted)],
          [t('import.published'), result.published ? t('common.yes') : t('common.no')],
        ]}
      />
      {result.warnings.length > 0 && (
        <ul className="warnings">
          {result.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

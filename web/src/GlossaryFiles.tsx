// Glossary files: importing a TBX or CSV file into the glossary shown (all or
// nothing: the service's refusal names what is wrong), and exporting it as TBX
// or CSV (a download link, like translation exports).
import { useTranslation } from 'react-i18next';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { ExportGlossary, ImportGlossary, type GlossaryFormat } from './glossary-documents';
import { uploadOperation } from './upload';
import { fileSize } from './formats';
import { messageOf } from './feedback';

interface Props {
  projectToken: string;
  /** A shared glossary; null: the project's own. */
  glossaryId: number | null;
  glossaryName: string;
  canImport: boolean;
  canExport: boolean;
  onImported: (message: string) => void;
}

/** The path of a download url: the file is fetched from the origin the console came from. */
const localHref = (url: string) => {
  const u = new URL(url, location.href);
  return u.pathname + u.search;
};

export function GlossaryFiles({ projectToken, glossaryId, glossaryName, canImport, canExport, onImported }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [importing, setImporting] = useState(false);
  const [imported, setImported] = useState('');
  const [importError, setImportError] = useState('');
  const [format, setFormat] = useState<GlossaryFormat>('TBX');
  const [exported, setExported] = useState<{ url: string; fileName: string; size: number } | null>(null);
  const [exportError, setExportError] = useState('');
  const [{ fetching: exporting }, exportNow] = useMutation(ExportGlossary);
  useEffect(() => setExported(null), [format, glossaryId]);
  if (!canImport && !canExport) return null;

  const doImport = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setImporting(true);
    setImported('');
    setImportError('');
    const answer = await uploadOperation(
      ImportGlossary,
      glossaryId === null ? { projectToken } : { glossaryId },
      file,
      () => {},
    );
    setImporting(false);
    if (answer.error !== undefined) return setImportError(answer.error);
    const { created, updated, skipped } = answer.data.importGlossary;
    const message = t(skipped ? 'glossaryFiles.importedSkipped' : 'glossaryFiles.imported', {
      file: file.name,
      created,
      updated,
      skipped,
    });
    setImported(message);
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
    onImported(message);
  };

  const doExport = async (event: FormEvent) => {
    event.preventDefault();
    const result = await exportNow({ projectToken, glossaryId, format });
    if (result.error) {
      setExported(null);
      return setExportError(messageOf(result.error));
    }
    setExportError('');
    setExported(result.data!.exportGlossary);
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="glossary-files">
      <h2 id={`${id}-heading`}>{t('glossaryFiles.title')}</h2>
      <div className="glossary-file-forms">
        {canImport && (
          <form onSubmit={doImport} aria-label={t('glossaryFiles.importForm')}>
            <h3>{t('glossaryFiles.importInto', { name: glossaryName })}</h3>
            <p className="hint">{t('glossaryFiles.importHint')}</p>
            <div className="ops-row">
              <label>
                {t('glossaryFiles.file')}
                <input
                  ref={fileInput}
                  type="file"
                  accept=".tbx,.xml,.csv,.txt"
                  onChange={(e) => {
                    setFile(e.target.files?.[0] ?? null);
                    setImported('');
                    setImportError('');
                  }}
                />
              </label>
              <button type="submit" disabled={!file || importing}>
                {importing ? t('glossaryFiles.importing') : t('glossaryFiles.import')}
              </button>
            </div>
            <p role="status" className="status">
              {importing ? t('glossaryFiles.importing') : imported}
            </p>
            {importError && (
              <p role="alert" className="error">
                {t('glossaryFiles.notImported', { error: importError })}
              </p>
            )}
          </form>
        )}
        {canExport && (
          <form onSubmit={doExport} aria-label={t('glossaryFiles.exportForm')}>
            <h3>{t('glossaryFiles.exportName', { name: glossaryName })}</h3>
            <div className="ops-row">
              <label>
                {t('glossaryFiles.format')}
                <select value={format} onChange={(e) => setFormat(e.target.value as GlossaryFormat)}>
                  <option value="TBX">TBX (TBX-Basic)</option>
                  <option value="CSV">CSV</option>
                </select>
              </label>
              <button type="submit" disabled={exporting}>
                {exporting ? t('glossaryFiles.exporting') : t('glossaryFiles.export')}
              </button>
            </div>
            {exported && (
              <p className="download">
                <a href={localHref(exported.url)} download={exported.fileName}>
                  {t('glossaryFiles.download', { file: exported.fileName })}
                </a>{' '}
                <span className="hint">{fileSize(exported.size)}</span>
              </p>
            )}
            {exportError && (
              <p role="alert" className="error">
                {exportError}
              </p>
            )}
          </form>
        )}
      </div>
    </section>
  );
}

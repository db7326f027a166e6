// A project's Export screen: what exportTranslations accepts (format, its
// options, languages, customer, namespace, tags, sort), then the files as
// download links, and one zip of them all when there are several
// (exportTranslations withZip). Download links are the service's /download
// paths on the console's own origin.
import { useTranslation } from 'react-i18next';
import { formatDateTime } from './i18n';
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf, type VariablesOf } from './graphql';
import { ProjectMeta } from './documents';
import { FileFormatsQuery, fileSize, layoutOptionsOf } from './formats';
import { messageOf } from './feedback';
import { count } from './wording';

const ExportTranslations = graphql(`
  mutation ExportTranslations($projectToken: String!, $downloadFormat: FormatId!, $downloadOptions: [ExportOption!], $languageKeys: [String!], $customerKey: String, $namespace: String, $tags: [String!], $sort: ExportSort) {
    exportTranslations(projectToken: $projectToken, downloadFormat: $downloadFormat, downloadOptions: $downloadOptions, languageKeys: $languageKeys, customerKey: $customerKey, namespace: $namespace, tags: $tags, sort: $sort, withZip: true) {
      files { url fileName size language namespace customer expiresAt }
      zip { url fileName size expiresAt }
    }
  }
`);

type ExportVariables = VariablesOf<typeof ExportTranslations>;
type ExportOption = NonNullable<ExportVariables['downloadOptions']>[number];
type ExportSort = NonNullable<ExportVariables['sort']>;
type Exported = ResultOf<typeof ExportTranslations>['exportTranslations'];

/**
 * The export options the screen offers, with what they do. SELECTED_LANGUAGES
 * follows the language choice and ZIP_FILES is the zip link, so neither is a box.
 */
type OfferedOption = Exclude<ExportOption, 'SELECTED_LANGUAGES' | 'ZIP_FILES'>;
const GENERAL: OfferedOption[] = [
  'SPLIT_BY_NAMESPACES',
  'SPLIT_BY_LANGUAGES',
  'SPLIT_BY_CUSTOMERS',
  'ONLY_TRANSLATED',
  'ONLY_NOT_TRANSLATED',
  'INCLUDE_DESCRIPTIONS',
  'WRITE_NESTED',
  'ESCAPE_NEW_LINES',
  'ESCAPE_SINGLE_QUOTES',
];

const SORTS: ExportSort[] = ['IMPORT_ORDER', 'NAMESPACES', 'NEWEST_KEYS_FIRST', 'NEWEST_KEYS_LAST'];

/** The path of a download url: the file is fetched from the origin the console came from. */
const localHref = (url: string) => {
  const u = new URL(url, location.href);
  return u.pathname + u.search;
};

export function ExportScreen({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const [{ data: meta }] = useQuery({ query: ProjectMeta, variables: { projectToken } });
  const [{ data: formatsData }] = useQuery({ query: FileFormatsQuery });
  const formats = formatsData?.fileFormats ?? [];
  const project = meta?.project;
  const [formatId, setFormatId] = useState('multi-language-json');
  const [options, setOptions] = useState<OfferedOption[]>([]);
  const [languages, setLanguages] = useState<string[] | null>(null);
  const [customerKey, setCustomerKey] = useState('');
  const [namespace, setNamespace] = useState('');
  const [tags, setTags] = useState('');
  const [sort, setSort] = useState<ExportSort>('IMPORT_ORDER');
  const [exported, setExported] = useState<Exported | null>(null);
  const [error, setError] = useState('');
  const [{ fetching }, exportNow] = useMutation(ExportTranslations);
  const format = formats.find((f) => f.id === formatId);
  const layouts: OfferedOption[] = layoutOptionsOf(format);
  // All languages are chosen until the user unticks one.
  const allLanguages = project?.languages.map((l) => l.key) ?? [];
  const chosen = languages ?? allLanguages;
  useEffect(() => setExported(null), [formatId, options, languages, customerKey, namespace, tags, sort]);

  const toggle = <T,>(list: T[], value: T, on: boolean) => (on ? [...list, value] : list.filter((x) => x !== value));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!format) return;
    const selected = chosen.length < allLanguages.length;
    const tagList = tags
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean);
    const result = await exportNow({
      projectToken,
      downloadFormat: format.format,
      downloadOptions: [
        ...options.filter((o) => GENERAL.includes(o) || layouts.includes(o)),
        ...(selected ? ['SELECTED_LANGUAGES' as const] : []),
      ],
      languageKeys: selected ? chosen : null,
      customerKey: customerKey || null,
      namespace: namespace === '' ? null : namespace === '\u0000' ? '' : namespace,
      tags: tagList.length ? tagList : null,
      sort,
    });
    if (result.error) {
      setExported(null);
      return setError(messageOf(result.error));
    }
    setError('');
    setExported(result.data!.exportTranslations);
  };

  return (
    <main className="transfer export-screen">
      <h1>{project ? t('export.titleFrom', { name: project.name }) : t('export.title')}</h1>
      <form onSubmit={submit} className="export-form">
        <div className="option-fields">
          <label>
            {t('export.format')}
            <select value={formatId} onChange={(e) => setFormatId(e.target.value)}>
              {formats.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name} ({f.id})
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('export.customer')}
            <select value={customerKey} onChange={(e) => setCustomerKey(e.target.value)}>
              <option value="">{t('export.noCustomer')}</option>
              {project?.customers.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.description ? `${c.key} – ${c.description}` : c.key}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('export.namespace')}
            <select value={namespace} onChange={(e) => setNamespace(e.target.value)}>
              <option value="">{t('export.allNamespaces')}</option>
              {/* The default namespace is '' and the select's empty value means "all": it travels as \0. */}
              {project?.namespaces.map((n) => (
                <option key={n.name} value={n.name === '' ? '\u0000' : n.name}>
                  {n.name === '' ? t('export.defaultNamespace') : n.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('export.tags')}
            <input value={tags} onChange={(e) => setTags(e.target.value)} aria-describedby="export-tags-help" />
            <span id="export-tags-help" className="help">
              {t('export.tagsHelp')}
            </span>
          </label>
          <label>
            {t('export.sortLabel')}
            <select value={sort} onChange={(e) => setSort(e.target.value as ExportSort)}>
              {SORTS.map((value) => (
                <option key={value} value={value}>
                  {t(`export.sort.${value}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
        <fieldset>
          <legend>{t('export.languages')}</legend>
          {project?.languages.map((l) => (
            <label key={l.key} className="check">
              <input
                type="checkbox"
                checked={chosen.includes(l.key)}
                onChange={(e) => setLanguages(toggle(chosen, l.key, e.target.checked))}
              />
              {l.name || l.key} ({l.key})
            </label>
          ))}
          {project && project.languages.length === 0 && <p>{t('export.noLanguage')}</p>}
        </fieldset>
        <fieldset>
          <legend>{t('export.options')}</legend>
          <ul className="option-list">
            {[...layouts, ...GENERAL].map((o) => (
              <li key={o}>
                <label className="check">
                  <input
                    type="checkbox"
                    checked={options.includes(o)}
                    aria-describedby={`export-help-${o}`}
                    onChange={(e) => setOptions(toggle(options, o, e.target.checked))}
                  />
                  {t(`exportOption.${o}.label`)}
                </label>
                <span id={`export-help-${o}`} className="help">
                  {t(`exportOption.${o}.help`)}
                </span>
              </li>
            ))}
          </ul>
        </fieldset>
        <div className="actions">
          <button type="submit" className="primary" disabled={fetching || !format || chosen.length === 0}>
            {fetching ? t('export.exporting') : t('export.export')}
          </button>
        </div>
      </form>
      {error && (
        <p role="alert" className="error transfer-error">
          {error}
        </p>
      )}
      <p role="status" className="status">
        {fetching
          ? t('export.exporting')
          : exported
            ? t('export.exported', { files: count(exported.files.length, 'file') })
            : ''}
      </p>
      {exported && (
        <section className="export-files" aria-label={t('export.files')}>
          <h2>{count(exported.files.length, 'file')}</h2>
          {exported.files.length === 0 && <p>{t('export.nothing')}</p>}
          {exported.zip && (
            <p>
              <a className="download-all" href={localHref(exported.zip.url)} download={exported.zip.fileName}>
                {t('export.zip', { size: fileSize(exported.zip.size) })}
              </a>
            </p>
          )}
          <ul>
            {exported.files.map((f) => (
              <li key={f.url}>
                <a href={localHref(f.url)} download={f.fileName}>
                  {f.fileName}
                </a>{' '}
                <span className="file-size">{fileSize(f.size)}</span>
              </li>
            ))}
          </ul>
          <p className="help">
            {t('export.until', {
              when: formatDateTime((exported.zip ?? exported.files[0])?.expiresAt ?? Date.now(), {
                dateStyle: 'medium',
                timeStyle: 'short',
              }),
            })}
          </p>
        </section>
      )}
    </main>
  );
}

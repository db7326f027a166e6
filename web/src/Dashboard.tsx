// The account's projects with the contract's sorts, per-language progress,
// keys and unpublished changes; and a form to create a project.
import { useDeferredValue, useState, type FormEvent } from 'react';
import { usePageTitle } from './page-title';
import { useMutation, useQuery } from 'urql';
import { graphql } from './graphql';
import { messageOf } from './feedback';
import { count } from './wording';
import { useTranslation } from 'react-i18next';
import { formatRelative } from './i18n';

const ProjectsQuery = graphql(`
  query Projects($sort: ProjectSort) {
    projects(sort: $sort) {
      projectToken name keys unpublishedChanges translatedKeysByLanguage lastActivityAt
      languages { key name }
    }
  }
`);
const CreateProject = graphql(
  `mutation CreateProject($name: String!) { createProject(name: $name) { projectToken name } }`,
);

const SORTS = [
  'LAST_ACTIVITY',
  'LAST_EDITED',
  'ALPHABETICAL',
  'CREATED',
  'NUMBER_OF_KEYS',
  'NUMBER_OF_LANGUAGES',
  'NUMBER_OF_MEMBERS',
  'TRANSLATION_PROGRESS',
] as const;
type Sort = (typeof SORTS)[number];

export function Dashboard() {
  const { t } = useTranslation();
  usePageTitle(t('dashboard.title'));
  const [sort, setSort] = useState<Sort>('LAST_ACTIVITY');
  const [{ data: fetched, error }] = useQuery({ query: ProjectsQuery, variables: { sort } });
  // The list drawn is a render in the background, in slices that yield to input, not one long task.
  const data = useDeferredValue(fetched);
  const [name, setName] = useState('');
  const [createError, setCreateError] = useState('');
  const [, create] = useMutation(CreateProject);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ name });
    if (result.error) return setCreateError(messageOf(result.error));
    setName('');
    setCreateError('');
    // A new project opens, on its first-run checklist.
    location.hash = `#/projects/${encodeURIComponent(result.data!.createProject.projectToken)}`;
  };
  return (
    <main className="dashboard">
      <div className="dashboard-head">
        <h1>{t('dashboard.title')}</h1>
        <label>
          {t('dashboard.sortBy')}
          <select value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
            {SORTS.map((value) => (
              <option key={value} value={value}>
                {t(`dashboard.sort.${value}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <form className="create-project" onSubmit={submit}>
        <label>
          {t('dashboard.newName')}
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <button type="submit">{t('dashboard.create')}</button>
        {createError && (
          <p role="alert" className="error">
            {createError}
          </p>
        )}
      </form>
      {error && (
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      )}
      <ul className="projects" aria-label={t('dashboard.list')}>
        {data?.projects.map((p) => (
          <li key={p.projectToken} className="project-card">
            <h2>
              <a href={`#/projects/${encodeURIComponent(p.projectToken)}`}>{p.name}</a>
            </h2>
            <p className="stats">
              <span>{count(p.keys, 'key')}</span>
              <span>{t('dashboard.unpublished', { count: p.unpublishedChanges })}</span>
              {p.lastActivityAt && (
                <span>{t('dashboard.lastActivity', { when: formatRelative(p.lastActivityAt as string) })}</span>
              )}
            </p>
            <ul className="progress-list" aria-label={t('dashboard.progressOf', { name: p.name })}>
              {p.languages.map((l) => {
                const done = p.translatedKeysByLanguage[l.key] ?? 0;
                const percent = p.keys ? Math.round((done / p.keys) * 100) : 0;
                return (
                  <li key={l.key}>
                    <span className="lang">{l.key}</span>
                    <progress
                      max={100}
                      value={percent}
                      aria-label={t('dashboard.translated', { name: l.name, code: l.key })}
                    >
                      {t('dashboard.percent', { value: percent })}
                    </progress>
                    <span className="percent">{t('dashboard.percent', { value: percent })}</span>
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ul>
      {data && data.projects.length === 0 && (
        <section className="empty-state" aria-labelledby="no-project-title">
          <h2 id="no-project-title">{t('dashboard.empty.title')}</h2>
          <p>{t('dashboard.empty.text')}</p>
        </section>
      )}
    </main>
  );
}

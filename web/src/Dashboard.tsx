// The account's projects with the contract's sorts, per-language progress,
// keys and unpublished changes; and a form to create a project.
import { useState, type FormEvent } from 'react';
import { usePageTitle } from './page-title';
import { useMutation, useQuery } from 'urql';
import { graphql } from './graphql';
import { messageOf } from './feedback';
import { count } from './wording';

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
  ['LAST_ACTIVITY', 'Last activity'],
  ['LAST_EDITED', 'Last edited'],
  ['ALPHABETICAL', 'Name'],
  ['CREATED', 'Created'],
  ['NUMBER_OF_KEYS', 'Number of keys'],
  ['NUMBER_OF_LANGUAGES', 'Number of languages'],
  ['NUMBER_OF_MEMBERS', 'Number of members'],
  ['TRANSLATION_PROGRESS', 'Translation progress'],
] as const;
type Sort = (typeof SORTS)[number][0];

export function Dashboard() {
  usePageTitle('Projects');
  const [sort, setSort] = useState<Sort>('LAST_ACTIVITY');
  const [{ data, error }] = useQuery({ query: ProjectsQuery, variables: { sort } });
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
        <h1>Projects</h1>
        <label>
          Sort by
          <select value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <form className="create-project" onSubmit={submit}>
        <label>
          New project name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <button type="submit">Create project</button>
        {createError && (
          <p role="alert" className="error">
            {createError}
          </p>
        )}
      </form>
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      <ul className="projects" aria-label="Projects">
        {data?.projects.map((p) => (
          <li key={p.projectToken} className="project-card">
            <h2>
              <a href={`#/projects/${encodeURIComponent(p.projectToken)}`}>{p.name}</a>
            </h2>
            <p className="stats">
              <span>{count(p.keys, 'key')}</span>
              <span>{p.unpublishedChanges.toLocaleString('en')} unpublished changes</span>
            </p>
            <ul className="progress-list" aria-label={`Progress of ${p.name}`}>
              {p.languages.map((l) => {
                const done = p.translatedKeysByLanguage[l.key] ?? 0;
                const percent = p.keys ? Math.round((done / p.keys) * 100) : 0;
                return (
                  <li key={l.key}>
                    <span className="lang">{l.key}</span>
                    <progress max={100} value={percent} aria-label={`${l.name} (${l.key}) translated`}>
                      {percent}%
                    </progress>
                    <span className="percent">{percent}%</span>
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ul>
      {data && data.projects.length === 0 && (
        <section className="empty-state" aria-labelledby="no-project-title">
          <h2 id="no-project-title">No project yet</h2>
          <p>
            A project holds the keys and texts of one app. Name it above and create it: it opens with the first steps.
          </p>
        </section>
      )}
    </main>
  );
}

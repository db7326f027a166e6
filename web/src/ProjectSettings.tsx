// A project's settings: its name, languages (add, rename, reorder, default,
// delete with the count of translations that go with it), customers, the API
// key (copy, replace), in-context editing (origins, tokens) and, for the owner, deleting the project.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { Confirm } from './Confirm';
import { LanguagePicker } from './LanguagePicker';
import { InContextSection } from './InContextSection';
import { CopyButton, messageOf } from './feedback';
import {
  CreateCustomer,
  CreateLanguage,
  DeleteCustomer,
  DeleteLanguage,
  DeleteProject,
  ProjectSettingsQuery,
  RenameProject,
  RotateApiKey,
  SetLanguageOrder,
  UpdateCustomer,
  UpdateLanguage,
  type SettingsProject,
} from './settings-documents';
import { count } from './wording';

type Result = { error?: { graphQLErrors: readonly { message: string }[]; message: string } };

/** Runs a mutation, reports its error or refreshes the screen. */
function useRun(refresh: (() => void) | undefined) {
  const [error, setError] = useState('');
  const run = async (result: Promise<Result>): Promise<boolean> => {
    const { error: failed } = await result;
    if (failed) {
      setError(messageOf(failed));
      return false;
    }
    setError('');
    refresh?.();
    return true;
  };
  return { error, run };
}

export function ProjectSettings({ projectToken }: { projectToken: string }) {
  const [{ data, error }, refetch] = useQuery({ query: ProjectSettingsQuery, variables: { projectToken } });
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  if (error)
    return (
      <main className="settings">
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      </main>
    );
  const project = data?.project;
  if (!project)
    return (
      <main className="settings" aria-busy="true">
        Loading…
      </main>
    );
  const canEdit = project.myRole === 'OWNER' || project.myRole === 'ADMIN';
  return (
    <main className="settings">
      <h1>Project settings</h1>
      {!canEdit && <p>Only the owner and administrators change a project's settings.</p>}
      {canEdit && <NameSection project={project} refresh={refresh} />}
      <LanguagesSection project={project} canEdit={canEdit} refresh={refresh} />
      <CustomersSection project={project} canEdit={canEdit} refresh={refresh} />
      {canEdit && <ApiKeySection project={project} refresh={refresh} />}
      {canEdit && <InContextSection projectToken={projectToken} />}
      {project.myRole === 'OWNER' && <DeleteSection project={project} />}
    </main>
  );
}

interface SectionProps {
  project: SettingsProject;
  refresh?: () => void;
  canEdit?: boolean;
}

function NameSection({ project, refresh }: SectionProps) {
  const [name, setName] = useState(project.name);
  const [, rename] = useMutation(RenameProject);
  const { error, run } = useRun(refresh);
  const [saved, setSaved] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved('');
    if (await run(rename({ projectToken: project.projectToken, name }))) setSaved('Saved');
  };
  return (
    <section aria-labelledby="settings-name">
      <h2 id="settings-name">Name</h2>
      <form className="inline-form" onSubmit={submit}>
        <label>
          Project name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <button type="submit">Rename project</button>
        <span role="status">{saved}</span>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}

function LanguagesSection({ project, canEdit, refresh }: SectionProps) {
  const { projectToken, languages } = project;
  const [, create] = useMutation(CreateLanguage);
  const [, update] = useMutation(UpdateLanguage);
  const [, reorder] = useMutation(SetLanguageOrder);
  const [, remove] = useMutation(DeleteLanguage);
  const { error, run } = useRun(refresh);
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [names, setNames] = useState<Record<string, string>>({});
  const [doomed, setDoomed] = useState<SettingsProject['languages'][number]>();
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (await run(create({ projectToken, input: { key, name } }))) {
      setKey('');
      setName('');
    }
  };
  const move = (index: number, by: -1 | 1) => {
    const keys = languages.map((l) => l.key);
    [keys[index], keys[index + by]] = [keys[index + by]!, keys[index]!];
    void run(reorder({ projectToken, keys }));
  };
  return (
    <section aria-labelledby="settings-languages">
      <h2 id="settings-languages">Languages</h2>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Name</th>
            <th scope="col">Translations</th>
            <th scope="col">Default</th>
            {canEdit && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {languages.map((l, i) => (
            <tr key={l.key}>
              <td>
                <code>{l.key}</code>
              </td>
              <td>
                {canEdit ? (
                  <form
                    className="inline-form"
                    onSubmit={(e) => {
                      e.preventDefault();
                      void run(update({ projectToken, key: l.key, input: { name: names[l.key] ?? l.name } }));
                    }}
                  >
                    <input
                      aria-label={`Name of ${l.key}`}
                      value={names[l.key] ?? l.name}
                      maxLength={200}
                      onChange={(e) => setNames({ ...names, [l.key]: e.target.value })}
                    />
                    <button type="submit" aria-label={`Rename ${l.key}`}>
                      Rename
                    </button>
                  </form>
                ) : (
                  l.name
                )}
              </td>
              <td>{l.translationCount}</td>
              <td>
                {l.isDefault ? (
                  <span className="badge">Default</span>
                ) : (
                  canEdit && (
                    <button
                      type="button"
                      aria-label={`Make default ${l.key}`}
                      onClick={() => void run(update({ projectToken, key: l.key, input: { isDefault: true } }))}
                    >
                      Make default
                    </button>
                  )
                )}
              </td>
              {canEdit && (
                <td className="row-actions">
                  <button type="button" aria-label={`Move ${l.key} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                    ↑
                  </button>
                  <button
                    type="button"
                    aria-label={`Move ${l.key} down`}
                    disabled={i === languages.length - 1}
                    onClick={() => move(i, 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Delete ${l.key}`}
                    disabled={languages.length === 1}
                    onClick={() => setDoomed(l)}
                  >
                    Delete
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {canEdit && (
        <form className="inline-form" onSubmit={add} aria-label="Add a language">
          {/* Chosen by name from the CLDR locales, not typed as a code. */}
          <LanguagePicker
            taken={languages.map((l) => l.key)}
            onChoose={(choice) => {
              setKey(choice.code);
              setName(choice.name);
            }}
          />
          {key && (
            <>
              <label>
                Language name
                <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
              </label>
              <span className="chosen-code">
                code <code>{key}</code>
              </span>
            </>
          )}
          <button type="submit" disabled={!key}>
            Add language
          </button>
        </form>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {doomed && (
        <Confirm
          title={`Delete language ${doomed.key}?`}
          confirmLabel="Delete language"
          onCancel={() => setDoomed(undefined)}
          onConfirm={() => {
            setDoomed(undefined);
            void run(remove({ projectToken, key: doomed.key }));
          }}
        >
          <p>
            {count(doomed.translationCount, 'translation')} in {doomed.name || doomed.key} will be deleted with it. The
            activity log keeps their texts.
          </p>
        </Confirm>
      )}
    </section>
  );
}

function CustomersSection({ project, canEdit, refresh }: SectionProps) {
  const { projectToken, customers } = project;
  const [, create] = useMutation(CreateCustomer);
  const [, update] = useMutation(UpdateCustomer);
  const [, remove] = useMutation(DeleteCustomer);
  const { error, run } = useRun(refresh);
  const [key, setKey] = useState('');
  const [description, setDescription] = useState('');
  const [edits, setEdits] = useState<Record<string, { key: string; description: string }>>({});
  const [doomed, setDoomed] = useState<string>();
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (await run(create({ projectToken, input: { key, description } }))) {
      setKey('');
      setDescription('');
    }
  };
  return (
    <section aria-labelledby="settings-customers">
      <h2 id="settings-customers">Customers</h2>
      {customers.length === 0 && (
        <p>No customers: customer-specific translations override the base ones for one customer.</p>
      )}
      {customers.length > 0 && (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Description</th>
              {canEdit && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {customers.map((c) => {
              const edit = edits[c.key] ?? { key: c.key, description: c.description };
              const save = (e: FormEvent) => {
                e.preventDefault();
                void run(update({ projectToken, key: c.key, input: edit }));
              };
              return (
                <tr key={c.key}>
                  {canEdit ? (
                    <>
                      <td>
                        <input
                          aria-label={`Key of customer ${c.key}`}
                          value={edit.key}
                          form={`customer-${c.key}`}
                          onChange={(e) => setEdits({ ...edits, [c.key]: { ...edit, key: e.target.value } })}
                        />
                      </td>
                      <td>
                        <input
                          aria-label={`Description of customer ${c.key}`}
                          value={edit.description}
                          form={`customer-${c.key}`}
                          onChange={(e) => setEdits({ ...edits, [c.key]: { ...edit, description: e.target.value } })}
                        />
                      </td>
                      <td className="row-actions">
                        <form id={`customer-${c.key}`} onSubmit={save}>
                          <button type="submit" aria-label={`Save customer ${c.key}`}>
                            Save
                          </button>
                        </form>
                        <button
                          type="button"
                          className="danger"
                          aria-label={`Delete customer ${c.key}`}
                          onClick={() => setDoomed(c.key)}
                        >
                          Delete
                        </button>
                      </td>
                    </>
                  ) : (
                    <>
                      <td>
                        <code>{c.key}</code>
                      </td>
                      <td>{c.description}</td>
                    </>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {canEdit && (
        <form className="inline-form" onSubmit={add}>
          <label>
            Customer key
            <input value={key} onChange={(e) => setKey(e.target.value)} required maxLength={40} />
          </label>
          <label>
            Description
            <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={255} />
          </label>
          <button type="submit">Add customer</button>
        </form>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {doomed && (
        <Confirm
          title={`Delete customer ${doomed}?`}
          confirmLabel="Delete customer"
          onCancel={() => setDoomed(undefined)}
          onConfirm={() => {
            setDoomed(undefined);
            void run(remove({ projectToken, key: doomed }));
          }}
        >
          <p>Its customer-specific translations are deleted with it; the base translations stay.</p>
        </Confirm>
      )}
    </section>
  );
}

function ApiKeySection({ project, refresh }: SectionProps) {
  const [, rotate] = useMutation(RotateApiKey);
  const [asking, setAsking] = useState(false);
  const [fresh, setFresh] = useState('');
  const [error, setError] = useState('');
  const confirm = async () => {
    setAsking(false);
    const result = await rotate({ projectToken: project.projectToken });
    if (result.error) return setError(messageOf(result.error));
    setError('');
    setFresh(result.data!.rotateProjectApiKey.apiKey);
    refresh?.();
  };
  return (
    <section aria-labelledby="settings-api-key">
      <h2 id="settings-api-key">API key</h2>
      <p>
        The project API key (header <code>X-Service-Token</code>) gives scripts and the command-line client full access
        to this project.
      </p>
      {fresh ? (
        <div className="new-secret" role="status">
          <p>The new API key; the old one no longer works. Update your scripts and CI now:</p>
          <code className="secret" data-testid="new-api-key">
            {fresh}
          </code>{' '}
          <CopyButton value={fresh} />
        </div>
      ) : (
        <p className="inline-form">
          <code className="secret" data-testid="api-key">
            {project.apiKey}
          </code>{' '}
          {project.apiKey && <CopyButton value={project.apiKey} />}
        </p>
      )}
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        Replace API key…
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {asking && (
        <Confirm
          title="Replace the API key?"
          confirmLabel="Replace API key"
          onCancel={() => setAsking(false)}
          onConfirm={() => void confirm()}
        >
          <p>
            A new key is made and the current one stops working at once: every script, CI job and command-line client
            that uses it will be refused until it gets the new key.
          </p>
        </Confirm>
      )}
    </section>
  );
}

function DeleteSection({ project }: SectionProps) {
  const [, remove] = useMutation(DeleteProject);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState('');
  const confirm = async () => {
    setAsking(false);
    const result = await remove({ projectToken: project.projectToken });
    if (result.error) return setError(messageOf(result.error));
    location.hash = '#/';
  };
  return (
    <section aria-labelledby="settings-delete" className="danger-zone">
      <h2 id="settings-delete">Delete project</h2>
      <p>
        Deletes the project with its keys, translations, members, history and published files. This cannot be undone.
      </p>
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        Delete project…
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {asking && (
        <Confirm
          title={`Delete ${project.name}?`}
          confirmLabel="Delete project"
          typed={project.name}
          onCancel={() => setAsking(false)}
          onConfirm={() => void confirm()}
        >
          <p>Everything in the project goes, its published files too.</p>
        </Confirm>
      )}
    </section>
  );
}

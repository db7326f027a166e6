// A project's settings: its name, languages (add, rename, reorder, default,
// delete with the count of translations that go with it), customers, the API
// key (copy, replace), in-context editing (origins, tokens) and, for the owner, deleting the project.
import { Trans, useTranslation } from 'react-i18next';
import { formatNumber } from './i18n';
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
  const { t } = useTranslation();
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
        {t('common.loading')}
      </main>
    );
  const canEdit = project.myRole === 'OWNER' || project.myRole === 'ADMIN';
  return (
    <main className="settings">
      <h1>{t('projectSettings.title')}</h1>
      {!canEdit && <p>{t('projectSettings.readOnly')}</p>}
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
  const { t } = useTranslation();
  const [name, setName] = useState(project.name);
  const [, rename] = useMutation(RenameProject);
  const { error, run } = useRun(refresh);
  const [saved, setSaved] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved('');
    if (await run(rename({ projectToken: project.projectToken, name }))) setSaved(t('common.saved'));
  };
  return (
    <section aria-labelledby="settings-name">
      <h2 id="settings-name">{t('projectSettings.name.title')}</h2>
      <form className="inline-form" onSubmit={submit}>
        <label>
          {t('projectSettings.name.label')}
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <button type="submit">{t('projectSettings.name.rename')}</button>
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
  const { t } = useTranslation();
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
      <h2 id="settings-languages">{t('projectSettings.languages.title')}</h2>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{t('projectSettings.languages.key')}</th>
            <th scope="col">{t('projectSettings.languages.name')}</th>
            <th scope="col">{t('projectSettings.languages.translations')}</th>
            <th scope="col">{t('projectSettings.languages.default')}</th>
            {canEdit && <th scope="col">{t('common.actions')}</th>}
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
                      aria-label={t('projectSettings.languages.nameOf', { code: l.key })}
                      value={names[l.key] ?? l.name}
                      maxLength={200}
                      onChange={(e) => setNames({ ...names, [l.key]: e.target.value })}
                    />
                    <button type="submit" aria-label={t('projectSettings.languages.renameLabel', { code: l.key })}>
                      {t('projectSettings.languages.rename')}
                    </button>
                  </form>
                ) : (
                  l.name
                )}
              </td>
              <td>{formatNumber(l.translationCount)}</td>
              <td>
                {l.isDefault ? (
                  <span className="badge">{t('projectSettings.languages.default')}</span>
                ) : (
                  canEdit && (
                    <button
                      type="button"
                      aria-label={t('projectSettings.languages.makeDefaultLabel', { code: l.key })}
                      onClick={() => void run(update({ projectToken, key: l.key, input: { isDefault: true } }))}
                    >
                      {t('projectSettings.languages.makeDefault')}
                    </button>
                  )
                )}
              </td>
              {canEdit && (
                <td className="row-actions">
                  <button
                    type="button"
                    aria-label={t('projectSettings.languages.up', { code: l.key })}
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    aria-label={t('projectSettings.languages.down', { code: l.key })}
                    disabled={i === languages.length - 1}
                    onClick={() => move(i, 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="danger"
                    aria-label={t('projectSettings.languages.deleteLabel', { code: l.key })}
                    disabled={languages.length === 1}
                    onClick={() => setDoomed(l)}
                  >
                    {t('common.delete')}
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {canEdit && (
        <form className="inline-form" onSubmit={add} aria-label={t('projectSettings.languages.addForm')}>
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
                {t('projectSettings.languages.languageName')}
                <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
              </label>
              <span className="chosen-code">
                <Trans
                  i18nKey="projectSettings.languages.code"
                  values={{ code: key }}
                  components={{ code: <code /> }}
                />
              </span>
            </>
          )}
          <button type="submit" disabled={!key}>
            {t('projectSettings.languages.add')}
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
          title={t('projectSettings.languages.confirmTitle', { code: doomed.key })}
          confirmLabel={t('projectSettings.languages.confirm')}
          onCancel={() => setDoomed(undefined)}
          onConfirm={() => {
            setDoomed(undefined);
            void run(remove({ projectToken, key: doomed.key }));
          }}
        >
          <p>
            {t('projectSettings.languages.confirmText', {
              translations: count(doomed.translationCount, 'translation'),
              name: doomed.name || doomed.key,
            })}
          </p>
        </Confirm>
      )}
    </section>
  );
}

function CustomersSection({ project, canEdit, refresh }: SectionProps) {
  const { t } = useTranslation();
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
      <h2 id="settings-customers">{t('projectSettings.customers.title')}</h2>
      {customers.length === 0 && <p>{t('projectSettings.customers.none')}</p>}
      {customers.length > 0 && (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('projectSettings.customers.key')}</th>
              <th scope="col">{t('projectSettings.customers.description')}</th>
              {canEdit && <th scope="col">{t('common.actions')}</th>}
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
                          aria-label={t('projectSettings.customers.keyOf', { key: c.key })}
                          value={edit.key}
                          form={`customer-${c.key}`}
                          onChange={(e) => setEdits({ ...edits, [c.key]: { ...edit, key: e.target.value } })}
                        />
                      </td>
                      <td>
                        <input
                          aria-label={t('projectSettings.customers.descriptionOf', { key: c.key })}
                          value={edit.description}
                          form={`customer-${c.key}`}
                          onChange={(e) => setEdits({ ...edits, [c.key]: { ...edit, description: e.target.value } })}
                        />
                      </td>
                      <td className="row-actions">
                        <form id={`customer-${c.key}`} onSubmit={save}>
                          <button type="submit" aria-label={t('projectSettings.customers.saveLabel', { key: c.key })}>
                            {t('common.save')}
                          </button>
                        </form>
                        <button
                          type="button"
                          className="danger"
                          aria-label={t('projectSettings.customers.deleteLabel', { key: c.key })}
                          onClick={() => setDoomed(c.key)}
                        >
                          {t('common.delete')}
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
            {t('projectSettings.customers.customerKey')}
            <input value={key} onChange={(e) => setKey(e.target.value)} required maxLength={40} />
          </label>
          <label>
            {t('projectSettings.customers.description')}
            <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={255} />
          </label>
          <button type="submit">{t('projectSettings.customers.add')}</button>
        </form>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {doomed && (
        <Confirm
          title={t('projectSettings.customers.confirmTitle', { key: doomed })}
          confirmLabel={t('projectSettings.customers.confirm')}
          onCancel={() => setDoomed(undefined)}
          onConfirm={() => {
            setDoomed(undefined);
            void run(remove({ projectToken, key: doomed }));
          }}
        >
          <p>{t('projectSettings.customers.confirmText')}</p>
        </Confirm>
      )}
    </section>
  );
}

function ApiKeySection({ project, refresh }: SectionProps) {
  const { t } = useTranslation();
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
      <h2 id="settings-api-key">{t('projectSettings.apiKey.title')}</h2>
      <p>
        <Trans i18nKey="projectSettings.apiKey.intro" components={{ code: <code /> }} />
      </p>
      {fresh ? (
        <div className="new-secret" role="status">
          <p>{t('projectSettings.apiKey.fresh')}</p>
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
        {t('projectSettings.apiKey.replace')}
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {asking && (
        <Confirm
          title={t('projectSettings.apiKey.confirmTitle')}
          confirmLabel={t('projectSettings.apiKey.confirm')}
          onCancel={() => setAsking(false)}
          onConfirm={() => void confirm()}
        >
          <p>{t('projectSettings.apiKey.confirmText')}</p>
        </Confirm>
      )}
    </section>
  );
}

function DeleteSection({ project }: SectionProps) {
  const { t } = useTranslation();
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
      <h2 id="settings-delete">{t('projectSettings.delete.title')}</h2>
      <p>{t('projectSettings.delete.text')}</p>
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        {t('projectSettings.delete.button')}
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {asking && (
        <Confirm
          title={t('projectSettings.delete.confirmTitle', { name: project.name })}
          confirmLabel={t('projectSettings.delete.confirm')}
          typed={project.name}
          onCancel={() => setAsking(false)}
          onConfirm={() => void confirm()}
        >
          <p>{t('projectSettings.delete.confirmText')}</p>
        </Confirm>
      )}
    </section>
  );
}

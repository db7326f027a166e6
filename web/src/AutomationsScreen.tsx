// Automations: the project's rules (trigger, filters, actions) with an
// enable switch, editing and deleting; a form to create or edit one; and the
// recent runs, what each action did, with a button reverting a run's texts.
// The rules are the service's (src/automations/): the console only shows and
// calls, and shows the service's refusal when a rule is not valid.
import { useTranslation } from 'react-i18next';
import { formatDateTime, i18n } from './i18n';
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf, type VariablesOf } from './graphql';
import { Confirm } from './Confirm';
import { messageOf } from './feedback';
import { count } from './wording';

const RulesQuery = graphql(`
  query AutomationRules($projectToken: String!) {
    automationRules(projectToken: $projectToken) {
      id name enabled trigger schedule nextRunAt languages namespaces tags sources reviewStatuses
      actions { kind languages status cells environment webhookId force }
    }
    languages(projectToken: $projectToken) { key name }
    environments(projectToken: $projectToken) { key name }
    webhooks(projectToken: $projectToken) { id url }
  }
`);
const RunsQuery = graphql(`
  query AutomationRuns($projectToken: String!) {
    automationRuns(projectToken: $projectToken, size: 30) {
      id ruleId ruleName trigger state depth activityId changeId revertedBy error createdAt finishedAt
      actions { kind ok summary }
    }
  }
`);
const CreateRule = graphql(
  `mutation AutomationCreate($projectToken: String!, $input: AutomationRuleInput!) { createAutomationRule(projectToken: $projectToken, input: $input) { id } }`,
);
const UpdateRule = graphql(
  `mutation AutomationUpdate($projectToken: String!, $id: Int!, $input: AutomationRuleInput!) { updateAutomationRule(projectToken: $projectToken, id: $id, input: $input) { id } }`,
);
const SetEnabled = graphql(
  `mutation AutomationEnable($projectToken: String!, $id: Int!, $enabled: Boolean!) { setAutomationRuleEnabled(projectToken: $projectToken, id: $id, enabled: $enabled) { id enabled } }`,
);
const DeleteRule = graphql(
  `mutation AutomationDelete($projectToken: String!, $id: Int!) { deleteAutomationRule(projectToken: $projectToken, id: $id) }`,
);
const RevertRun = graphql(
  `mutation AutomationRevert($projectToken: String!, $id: ID!) { revertAutomationRun(projectToken: $projectToken, id: $id) { reverted changedSince } }`,
);

type Data = ResultOf<typeof RulesQuery>;
type Rule = Data['automationRules'][number];
type RuleInput = VariablesOf<typeof CreateRule>['input'];
type ActionInput = NonNullable<RuleInput['actions']>[number];
type Trigger = Rule['trigger'];
type ActionKind = ActionInput['kind'];

const TRIGGERS: Trigger[] = [
  'TEXTS_CHANGED',
  'KEY_CREATED',
  'IMPORT_FINISHED',
  'AUTO_TRANSLATION_FINISHED',
  'REVIEW_STATUS_CHANGED',
  'SCHEDULE',
];
const ACTIONS: ActionKind[] = [
  'AUTO_TRANSLATE',
  'SET_REVIEW_STATUS',
  'CLEAR_OTHER_LANGUAGES',
  'PUBLISH',
  'WEBHOOK',
  'PUSH_TO_GIT',
];
const SOURCE_VALUES = ['CONSOLE', 'API', 'CLI', 'JOB', 'AUTOMATION'] as const;
const sourceOptions = () => SOURCE_VALUES.map((value) => ({ value, label: i18n.t(`automations.source.${value}`) }));
const sourceLabel = (s: string) =>
  (SOURCE_VALUES as readonly string[]).includes(s)
    ? i18n.t(`automations.source.${s as (typeof SOURCE_VALUES)[number]}`)
    : s;
const triggerLabel = (t: string) =>
  (TRIGGERS as string[]).includes(t) ? i18n.t(`automations.trigger.${t as Trigger}`) : t;
const RUN_STATES = ['PENDING', 'RUNNING', 'DONE', 'FAILED'] as const;
const runState = (s: string) =>
  (RUN_STATES as readonly string[]).includes(s)
    ? i18n.t(`automations.runState.${s as (typeof RUN_STATES)[number]}`)
    : s;
const time = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : '—');

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function describeAction(action: Rule['actions'][number]): string {
  const t = i18n.t;
  const languages = action.languages.length ? action.languages.join(', ') : null;
  switch (action.kind) {
    case 'AUTO_TRANSLATE':
      return t(action.force ? 'automations.describe.autoTranslateReplacing' : 'automations.describe.autoTranslate', {
        languages: languages ?? t('automations.describe.everyLanguage'),
      });
    case 'SET_REVIEW_STATUS':
      return t(
        action.status === 'REVIEWED' ? 'automations.describe.setReviewed' : 'automations.describe.setNotReviewed',
        {
          cells:
            action.cells === 'OTHER_LANGUAGES'
              ? t('automations.describe.otherLanguages')
              : t('automations.describe.changedCells'),
          languages: languages ? ` (${languages})` : '',
        },
      );
    case 'CLEAR_OTHER_LANGUAGES':
      return t('automations.describe.clear', { languages: languages ? ` (${languages})` : '' });
    case 'PUBLISH':
      return t('automations.describe.publish', { environment: action.environment ?? '_latest' });
    case 'WEBHOOK':
      return t('automations.describe.webhook', { id: action.webhookId });
    case 'PUSH_TO_GIT':
      return t('automations.describe.git');
    default:
      return action.kind;
  }
}

function describeFilters(rule: Rule): string {
  const t = i18n.t;
  const parts = [
    rule.languages.length && t('automations.filters.languages', { list: rule.languages.join(', ') }),
    rule.namespaces.length && t('automations.filters.namespaces', { list: rule.namespaces.join(', ') }),
    rule.tags.length && t('automations.filters.tags', { list: rule.tags.join(', ') }),
    rule.sources.length && t('automations.filters.from', { list: rule.sources.map(sourceLabel).join(', ') }),
    rule.reviewStatuses.length &&
      t('automations.filters.now', {
        list: rule.reviewStatuses
          .map((s) => (s === 'REVIEWED' ? t('automations.filters.reviewed') : t('automations.filters.notReviewed')))
          .reduce((a, b) => t('automations.filters.or', { a, b })),
      }),
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : t('automations.filters.any');
}

export function AutomationsScreen({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const [{ data, error }, refetch] = useQuery({ query: RulesQuery, variables: { projectToken } });
  const [{ data: runs }, refetchRuns] = useQuery({ query: RunsQuery, variables: { projectToken } });
  const [editing, setEditing] = useState<Rule | 'new' | undefined>();
  const [deleting, setDeleting] = useState<Rule | undefined>();
  const [reverting, setReverting] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  const [, setEnabled] = useMutation(SetEnabled);
  const [, remove] = useMutation(DeleteRule);
  const [, revert] = useMutation(RevertRun);

  const refresh = () => {
    refetch({ requestPolicy: 'network-only' });
    refetchRuns({ requestPolicy: 'network-only' });
  };
  const outcome = (result: { error?: Parameters<typeof messageOf>[0] }, done: string) => {
    if (result.error) {
      setFailure(messageOf(result.error));
      return false;
    }
    setFailure('');
    setStatus(done);
    refresh();
    return true;
  };

  const rules = data?.automationRules ?? [];
  return (
    <main className="ops automations">
      <h1>{t('automations.title')}</h1>
      <p className="hint">{t('automations.hint')}</p>
      {error && (
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      )}
      <section aria-labelledby="rules-heading">
        <h2 id="rules-heading">{t('automations.rules')}</h2>
        {data && rules.length === 0 && <p>{t('automations.noRules')}</p>}
        {rules.length > 0 && (
          <table className="data-table">
            <caption className="visually-hidden">{t('automations.rulesCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('automations.rule')}</th>
                <th scope="col">{t('automations.when')}</th>
                <th scope="col">{t('automations.filtersColumn')}</th>
                <th scope="col">{t('automations.then')}</th>
                <th scope="col">{t('automations.enabled')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('common.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.map((rule) => (
                <tr key={rule.id}>
                  <th scope="row">{rule.name}</th>
                  <td>
                    {triggerLabel(rule.trigger)}
                    {rule.schedule && (
                      <> {t('automations.next', { schedule: rule.schedule, when: time(rule.nextRunAt) })}</>
                    )}
                  </td>
                  <td>{describeFilters(rule)}</td>
                  <td>
                    <ul className="plain">
                      {rule.actions.map((a, i) => (
                        <li key={i}>{describeAction(a)}</li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    <label>
                      <input
                        type="checkbox"
                        checked={rule.enabled}
                        onChange={async (e) => {
                          // Read before the await: the controlled box shows the old state until the list is read again.
                          const enabled = e.target.checked;
                          outcome(
                            await setEnabled({ projectToken, id: rule.id, enabled }),
                            t(enabled ? 'automations.ruleEnabled' : 'automations.ruleDisabled', { name: rule.name }),
                          );
                        }}
                      />
                      <span className="visually-hidden">{t('automations.enabledLabel', { name: rule.name })}</span>
                    </label>
                  </td>
                  <td>
                    <button
                      type="button"
                      onClick={() => setEditing(rule)}
                      aria-label={t('automations.editLabel', { name: rule.name })}
                    >
                      {t('automations.edit')}
                    </button>{' '}
                    <button
                      type="button"
                      className="danger"
                      onClick={() => setDeleting(rule)}
                      aria-label={t('automations.deleteLabel', { name: rule.name })}
                    >
                      {t('common.delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {!editing && (
          <button type="button" onClick={() => setEditing('new')}>
            {t('automations.newRule')}
          </button>
        )}
        <p role="status" className="status">
          {status}
        </p>
        {failure && (
          <p role="alert" className="error">
            {failure}
          </p>
        )}
      </section>
      {editing && data && (
        <RuleForm
          key={editing === 'new' ? 'new' : editing.id}
          projectToken={projectToken}
          data={data}
          rule={editing === 'new' ? undefined : editing}
          onDone={(message) => {
            setEditing(undefined);
            if (message) {
              setStatus(message);
              refresh();
            }
          }}
        />
      )}
      <section aria-labelledby="runs-heading">
        <h2 id="runs-heading">{t('automations.runs')}</h2>
        <button type="button" onClick={refresh}>
          {t('automations.refreshRuns')}
        </button>
        {runs && runs.automationRuns.length === 0 && <p>{t('automations.noRuns')}</p>}
        {runs && runs.automationRuns.length > 0 && (
          <table className="data-table">
            <caption className="visually-hidden">{t('automations.runsCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('automations.started')}</th>
                <th scope="col">{t('automations.rule')}</th>
                <th scope="col">{t('automations.triggerColumn')}</th>
                <th scope="col">{t('automations.state')}</th>
                <th scope="col">{t('automations.whatItDid')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('automations.revert')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {runs.automationRuns.map((run) => (
                <tr key={run.id}>
                  <td>{time(run.createdAt)}</td>
                  <th scope="row">{run.ruleName}</th>
                  <td>
                    {triggerLabel(run.trigger)}
                    {run.activityId && <> {t('automations.change', { id: run.activityId })}</>}
                    {run.depth > 1 && <> {t('automations.depth', { depth: run.depth })}</>}
                  </td>
                  <td>
                    <span className={`state state-${run.state.toLowerCase()}`}>{runState(run.state)}</span>
                    {run.error && <span className="error"> {run.error}</span>}
                  </td>
                  <td>
                    <ul className="plain">
                      {run.actions.map((a, i) => (
                        <li key={i}>
                          {a.ok ? '' : `${t('automations.failedAction')} `}
                          {a.summary}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    {run.revertedBy ? (
                      <span>{t('automations.reverted', { id: run.revertedBy })}</span>
                    ) : (
                      (run.state === 'DONE' || run.state === 'FAILED') && (
                        <button
                          type="button"
                          onClick={() => setReverting(run.id)}
                          aria-label={t('automations.revertLabel', { id: run.id, name: run.ruleName })}
                        >
                          {t('automations.revert')}
                        </button>
                      )
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {deleting && (
        <Confirm
          title={t('automations.confirmDelete', { name: deleting.name })}
          confirmLabel={t('automations.deleteRule')}
          onCancel={() => setDeleting(undefined)}
          onConfirm={async () => {
            const rule = deleting;
            setDeleting(undefined);
            outcome(await remove({ projectToken, id: rule.id }), t('automations.deleted', { name: rule.name }));
          }}
        >
          <p>{t('automations.deleteText')}</p>
        </Confirm>
      )}
      {reverting && (
        <Confirm
          title={t('automations.confirmRevert', { id: reverting })}
          confirmLabel={t('automations.revertRun')}
          onCancel={() => setReverting(undefined)}
          onConfirm={async () => {
            const id = reverting;
            setReverting(undefined);
            const result = await revert({ projectToken, id });
            const r = result.data?.revertAutomationRun;
            outcome(
              result,
              r
                ? r.changedSince
                  ? t('automations.runRevertedKept', { id, cells: count(r.reverted, 'cell'), count: r.changedSince })
                  : t('automations.runReverted', { id, cells: count(r.reverted, 'cell') })
                : '',
            );
          }}
        >
          <p>{t('automations.revertText')}</p>
        </Confirm>
      )}
    </main>
  );
}

interface ActionState {
  kind: ActionKind;
  languages: string[];
  status: 'REVIEWED' | 'NOT_REVIEWED';
  cells: 'CHANGED' | 'OTHER_LANGUAGES';
  environment: string;
  webhookId: string;
  force: boolean;
}

const newAction = (kind: ActionKind = 'AUTO_TRANSLATE'): ActionState => ({
  kind,
  languages: [],
  status: 'NOT_REVIEWED',
  cells: 'CHANGED',
  environment: '_latest',
  webhookId: '',
  force: false,
});

function toInput(a: ActionState): ActionInput {
  switch (a.kind) {
    case 'AUTO_TRANSLATE':
      return { kind: a.kind, languages: a.languages, force: a.force };
    case 'SET_REVIEW_STATUS':
      return { kind: a.kind, languages: a.languages, status: a.status, cells: a.cells };
    case 'CLEAR_OTHER_LANGUAGES':
      return { kind: a.kind, languages: a.languages };
    case 'PUBLISH':
      return { kind: a.kind, environment: a.environment };
    default:
      return { kind: a.kind, webhookId: a.webhookId ? Number(a.webhookId) : null };
  }
}

function Checkboxes({
  legend,
  options,
  value,
  onChange,
}: {
  legend: string;
  options: readonly { value: string; label: string }[];
  value: readonly string[];
  onChange: (next: string[]) => void;
}) {
  return (
    <fieldset className="checkboxes">
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value}>
          <input
            type="checkbox"
            checked={value.includes(o.value)}
            onChange={(e) => onChange(e.target.checked ? [...value, o.value] : value.filter((v) => v !== o.value))}
          />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}

function RuleForm({
  projectToken,
  data,
  rule,
  onDone,
}: {
  projectToken: string;
  data: Data;
  rule?: Rule;
  onDone: (message?: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState(rule?.name ?? '');
  const [trigger, setTrigger] = useState<Trigger>(rule?.trigger ?? 'TEXTS_CHANGED');
  const [schedule, setSchedule] = useState(rule?.schedule ?? '0 3 * * *');
  const [languages, setLanguages] = useState<string[]>(rule?.languages ?? []);
  const [namespaces, setNamespaces] = useState((rule?.namespaces ?? []).join(', '));
  const [tags, setTags] = useState((rule?.tags ?? []).join(', '));
  const [sources, setSources] = useState<string[]>(rule?.sources ?? []);
  const [reviewStatuses, setReviewStatuses] = useState<string[]>(rule?.reviewStatuses ?? []);
  const [actions, setActions] = useState<ActionState[]>(
    rule?.actions.map((a) => ({
      ...newAction(a.kind),
      languages: a.languages,
      status: a.status ?? 'NOT_REVIEWED',
      cells: a.cells ?? 'CHANGED',
      environment: a.environment ?? '_latest',
      webhookId: a.webhookId ? String(a.webhookId) : '',
      force: !!a.force,
    })) ?? [newAction()],
  );
  const [error, setError] = useState('');
  const [, create] = useMutation(CreateRule);
  const [, update] = useMutation(UpdateRule);
  const languageOptions = data.languages.map((l) => ({ value: l.key, label: `${l.name} (${l.key})` }));
  const change = (index: number, patch: Partial<ActionState>) =>
    setActions((all) => all.map((a, i) => (i === index ? { ...a, ...patch } : a)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input: RuleInput = {
      name,
      trigger,
      schedule: trigger === 'SCHEDULE' ? schedule : null,
      languages,
      namespaces: list(namespaces),
      tags: list(tags),
      sources: sources as RuleInput['sources'],
      reviewStatuses: reviewStatuses as RuleInput['reviewStatuses'],
      actions: actions.map(toInput),
    };
    const result = rule ? await update({ projectToken, id: rule.id, input }) : await create({ projectToken, input });
    if (result.error) return setError(messageOf(result.error));
    onDone(rule ? t('automations.saved', { name }) : t('automations.created', { name }));
  };

  return (
    <form className="ops-form rule-form" onSubmit={submit} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{rule ? t('automations.editTitle', { name: rule.name }) : t('automations.newRule')}</h2>
      <div className="ops-row">
        <label>
          {t('automations.ruleName')}
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <label>
          {t('automations.triggerColumn')}
          <select value={trigger} onChange={(e) => setTrigger(e.target.value as Trigger)}>
            {TRIGGERS.map((value) => (
              <option key={value} value={value}>
                {triggerLabel(value)}
              </option>
            ))}
          </select>
        </label>
        {trigger === 'SCHEDULE' && (
          <label>
            {t('automations.schedule')}
            <input value={schedule} onChange={(e) => setSchedule(e.target.value)} required />
          </label>
        )}
      </div>
      {trigger !== 'SCHEDULE' && (
        <fieldset>
          <legend>{t('automations.filtersLegend')}</legend>
          <Checkboxes
            legend={t('automations.languages')}
            options={languageOptions}
            value={languages}
            onChange={setLanguages}
          />
          <div className="ops-row">
            <label>
              {t('automations.namespaces')}
              <input value={namespaces} onChange={(e) => setNamespaces(e.target.value)} />
            </label>
            <label>
              {t('automations.tags')}
              <input value={tags} onChange={(e) => setTags(e.target.value)} />
            </label>
          </div>
          <Checkboxes
            legend={t('automations.changesFrom')}
            options={sourceOptions()}
            value={sources}
            onChange={setSources}
          />
          <Checkboxes
            legend={t('automations.reviewAfter')}
            options={[
              { value: 'REVIEWED', label: t('automations.reviewedOption') },
              { value: 'NOT_REVIEWED', label: t('automations.notReviewedOption') },
            ]}
            value={reviewStatuses}
            onChange={setReviewStatuses}
          />
        </fieldset>
      )}
      <fieldset>
        <legend>{t('automations.actionsLegend')}</legend>
        <ol className="rule-actions">
          {actions.map((action, index) => (
            <li key={index}>
              <fieldset>
                <legend>{t('automations.actionN', { n: index + 1 })}</legend>
                <div className="ops-row">
                  <label>
                    {t('automations.actionKind', { n: index + 1 })}
                    <select
                      value={action.kind}
                      onChange={(e) => change(index, newAction(e.target.value as ActionKind))}
                    >
                      {ACTIONS.map((value) => (
                        <option key={value} value={value}>
                          {t(`automations.action.${value}`)}
                        </option>
                      ))}
                    </select>
                  </label>
                  {action.kind === 'SET_REVIEW_STATUS' && (
                    <>
                      <label>
                        {t('automations.status')}
                        <select
                          value={action.status}
                          onChange={(e) => change(index, { status: e.target.value as ActionState['status'] })}
                        >
                          <option value="NOT_REVIEWED">{t('automations.notReviewedOption')}</option>
                          <option value="REVIEWED">{t('automations.reviewedOption')}</option>
                        </select>
                      </label>
                      <label>
                        {t('automations.cells')}
                        <select
                          value={action.cells}
                          onChange={(e) => change(index, { cells: e.target.value as ActionState['cells'] })}
                        >
                          <option value="CHANGED">{t('automations.changedCellsOption')}</option>
                          <option value="OTHER_LANGUAGES">{t('automations.otherLanguagesOption')}</option>
                        </select>
                      </label>
                    </>
                  )}
                  {action.kind === 'PUBLISH' && (
                    <label>
                      {t('automations.environment')}
                      <select
                        value={action.environment}
                        onChange={(e) => change(index, { environment: e.target.value })}
                      >
                        {data.environments.map((env) => (
                          <option key={env.key} value={env.key}>
                            {env.name} ({env.key})
                          </option>
                        ))}
                      </select>
                    </label>
                  )}
                  {action.kind === 'WEBHOOK' && (
                    <label>
                      {t('automations.webhook')}
                      <select
                        value={action.webhookId}
                        onChange={(e) => change(index, { webhookId: e.target.value })}
                        required
                      >
                        <option value="">{t('automations.chooseWebhook')}</option>
                        {data.webhooks.map((w) => (
                          <option key={w.id} value={w.id}>
                            {w.url}
                          </option>
                        ))}
                      </select>
                    </label>
                  )}
                  {action.kind === 'AUTO_TRANSLATE' && (
                    <label>
                      <input
                        type="checkbox"
                        checked={action.force}
                        onChange={(e) => change(index, { force: e.target.checked })}
                      />
                      {t('automations.replace')}
                    </label>
                  )}
                  <button
                    type="button"
                    onClick={() => setActions((all) => all.filter((_, i) => i !== index))}
                    disabled={actions.length === 1}
                    aria-label={t('automations.removeAction', { n: index + 1 })}
                  >
                    {t('automations.remove')}
                  </button>
                </div>
                {(action.kind === 'AUTO_TRANSLATE' ||
                  action.kind === 'SET_REVIEW_STATUS' ||
                  action.kind === 'CLEAR_OTHER_LANGUAGES') && (
                  <Checkboxes
                    legend={action.kind === 'AUTO_TRANSLATE' ? t('automations.into') : t('automations.inLanguages')}
                    options={languageOptions}
                    value={action.languages}
                    onChange={(next) => change(index, { languages: next })}
                  />
                )}
              </fieldset>
            </li>
          ))}
        </ol>
        <button type="button" onClick={() => setActions((all) => [...all, newAction()])}>
          {t('automations.addAction')}
        </button>
      </fieldset>
      <div className="actions">
        <button type="submit">{rule ? t('automations.saveRule') : t('automations.createRule')}</button>
        <button type="button" onClick={() => onDone()}>
          {t('common.cancel')}
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}

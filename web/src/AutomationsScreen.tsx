// Automations: the project's rules (trigger, filters, actions) with an
// enable switch, editing and deleting; a form to create or edit one; and the
// recent runs, what each action did, with a button reverting a run's texts.
// The rules are the service's (src/automations/): the console only shows and
// calls, and shows the service's refusal when a rule is not valid.
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

const TRIGGERS: { value: Trigger; label: string }[] = [
  { value: 'TEXTS_CHANGED', label: 'Texts changed' },
  { value: 'KEY_CREATED', label: 'A key was created' },
  { value: 'IMPORT_FINISHED', label: 'An import finished' },
  { value: 'AUTO_TRANSLATION_FINISHED', label: 'An auto-translation finished' },
  { value: 'REVIEW_STATUS_CHANGED', label: 'A review status changed' },
  { value: 'SCHEDULE', label: 'On a schedule' },
];
const ACTIONS: { value: ActionKind; label: string }[] = [
  { value: 'AUTO_TRANSLATE', label: 'Auto-translate the changed keys' },
  { value: 'SET_REVIEW_STATUS', label: 'Set the review status' },
  { value: 'CLEAR_OTHER_LANGUAGES', label: 'Clear the texts of other languages' },
  { value: 'PUBLISH', label: 'Publish an environment' },
  { value: 'WEBHOOK', label: 'Call a webhook' },
  { value: 'PUSH_TO_GIT', label: 'Push to the Git repository (pull request)' },
];
const SOURCES = [
  { value: 'CONSOLE', label: 'Console' },
  { value: 'API', label: 'API' },
  { value: 'CLI', label: 'Command line' },
  { value: 'JOB', label: 'Jobs' },
  { value: 'AUTOMATION', label: 'Other automations' },
] as const;

const triggerLabel = (t: string) => TRIGGERS.find((x) => x.value === t)?.label ?? t;
const time = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString('en') : '—');
const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function describeAction(action: Rule['actions'][number]): string {
  const languages = action.languages.length ? action.languages.join(', ') : null;
  switch (action.kind) {
    case 'AUTO_TRANSLATE':
      return `Auto-translate into ${languages ?? 'every language'}${action.force ? ' (replacing)' : ''}`;
    case 'SET_REVIEW_STATUS':
      return `Set ${action.cells === 'OTHER_LANGUAGES' ? 'the other languages' : 'the changed cells'}${languages ? ` (${languages})` : ''} to ${action.status === 'REVIEWED' ? 'reviewed' : 'not reviewed'}`;
    case 'CLEAR_OTHER_LANGUAGES':
      return `Clear the other languages${languages ? ` (${languages})` : ''}`;
    case 'PUBLISH':
      return `Publish ${action.environment ?? '_latest'}`;
    case 'WEBHOOK':
      return `Call webhook ${action.webhookId}`;
    case 'PUSH_TO_GIT':
      return 'Push to the Git repository and open or update the pull request';
    default:
      return action.kind;
  }
}

function describeFilters(rule: Rule): string {
  const parts = [
    rule.languages.length && `languages ${rule.languages.join(', ')}`,
    rule.namespaces.length && `namespaces ${rule.namespaces.join(', ')}`,
    rule.tags.length && `tags ${rule.tags.join(', ')}`,
    rule.sources.length && `from ${rule.sources.map((s) => SOURCES.find((x) => x.value === s)?.label ?? s).join(', ')}`,
    rule.reviewStatuses.length &&
      `now ${rule.reviewStatuses.map((s) => (s === 'REVIEWED' ? 'reviewed' : 'not reviewed')).join(' or ')}`,
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'any change';
}

export function AutomationsScreen({ projectToken }: { projectToken: string }) {
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
      <h1>Automations</h1>
      <p className="hint">
        A rule runs its actions after a change that matches its trigger and filters. What it writes is recorded as the
        rule&apos;s, and a rule never runs on its own changes.
      </p>
      {error && (
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      )}
      <section aria-labelledby="rules-heading">
        <h2 id="rules-heading">Rules</h2>
        {data && rules.length === 0 && <p>No rules yet.</p>}
        {rules.length > 0 && (
          <table className="data-table">
            <caption className="visually-hidden">Automation rules</caption>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">When</th>
                <th scope="col">Filters</th>
                <th scope="col">Then</th>
                <th scope="col">Enabled</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
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
                      <>
                        {' '}
                        ({rule.schedule}, next {time(rule.nextRunAt)})
                      </>
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
                            `${rule.name} ${enabled ? 'enabled' : 'disabled'}`,
                          );
                        }}
                      />
                      <span className="visually-hidden">Enabled: {rule.name}</span>
                    </label>
                  </td>
                  <td>
                    <button type="button" onClick={() => setEditing(rule)} aria-label={`Edit ${rule.name}`}>
                      Edit
                    </button>{' '}
                    <button
                      type="button"
                      className="danger"
                      onClick={() => setDeleting(rule)}
                      aria-label={`Delete ${rule.name}`}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {!editing && (
          <button type="button" onClick={() => setEditing('new')}>
            New rule
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
        <h2 id="runs-heading">Recent runs</h2>
        <button type="button" onClick={refresh}>
          Refresh runs
        </button>
        {runs && runs.automationRuns.length === 0 && <p>No runs yet.</p>}
        {runs && runs.automationRuns.length > 0 && (
          <table className="data-table">
            <caption className="visually-hidden">Automation runs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Rule</th>
                <th scope="col">Trigger</th>
                <th scope="col">State</th>
                <th scope="col">What it did</th>
                <th scope="col">
                  <span className="visually-hidden">Revert</span>
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
                    {run.activityId && <> (change {run.activityId})</>}
                    {run.depth > 1 && <> · chain depth {run.depth}</>}
                  </td>
                  <td>
                    <span className={`state state-${run.state.toLowerCase()}`}>{run.state}</span>
                    {run.error && <span className="error"> {run.error}</span>}
                  </td>
                  <td>
                    <ul className="plain">
                      {run.actions.map((a, i) => (
                        <li key={i}>
                          {a.ok ? '' : 'Failed: '}
                          {a.summary}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    {run.revertedBy ? (
                      <span>Reverted (change {run.revertedBy})</span>
                    ) : (
                      (run.state === 'DONE' || run.state === 'FAILED') && (
                        <button
                          type="button"
                          onClick={() => setReverting(run.id)}
                          aria-label={`Revert run ${run.id} of ${run.ruleName}`}
                        >
                          Revert
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
          title={`Delete the rule ${deleting.name}?`}
          confirmLabel="Delete rule"
          onCancel={() => setDeleting(undefined)}
          onConfirm={async () => {
            const rule = deleting;
            setDeleting(undefined);
            outcome(await remove({ projectToken, id: rule.id }), `${rule.name} deleted`);
          }}
        >
          <p>It stops running at once. Its runs and what they wrote stay in the activity log.</p>
        </Confirm>
      )}
      {reverting && (
        <Confirm
          title={`Revert run ${reverting}?`}
          confirmLabel="Revert run"
          onCancel={() => setReverting(undefined)}
          onConfirm={async () => {
            const id = reverting;
            setReverting(undefined);
            const result = await revert({ projectToken, id });
            const r = result.data?.revertAutomationRun;
            outcome(
              result,
              r
                ? `Run ${id} reverted: ${count(r.reverted, 'cell')} written back${r.changedSince ? `, ${r.changedSince} changed since kept` : ''}`
                : '',
            );
          }}
        >
          <p>
            The texts and review statuses the run wrote (its auto-translations included) go back to what they were, as
            one change. Cells someone changed since keep the newer value.
          </p>
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
    onDone(rule ? `${name} saved` : `${name} created`);
  };

  return (
    <form className="ops-form rule-form" onSubmit={submit} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{rule ? `Edit ${rule.name}` : 'New rule'}</h2>
      <div className="ops-row">
        <label>
          Rule name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <label>
          Trigger
          <select value={trigger} onChange={(e) => setTrigger(e.target.value as Trigger)}>
            {TRIGGERS.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        {trigger === 'SCHEDULE' && (
          <label>
            Schedule (cron, UTC)
            <input value={schedule} onChange={(e) => setSchedule(e.target.value)} required />
          </label>
        )}
      </div>
      {trigger !== 'SCHEDULE' && (
        <fieldset>
          <legend>Filters (none checked: any)</legend>
          <Checkboxes legend="Languages" options={languageOptions} value={languages} onChange={setLanguages} />
          <div className="ops-row">
            <label>
              Namespaces (comma-separated)
              <input value={namespaces} onChange={(e) => setNamespaces(e.target.value)} />
            </label>
            <label>
              Tags (comma-separated)
              <input value={tags} onChange={(e) => setTags(e.target.value)} />
            </label>
          </div>
          <Checkboxes legend="Changes made from" options={SOURCES} value={sources} onChange={setSources} />
          <Checkboxes
            legend="Review status after the change"
            options={[
              { value: 'REVIEWED', label: 'Reviewed' },
              { value: 'NOT_REVIEWED', label: 'Not reviewed' },
            ]}
            value={reviewStatuses}
            onChange={setReviewStatuses}
          />
        </fieldset>
      )}
      <fieldset>
        <legend>Actions, in order</legend>
        <ol className="rule-actions">
          {actions.map((action, index) => (
            <li key={index}>
              <fieldset>
                <legend>Action {index + 1}</legend>
                <div className="ops-row">
                  <label>
                    Action {index + 1} kind
                    <select
                      value={action.kind}
                      onChange={(e) => change(index, newAction(e.target.value as ActionKind))}
                    >
                      {ACTIONS.map((a) => (
                        <option key={a.value} value={a.value}>
                          {a.label}
                        </option>
                      ))}
                    </select>
                  </label>
                  {action.kind === 'SET_REVIEW_STATUS' && (
                    <>
                      <label>
                        Status
                        <select
                          value={action.status}
                          onChange={(e) => change(index, { status: e.target.value as ActionState['status'] })}
                        >
                          <option value="NOT_REVIEWED">Not reviewed</option>
                          <option value="REVIEWED">Reviewed</option>
                        </select>
                      </label>
                      <label>
                        Cells
                        <select
                          value={action.cells}
                          onChange={(e) => change(index, { cells: e.target.value as ActionState['cells'] })}
                        >
                          <option value="CHANGED">The changed cells</option>
                          <option value="OTHER_LANGUAGES">The same keys in other languages</option>
                        </select>
                      </label>
                    </>
                  )}
                  {action.kind === 'PUBLISH' && (
                    <label>
                      Environment
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
                      Webhook
                      <select
                        value={action.webhookId}
                        onChange={(e) => change(index, { webhookId: e.target.value })}
                        required
                      >
                        <option value="">Choose a webhook</option>
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
                      Replace existing translations
                    </label>
                  )}
                  <button
                    type="button"
                    onClick={() => setActions((all) => all.filter((_, i) => i !== index))}
                    disabled={actions.length === 1}
                    aria-label={`Remove action ${index + 1}`}
                  >
                    Remove
                  </button>
                </div>
                {(action.kind === 'AUTO_TRANSLATE' ||
                  action.kind === 'SET_REVIEW_STATUS' ||
                  action.kind === 'CLEAR_OTHER_LANGUAGES') && (
                  <Checkboxes
                    legend={
                      action.kind === 'AUTO_TRANSLATE'
                        ? 'Into (none checked: every language but the source)'
                        : 'In the languages (none checked: any)'
                    }
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
          Add action
        </button>
      </fieldset>
      <div className="actions">
        <button type="submit">{rule ? 'Save rule' : 'Create rule'}</button>
        <button type="button" onClick={() => onDone()}>
          Cancel
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

// The first-run checklist at the top of a project: add languages, bring in
// the texts, invite the team, publish, connect the app. Each item ticks from
// the project's real state (its languages, keys, members and invitations,
// hosted files, the project API key's use in the activity log), not from
// clicks; the list goes away once everything is done, or when dismissed
// (remembered in this browser, per project). Shown to those who may change the
// project's settings: the steps are theirs.
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from './graphql';

const OnboardingQuery = graphql(`
  query Onboarding($projectToken: String!) {
    project(projectToken: $projectToken) {
      keys numberOfMembers myPermissions
      languages { key }
      hostingResources { path }
    }
  }
`);
const OnboardingTeam = graphql(`
  query OnboardingTeam($projectToken: String!) {
    invitations(projectToken: $projectToken) { id }
    imports: activity(projectToken: $projectToken, filter: { kinds: [IMPORT] }, page: 0, size: 1) { total }
    apiUse: activity(projectToken: $projectToken, filter: { actorKind: API_KEY }, page: 0, size: 1) { total }
  }
`);

const dismissedKey = (projectToken: string) => `console.onboarding.dismissed.${projectToken}`;

function wasDismissed(projectToken: string): boolean {
  try {
    return localStorage.getItem(dismissedKey(projectToken)) === '1';
  } catch {
    return false;
  }
}

export function Onboarding({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState(() => wasDismissed(projectToken));
  // Network too: the state changes on the other screens (a language added, a publication) between visits.
  const [{ data }] = useQuery({
    query: OnboardingQuery,
    variables: { projectToken },
    requestPolicy: 'cache-and-network',
    pause: dismissed,
  });
  const project = data?.project;
  const owner = !!project?.myPermissions.includes('SETTINGS');
  const [{ data: team }] = useQuery({
    query: OnboardingTeam,
    variables: { projectToken },
    requestPolicy: 'cache-and-network',
    pause: dismissed || !owner,
  });
  if (dismissed || !project || !owner || !team) return null;
  const base = `#/projects/${encodeURIComponent(projectToken)}`;
  const steps = [
    { label: t('onboarding.addLanguages'), href: `${base}/settings`, done: project.languages.length > 1 },
    { label: t('onboarding.import'), href: `${base}/import`, done: project.keys > 0 || team.imports.total > 0 },
    {
      label: t('onboarding.invite'),
      href: `${base}/members`,
      done: project.numberOfMembers > 1 || team.invitations.length > 0,
    },
    { label: t('onboarding.publish'), href: `${base}/hosting`, done: project.hostingResources.length > 0 },
    { label: t('onboarding.connect'), href: `${base}/hosting`, done: team.apiUse.total > 0 },
  ];
  const left = steps.filter((s) => !s.done).length;
  if (left === 0) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(dismissedKey(projectToken), '1');
    } catch {
      // Not remembered: gone for this visit only.
    }
    setDismissed(true);
  };
  return (
    <section className="onboarding" aria-labelledby="onboarding-title">
      <h2 id="onboarding-title">{t('onboarding.title')}</h2>
      <span className="onboarding-count">
        {t('onboarding.progress', { done: steps.length - left, total: steps.length })}
      </span>
      <ol>
        {steps.map((step) => (
          <li key={step.label} className={step.done ? 'done' : undefined}>
            <span className="tick" aria-hidden="true">
              {step.done ? '✓' : ''}
            </span>
            <a href={step.href}>{step.label}</a>
            <span className="sr-only"> {step.done ? t('onboarding.done') : t('onboarding.todo')}</span>
          </li>
        ))}
      </ol>
      <button type="button" className="small" onClick={dismiss}>
        {t('onboarding.dismiss')}
      </button>
    </section>
  );
}

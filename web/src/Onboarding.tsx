// The first-run checklist at the top of a project: add languages, bring in
// the texts, invite the team, publish, connect the app. Each item ticks from
// the project's real state (its languages, keys, members and invitations,
// hosted files, the project API key's use in the activity log: the service's
// `Project.onboarding`), not from clicks; the list goes away once everything
// is done, or when dismissed (remembered in this browser, per project). Shown
// to those who may change the project's settings: the steps are theirs.
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import type { Onboarding as State } from './documents';

const dismissedKey = (projectToken: string) => `console.onboarding.dismissed.${projectToken}`;

function wasDismissed(projectToken: string): boolean {
  try {
    return localStorage.getItem(dismissedKey(projectToken)) === '1';
  } catch {
    return false;
  }
}

/**
 * The checklist of the editor's project query (`onboarding`: null for those who may not change the
 * settings): in the page from the editor's first render, so its arrival moves nothing below it.
 */
export function Onboarding({ projectToken, state }: { projectToken: string; state: State | null }) {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState(() => wasDismissed(projectToken));
  if (dismissed || !state) return null;
  const base = `#/projects/${encodeURIComponent(projectToken)}`;
  const steps = [
    { label: t('onboarding.addLanguages'), href: `${base}/settings`, done: state.languagesAdded },
    { label: t('onboarding.import'), href: `${base}/import`, done: state.textsImported },
    { label: t('onboarding.invite'), href: `${base}/members`, done: state.teamInvited },
    { label: t('onboarding.publish'), href: `${base}/hosting`, done: state.published },
    { label: t('onboarding.connect'), href: `${base}/hosting`, done: state.appConnected },
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

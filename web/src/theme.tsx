// The console's colour theme: the system's (prefers-color-scheme) unless the
// user chose light or dark, which is remembered in this browser (localStorage)
// and set as data-theme on <html>; design.css does the rest.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export type ThemeChoice = 'system' | 'light' | 'dark';
const STORAGE_KEY = 'console.theme';

function stored(): ThemeChoice {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system'; // storage refused (privacy settings): the system's theme
  }
}

function apply(choice: ThemeChoice): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}

/** Before the first render, so that a remembered theme never flashes the other one. */
export function applyStoredTheme(): void {
  apply(stored());
}

export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [choice, setChoice] = useState(stored);
  const choose = (next: ThemeChoice) => {
    try {
      if (next === 'system') localStorage.removeItem(STORAGE_KEY);
      else localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Not remembered, but still applied for this page.
    }
    apply(next);
    setChoice(next);
  };
  return [choice, choose];
}

/** The theme picker of the top bar. */
export function ThemePicker() {
  const [choice, choose] = useTheme();
  const { t } = useTranslation();
  return (
    <label className="theme-picker">
      {t('theme.label')}
      <select value={choice} onChange={(e) => choose(e.target.value as ThemeChoice)}>
        <option value="system">{t('theme.system')}</option>
        <option value="light">{t('theme.light')}</option>
        <option value="dark">{t('theme.dark')}</option>
      </select>
    </label>
  );
}

// The console's own language: its texts are the keys of web/src/locales/*.json
// (i18next JSON, as the service's own export writes it: docs/console.md,
// "Console languages"). Each language is a chunk of its own and only the active
// one is loaded, so the editor's script does not grow by the languages (every
// file has every key: test/unit/console-locales.test.ts). The locale is the one
// chosen in the account settings (remembered in this browser), else the
// browser's first supported language, else English; <html lang> follows it.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type en from './locales/en.json';
import { CHOSEN_LOCALE_KEY, STARTED_LOCALE_KEY } from './locale-storage';

export const LOCALES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
] as const;
export type Locale = (typeof LOCALES)[number]['code'];

const LOADERS: Record<Locale, () => Promise<{ default: typeof en }>> = {
  en: () => import('./locales/en.json'),
  de: () => import('./locales/de.json'),
};

const isLocale = (value: unknown): value is Locale => LOCALES.some((l) => l.code === value);

function storedLocale(): Locale | null {
  try {
    const value = localStorage.getItem(CHOSEN_LOCALE_KEY);
    return isLocale(value) ? value : null;
  } catch {
    return null; // storage refused (privacy settings): the browser's language
  }
}

/** The browser's first language we have ("de-AT" → de), else English. */
export function browserLocale(languages: readonly string[] = navigator.languages): Locale {
  for (const tag of languages) {
    const primary = tag.split(/[-_]/)[0]!.toLowerCase();
    if (isLocale(primary)) return primary;
  }
  return 'en';
}

/** Loads a locale's texts (once) and makes it the console's language. */
async function activate(locale: Locale): Promise<void> {
  if (!i18n.hasResourceBundle(locale, 'translation'))
    i18n.addResourceBundle(locale, 'translation', (await LOADERS[locale]()).default);
  await i18n.changeLanguage(locale);
  try {
    // The next visit fetches this language's chunk with the console's script (web/vite.config.ts).
    localStorage.setItem(STARTED_LOCALE_KEY, locale);
  } catch {
    // Not remembered: the next visit fetches it after the script ran, as this one did.
  }
}

/** Before the first render: the console starts in its language, without flashing another one first. */
export async function startI18n(): Promise<void> {
  i18n.on('languageChanged', (lng) => {
    document.documentElement.lang = lng;
  });
  await i18n.use(initReactI18next).init({
    resources: {},
    fallbackLng: false, // every file has every key
    interpolation: { escapeValue: false }, // React escapes
  });
  // English puts a role mid-sentence in lower case ("the viewer link"); German nouns keep their capital.
  i18n.services.formatter?.add('lowercase', (value: unknown, lng: string | undefined) =>
    String(value).toLocaleLowerCase(lng),
  );
  const locale = storedLocale() ?? browserLocale();
  // A language chunk that fails to load (a deployment replaced it) leaves English.
  const activated = activate(locale).catch(() => activate('en'));
  // The first Intl formatter of a page loads ICU's data (tens of milliseconds): done while the language's
  // chunk downloads, before anything is on screen, rather than inside the first render of a screen.
  new Intl.NumberFormat(locale).format(0);
  new Intl.RelativeTimeFormat(locale).format(0, 'second');
  await activated;
}

/** The locale chosen in the account settings: applied at once and remembered in this browser. */
export async function chooseLocale(locale: Locale): Promise<void> {
  await activate(locale);
  try {
    localStorage.setItem(CHOSEN_LOCALE_KEY, locale);
  } catch {
    // Not remembered, but still applied for this page.
  }
}

export const currentLocale = (): Locale => (isLocale(i18n.language) ? i18n.language : 'en');

/** A date and time in the console's language ("12 Mar 2025, 14:05:09" / "12.03.2025, 14:05:09"). */
export function formatDateTime(
  value: string | number | Date,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'medium' },
): string {
  return new Intl.DateTimeFormat(currentLocale(), options).format(new Date(value));
}

/** A number in the console's language ("1,024" / "1.024"). */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(currentLocale(), options).format(value);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** How long ago (or how far ahead) a moment is, in the console's language ("3 hours ago" / "vor 3 Stunden"). */
export function formatRelative(value: string | number | Date, now = Date.now()): string {
  const seconds = (new Date(value).getTime() - now) / 1000;
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? UNITS[UNITS.length - 1]!;
  return new Intl.RelativeTimeFormat(currentLocale(), { numeric: 'auto' }).format(Math.round(seconds / size), unit);
}

export { i18n };

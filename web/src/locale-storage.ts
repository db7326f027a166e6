// Where the console remembers its language in the browser (localStorage):
// the one chosen in the account settings, and the one it last started in,
// which the language preload (web/vite.config.ts) fetches with the console's
// script so that the first render does not wait for a second round trip.
export const CHOSEN_LOCALE_KEY = 'console.locale';
export const STARTED_LOCALE_KEY = 'console.locale.started';

// The locales a language is chosen from: every language the browser's CLDR
// data names (two-letter codes, and the three-letter ones with CLDR locale
// data), and the regional and script variants CLDR has locale data for, each
// with its English name and its own name (Intl.DisplayNames). Computed once,
// when the picker first opens.

/** CLDR locales with regional or script data beyond their language (the common ones). */
const VARIANTS = [
  'ar-AE',
  'ar-DZ',
  'ar-EG',
  'ar-MA',
  'ar-SA',
  'bn-IN',
  'ca-ES',
  'de-AT',
  'de-CH',
  'de-DE',
  'de-LU',
  'en-AU',
  'en-CA',
  'en-GB',
  'en-IE',
  'en-IN',
  'en-NZ',
  'en-SG',
  'en-US',
  'en-ZA',
  'es-419',
  'es-AR',
  'es-CL',
  'es-CO',
  'es-ES',
  'es-MX',
  'es-PE',
  'es-US',
  'fr-BE',
  'fr-CA',
  'fr-CH',
  'fr-FR',
  'fr-LU',
  'it-CH',
  'it-IT',
  'ms-SG',
  'nl-BE',
  'nl-NL',
  'pa-Arab',
  'pa-Guru',
  'pt-AO',
  'pt-BR',
  'pt-MZ',
  'pt-PT',
  'ru-UA',
  'sr-Cyrl',
  'sr-Latn',
  'sv-FI',
  'sv-SE',
  'sw-KE',
  'sw-TZ',
  'ta-LK',
  'ta-SG',
  'uz-Cyrl',
  'uz-Latn',
  'zh-CN',
  'zh-HK',
  'zh-Hans',
  'zh-Hant',
  'zh-MO',
  'zh-SG',
  'zh-TW',
];
/** Three-letter languages with CLDR locale data (the two-letter ones are found by their names). */
const THREE_LETTER = ['ast', 'ceb', 'chr', 'ckb', 'fil', 'fur', 'gsw', 'haw', 'kok', 'mai', 'mni', 'sat', 'yue', 'zgh'];

export interface LocaleChoice {
  code: string;
  /** In English: "German (Austria)". */
  name: string;
  /** In the language itself: "Deutsch (Österreich)". */
  native: string;
}

let cached: LocaleChoice[] | undefined;

export function locales(): LocaleChoice[] {
  if (cached) return cached;
  const english = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  const codes: string[] = [];
  for (let a = 97; a <= 122; a++)
    for (let b = 97; b <= 122; b++) {
      const code = String.fromCharCode(a, b);
      const name = english.of(code);
      // Named, and not just echoed back or an alias of another code (Intl canonicalizes: "iw" is "he").
      if (name && name !== code && Intl.getCanonicalLocales(code)[0] === code) codes.push(code);
    }
  codes.push(...THREE_LETTER, ...VARIANTS);
  cached = [...new Set(codes)]
    .map((code) => {
      let native = '';
      try {
        native = new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? '';
      } catch {
        // A locale this browser has no data for: its English name alone.
      }
      return { code, name: english.of(code) ?? code, native };
    })
    .sort((x, y) => x.name.localeCompare(y.name, 'en'));
  return cached;
}

/** The choices matching a query (name, own name or code, from their start of a word), best first. */
export function searchLocales(query: string, limit = 50): LocaleChoice[] {
  const q = query.trim().toLowerCase();
  const all = locales();
  if (!q) return all.slice(0, limit);
  const words = (text: string) => text.toLowerCase().split(/[\s()\-,]+/);
  const score = (l: LocaleChoice) => {
    if (l.code.toLowerCase() === q) return 0;
    if (l.name.toLowerCase().startsWith(q)) return 1;
    if (l.native.toLowerCase().startsWith(q) || l.code.toLowerCase().startsWith(q)) return 2;
    if ([...words(l.name), ...words(l.native)].some((w) => w.startsWith(q))) return 3;
    return -1;
  };
  return all
    .map((l) => [score(l), l] as const)
    .filter(([s]) => s >= 0)
    .sort((a, b) => a[0] - b[0])
    .slice(0, limit)
    .map(([, l]) => l);
}

/**
 * A code typed as it is, for a language the list does not have (a custom
 * code such as "en-x-pirate", or a dialect the browser has no name for): the
 * contract accepts any language key, so the picker must too. Named by the
 * browser where it can; null when the text cannot be a code.
 */
export function customLocale(query: string): LocaleChoice | null {
  const code = query.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$/.test(code)) return null;
  let name = '';
  try {
    name = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(code.replace(/_/g, '-')) ?? '';
  } catch {
    // Not a BCP 47 tag: a custom key, named by the user.
  }
  return { code, name, native: '' };
}

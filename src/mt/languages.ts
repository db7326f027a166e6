// Static tables of the language codes each provider accepts, in its own
// notation. The providers add languages from time to time; extend these tables
// when they do (a code missing here is refused before any request is sent).
import type { TranslationProviderId } from './types.js';

/**
 * MT_PROVIDER_A (Google Cloud Translation, Basic v2): the codes of the
 * "Language support" page (cloud.google.com/translate/docs/languages, NMT
 * model, 2024-2025 edition). Mostly ISO-639-1/-2, BCP-47 where the page says
 * so (zh-CN, zh-TW, pt-BR, pt-PT, fr-FR, fr-CA, mni-Mtei, ms-Arab, pa-Arab);
 * aliases listed on the page (zh = zh-CN, iw = he, jw = jv, tl = fil) are
 * accepted too. Any listed code can be source or target; codes are
 * case-sensitive as written on the page.
 */
export const GOOGLE_LANGUAGES: ReadonlySet<string> = new Set([
  'ab',
  'ace',
  'ach',
  'af',
  'ak',
  'alz',
  'am',
  'ar',
  'as',
  'awa',
  'ay',
  'az',
  'ba',
  'ban',
  'bbc',
  'be',
  'bem',
  'bew',
  'bg',
  'bho',
  'bik',
  'bm',
  'bn',
  'br',
  'bs',
  'bts',
  'btx',
  'bua',
  'ca',
  'ceb',
  'cgg',
  'chm',
  'ckb',
  'cnh',
  'co',
  'crh',
  'crs',
  'cs',
  'cv',
  'cy',
  'da',
  'de',
  'din',
  'doi',
  'dov',
  'dv',
  'dz',
  'ee',
  'el',
  'en',
  'eo',
  'es',
  'et',
  'eu',
  'fa',
  'ff',
  'fi',
  'fil',
  'fj',
  'fr',
  'fr-CA',
  'fr-FR',
  'fy',
  'ga',
  'gaa',
  'gd',
  'gl',
  'gn',
  'gom',
  'gu',
  'ha',
  'haw',
  'he',
  'hi',
  'hil',
  'hmn',
  'hr',
  'hrx',
  'ht',
  'hu',
  'hy',
  'id',
  'ig',
  'ilo',
  'is',
  'it',
  'iw',
  'ja',
  'jv',
  'jw',
  'ka',
  'kk',
  'km',
  'kn',
  'ko',
  'kri',
  'ktu',
  'ku',
  'ky',
  'la',
  'lb',
  'lg',
  'li',
  'lij',
  'lmo',
  'ln',
  'lo',
  'lt',
  'ltg',
  'luo',
  'lus',
  'lv',
  'mai',
  'mak',
  'mg',
  'mi',
  'min',
  'mk',
  'ml',
  'mn',
  'mni-Mtei',
  'mr',
  'ms',
  'ms-Arab',
  'mt',
  'my',
  'ne',
  'new',
  'nl',
  'no',
  'nr',
  'nso',
  'nus',
  'ny',
  'oc',
  'om',
  'or',
  'pa',
  'pa-Arab',
  'pag',
  'pam',
  'pap',
  'pl',
  'ps',
  'pt',
  'pt-BR',
  'pt-PT',
  'qu',
  'rn',
  'ro',
  'rom',
  'ru',
  'rw',
  'sa',
  'scn',
  'sd',
  'sg',
  'shn',
  'si',
  'sk',
  'sl',
  'sm',
  'sn',
  'so',
  'sq',
  'sr',
  'ss',
  'st',
  'su',
  'sv',
  'sw',
  'szl',
  'ta',
  'te',
  'tet',
  'tg',
  'th',
  'ti',
  'tk',
  'tl',
  'tn',
  'tr',
  'ts',
  'tt',
  'ug',
  'uk',
  'ur',
  'uz',
  'vi',
  'xh',
  'yi',
  'yo',
  'yua',
  'yue',
  'zh',
  'zh-CN',
  'zh-TW',
  'zu',
]);

/**
 * MT_PROVIDER_B (DeepL API v2) source languages, from "Languages supported"
 * (developers.deepl.com/docs/getting-started/supported-languages, 2025
 * edition). Source languages carry no regional variant. HE, TH and VI are
 * served by DeepL's next-gen models only.
 */
export const DEEPL_SOURCE_LANGUAGES: ReadonlySet<string> = new Set([
  'AR',
  'BG',
  'CS',
  'DA',
  'DE',
  'EL',
  'EN',
  'ES',
  'ET',
  'FI',
  'FR',
  'HE',
  'HU',
  'ID',
  'IT',
  'JA',
  'KO',
  'LT',
  'LV',
  'NB',
  'NL',
  'PL',
  'PT',
  'RO',
  'RU',
  'SK',
  'SL',
  'SV',
  'TH',
  'TR',
  'UK',
  'VI',
  'ZH',
]);

/**
 * MT_PROVIDER_B target languages, same page. EN, PT and ZH are DeepL's
 * "unspecified variant, kept for backward compatibility" codes.
 */
export const DEEPL_TARGET_LANGUAGES: ReadonlySet<string> = new Set([
  'AR',
  'BG',
  'CS',
  'DA',
  'DE',
  'EL',
  'EN',
  'EN-GB',
  'EN-US',
  'ES',
  'ES-419',
  'ET',
  'FI',
  'FR',
  'HE',
  'HU',
  'ID',
  'IT',
  'JA',
  'KO',
  'LT',
  'LV',
  'NB',
  'NL',
  'PL',
  'PT',
  'PT-BR',
  'PT-PT',
  'RO',
  'RU',
  'SK',
  'SL',
  'SV',
  'TH',
  'TR',
  'UK',
  'VI',
  'ZH',
  'ZH-HANS',
  'ZH-HANT',
]);

/**
 * Target languages for which DeepL accepts formality `more` / `less`
 * (GET /v2/languages?type=target, `supports_formality: true`). Other targets
 * accept only `default`, `prefer_more` and `prefer_less`.
 */
export const DEEPL_FORMALITY_TARGETS: ReadonlySet<string> = new Set([
  'DE',
  'ES',
  'FR',
  'IT',
  'JA',
  'NL',
  'PL',
  'PT-BR',
  'PT-PT',
  'RU',
]);

/** DeepL glossaries name languages by their lower-case base code: EN-US -> en, ZH-HANS -> zh. */
export function deeplGlossaryLanguage(code: string): string {
  return code.split('-')[0]!.toLowerCase();
}

/** The table entry equal to `code` ignoring case and `_`/`-`, to suggest in messages. */
export function closestCode(code: string, table: ReadonlySet<string>): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/_/g, '-');
  const wanted = norm(code);
  for (const entry of table) if (norm(entry) === wanted) return entry;
  return undefined;
}

/** Language keys whose provider code is not their own spelling (lower case, `-`). */
const DEEPL_TARGET_ALIASES: Record<string, string> = {
  en: 'EN-US',
  pt: 'PT-PT',
  zh: 'ZH-HANS',
  'zh-cn': 'ZH-HANS',
  'zh-sg': 'ZH-HANS',
  'zh-hans': 'ZH-HANS',
  'zh-tw': 'ZH-HANT',
  'zh-hk': 'ZH-HANT',
  'zh-mo': 'ZH-HANT',
  'zh-hant': 'ZH-HANT',
  no: 'NB',
  nn: 'NB',
  iw: 'HE',
};
const DEEPL_SOURCE_ALIASES: Record<string, string> = { no: 'NB', nn: 'NB', iw: 'HE' };
const GOOGLE_ALIASES: Record<string, string> = {
  'zh-hans': 'zh-CN',
  'zh-sg': 'zh-CN',
  'zh-hant': 'zh-TW',
  'zh-hk': 'zh-TW',
  'zh-mo': 'zh-TW',
  nb: 'no',
  nn: 'no',
};

/**
 * A project language key in a provider's notation, as the default when a
 * language has no code of its own: the key itself where the provider lists it
 * (any letter case, `_` for `-`), a known alias (`zh-tw` → `ZH-HANT`), else its
 * base language (`de-at` → `DE`). Undefined when the provider serves neither.
 * PSEUDO takes any key as it is; so do the language models.
 */
export function providerCodeFor(
  provider: TranslationProviderId,
  languageKey: string,
  role: 'source' | 'target',
): string | undefined {
  // Language models take BCP 47 tags as they are (the key itself; the prompt names the language).
  if (provider === 'LLM_OPENAI' || provider === 'LLM_ANTHROPIC' || provider === 'MEMORY') return languageKey;
  const key = languageKey.trim().toLowerCase().replace(/_/g, '-');
  const base = key.split('-')[0]!;
  if (provider === 'PSEUDO') return role === 'target' ? languageKey : undefined;
  if (provider === 'MT_PROVIDER_A') {
    const alias = GOOGLE_ALIASES[key];
    if (alias) return alias;
    return closestCode(key, GOOGLE_LANGUAGES) ?? closestCode(base, GOOGLE_LANGUAGES);
  }
  if (role === 'source') {
    const code = DEEPL_SOURCE_ALIASES[base] ?? base.toUpperCase();
    return DEEPL_SOURCE_LANGUAGES.has(code) ? code : undefined;
  }
  const alias = DEEPL_TARGET_ALIASES[key];
  if (alias) return alias;
  if (DEEPL_TARGET_LANGUAGES.has(key.toUpperCase())) return key.toUpperCase();
  const fallback = DEEPL_TARGET_ALIASES[base] ?? base.toUpperCase();
  return DEEPL_TARGET_LANGUAGES.has(fallback) ? fallback : undefined;
}

// Counts in words: "1 key", "2 keys", "1,024 keys" ("1.024 Schlüssel"), by the
// plural rules and number format of the console's language. One rule for every screen.
import { i18n } from './i18n';
import type en from './locales/en.json';

type Noun<K = keyof (typeof en)['count']> = K extends `${infer N}_other` ? N : never;

export function count(n: number, noun: Noun): string {
  return i18n.t(`count.${noun}`, { count: n });
}

// The English name of a language key, for a language created without a name
// (console, REST, GraphQL, an import): CLDR's, as Node's Intl carries it
// (`fr` -> French, `pt-BR` -> Brazilian Portuguese, `zh-Hant` -> Traditional
// Chinese). Keys are often written with an underscore (`en_US`, from Java
// and gettext file names): it is read as a hyphen for the lookup only. A key
// CLDR does not know as a whole (`my-lang`, `fr-XX`, `qaa`) is named by
// itself: a made-up name from its first part ("Burmese" for `my-lang`) would
// be wrong, and an empty name shows nothing where languages are listed.
import { arrayLiteral } from '../db/array-literal.js';
import { prisma } from '../db.js';

const DISPLAY_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** The English (CLDR) name of a language key, or the key itself when CLDR does not know it. */
export function englishLanguageName(key: string): string {
  try {
    return DISPLAY_NAMES.of(key.replace(/_/g, '-')) ?? key;
  } catch {
    // Not a well-formed language tag (RangeError): a custom key.
    return key;
  }
}

/** The name a new language gets: the one given, or, when none or a blank one is given, its English name. */
export function languageNameOrDefault(key: string, name: string | null | undefined): string {
  return name?.trim() ? name : englishLanguageName(key);
}

/**
 * Names the languages created without a name before names were given by
 * default: run on start, a no-op once done (the statement finds no row).
 */
export async function nameUnnamedLanguages(): Promise<number> {
  const keys = (
    await prisma().$queryRaw<
      { key: string }[]
    >`/* languages:unnamed-keys */ SELECT DISTINCT key FROM "Language" WHERE name = ''`
  ).map((r) => r.key);
  if (keys.length === 0) return 0;
  return prisma().$executeRaw`/* languages:name-unnamed */
    UPDATE "Language" l SET name = t.name
      FROM unnest(${arrayLiteral(keys)}::text[], ${arrayLiteral(keys, englishLanguageName)}::text[]) AS t(key, name)
     WHERE l.key = t.key AND l.name = ''`;
}

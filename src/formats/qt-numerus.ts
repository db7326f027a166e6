// Qt's numerus forms: how many <numerusform>s a message has in a language and
// which counts each is for, as lrelease and Linguist decide them (qttools,
// src/linguist/shared/numerus.cpp), which is not always as CLDR decides. They
// differ where CLDR has a category Qt has no form for: French, Spanish,
// Italian, Portuguese and Catalan have two Qt forms (singular, plural) where
// CLDR adds `many` (a million: "de"), so a plural with a `many` branch written
// in CLDR order put that branch in Qt's plural form and lrelease dropped the
// real one ("Removed plural forms as the target language has less forms");
// and Latvian's first Qt form is the singular, CLDR's first category `zero`.
// numerus.cpp gives each family of rules as a gettext expression too: its
// forms are mapped to CLDR categories as PO's are (mapByExpression). Where
// that finds no one-to-one mapping (Welsh, Macedonian), or Qt has no rules for
// a language, the CLDR categories stand.
import { mapByExpression, parsePluralFormsHeader } from './gettext-plural.js';
import type { PluralCategory } from './plural.js';

const FAMILIES = new Map<string, string>();
function family(rule: string, languages: string): void {
  for (const l of languages.split(' ')) FAMILIES.set(l, rule);
}
// QLocale languages by ISO code, in numerus.cpp's table order (the first family of a language wins, as there).
family('nplurals=1; plural=0;', 'bi my zh dz fj gn hu id ja jv ko ms na om fa su tt th bo tr vi yo za');
family(
  'nplurals=2; plural=(n != 1);',
  'ab aa af sq am as ay az ba eu bn bg ca kw co da nl en eo et fo fi fur fy gl ka de el kl gu ha he hi ia ie it kn ks kk km rw ky ku lo la ln lb mg ml mr mn ne nso nb no nn oc or ps pt pa qu rm rn sn sd si so st es sw ss sv tg ta te to ts tn tk ug ur uz vo wo xh yi zu',
);
family('nplurals=2; plural=(n > 1);', 'hy br fr pt-br fil tl ti wa');
family('nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);', 'lv');
family('nplurals=2; plural=(n%10==1 && n%100!=11 ? 0 : 1);', 'is');
family('nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);', 'dv iu ik ga gv mi se sm sa');
family('nplurals=4; plural=(n==1 || n==11) ? 0 : (n==2 || n==12) ? 1 : (n > 2 && n < 20) ? 2 : 3;', 'gd');
family('nplurals=3; plural=((n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2);', 'sk cs');
family('nplurals=3; plural=(n%100==1 ? 0 : n%100==2 ? 1 : 2);', 'mk');
family('nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);', 'lt');
family(
  'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  'bs be hr ru sr uk',
);
family('nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);', 'pl');
family('nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);', 'ro');
family('nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);', 'sl');
family(
  'nplurals=4; plural=(n==1 ? 0 : (n==0 || (n%100>=1 && n%100<=10)) ? 1 : (n%100>=11 && n%100<=19) ? 2 : 3);',
  'mt',
);
family('nplurals=5; plural=(n==0 ? 0 : n==1 ? 1 : (n>=2 && n<=5) ? 2 : n==6 ? 3 : 4);', 'cy');
family('nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : (n%100>=3 && n%100<=10) ? 3 : n%100>=11 ? 4 : 5);', 'ar');

/**
 * The CLDR category of each of a language's Qt numerus forms, by index
 * (the full tag first, then its language: `pt-BR`, `pt`); undefined for a
 * language Qt has no rules for or whose rules map to no distinct categories.
 */
export function qtNumerusCategories(language: string): PluralCategory[] | undefined {
  const tag = language.toLowerCase().replace(/_/g, '-');
  const rule = FAMILIES.get(tag) ?? FAMILIES.get(tag.split('-')[0]!);
  if (!rule) return undefined;
  const { nplurals, expression } = parsePluralFormsHeader(rule)!;
  return mapByExpression(expression!, nplurals, language) ?? undefined;
}

// gettext plural forms: the `Plural-Forms: nplurals=N; plural=EXPR;` header,
// and the mapping of msgstr[i] indices to CLDR categories.
//
// The mapping is computed, not assumed: the file's own C expression is
// evaluated (by a small interpreter, never eval) for sample numbers, and each
// index takes the CLDR category (Intl.PluralRules) that most of its numbers
// fall into. Positional mapping is wrong for many languages: French gettext
// files have 2 forms (n > 1) while CLDR French has one/many/other.
import { PLURAL_CATEGORIES, pluralCategories, type PluralCategory } from './plural.js';

export interface GettextPluralForms {
  nplurals: number;
  /** The C expression (text after `plural=`), or null when absent or a placeholder. */
  expression: string | null;
}

/** Parses a Plural-Forms header value; null when it has no usable nplurals. */
export function parsePluralFormsHeader(value: string): GettextPluralForms | null {
  const n = /nplurals\s*=\s*(\d+)/.exec(value);
  if (!n) return null;
  const nplurals = Number(n[1]);
  if (nplurals < 1 || nplurals > 32) return null;
  const p = /plural\s*=\s*([^;]*)/.exec(value.replace(/nplurals\s*=\s*\d+/, ''));
  return { nplurals, expression: p?.[1]?.trim() || null };
}

// Standard expressions whose index order follows the CLDR category order of
// the language, so index i is the i-th CLDR category used by integers.
const TABLE: Record<string, string> = {};
function define(expr: string, languages: string): void {
  for (const l of languages.split(' ')) TABLE[l] = expr;
}
define('nplurals=1; plural=0;', 'ja ko zh th vi id ms lo my km bo dz ig ii jv kea ses sg to wo yo yue');
define(
  'nplurals=2; plural=(n != 1);',
  'en de nl sv da nb nn no fi et el it es ca bg hu tr az ka eu gl sq ur sw af ast eo fo fy ha kk ky lb mn ne om or ps so ta te tk ug uz mr pt-pt',
);
define('nplurals=2; plural=(n > 1);', 'fr pt pt-br hi bn gu kn pa fa am zu ln ak ti wa');
define('nplurals=2; plural=(n%10 != 1 || n%100 == 11);', 'is');
define('nplurals=2; plural=(n%10 == 1 && n%100 != 11 ? 0 : 1);', 'mk');
define(
  'nplurals=3; plural=(n%10 == 1 && n%100 != 11 ? 0 : n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14) ? 1 : 2);',
  'ru uk be hr sr bs sh',
);
define('nplurals=3; plural=(n == 1 ? 0 : n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14) ? 1 : 2);', 'pl');
define('nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);', 'cs sk');
define('nplurals=3; plural=(n == 1 ? 0 : n == 0 || (n%100 > 0 && n%100 < 20) ? 1 : 2);', 'ro mo');
define(
  'nplurals=3; plural=(n%10 == 1 && (n%100 < 11 || n%100 > 19) ? 0 : n%10 >= 2 && n%10 <= 9 && (n%100 < 11 || n%100 > 19) ? 1 : 2);',
  'lt',
);
define('nplurals=3; plural=(n%10 == 0 || (n%100 >= 11 && n%100 <= 19) ? 0 : n%10 == 1 && n%100 != 11 ? 1 : 2);', 'lv');
define('nplurals=3; plural=(n == 1 ? 0 : n == 2 ? 1 : 2);', 'he iw');
define('nplurals=4; plural=(n%100 == 1 ? 0 : n%100 == 2 ? 1 : n%100 == 3 || n%100 == 4 ? 2 : 3);', 'sl');
define(
  'nplurals=4; plural=(n == 1 || n == 11 ? 0 : n == 2 || n == 12 ? 1 : (n >= 3 && n <= 10) || (n >= 13 && n <= 19) ? 2 : 3);',
  'gd',
);
define('nplurals=5; plural=(n == 1 ? 0 : n == 2 ? 1 : n >= 3 && n <= 6 ? 2 : n >= 7 && n <= 10 ? 3 : 4);', 'ga');
define(
  'nplurals=6; plural=(n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n%100 >= 3 && n%100 <= 10 ? 3 : n%100 >= 11 ? 4 : 5);',
  'ar',
);
define('nplurals=6; plural=(n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n == 3 ? 3 : n == 6 ? 4 : 5);', 'cy');

/**
 * The Plural-Forms header value for a language: from the table (full tag, then
 * base language), else derived from the language's CLDR categories with the
 * safe default `nplurals=2; plural=(n != 1);`.
 */
export function pluralFormsHeaderFor(language: string): string {
  const tag = language.toLowerCase().replace(/_/g, '-');
  const known = TABLE[tag] ?? TABLE[tag.split('-')[0]!];
  if (known) return known;
  return pluralCategories(language).length === 1 ? 'nplurals=1; plural=0;' : 'nplurals=2; plural=(n != 1);';
}

const SAMPLES: number[] = (() => {
  const s: number[] = [];
  for (let n = 0; n <= 1000; n++) s.push(n);
  s.push(10000, 100000, 1000000, 10000000);
  return s;
})();

/** By size, when nothing better is known: the usual categories of languages with that many forms. */
const BY_COUNT: PluralCategory[][] = [
  [],
  ['other'],
  ['one', 'other'],
  ['one', 'few', 'other'],
  ['one', 'two', 'few', 'other'],
  ['one', 'two', 'few', 'many', 'other'],
  ['zero', 'one', 'two', 'few', 'many', 'other'],
];

/**
 * CLDR category of each msgstr index (index -> category, or null for an index
 * beyond what CLDR can name, which is dropped). Categories are distinct.
 */
export function indexCategories(forms: GettextPluralForms, language: string | undefined): (PluralCategory | null)[] {
  const { nplurals } = forms;
  if (language) {
    const fromFile = forms.expression ? mapByExpression(forms.expression, nplurals, language) : null;
    if (fromFile) return fromFile;
    // Missing or unusable expression: the standard one for the language, if it has as many forms.
    const standard = parsePluralFormsHeader(pluralFormsHeaderFor(language));
    if (standard?.expression && standard.nplurals === nplurals) {
      const mapped = mapByExpression(standard.expression, nplurals, language);
      if (mapped) return mapped;
    }
    const cats = pluralCategories(language);
    if (cats.length === nplurals) return cats;
  }
  const byCount = BY_COUNT[Math.min(nplurals, 6)]!;
  return Array.from({ length: nplurals }, (_, i) => byCount[i] ?? null);
}

/**
 * The CLDR category of each index of a plural expression: the category most
 * of the index's sample numbers fall into; null when two indices would get
 * the same one (or the expression does not compile or gives no index).
 */
export function mapByExpression(expression: string, nplurals: number, language: string): PluralCategory[] | null {
  let evaluate: (n: number) => number;
  let rules: Intl.PluralRules;
  try {
    evaluate = compilePluralExpression(expression);
    rules = new Intl.PluralRules(language.replace(/_/g, '-'));
  } catch {
    return null;
  }
  const counts = Array.from({ length: nplurals }, () => new Map<PluralCategory, number>());
  for (const n of SAMPLES) {
    const index = evaluate(n);
    if (!Number.isInteger(index) || index < 0 || index >= nplurals) return null;
    const cat = rules.select(n) as PluralCategory;
    counts[index]!.set(cat, (counts[index]!.get(cat) ?? 0) + 1);
  }
  const result: PluralCategory[] = [];
  for (const c of counts) {
    let best: PluralCategory | null = null;
    let bestCount = 0;
    for (const cat of PLURAL_CATEGORIES) {
      const k = c.get(cat) ?? 0;
      if (k > bestCount) {
        best = cat;
        bestCount = k;
      }
    }
    if (!best || result.includes(best)) return null;
    result.push(best);
  }
  return result;
}

// ---- A tiny interpreter for gettext's C plural expressions ----
// Grammar: ternary ?:, || && == != < > <= >= + - * / %, unary ! and -, parentheses, n, integers.

type Expr = (n: number) => number;
const MAX_EXPRESSION_LENGTH = 2000;
const MAX_DEPTH = 64;

/** Compiles a plural expression into a function; throws Error on a syntax error. */
export function compilePluralExpression(source: string): Expr {
  if (source.length > MAX_EXPRESSION_LENGTH) throw new Error('plural expression too long');
  const tokens = source.match(/\s+|\d+|n|\|\||&&|[=!<>]=|[-+*/%<>!?:()]|./g) ?? [];
  const toks = tokens.filter((t) => !/^\s+$/.test(t));
  let pos = 0;
  let depth = 0;
  const peek = () => toks[pos];
  const take = (t?: string) => {
    const tok = toks[pos];
    if (tok === undefined || (t !== undefined && tok !== t))
      throw new Error(`expected ${t ?? 'a token'} in plural expression`);
    pos++;
    return tok;
  };
  const enter = () => {
    if (++depth > MAX_DEPTH) throw new Error('plural expression nested too deeply');
  };

  const binaryLevels: string[][] = [['||'], ['&&'], ['==', '!='], ['<', '>', '<=', '>='], ['+', '-'], ['*', '/', '%']];

  function ternary(): Expr {
    enter();
    const cond = binary(0);
    let result = cond;
    if (peek() === '?') {
      take('?');
      const a = ternary();
      take(':');
      const b = ternary();
      result = (n) => (cond(n) ? a(n) : b(n));
    }
    depth--;
    return result;
  }
  function binary(level: number): Expr {
    if (level === binaryLevels.length) return unary();
    let left = binary(level + 1);
    while (binaryLevels[level]!.includes(peek() ?? '')) {
      const op = take();
      const l = left;
      const r = binary(level + 1);
      left = binaryOp(op, l, r);
    }
    return left;
  }
  function unary(): Expr {
    const t = peek();
    if (t === '!') {
      take();
      enter();
      const e = unary();
      depth--;
      return (n) => (e(n) ? 0 : 1);
    }
    if (t === '-') {
      take();
      enter();
      const e = unary();
      depth--;
      return (n) => -e(n);
    }
    if (t === '(') {
      take();
      const e = ternary();
      take(')');
      return e;
    }
    if (t === 'n') {
      take();
      return (n) => n;
    }
    if (t !== undefined && /^\d+$/.test(t)) {
      take();
      const v = Number(t);
      return () => v;
    }
    throw new Error(`unexpected ${t === undefined ? 'end' : `"${t}"`} in plural expression`);
  }
  const e = ternary();
  if (pos !== toks.length) throw new Error(`unexpected "${toks[pos]}" in plural expression`);
  return e;
}

function binaryOp(op: string, l: Expr, r: Expr): Expr {
  switch (op) {
    case '||':
      return (n) => (l(n) || r(n) ? 1 : 0);
    case '&&':
      return (n) => (l(n) && r(n) ? 1 : 0);
    case '==':
      return (n) => (l(n) === r(n) ? 1 : 0);
    case '!=':
      return (n) => (l(n) !== r(n) ? 1 : 0);
    case '<':
      return (n) => (l(n) < r(n) ? 1 : 0);
    case '>':
      return (n) => (l(n) > r(n) ? 1 : 0);
    case '<=':
      return (n) => (l(n) <= r(n) ? 1 : 0);
    case '>=':
      return (n) => (l(n) >= r(n) ? 1 : 0);
    case '+':
      return (n) => l(n) + r(n);
    case '-':
      return (n) => l(n) - r(n);
    case '*':
      return (n) => l(n) * r(n);
    // C integer division and remainder; division by zero yields NaN, which the mapping rejects.
    case '/':
      return (n) => {
        const d = r(n);
        return d === 0 ? NaN : Math.trunc(l(n) / d);
      };
    default:
      return (n) => {
        const d = r(n);
        return d === 0 ? NaN : l(n) % d;
      };
  }
}

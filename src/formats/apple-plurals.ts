// Shared by .stringsdict and String Catalogs (.xcstrings): Apple's plural
// "variables". A format string such as `Found %1$#@files@ in %#@dirs@` names
// variables whose plural branches are defined elsewhere in the file. We store
// such a message as ICU text with the plurals embedded in place
// (`Found {files, plural, one {...} other {...}} in {dirs, plural, ...}`, see
// icu-embedded.ts), and keep what ICU cannot carry (the token's argument
// position `1$`, the value type `d`/`ld`/`lld`, a catalog's argNum) in the
// key's codeDescription, as one line:
//
//   Plural variables: {"files":{"position":"1$","type":"ld"},"dirs":{"type":"d"}}
//
// codeDescription is shown read-only in the editor, which suits developer
// metadata. On export, a variable without a recorded spec gets the plain
// token `%#@name@` and a value type inferred from the branches (`%ld` -> ld),
// `d` when the branches have no number.
import type { IcuChoice, IcuPart } from './icu-embedded.js';
import { FormatError } from './model.js';
import { PLURAL_CATEGORIES } from './plural.js';

export interface VarSpec {
  /** What stands between `%` and `#@` in the token: '', '1', '1$'. */
  position?: string;
  /** NSStringFormatValueTypeKey / formatSpecifier, e.g. `d`, `ld`, `lld`. */
  type?: string;
  /** String Catalog substitutions' argNum. */
  argNum?: number;
}

const SPEC_PREFIX = 'Plural variables: ';

/** `%#@name@`, `%1#@name@`, `%1$#@name@`. Names ICU cannot use as an argument stay literal text. */
const TOKEN = /%(\d+\$?)?#@([A-Za-z0-9_]+)@/g;

export function encodeVarSpecs(specs: Map<string, VarSpec>): string | undefined {
  const obj: Record<string, VarSpec> = {};
  for (const [name, spec] of specs) {
    const clean: VarSpec = {};
    if (spec.position) clean.position = spec.position;
    if (spec.type) clean.type = spec.type;
    if (spec.argNum != null) clean.argNum = spec.argNum;
    obj[name] = clean;
  }
  return Object.keys(obj).length ? SPEC_PREFIX + JSON.stringify(obj) : undefined;
}

/** Specs recorded by encodeVarSpecs; anything else in codeDescription yields none. */
export function decodeVarSpecs(codeDescription: string | undefined): Map<string, VarSpec> {
  const out = new Map<string, VarSpec>();
  if (!codeDescription?.startsWith(SPEC_PREFIX)) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(codeDescription.slice(SPEC_PREFIX.length));
  } catch {
    return out;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return out;
  for (const [name, v] of Object.entries(parsed as Record<string, unknown>)) {
    if (!v || typeof v !== 'object') continue;
    const r = v as Record<string, unknown>;
    out.set(name, {
      position: typeof r.position === 'string' && /^\d*\$?$/.test(r.position) ? r.position : undefined,
      type: typeof r.type === 'string' ? r.type : undefined,
      argNum: typeof r.argNum === 'number' ? r.argNum : undefined,
    });
  }
  return out;
}

/**
 * Splits a format string at its variable tokens. `resolve` returns the plural
 * for a variable (or null to keep the token as literal text) and is told the
 * token's position, so the caller can record it.
 */
export function expandTokens(text: string, resolve: (name: string, position: string) => IcuChoice | null): IcuPart[] {
  const parts: IcuPart[] = [];
  let last = 0;
  let literal = '';
  for (const m of text.matchAll(TOKEN)) {
    const choice = resolve(m[2]!, m[1] ?? '');
    if (!choice) continue;
    literal += text.slice(last, m.index);
    if (literal) parts.push({ type: 'text', value: literal });
    literal = '';
    parts.push(choice);
    last = m.index + m[0].length;
  }
  literal += text.slice(last);
  if (literal) parts.push({ type: 'text', value: literal });
  return parts;
}

export function variableToken(name: string, spec: VarSpec | undefined): string {
  return `%${spec?.position ?? ''}#@${name}@`;
}

/** The printf length+conversion of the first number in the texts (`%ld` -> `ld`), else `d`. */
export function inferValueType(texts: string[]): string {
  for (const t of texts) {
    for (const m of t.matchAll(/%%|%(?:\d+\$)?[-+ 0#']*\d*(?:\.\d+)?((?:hh|h|ll|l|q|z|t|j|L)?[diouxXfFeEgGaA])/g)) {
      if (m[1]) return m[1];
    }
  }
  return 'd';
}

/**
 * Plural branches as Apple categories, in CLDR order. Apple has no exact
 * matches: `=0`/`=1`/`=2` stand in for zero/one/two when those are absent
 * (ARB and ICU sources use them that way); other `=N` branches are dropped.
 */
export function appleCategoryBranches<T>(branches: { key: string; parts: T }[]): { key: string; parts: T }[] {
  const byKey = new Map(branches.map((b) => [b.key, b.parts]));
  const exact: Record<string, string> = { zero: '=0', one: '=1', two: '=2' };
  const out: { key: string; parts: T }[] = [];
  for (const cat of PLURAL_CATEGORIES) {
    const parts = byKey.get(cat) ?? (exact[cat] ? byKey.get(exact[cat]) : undefined);
    if (parts !== undefined) out.push({ key: cat, parts });
  }
  return out;
}

export function isPluralCategory(key: string): boolean {
  return (PLURAL_CATEGORIES as readonly string[]).includes(key);
}

/**
 * Variables may use other variables in their branches; a hostile file could
 * make each use two others and grow the text exponentially. Expanding a
 * variable spends the length of its branches; the budget is linear in the
 * size of the uploaded file.
 */
export class ExpansionBudget {
  private left: number;
  constructor(inputLength: number) {
    this.left = 200_000 + 16 * inputLength;
  }
  spend(key: string, chars: number): void {
    this.left -= chars + 1;
    if (this.left < 0) throw new FormatError(`The plural variables of "${key}" expand to too much text`);
  }
}

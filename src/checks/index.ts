// The quality checks of a translation against its source: the one home of
// every check (docs/quality-checks.md). Pure functions of the two texts, the
// two languages and what is known of the key, so the same rules run in the
// editor while a translator types (web/ imports this module), on every write
// through the write gate, and in the reports and publication gate.
import { CHECKS } from './definitions.js';
import { laravelInSource, readPlaceholders, type Reading } from './placeholders.js';
import type { CheckDefinition, CheckInput, Finding, Pair, Severity } from './types.js';

export { CHECKS };
export type { CheckDefinition, CheckInput, Finding, Severity } from './types.js';
export { DIALECTS, DIALECT_NAMES, SEVERITIES, type Dialect } from './types.js';

export const CHECK_IDS: readonly string[] = CHECKS.map((c) => c.id);

const BY_ID = new Map(CHECKS.map((c) => [c.id, c]));

export function checkDefinition(id: string): CheckDefinition | undefined {
  return BY_ID.get(id);
}

/**
 * A project's choices: a severity per check id, or 'off'; a check not named
 * keeps its default (and runs when it is on by default).
 */
export type CheckSettings = Record<string, Severity | 'off'>;

/** The checks that run under the settings, with the severity they report. */
export function activeChecks(settings: CheckSettings = {}): { definition: CheckDefinition; severity: Severity }[] {
  const active: { definition: CheckDefinition; severity: Severity }[] = [];
  for (const definition of CHECKS) {
    const chosen = settings[definition.id];
    if (chosen === 'off' || (chosen === undefined && !definition.enabled)) continue;
    active.push({ definition, severity: chosen ?? definition.severity });
  }
  return active;
}

// A window of cells, an import of one language: the same source text is read again and again.
const readings = new Map<string, Reading>();

function reading(text: string, dialect: CheckInput['dialect'], laravel: boolean): Reading {
  const id = `${dialect}\u0001${laravel ? 1 : 0}\u0001${text}`;
  let found = readings.get(id);
  if (!found) {
    if (readings.size > 20_000) readings.clear();
    found = readPlaceholders(text, dialect, laravel);
    readings.set(id, found);
  }
  return found;
}

/** Both texts read once, for every check. */
export function pairOf(input: CheckInput): Pair {
  const dialect = input.dialect ?? 'auto';
  const laravel = laravelInSource(input.source, dialect);
  return {
    source: input.source,
    target: input.target,
    sourceLanguage: input.sourceLanguage,
    targetLanguage: input.targetLanguage,
    charactersLimit: input.charactersLimit ?? null,
    dialect,
    sourceReading: reading(input.source, dialect, laravel),
    targetReading: reading(input.target, dialect, laravel),
  };
}

/** The findings of one cell, in the order of CHECKS; none for an empty (untranslated) text but the limit's. */
export function runChecks(input: CheckInput, settings: CheckSettings = {}): Finding[] {
  const pair = pairOf(input);
  const findings: Finding[] = [];
  for (const { definition, severity } of activeChecks(settings)) {
    if (definition.scope === 'project') continue;
    for (const problem of definition.run(pair))
      findings.push({
        check: definition.id,
        severity,
        message: problem.message,
        text: problem.text ?? null,
        span: problem.span ?? null,
      });
  }
  return findings;
}

// The consistency checks' definitions (src/checks/consistency.ts): they are
// checks like the others for settings and lists, never run on one pair of
// texts (the findings updater computes them: test/api/consistency-findings.test.ts),
// and the plural-key rule that keeps the forms of one message apart.
import { describe, expect, it } from 'vitest';
import { activeChecks, CHECKS, runChecks } from '../../../src/checks/index.js';
import { CONSISTENCY_CHECK_IDS, pluralBase, sourceIdentity } from '../../../src/checks/consistency.js';

describe('consistency checks', () => {
  it('are listed with the checks as warnings (ambiguous-translation off by default), and configurable', () => {
    const defined = CHECKS.filter((c) => c.category === 'consistency');
    expect(defined.map((c) => [c.id, c.severity, c.enabled, c.scope])).toEqual([
      ['inconsistent-translation', 'warning', true, 'project'],
      ['ambiguous-translation', 'warning', false, 'project'],
    ]);
    expect(defined.map((c) => c.id)).toEqual(CONSISTENCY_CHECK_IDS);
    expect(activeChecks().map((c) => c.definition.id)).not.toContain('ambiguous-translation');
    expect(activeChecks({ 'ambiguous-translation': 'warning' }).map((c) => c.definition.id)).toContain(
      'ambiguous-translation',
    );
    expect(activeChecks({ 'inconsistent-translation': 'off' }).map((c) => c.definition.id)).not.toContain(
      'inconsistent-translation',
    );
    expect(
      activeChecks({ 'inconsistent-translation': 'error' }).find((c) => c.definition.id === 'inconsistent-translation')
        ?.severity,
    ).toBe('error');
  });

  it('never run on one pair: the same source and text find nothing there', () => {
    const findings = runChecks(
      { source: 'Save', target: 'Speichern', sourceLanguage: 'en', targetLanguage: 'de' },
      { 'inconsistent-translation': 'error' },
    );
    expect(findings).toEqual([]);
  });

  it("reads a key name's plural suffix (i18next, Rails, ordinals), and nothing else", () => {
    expect(
      [
        'items_one',
        'items_few',
        'items_many',
        'items_other',
        'items_zero',
        'items_two',
        'item_plural',
        'place_ordinal_one',
        'cart.items.other',
      ].map(pluralBase),
    ).toEqual(['items', 'items', 'items', 'items', 'items', 'items', 'item', 'place', 'cart.items']);
    // Humanizer (.NET) names its forms in Pascal case: the suffix is read ignoring case.
    expect(
      [
        'DateHumanize_MultipleDaysAgo_Plural',
        'DateHumanize_MultipleDaysAgo_Dual',
        'TimeSpanHumanize_SingleDay_Singular',
      ].map(pluralBase),
    ).toEqual(['DateHumanize_MultipleDaysAgo', 'DateHumanize_MultipleDaysAgo', 'TimeSpanHumanize_SingleDay']);
    // Words that end like a category are not plural forms.
    expect(
      ['someone', 'another', 'anyone', 'done', 'settings.other_options', 'button_onetime'].map(pluralBase),
    ).toEqual(['someone', 'another', 'anyone', 'done', 'settings.other_options', 'button_onetime']);
  });

  it('compares sources without their markup, spacing, end marks and case (ambiguous-translation)', () => {
    expect(new Set(['Settings', 'settings:', ' Settings… ', 'SETTINGS!']).size).toBe(4);
    expect(new Set(['Settings', 'settings:', ' Settings… ', 'SETTINGS!'].map(sourceIdentity))).toEqual(
      new Set(['settings']),
    );
    expect(sourceIdentity('Bring your passwords from&lt;br /&gt;Google')).toBe(
      sourceIdentity('Bring your passwords from <b>Google</b>'),
    );
    // Words still count: synonyms and other words are other sources.
    expect(sourceIdentity('Cancel')).not.toBe(sourceIdentity('Undo'));
    expect(sourceIdentity('Not a valid date value.')).not.toBe(sourceIdentity('Not a valid week value.'));
  });
});

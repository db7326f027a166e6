// The consistency checks' definitions (src/checks/consistency.ts): they are
// checks like the others for settings and lists, never run on one pair of
// texts (the findings updater computes them: test/api/consistency-findings.test.ts),
// and the plural-key rule that keeps the forms of one message apart.
import { describe, expect, it } from 'vitest';
import { activeChecks, CHECKS, runChecks } from '../../../src/checks/index.js';
import { CONSISTENCY_CHECK_IDS, pluralBase } from '../../../src/checks/consistency.js';

describe('consistency checks', () => {
  it('are listed with the checks, on by default as warnings, and configurable', () => {
    const defined = CHECKS.filter((c) => c.category === 'consistency');
    expect(defined.map((c) => [c.id, c.severity, c.enabled, c.scope])).toEqual([
      ['inconsistent-translation', 'warning', true, 'project'],
      ['ambiguous-translation', 'warning', true, 'project'],
    ]);
    expect(defined.map((c) => c.id)).toEqual(CONSISTENCY_CHECK_IDS);
    expect(activeChecks({ 'ambiguous-translation': 'off' }).map((c) => c.definition.id)).not.toContain('ambiguous-translation');
    expect(activeChecks({ 'inconsistent-translation': 'error' }).find((c) => c.definition.id === 'inconsistent-translation')?.severity).toBe('error');
  });

  it('never run on one pair: the same source and text find nothing there', () => {
    const findings = runChecks({ source: 'Save', target: 'Speichern', sourceLanguage: 'en', targetLanguage: 'de' }, { 'inconsistent-translation': 'error' });
    expect(findings).toEqual([]);
  });

  it('reads a key name\'s plural suffix (i18next, Rails, ordinals), and nothing else', () => {
    expect(['items_one', 'items_few', 'items_many', 'items_other', 'items_zero', 'items_two', 'item_plural', 'place_ordinal_one', 'cart.items.other'].map(pluralBase))
      .toEqual(['items', 'items', 'items', 'items', 'items', 'items', 'item', 'place', 'cart.items']);
    // Words that end like a category are not plural forms.
    expect(['someone', 'another', 'anyone', 'done', 'settings.other_options', 'button_onetime'].map(pluralBase))
      .toEqual(['someone', 'another', 'anyone', 'done', 'settings.other_options', 'button_onetime']);
  });
});

import { describe, expect, it } from 'vitest';
import { codePoints } from '../../../src/mt/batching.js';
import { parseIcu } from '../../../src/mt/icu.js';
import { getProvider, MtValidationError, pseudoLocalize, translateTexts } from '../../../src/mt/index.js';
import { pseudoText } from '../../../src/mt/pseudo.js';

describe('PSEUDO provider', () => {
  it('accents, lengthens and brackets text deterministically', () => {
    expect(pseudoLocalize('Hello world')).toBe('[!!! Ħḗḗŀŀǿǿ ẇǿǿřŀḓ !!!]');
    expect(pseudoLocalize('Hello world')).toBe(pseudoLocalize('Hello world'));
    expect(pseudoText('ABCxyz')).toBe('ȦȦƁƇẋẏẏẑ');
  });

  it('lengthens English text by roughly 30-40 % before the brackets', () => {
    const source = 'The quick brown fox jumps over the lazy dog while the settings page is loading';
    const inner = pseudoLocalize(source).slice('[!!! '.length, -' !!!]'.length);
    const ratio = codePoints(inner) / codePoints(source);
    expect(ratio).toBeGreaterThan(1.25);
    expect(ratio).toBeLessThan(1.45);
  });

  it('maps every ASCII letter to one accented code point', () => {
    for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ') {
      const out = pseudoText(c);
      expect(out).not.toBe(c);
      expect(codePoints(out)).toBe('aeiouyAEIOUY'.includes(c) ? 2 : 1);
    }
  });

  it('keeps placeholders, tags and entities intact', () => {
    expect(pseudoLocalize('Hi {name}, %1$d new <b>messages</b> &amp; {{x}} ${y} %s')).toBe(
      '[!!! Ħīī {name}, %1$d ƞḗḗẇ <b>ḿḗḗşşȧȧɠḗḗş</b> &amp; {{x}} ${y} %s !!!]',
    );
    expect(pseudoLocalize('{count}')).toBe('{count}');
    expect(pseudoLocalize('')).toBe('');
  });

  it('keeps ICU plurals valid, pseudo-localizing each branch', () => {
    const out = pseudoLocalize('{count, plural, one {# file} other {# files}}');
    expect(out).toBe('{count, plural, one {[!!! # ƒīīŀḗḗ !!!]} other {[!!! # ƒīīŀḗḗş !!!]}}');
    expect(parseIcu(out)).not.toBeNull();
  });

  it('works offline through translateTexts and accepts any BCP 47 target', async () => {
    const p = getProvider('PSEUDO');
    const options = p.validateRequest({ targetLanguage: 'en-XA' });
    const { outcomes, stats } = await translateTexts(
      p,
      ['Save', 'Save', '{n, plural, one {# day} other {# days}}'],
      options,
    );
    expect(outcomes).toEqual([
      { ok: true, text: '[!!! Şȧȧṽḗḗ !!!]' },
      { ok: true, text: '[!!! Şȧȧṽḗḗ !!!]' },
      { ok: true, text: '{n, plural, one {[!!! # ḓȧȧẏẏ !!!]} other {[!!! # ḓȧȧẏẏş !!!]}}' },
    ]);
    expect(stats).toMatchObject({ translated: 3, failed: 0, requests: 1 });
    expect(() => p.validateRequest({ targetLanguage: 'not a tag' })).toThrow(/targetLanguage/);
    expect(() => p.validateRequest({ targetLanguage: 'de', formality: 'more' })).toThrow(MtValidationError);
    expect(() => p.validateRequest({ targetLanguage: 'de', glossaryId: 'g' })).toThrow(
      /only supported by MT_PROVIDER_B/,
    );
  });
});

describe('getProvider / translateTexts', () => {
  it('refuses an unknown provider id', () => {
    expect(() => getProvider('MT_PROVIDER_C' as never)).toThrow(/translationProvider "MT_PROVIDER_C"/);
  });

  it('stops when the job is cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(
      translateTexts(getProvider('PSEUDO'), ['Hello'], { targetLanguage: 'de' }, { signal: controller.signal }),
    ).rejects.toThrow('cancelled');
  });

  it('reports progress per request', async () => {
    const progress: number[] = [];
    const texts = Array.from({ length: 1500 }, (_, i) => `Text ${i}`);
    await translateTexts(
      getProvider('PSEUDO'),
      texts,
      { targetLanguage: 'de' },
      { onProgress: (p) => progress.push(p.doneTexts) },
    );
    expect(progress).toEqual([1000, 1500]);
  });
});

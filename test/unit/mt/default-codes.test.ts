// The defaults of a language without auto-translation settings: its key in
// each provider's notation (providerCodeFor) and the instance's provider
// (instanceProvider).
import { describe, expect, it } from 'vitest';
import { providerCodeFor } from '../../../src/mt/languages.js';
import { instanceProvider } from '../../../src/mt/config.js';
import { ConfigError } from '../../../src/config.js';

describe('providerCodeFor', () => {
  it('DeepL targets: the key where listed, an alias, else the base language; undefined when DeepL has none', () => {
    const target = (key: string) => providerCodeFor('MT_PROVIDER_B', key, 'target');
    expect(
      ['de', 'pt-br', 'pt_BR', 'EN-gb', 'en', 'pt', 'zh', 'zh-tw', 'zh_Hant', 'de-AT', 'nn', 'es-419'].map(target),
    ).toEqual([
      'DE',
      'PT-BR',
      'PT-BR',
      'EN-GB',
      'EN-US',
      'PT-PT',
      'ZH-HANS',
      'ZH-HANT',
      'ZH-HANT',
      'DE',
      'NB',
      'ES-419',
    ]);
    expect(target('tlh')).toBeUndefined();
    expect(target('ga')).toBeUndefined();
  });

  it('DeepL sources carry no region', () => {
    const source = (key: string) => providerCodeFor('MT_PROVIDER_B', key, 'source');
    expect(['en', 'en-US', 'pt_BR', 'zh-tw', 'no'].map(source)).toEqual(['EN', 'EN', 'PT', 'ZH', 'NB']);
    expect(source('ga')).toBeUndefined();
  });

  it('Google: its own spelling of the key, an alias, else the base language', () => {
    const code = (key: string) => providerCodeFor('MT_PROVIDER_A', key, 'target');
    expect(['de', 'pt-br', 'PT_pt', 'zh-tw', 'zh-hans', 'fr-ca', 'de-at', 'nb', 'fil'].map(code)).toEqual([
      'de',
      'pt-BR',
      'pt-PT',
      'zh-TW',
      'zh-CN',
      'fr-CA',
      'de',
      'no',
      'fil',
    ]);
    expect(code('tlh')).toBeUndefined();
  });

  it('PSEUDO takes the key as it is, and needs no source code', () => {
    expect(providerCodeFor('PSEUDO', 'pt_BR', 'target')).toBe('pt_BR');
    expect(providerCodeFor('PSEUDO', 'en', 'source')).toBeUndefined();
  });
});

describe('instanceProvider', () => {
  it('MT_DEFAULT_PROVIDER first; else the dedicated provider, then the general one, by whose key is set', () => {
    expect(instanceProvider(new Set(), { MT_DEFAULT_PROVIDER: 'PSEUDO', MT_PROVIDER_B_API_KEY: 'k' })).toBe('PSEUDO');
    expect(instanceProvider(new Set(), { MT_PROVIDER_A_API_KEY: 'a', MT_PROVIDER_B_API_KEY: 'b' })).toBe(
      'MT_PROVIDER_B',
    );
    expect(instanceProvider(new Set(), { MT_PROVIDER_A_API_KEY: 'a' })).toBe('MT_PROVIDER_A');
    expect(instanceProvider(new Set(['MT_PROVIDER_B']), { MT_PROVIDER_A_API_KEY: 'a' })).toBe('MT_PROVIDER_B');
  });

  it('none without any key: PSEUDO is never chosen unasked', () => {
    expect(instanceProvider(new Set(), {})).toBeUndefined();
    expect(instanceProvider(new Set(), { MT_PROVIDER_B_API_KEY: '  ' })).toBeUndefined();
  });

  it('an unknown MT_DEFAULT_PROVIDER is a configuration error', () => {
    expect(() => instanceProvider(new Set(), { MT_DEFAULT_PROVIDER: 'DEEPL' })).toThrow(ConfigError);
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config.js';
import { DEEPL_FREE_URL, DEEPL_PRO_URL, GOOGLE_DEFAULT_URL, resolveCredentials } from '../../../src/mt/config.js';

describe('provider credentials', () => {
  it('defaults to the public endpoints and reads keys from the environment', () => {
    expect(resolveCredentials('MT_PROVIDER_A', { env: {} })).toEqual({
      url: GOOGLE_DEFAULT_URL,
      apiKey: undefined,
      keySource: 'none',
    });
    expect(resolveCredentials('MT_PROVIDER_A', { env: { MT_PROVIDER_A_API_KEY: 'g-key' } })).toEqual({
      url: 'https://translation.googleapis.com',
      apiKey: 'g-key',
      keySource: 'environment',
    });
    expect(resolveCredentials('MT_PROVIDER_B', { env: { MT_PROVIDER_B_API_KEY: 'd-key' } })).toEqual({
      url: DEEPL_PRO_URL,
      apiKey: 'd-key',
      keySource: 'environment',
    });
    expect(resolveCredentials('PSEUDO', { env: {} }).keySource).toBe('none');
  });

  it("prefers the project's key", () => {
    const c = resolveCredentials('MT_PROVIDER_B', {
      projectApiKey: 'project-key',
      env: { MT_PROVIDER_B_API_KEY: 'env-key' },
    });
    expect(c).toMatchObject({ apiKey: 'project-key', keySource: 'project' });
    expect(
      resolveCredentials('MT_PROVIDER_B', { projectApiKey: '  ', env: { MT_PROVIDER_B_API_KEY: 'env-key' } }).keySource,
    ).toBe('environment');
  });

  it('sends DeepL Free keys (":fx") to the free endpoint unless a URL is configured', () => {
    expect(resolveCredentials('MT_PROVIDER_B', { projectApiKey: 'abc:fx', env: {} }).url).toBe(DEEPL_FREE_URL);
    expect(resolveCredentials('MT_PROVIDER_B', { env: { MT_PROVIDER_B_API_KEY: 'abc:fx' } }).url).toBe(DEEPL_FREE_URL);
    expect(
      resolveCredentials('MT_PROVIDER_B', {
        projectApiKey: 'abc:fx',
        env: { MT_PROVIDER_B_URL: 'http://127.0.0.1:9/' },
      }).url,
    ).toBe('http://127.0.0.1:9');
  });

  it('accepts base URLs and full endpoints', () => {
    expect(
      resolveCredentials('MT_PROVIDER_A', { env: { MT_PROVIDER_A_URL: 'http://127.0.0.1:1/language/translate/v2' } })
        .url,
    ).toBe('http://127.0.0.1:1');
    expect(
      resolveCredentials('MT_PROVIDER_B', { env: { MT_PROVIDER_B_URL: 'http://127.0.0.1:2/v2/translate' } }).url,
    ).toBe('http://127.0.0.1:2');
    expect(resolveCredentials('MT_PROVIDER_B', { env: { MT_PROVIDER_B_URL: 'http://127.0.0.1:2/v2' } }).url).toBe(
      'http://127.0.0.1:2',
    );
  });

  it('refuses bad URLs with a message naming the variable', () => {
    expect(() => resolveCredentials('MT_PROVIDER_A', { env: { MT_PROVIDER_A_URL: 'nope' } })).toThrow(ConfigError);
    expect(() => resolveCredentials('MT_PROVIDER_B', { env: { MT_PROVIDER_B_URL: 'ftp://x' } })).toThrow(
      /MT_PROVIDER_B_URL must use http/,
    );
  });
});

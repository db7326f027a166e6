// The pure rules of the change history: the source of a request, webhook
// triggers of each change, and the retry schedule.
import { describe, expect, it } from 'vitest';
import { sourceOfRequest } from '../../src/content/origin.js';
import { triggerOf } from '../../src/content/changes.js';
import { retryDelay } from '../../src/webhooks/dispatcher.js';
import { signature, verifySignature } from '../../src/webhooks/signature.js';
import { openSecret, sealSecret } from '../../src/webhooks/secret-store.js';
import { useSecretKey } from '../../src/auth/sealed-secrets.js';
import { randomBytes } from 'node:crypto';

describe('change sources', () => {
  it('tells the API, the CLI, GraphQL and the console apart', () => {
    expect(sourceOfRequest({ rest: true, url: '/api/v2/translations' })).toBe('API');
    expect(sourceOfRequest({ rest: true, url: '/cli/v2/upload?uploadFormat=x' })).toBe('CLI');
    expect(sourceOfRequest({ rest: true, url: '/api/v1/translations/purge?source=CLI' })).toBe('CLI');
    expect(sourceOfRequest({ rest: true, url: '/api/v2/project', cliVersionHeader: '2.11.0' })).toBe('CLI');
    // The path as a URL parser reads it: without a query, with dot segments, backslashes or in absolute form.
    expect(sourceOfRequest({ rest: true, url: '/cli/v2/upload' })).toBe('CLI');
    expect(sourceOfRequest({ rest: true, url: '/api/v1/../../cli/v2/download' })).toBe('CLI');
    expect(sourceOfRequest({ rest: true, url: '/api\\..\\cli/v2/download' })).toBe('CLI');
    expect(sourceOfRequest({ rest: true, url: 'http://localhost:8080/cli/v2/download' })).toBe('CLI');
    expect(sourceOfRequest({ rest: true, url: '/api/v1/languages' })).toBe('API');
    expect(sourceOfRequest({ rest: true, url: '/api/v1/translations?source=api' })).toBe('API');
    expect(sourceOfRequest({ rest: false, url: '/graphql' })).toBe('GRAPHQL');
    expect(sourceOfRequest({ rest: false, url: '/graphql', sourceHeader: 'web' })).toBe('WEB');
    expect(sourceOfRequest({ rest: true, url: '/api/v2/translations', principalScheme: 'session' })).toBe('WEB');
  });
});

describe('webhook triggers', () => {
  it('maps each kind of change to its trigger', () => {
    expect(triggerOf('TRANSLATIONS', {})).toBe('CHANGE');
    expect(triggerOf('KEYS', {})).toBe('CHANGE');
    expect(triggerOf('IMPORT', {})).toBe('IMPORT');
    expect(triggerOf('PUBLICATION', { environment: '_latest' })).toBe('PUBLICATION');
    expect(triggerOf('PUBLICATION', { environment: '_production' })).toBe('ENVIRONMENT_PUBLICATION');
    expect(triggerOf('JOB_FINISHED', { state: 'SUCCESS' })).toBe('AUTO_TRANSLATION_SUCCESS');
    expect(triggerOf('JOB_FINISHED', { state: 'FAILED' })).toBeNull();
    expect(triggerOf('SETTINGS', {})).toBeNull();
    expect(triggerOf('REVERT', {})).toBe('REVERT');
  });
});

describe('webhook delivery', () => {
  it('doubles the retry delay up to an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 10_000))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(retryDelay(30, 10_000)).toBe(3_600_000);
  });

  it('signs timestamp and body; seals secrets so that only opening gives them back', () => {
    const body = '{"trigger":"TEST"}';
    const sig = signature('whsec_a', 1_700_000_000, body);
    expect(sig).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verifySignature('whsec_a', { timestamp: '1700000000', signature: sig }, body, { now: 1_700_000_100 })).toBe(
      true,
    );
    expect(verifySignature('whsec_a', { timestamp: '1700000001', signature: sig }, body, { now: 1_700_000_100 })).toBe(
      false,
    );
    useSecretKey(randomBytes(32));
    const sealed = sealSecret('whsec_a', 7);
    expect(sealed).not.toContain('whsec_a');
    expect(sealSecret('whsec_a', 7)).not.toBe(sealed);
    expect(openSecret(sealed, 7)).toBe('whsec_a');
    // Bound to its project: the same value under another project's webhook does not open.
    expect(() => openSecret(sealed, 8)).toThrow(/does not open/);
  });
});

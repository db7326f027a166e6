// Pure parts of hosting: the publication order's sources, resource paths and
// links, content negotiation of the CDN route, and storage configuration.
import { describe, expect, it } from 'vitest';
import { sourceOf } from '../../src/hosting/environments.js';
import { linkOf, objectKey, paths } from '../../src/hosting/layout.js';
import { acceptedEncodings, cacheControlFor, cdnBasePath } from '../../src/http/cdn.js';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('publication order', () => {
  const order = ['_latest', 'staging', '_production', 'qa'];
  it('gives each environment its source', () => {
    expect(sourceOf('_latest', order)).toBe('editor');
    expect(sourceOf('_production', order)).toBe('_latest');
    expect(sourceOf('staging', order)).toBe('_latest');
    expect(sourceOf('qa', order)).toBe('_production');
  });
});

describe('resource paths and links', () => {
  it('encodes each segment of a link', () => {
    expect(
      linkOf('tok', '_latest', { path: paths.namespace('en', 'my ns/x'), language: 'en', namespace: 'my ns/x' }),
    ).toBe('tok/_latest/en/my%20ns%2Fx');
    expect(
      linkOf('tok', 'qa', { path: paths.customerLanguage('pt-BR', 'acme'), language: 'pt-BR', customer: 'acme' }),
    ).toBe('tok/qa/pt-BR_acme');
    expect(linkOf('tok', '_production', { path: paths.customerIndex('acme') })).toBe('tok/_production/_index_acme');
  });

  it('stores objects by version and content hash', () => {
    expect(objectKey('tok', '_latest', 'v1', 'abc')).toBe('tok/_latest/.versions/v1/abc.json');
    expect(objectKey('tok', '_latest', 'v1', 'abc', 'gzip')).toBe('tok/_latest/.versions/v1/abc.json.gz');
    expect(objectKey('tok', '_latest', 'v1', 'abc', 'br')).toBe('tok/_latest/.versions/v1/abc.json.br');
  });
});

describe('CDN negotiation', () => {
  it('reads Accept-Encoding with q-values and wildcards', () => {
    expect([...acceptedEncodings('gzip, deflate, br')]).toEqual(['gzip', 'deflate', 'br']);
    expect([...acceptedEncodings('br;q=0, gzip;q=0.5')]).toEqual(['gzip']);
    expect([...acceptedEncodings('*')].sort()).toEqual(['br', 'gzip']);
    expect([...acceptedEncodings(undefined)]).toEqual([]);
  });

  it('caches _latest for revalidation and other environments for five minutes', () => {
    expect(cacheControlFor('_latest')).toBe('public, no-cache');
    expect(cacheControlFor('_production')).toBe('public, max-age=300, must-revalidate');
    expect(cacheControlFor('staging')).toBe('public, max-age=300, must-revalidate');
  });

  it('serves at the path of CDN_URL, or /cdn when it has none', () => {
    expect(cdnBasePath('http://localhost:8080/cdn')).toBe('/cdn');
    expect(cdnBasePath('https://example.com/static/i18n/')).toBe('/static/i18n');
    expect(cdnBasePath('https://cdn.example.com')).toBe('/cdn');
  });
});

describe('storage configuration', () => {
  it('defaults to the local disk under DATA_DIR/cdn', () => {
    expect(loadConfig({ DATA_DIR: '/var/lib/l10n' }).storage).toEqual({ kind: 'local', dir: '/var/lib/l10n/cdn' });
  });

  it('uses an S3-compatible bucket when S3_BUCKET is set', () => {
    expect(loadConfig({ S3_BUCKET: 'my-bucket' }).storage).toEqual({
      kind: 's3',
      bucket: 'my-bucket',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      accessKeyId: undefined,
      secretAccessKey: undefined,
      prefix: '',
    });
    expect(
      loadConfig({
        S3_BUCKET: 'b12',
        S3_ENDPOINT: 'http://127.0.0.1:9000/',
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_PREFIX: '/cdn/files/',
      }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'b12',
      region: 'eu-west-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      prefix: 'cdn/files/',
    });
    expect(
      loadConfig({ S3_BUCKET: 'b12', S3_ENDPOINT: 'https://s3.example.com', S3_FORCE_PATH_STYLE: 'false' }).storage,
    ).toMatchObject({ forcePathStyle: false });
  });

  it.each([
    [{ S3_ENDPOINT: 'http://x' }, /S3_ENDPOINT needs S3_BUCKET/],
    [{ S3_BUCKET: 'Bad_Bucket' }, /S3_BUCKET must be a bucket name/],
    [{ S3_BUCKET: 'b12', S3_ACCESS_KEY_ID: 'id' }, /given together/],
    [{ S3_BUCKET: 'b12', S3_ENDPOINT: 'ftp://x' }, /S3_ENDPOINT must use http/],
    [{ S3_BUCKET: 'b12', S3_FORCE_PATH_STYLE: 'yes' }, /S3_FORCE_PATH_STYLE must be true or false/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

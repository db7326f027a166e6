// Hosting on S3-compatible object storage (s3rver on loopback): the same
// publication flow, the files in the bucket under the configured prefix, the
// CDN route serving them, old versions collected, and a failed publish
// cleaned up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { projectIdOf, seedTranslations } from '../support/content.js';
import { startFakeS3, type FakeS3 } from '../support/fake-s3.js';
import { publishEnvironment } from '../../src/hosting/publish.js';
import { exportFiles, pathOf } from '../support/transfer.js';

let s3: FakeS3;
let client: S3Client;
let service: TestService;
let apiKey: string;
let projectToken: string;

const publish = (environmentKey: string) =>
  service.request({
    method: 'POST',
    url: `/api/v2/environments/${environmentKey}/publish`,
    headers: { 'x-service-token': apiKey },
  });
const cdn = (path: string, headers: Record<string, string> = {}) => service.request({ url: `/cdn/${path}`, headers });

async function keys(prefix: string): Promise<string[]> {
  const out: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix, ContinuationToken: token }),
    );
    out.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return out.sort();
}
const versionsIn = async (environmentKey: string) =>
  [...new Set((await keys(`l10n/${projectToken}/${environmentKey}/.versions/`)).map((k) => k.split('/')[4]))].sort();

beforeAll(async () => {
  s3 = await startFakeS3();
  client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  service = await startTestService({
    worker: false,
    env: {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_PREFIX: 'l10n',
    },
  });
  ({ apiKey, projectToken } = await (await service.account()).project('s3'));
  const en: Record<string, string> = {};
  for (let i = 0; i < 100; i++) en[`key.${i}`] = `English text number ${i}, long enough to be worth compressing`;
  await seedTranslations(service.db, { projectToken, translations: { en, de: { 'key.0': 'Deutscher Text' } } });
  await seedTranslations(service.db, {
    projectToken,
    namespace: 'common',
    translations: { en: { ok: 'OK' }, de: { ok: 'OK' } },
  });
});
afterAll(async () => {
  await service?.close();
  client?.destroy();
  await s3?.close();
});

describe('S3-compatible storage', () => {
  it('is the configured storage', () => {
    expect(service.config.storage).toMatchObject({
      kind: 's3',
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      prefix: 'l10n/',
    });
  });

  it('publishes _latest and _production into the bucket and serves them', async () => {
    expect((await publish('_latest')).statusCode).toBe(200);
    expect((await publish('_production')).statusCode).toBe(200);
    const stored = await keys(`l10n/${projectToken}/`);
    expect(stored.length).toBeGreaterThan(0);
    expect(
      stored.every((k) =>
        /^l10n\/[0-9a-f]+\/(_latest|_production)\/\.versions\/[0-9a-z]+-[0-9a-f]{8}\/[0-9a-f]{32}\.json(\.gz|\.br)?$/.test(
          k,
        ),
      ),
    ).toBe(true);
    expect(stored.some((k) => k.endsWith('.json.br'))).toBe(true);

    const en = await cdn(`${projectToken}/_production/en`);
    expect(en.statusCode).toBe(200);
    expect(en.json()['key.99']).toBe('English text number 99, long enough to be worth compressing');
    expect(en.json().common).toEqual({ ok: 'OK' });
    const gz = await cdn(`${projectToken}/_latest/en`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect((await cdn(`${projectToken}/_latest/de/common`)).json()).toEqual({ ok: 'OK' });
    expect((await cdn(`${projectToken}/_latest/en`, { 'if-none-match': en.headers.etag as string })).statusCode).toBe(
      304,
    );
    expect((await cdn(`${projectToken}/_latest/xx`)).statusCode).toBe(404);

    const status = envelope(
      await service.request({ url: '/api/v2/environments/_production', headers: { 'x-service-token': apiKey } }),
    ).data;
    expect(status).toMatchObject({ numberOfKeys: 101, numberOfLanguages: 2, numberOfNonEmptyTranslations: 103 });
  });

  it('keeps two versions per environment in the bucket', async () => {
    for (let i = 0; i < 3; i++) expect((await publish('_latest')).statusCode).toBe(200);
    expect(await versionsIn('_latest')).toHaveLength(2);
    expect(await versionsIn('_production')).toHaveLength(1);
  });

  it('removes the objects of a failed publication and keeps serving the previous one', async () => {
    const before = await versionsIn('_latest');
    const projectId = await projectIdOf(service.db, projectToken);
    await expect(
      publishEnvironment({
        projectId,
        environmentKey: '_latest',
        hooks: {
          afterResource: (done) => {
            if (done === 2) throw new Error('network down (simulated)');
          },
        },
      }),
    ).rejects.toThrow('network down');
    expect(await versionsIn('_latest')).toEqual(before);
    expect((await cdn(`${projectToken}/_latest/de`)).json()).toMatchObject({ 'key.0': 'Deutscher Text' });
  });

  it('stores export files in the bucket under exports/, streamed from their temp files, and serves their downloads', async () => {
    const files = await exportFiles(service, apiKey, {
      downloadFormat: 'single-language-json',
      downloadOptions: 'SPLIT_BY_NAMESPACES,WRITE_NESTED',
    });
    const en = files.find((f) => f.language === 'en' && f.namespace === '')!;
    expect(JSON.parse(en.content.toString('utf8')).key['42']).toBe(
      'English text number 42, long enough to be worth compressing',
    );
    expect(files.find((f) => f.language === 'de' && f.namespace === 'common')!.content.toString('utf8')).toBe(
      '{\n  "ok": "OK"\n}\n',
    );
    const stored = await keys('l10n/exports/');
    expect(stored).toHaveLength(files.length);
    for (const file of files) expect(stored).toContain(`l10n/exports/${pathOf(file.url).split('/')[2]}/file`);
  });
});

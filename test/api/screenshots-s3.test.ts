// Screenshots on S3-compatible storage (s3rver on loopback): stored in the
// service's bucket under `screenshots/` beside the published files, served
// from there, and gone from the bucket when the last key marked on them, the
// screenshot itself or its project is deleted: no orphan objects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { envelope, startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { startFakeS3, type FakeS3 } from '../support/fake-s3.js';
import { screenshotBytes, uploadRest, corpusScreenshotsPresent } from '../support/screenshots.js';

let s3: FakeS3;
let client: S3Client;
let service: TestService;
let owner: TestAccount;
let api: ProjectApi;

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

async function upload(project: ProjectApi, file: string) {
  const res = await uploadRest(service, project.apiKey, screenshotBytes(file), file);
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return envelope(res).data;
}
const folderOf = async (id: number) =>
  `l10n/screenshots/${(await service.db.prisma.screenshot.findUniqueOrThrow({ where: { id } })).storageFolder}`;

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
  owner = await service.account();
  api = await projectApi(service, owner, 'S3 screenshots');
  expect(
    (
      await api.post('/api/v1/translations', {
        content: [
          { key: 'title', language: 'en', text: 'Statistics' },
          { key: 'other', language: 'en', text: 'Other' },
        ],
      })
    ).status,
  ).toBe(200);
});
afterAll(async () => {
  await service?.close();
  client?.destroy();
  await s3?.close();
});

describe.skipIf(!corpusScreenshotsPresent)('screenshots on S3', () => {
  it('stores the image and thumbnail in the bucket and serves them from there', async () => {
    const bytes = screenshotBytes('simplytranslate-mobile_en-US_phoneScreenshots_3.webp');
    const shot = await upload(api, 'simplytranslate-mobile_en-US_phoneScreenshots_3.webp');
    const folder = await folderOf(shot.id);
    expect(await keys(folder)).toEqual([`${folder}image`, `${folder}thumbnail`]);
    const image = await service.request({ url: shot.imagePath, headers: { 'x-service-token': api.apiKey } });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.rawPayload.equals(bytes)).toBe(true);
  });

  it('refuses a hostile file with nothing written to the bucket', async () => {
    const before = await keys('l10n/screenshots/');
    const jpeg = screenshotBytes('okapi_ratelandrainbow1.jpg');
    const res = await uploadRest(
      service,
      api.apiKey,
      Buffer.concat([jpeg, Buffer.from('PK\u0003\u0004 and the rest of a zip')]),
      'trailing.jpg',
    );
    expect(res.statusCode).toBe(400);
    expect(await keys('l10n/screenshots/')).toEqual(before);
  });

  it('deleting a key removes the screenshots only it was marked on from the bucket', async () => {
    const only = await upload(api, 'aves_ar_phoneScreenshots_5.png');
    const shared = await upload(api, 'aves_ja_phoneScreenshots_5.png');
    for (const [id, key] of [
      [only.id, 'title'],
      [shared.id, 'title'],
      [shared.id, 'other'],
    ] as const) {
      expect(
        (await api.post(`/api/v2/screenshots/${id}/links`, { key, x: 0, y: 0, width: 10, height: 10 })).status,
      ).toBe(200);
    }
    const [onlyFolder, sharedFolder] = [await folderOf(only.id), await folderOf(shared.id)];
    expect(await keys(onlyFolder)).toHaveLength(2);
    expect((await api.delete('/api/v1/translation-keys?key=title')).status).toBe(200);
    expect(await keys(onlyFolder)).toEqual([]);
    expect(await keys(sharedFolder)).toHaveLength(2);
    expect(await service.db.prisma.screenshotDeletion.count()).toBe(0);
  });

  it('deleting a screenshot and deleting the project leave no object behind', async () => {
    const shot = await upload(api, 'pontoon_tm_tab.png');
    const folder = await folderOf(shot.id);
    expect((await api.delete(`/api/v2/screenshots/${shot.id}`)).status).toBe(200);
    expect(await keys(folder)).toEqual([]);

    const { id: projectId } = await service.db.prisma.project.findUniqueOrThrow({
      where: { projectToken: api.projectToken },
    });
    expect((await keys(`l10n/screenshots/${projectId}/`)).length).toBeGreaterThan(0);
    const res = await service.request({
      method: 'DELETE',
      url: `/api/v2/projects/${api.projectToken}`,
      headers: { authorization: owner.token },
    });
    expect(res.statusCode).toBe(200);
    expect(await keys(`l10n/screenshots/${projectId}/`)).toEqual([]);
    expect(await keys('l10n/screenshots/')).toEqual([]);
    expect(await service.db.prisma.screenshotDeletion.count()).toBe(0);
  });
});

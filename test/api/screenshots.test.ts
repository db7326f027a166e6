// Screenshots on the local storage: real screenshots (PNG, JPEG, WebP from the
// corpus) uploaded over REST and GraphQL, checked, thumbnailed and served to
// those who may read the project; hostile files (a decompression bomb, a
// truncated JPEG, a PNG+zip polyglot, text named .png) refused with 4xx and
// nothing stored; keys marked with rectangles, shown on the key and in the
// editor's filter; deleting keys and projects leaves no image behind.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { importRequest } from '../support/transfer.js';
import {
  bombPng,
  CORPUS_SCREENSHOTS,
  pngZipPolyglot,
  screenshotBytes,
  uploadGraphQL,
  uploadRest,
  corpusScreenshotsPresent,
} from '../support/screenshots.js';
import { checkImage } from '../../src/screenshots/image.js';

let service: TestService;
let owner: TestAccount;
let api: ProjectApi;
let other: ProjectApi;
let projectId: number;

async function storedFiles(): Promise<string[]> {
  const root = join(service.config.dataDir, 'screenshots');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .sort();
}
const rows = () => service.db.prisma.screenshot.count();
const queued = () => service.db.prisma.screenshotDeletion.count();

function uploadOk(content: Buffer, fileName: string, key = api.apiKey) {
  return uploadRest(service, key, content, fileName).then((res) => {
    if (res.statusCode !== 200) throw new Error(`upload of ${fileName} failed: ${res.statusCode} ${res.body}`);
    return envelope(res).data;
  });
}

beforeAll(async () => {
  service = await startTestService();
  owner = await service.account();
  api = await projectApi(service, owner, 'Screenshots');
  other = await projectApi(service, await service.account(), 'Other project');
  projectId = (await service.db.prisma.project.findUniqueOrThrow({ where: { projectToken: api.projectToken } })).id;
  expect(
    (
      await api.post('/api/v1/translations', {
        content: [
          { key: 'title', language: 'en', text: 'Statistics' },
          { key: 'countries', language: 'en', text: 'Top countries' },
          { key: 'save', namespace: 'common', language: 'en', text: 'Save' },
          { key: 'plain', language: 'en', text: 'No screenshot' },
        ],
      })
    ).status,
  ).toBe(200);
  expect(
    (await other.post('/api/v1/translations', { content: [{ key: 'title', language: 'en', text: 'Elsewhere' }] }))
      .status,
  ).toBe(200);
});

afterAll(async () => {
  await service?.close();
});

describe.skipIf(!corpusScreenshotsPresent)('uploading real screenshots', () => {
  it.each(CORPUS_SCREENSHOTS)(
    'stores $file with its size, type and a WebP thumbnail, and serves both',
    async (expected) => {
      const bytes = screenshotBytes(expected.file);
      const before = await storedFiles();
      const shot = await uploadOk(bytes, expected.file);
      expect(shot).toMatchObject({
        name: expected.file,
        mimeType: expected.mimeType,
        width: expected.width,
        height: expected.height,
        size: bytes.length,
        links: [],
        uploadedBy: null,
      });
      expect(Math.max(shot.thumbnailWidth, shot.thumbnailHeight)).toBeLessThanOrEqual(400);
      // The thumbnail keeps the aspect ratio (within a pixel of rounding).
      expect(Math.abs(shot.thumbnailWidth / shot.thumbnailHeight - expected.width / expected.height)).toBeLessThan(
        0.01 * (expected.width / expected.height) + 1 / shot.thumbnailHeight,
      );

      const image = await service.request({ url: shot.imagePath, headers: { 'x-service-token': api.apiKey } });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe(expected.mimeType);
      expect(image.headers['x-content-type-options']).toBe('nosniff');
      expect(image.headers['content-security-policy']).toContain("default-src 'none'");
      expect(image.rawPayload.equals(bytes)).toBe(true);

      const thumbnail = await service.request({ url: shot.thumbnailPath, headers: { 'x-service-token': api.apiKey } });
      expect(thumbnail.statusCode).toBe(200);
      expect(thumbnail.headers['content-type']).toBe('image/webp');
      const meta = await sharp(thumbnail.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: shot.thumbnailWidth, height: shot.thumbnailHeight });

      const added = (await storedFiles()).filter((f) => !before.includes(f));
      expect(added.map((f) => f.split('/').pop()).sort()).toEqual(['image', 'thumbnail']);
      expect(added.every((f) => f.startsWith(`${projectId}/`))).toBe(true);
    },
  );

  it('takes an upload over GraphQL multipart with a personal token, recording the uploader', async () => {
    const answer = await uploadGraphQL(
      service,
      { authorization: owner.token },
      screenshotBytes('aves_ja_phoneScreenshots_5.png'),
      'statistics-ja.png',
      api.projectToken,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data.uploadScreenshot).toMatchObject({
      name: 'statistics-ja.png',
      mimeType: 'image/png',
      width: 350,
      height: 817,
    });
    const { data } = await api.gql('query ($id: Int!) { screenshot(id: $id) { uploadedBy } }', {
      id: answer.data.uploadScreenshot.id,
    });
    expect(data.screenshot.uploadedBy).toBe(owner.email);
  });

  it('gives the size of a JPEG as shown, its EXIF orientation applied', async () => {
    // 120 × 40 pixels stored, orientation 6 (rotate 90° clockwise to show): shown 40 × 120.
    const jpeg = await sharp({ create: { width: 120, height: 40, channels: 3, background: '#3366aa' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await sharp(jpeg).metadata()).toMatchObject({ width: 120, height: 40, orientation: 6 });
    const shot = await uploadOk(jpeg, 'rotated.jpg');
    expect(shot).toMatchObject({
      mimeType: 'image/jpeg',
      width: 40,
      height: 120,
      thumbnailWidth: 40,
      thumbnailHeight: 120,
    });
    expect(
      (await api.post(`/api/v2/screenshots/${shot.id}/links`, { key: 'title', x: 0, y: 100, width: 40, height: 20 }))
        .status,
    ).toBe(200);
    expect((await api.delete(`/api/v2/screenshots/${shot.id}`)).status).toBe(200);
  });

  it('lists the screenshots newest first', async () => {
    const list = envelope(
      await service.request({ url: '/api/v2/screenshots', headers: { 'x-service-token': api.apiKey } }),
    ).data;
    expect(list.totalCount).toBe(CORPUS_SCREENSHOTS.length + 1);
    expect(list.screenshots[0].name).toBe('statistics-ja.png');
    expect(list.screenshots.map((s: any) => s.id)).toEqual(
      [...list.screenshots.map((s: any) => s.id)].sort((a: number, b: number) => b - a),
    );
  });
});

describe.skipIf(!corpusScreenshotsPresent)('refusing what is not really an image', () => {
  const hostile: { name: string; make: () => Buffer | Promise<Buffer>; status: number; message: RegExp }[] = [
    {
      name: 'bomb.png',
      make: () => bombPng(8000),
      status: 413,
      message: /8000 × 8000 = 64000000 pixels, more than 40000000 \(SCREENSHOT_MAX_PIXELS\)/,
    },
    { name: 'huge-header.png', make: () => bombPng(100_000, 1), status: 413, message: /100000 × 100000/ },
    {
      name: 'truncated.jpg',
      make: () => {
        const b = screenshotBytes('okapi_ratelandrainbow1.jpg');
        return b.subarray(0, Math.floor(b.length / 2));
      },
      status: 400,
      message: /JPEG image is truncated/,
    },
    {
      name: 'truncated.png',
      make: () => {
        const b = screenshotBytes('pontoon_tm_tab.png');
        return b.subarray(0, b.length - 1000);
      },
      status: 400,
      message: /PNG image is truncated/,
    },
    {
      name: 'polyglot.png',
      make: pngZipPolyglot,
      status: 400,
      message: /after the end of the PNG image \(a polyglot file\)/,
    },
    {
      name: 'notes.png',
      make: () => Buffer.from('This is a text file, not an image.\n'),
      status: 400,
      message: /not a PNG, JPEG or WebP image/,
    },
    {
      name: 'page.webp',
      make: () => Buffer.from('<html><script>alert(1)</script></html>'),
      status: 400,
      message: /not a PNG, JPEG or WebP image/,
    },
    { name: 'empty.png', make: () => Buffer.alloc(0), status: 400, message: /empty/ },
  ];

  it.each(hostile)('refuses $name with $status and stores nothing', async ({ name, make, status, message }) => {
    const [filesBefore, rowsBefore] = [await storedFiles(), await rows()];
    const res = await uploadRest(service, api.apiKey, await make(), name, 'image/png');
    expect(res.statusCode).toBe(status);
    expect(envelope(res).msg).toMatch(message);
    expect(await storedFiles()).toEqual(filesBefore);
    expect(await rows()).toBe(rowsBefore);
    expect(await queued()).toBe(0);
  });

  it('refuses the same over GraphQL with the error code', async () => {
    const answer = await uploadGraphQL(
      service,
      { 'x-service-token': api.apiKey },
      await pngZipPolyglot(),
      'polyglot.png',
    );
    expect(answer.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/polyglot/),
      extensions: { code: 'BAD_REQUEST' },
    });
  });

  it('holds the byte limit, and sharp holds the pixel limit for an image whose header passed', async () => {
    const png = screenshotBytes('pontoon_tm_tab.png');
    await expect(checkImage(png, { maxBytes: 1000, maxPixels: 40_000_000 })).rejects.toMatchObject({
      extensions: { code: 'PAYLOAD_TOO_LARGE' },
    });
    await expect(checkImage(png, { maxBytes: 10_000_000, maxPixels: 1_000_000 })).rejects.toMatchObject({
      extensions: { code: 'PAYLOAD_TOO_LARGE' },
    });
    const checked = await checkImage(png, { maxBytes: 10_000_000, maxPixels: 2054 * 1118 });
    expect(checked).toMatchObject({ mimeType: 'image/png', width: 2054, height: 1118 });
  });
});

describe.skipIf(!corpusScreenshotsPresent)('marking keys on screenshots', () => {
  let shot: any;
  let second: any;
  const LINK = 'id x y width height key { key namespace }';

  beforeAll(async () => {
    shot = await uploadOk(screenshotBytes('aves_ar_phoneScreenshots_5.png'), 'stats-ar.png');
    second = await uploadOk(screenshotBytes('aves_ja_phoneScreenshots_5.png'), 'stats-ja.png');
  });

  it('links keys with rectangles over GraphQL and REST; a key shows its screenshots', async () => {
    const linked = await api.gql(
      `mutation ($id: Int!) { linkScreenshotKey(screenshotId: $id, key: "title", rectangle: {x: 10, y: 40, width: 120, height: 30}) { ${LINK} } }`,
      { id: shot.id },
    );
    expect(linked.errors).toBeUndefined();
    expect(linked.data.linkScreenshotKey).toMatchObject({
      x: 10,
      y: 40,
      width: 120,
      height: 30,
      key: { key: 'title', namespace: '' },
    });
    const rest = await api.post(`/api/v2/screenshots/${shot.id}/links`, {
      key: 'save',
      namespace: 'common',
      x: 0,
      y: 780,
      width: 350,
      height: 37,
    });
    expect(rest.status).toBe(200);
    expect(rest.data).toMatchObject({
      x: 0,
      y: 780,
      width: 350,
      height: 37,
      key: { key: 'save', namespace: 'common' },
    });
    expect(
      (await api.post(`/api/v2/screenshots/${second.id}/links`, { key: 'title', x: 5, y: 5, width: 50, height: 20 }))
        .status,
    ).toBe(200);

    const { data } = await api.gql(
      '{ translationKey(key: "title") { screenshots { x y screenshot { id name thumbnailPath } } } }',
    );
    expect(data.translationKey.screenshots).toEqual([
      {
        x: 10,
        y: 40,
        screenshot: { id: shot.id, name: 'stats-ar.png', thumbnailPath: `/api/v2/screenshots/${shot.id}/thumbnail` },
      },
      {
        x: 5,
        y: 5,
        screenshot: {
          id: second.id,
          name: 'stats-ja.png',
          thumbnailPath: `/api/v2/screenshots/${second.id}/thumbnail`,
        },
      },
    ]);
    const one = envelope(
      await service.request({ url: `/api/v2/screenshots/${shot.id}`, headers: { 'x-service-token': api.apiKey } }),
    ).data;
    expect(one.links.map((l: any) => l.key.key)).toEqual(['title', 'save']);
  });

  it('refuses rectangles outside the image, bad numbers and unknown keys', async () => {
    const outside = await api.post(`/api/v2/screenshots/${shot.id}/links`, {
      key: 'title',
      x: 300,
      y: 0,
      width: 100,
      height: 10,
    });
    expect(outside).toMatchObject({ status: 400, msg: expect.stringMatching(/reaches outside the 350 × 817 image/) });
    expect(
      (await api.post(`/api/v2/screenshots/${shot.id}/links`, { key: 'title', x: -1, y: 0, width: 10, height: 10 }))
        .status,
    ).toBe(400);
    expect(
      (await api.post(`/api/v2/screenshots/${shot.id}/links`, { key: 'title', x: 0, y: 0, width: 0, height: 10 }))
        .status,
    ).toBe(400);
    expect(
      (await api.post(`/api/v2/screenshots/${shot.id}/links`, { key: 'title', x: 0, y: 0, width: 'wide', height: 10 }))
        .status,
    ).toBe(400);
    expect(
      (await api.post(`/api/v2/screenshots/${shot.id}/links`, { key: 'missing', x: 0, y: 0, width: 10, height: 10 }))
        .status,
    ).toBe(404);
    expect(
      (await api.post(`/api/v2/screenshots/999999/links`, { key: 'title', x: 0, y: 0, width: 10, height: 10 })).status,
    ).toBe(404);
  });

  it('moves a rectangle, gives it another key, and unlinks it', async () => {
    const { data } = await api.gql(
      `mutation ($id: Int!) { linkScreenshotKey(screenshotId: $id, key: "countries", rectangle: {x: 0, y: 100, width: 200, height: 40}) { id } }`,
      { id: shot.id },
    );
    const linkId = data.linkScreenshotKey.id;
    // The path names the screenshot: a link of another screenshot is not found there.
    expect(
      (await api.patch(`/api/v2/screenshots/${second.id}/links/${linkId}`, { x: 20, y: 120, width: 180, height: 40 }))
        .status,
    ).toBe(404);
    expect((await api.delete(`/api/v2/screenshots/${second.id}/links/${linkId}`)).status).toBe(404);
    const moved = await api.patch(`/api/v2/screenshots/${shot.id}/links/${linkId}`, {
      x: 20,
      y: 120,
      width: 180,
      height: 40,
    });
    expect(moved).toMatchObject({
      status: 200,
      data: { x: 20, y: 120, width: 180, height: 40, key: { key: 'countries' } },
    });
    const outside = await api.gql(
      `mutation ($id: Int!) { updateScreenshotLink(linkId: $id, rectangle: {x: 300, y: 0, width: 100, height: 10}) { id } }`,
      { id: linkId },
    );
    expect(outside.errors?.[0].extensions.code).toBe('BAD_REQUEST');
    const rekeyed = await api.gql(
      `mutation ($id: Int!) { updateScreenshotLink(linkId: $id, key: "title") { ${LINK} } }`,
      { id: linkId },
    );
    expect(rekeyed.data.updateScreenshotLink).toMatchObject({ x: 20, y: 120, key: { key: 'title' } });
    expect((await api.delete(`/api/v2/screenshots/${shot.id}/links/${linkId}`)).status).toBe(200);
    expect(await service.db.prisma.keyScreenshot.count({ where: { id: linkId } })).toBe(0);
    expect(await service.db.prisma.screenshot.count({ where: { id: shot.id } })).toBe(1);
  });

  it("filters the editor's keys with and without a screenshot", async () => {
    const rowsOf = async (screenshots: boolean) => {
      const { data, errors } = await api.gql(
        'query ($f: EditorFilter) { editorRows(filter: $f) { totalCount keys { key } } }',
        { f: { screenshots } },
      );
      expect(errors).toBeUndefined();
      return data.editorRows.keys.map((k: any) => k.key);
    };
    expect(await rowsOf(true)).toEqual(['title', 'save']);
    expect(await rowsOf(false)).toEqual(['countries', 'plain']);
  });

  it('lists screenshots with and without marked keys', async () => {
    const { data } = await api.gql(
      '{ with: screenshots(linked: true) { totalCount } without: screenshots(linked: false) { totalCount } all: screenshots { totalCount } }',
    );
    expect(data.with.totalCount).toBe(2);
    expect(data.with.totalCount + data.without.totalCount).toBe(data.all.totalCount);
  });
});

describe.skipIf(!corpusScreenshotsPresent)('who may see and change screenshots', () => {
  let shot: any;
  let viewer: TestAccount;
  let translator: TestAccount;

  beforeAll(async () => {
    shot = await uploadOk(screenshotBytes('aves_ar_phoneScreenshots_5.png'), 'private.png');
    viewer = await service.account();
    translator = await service.account();
    await service.db.prisma.projectMember.createMany({
      data: [
        { projectId, accountId: viewer.id, role: 'VIEWER' },
        { projectId, accountId: translator.id, role: 'TRANSLATOR' },
      ],
    });
  });

  it("refuses another project's API key, for the data and the bytes", async () => {
    const res = await service.request({
      url: `/api/v2/screenshots/${shot.id}`,
      headers: { 'x-service-token': other.apiKey },
    });
    expect(res.statusCode).toBe(404);
    for (const path of [shot.imagePath, shot.thumbnailPath]) {
      const bytes = await service.request({ url: path, headers: { 'x-service-token': other.apiKey } });
      expect(bytes.statusCode).toBe(404);
      expect(bytes.headers['content-type']).toMatch(/json/);
    }
    expect(
      (await other.post(`/api/v2/screenshots/${shot.id}/links`, { key: 'title', x: 0, y: 0, width: 10, height: 10 }))
        .status,
    ).toBe(404);
    expect((await other.delete(`/api/v2/screenshots/${shot.id}`)).status).toBe(404);
    expect(await service.db.prisma.screenshot.count({ where: { id: shot.id } })).toBe(1);
  });

  it('refuses requests without a credential or with a wrong one', async () => {
    expect((await service.request({ url: shot.imagePath })).statusCode).toBe(403);
    expect((await service.request({ url: shot.imagePath, headers: { 'x-service-token': 'wrong' } })).statusCode).toBe(
      403,
    );
    expect((await service.request({ url: `/api/v2/screenshots/${shot.id}/other` })).statusCode).toBe(404);
  });

  it('lets a viewer read and see the bytes, but not upload, mark or delete', async () => {
    const headers = { authorization: viewer.token };
    const image = await service.request({ url: shot.imagePath, headers });
    expect(image.statusCode).toBe(200);
    const read = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: { query: `{ screenshot(projectToken: "${api.projectToken}", id: ${shot.id}) { name } }` },
    });
    expect(read.json().data.screenshot.name).toBe('private.png');
    for (const account of [viewer, translator]) {
      const upload = await uploadGraphQL(
        service,
        { authorization: account.token },
        screenshotBytes('aves_ar_phoneScreenshots_5.png'),
        'x.png',
        api.projectToken,
      );
      expect(upload.errors?.[0].extensions.code).toBe('FORBIDDEN');
      const link = await service.request({
        method: 'POST',
        url: '/graphql',
        headers: { authorization: account.token, 'content-type': 'application/json' },
        payload: {
          query: `mutation { linkScreenshotKey(projectToken: "${api.projectToken}", screenshotId: ${shot.id}, key: "title", rectangle: {x: 0, y: 0, width: 5, height: 5}) { id } }`,
        },
      });
      expect(link.json().errors[0].extensions.code).toBe('FORBIDDEN');
    }
  });

  it('refuses an account that is not a member, as if the project did not exist', async () => {
    const stranger = await service.account();
    expect(
      (await service.request({ url: shot.imagePath, headers: { authorization: stranger.token } })).statusCode,
    ).toBe(404);
  });
});

describe.skipIf(!corpusScreenshotsPresent)('deleting keys, screenshots and projects', () => {
  it("deletes a key's links, and the screenshots only it was marked on with their files", async () => {
    const only = await uploadOk(screenshotBytes('aves_ar_phoneScreenshots_5.png'), 'only-plain.png');
    const shared = await uploadOk(screenshotBytes('aves_ja_phoneScreenshots_5.png'), 'plain-and-countries.png');
    const unlinked = await uploadOk(screenshotBytes('aves_ja_phoneScreenshots_5.png'), 'unlinked.png');
    for (const [id, key] of [
      [only.id, 'plain'],
      [shared.id, 'plain'],
      [shared.id, 'countries'],
    ] as const) {
      expect(
        (await api.post(`/api/v2/screenshots/${id}/links`, { key, x: 1, y: 1, width: 10, height: 10 })).status,
      ).toBe(200);
    }
    const folderOf = async (id: number) =>
      (await service.db.prisma.screenshot.findUniqueOrThrow({ where: { id } })).storageFolder;
    const onlyFolder = await folderOf(only.id);
    expect((await storedFiles()).filter((f) => `${f.slice(0, f.lastIndexOf('/'))}/` === onlyFolder)).toHaveLength(2);

    expect((await api.delete('/api/v1/translation-keys?key=plain')).status).toBe(200);
    expect(await service.db.prisma.screenshot.findUnique({ where: { id: only.id } })).toBeNull();
    expect((await storedFiles()).some((f) => f.startsWith(onlyFolder))).toBe(false);
    expect(
      (await service.request({ url: only.imagePath, headers: { 'x-service-token': api.apiKey } })).statusCode,
    ).toBe(404);
    // Still marked with another key, or never marked: kept.
    const kept = envelope(
      await service.request({ url: `/api/v2/screenshots/${shared.id}`, headers: { 'x-service-token': api.apiKey } }),
    ).data;
    expect(kept.links.map((l: any) => l.key.key)).toEqual(['countries']);
    expect(await service.db.prisma.screenshot.count({ where: { id: unlinked.id } })).toBe(1);
    expect(await queued()).toBe(0);
  });

  it('an import with DELETE_NOT_PRESENT_KEYS deletes the screenshots of the keys it removes', async () => {
    const project = await projectApi(service, owner, 'Imported');
    expect(
      (
        await project.post('/api/v1/translations', {
          content: [
            { key: 'kept', language: 'en', text: 'Kept' },
            { key: 'dropped', language: 'en', text: 'Dropped' },
          ],
        })
      ).status,
    ).toBe(200);
    const shot = await uploadOk(screenshotBytes('aves_ar_phoneScreenshots_5.png'), 'dropped.png', project.apiKey);
    expect(
      (
        await project.post(`/api/v2/screenshots/${shot.id}/links`, {
          key: 'dropped',
          x: 1,
          y: 1,
          width: 10,
          height: 10,
        })
      ).status,
    ).toBe(200);
    const folder = (await service.db.prisma.screenshot.findUniqueOrThrow({ where: { id: shot.id } })).storageFolder;
    const imported = await importRequest(
      service,
      project.apiKey,
      JSON.stringify({ kept: 'Kept' }),
      { uploadFormat: 'single-language-json', languageKey: 'en', importOptions: 'DELETE_NOT_PRESENT_KEYS' },
      'en.json',
    );
    expect(imported.statusCode).toBe(200);
    expect(envelope(imported).data.keysDeleted).toBe(1);
    expect(await service.db.prisma.screenshot.count({ where: { id: shot.id } })).toBe(0);
    expect((await storedFiles()).filter((f) => f.startsWith(folder))).toEqual([]);
    expect(await queued()).toBe(0);
  });

  it('the sweep removes queued folders once due (what a crashed upload or deletion left), not before', async () => {
    const { putScreenshotObject } = await import('../../src/screenshots/storage.js');
    const { sweepScreenshotDeletions } = await import('../../src/screenshots/sweep.js');
    await putScreenshotObject(`${projectId}/left-by-a-crash/`, 'image', Buffer.from('x'), 'image/png');
    await putScreenshotObject(`${projectId}/upload-in-progress/`, 'image', Buffer.from('x'), 'image/png');
    await service.db.prisma.screenshotDeletion.createMany({
      data: [
        { folder: `${projectId}/left-by-a-crash/`, notBefore: new Date(Date.now() - 1000) },
        { folder: `${projectId}/upload-in-progress/`, notBefore: new Date(Date.now() + 3_600_000) },
      ],
    });
    expect(await sweepScreenshotDeletions()).toBe(1);
    const files = await storedFiles();
    expect(files).not.toContain(`${projectId}/left-by-a-crash/image`);
    expect(files).toContain(`${projectId}/upload-in-progress/image`);
    expect((await service.db.prisma.screenshotDeletion.findMany()).map((d) => d.folder)).toEqual([
      `${projectId}/upload-in-progress/`,
    ]);
    await service.db.prisma.screenshotDeletion.updateMany({ data: { notBefore: new Date(Date.now() - 1000) } });
    expect(await sweepScreenshotDeletions()).toBe(1);
    expect(await storedFiles()).not.toContain(`${projectId}/upload-in-progress/image`);
    expect(await queued()).toBe(0);
  });

  it('deletes a screenshot with its files', async () => {
    const shot = await uploadOk(screenshotBytes('aves_ar_phoneScreenshots_5.png'), 'gone.png');
    const folder = (await service.db.prisma.screenshot.findUniqueOrThrow({ where: { id: shot.id } })).storageFolder;
    expect((await api.delete(`/api/v2/screenshots/${shot.id}`)).status).toBe(200);
    expect((await storedFiles()).some((f) => f.startsWith(folder))).toBe(false);
    expect((await api.delete(`/api/v2/screenshots/${shot.id}`)).status).toBe(404);
  });

  it('purging the keys deletes the screenshots they were marked on', async () => {
    const project = await projectApi(service, owner, 'Purged');
    expect(
      (await project.post('/api/v1/translations', { content: [{ key: 'a', language: 'en', text: 'A' }] })).status,
    ).toBe(200);
    const shot = await uploadOk(screenshotBytes('aves_ar_phoneScreenshots_5.png'), 'purged.png', project.apiKey);
    const kept = await uploadOk(screenshotBytes('aves_ar_phoneScreenshots_5.png'), 'never-linked.png', project.apiKey);
    expect(
      (await project.post(`/api/v2/screenshots/${shot.id}/links`, { key: 'a', x: 1, y: 1, width: 10, height: 10 }))
        .status,
    ).toBe(200);
    const folder = (await service.db.prisma.screenshot.findUniqueOrThrow({ where: { id: shot.id } })).storageFolder;
    expect((await storedFiles()).filter((f) => f.startsWith(folder))).toHaveLength(2);
    const { errors } = await project.gql('mutation { purgeTranslations { keysDeleted } }');
    expect(errors).toBeUndefined();
    expect(
      await service.db.prisma.screenshot.findMany({ where: { id: { in: [shot.id, kept.id] } }, select: { id: true } }),
    ).toEqual([{ id: kept.id }]);
    expect((await storedFiles()).filter((f) => f.startsWith(folder))).toEqual([]);
    expect(await queued()).toBe(0);
  });

  it('deleting the project removes every screenshot file of it', async () => {
    const doomed = await projectApi(service, owner, 'Doomed');
    const { id } = await service.db.prisma.project.findUniqueOrThrow({ where: { projectToken: doomed.projectToken } });
    await uploadOk(screenshotBytes('aves_ar_phoneScreenshots_5.png'), 'a.png', doomed.apiKey);
    await uploadOk(screenshotBytes('okapi_ratelandrainbow1.jpg'), 'b.jpg', doomed.apiKey);
    expect((await storedFiles()).filter((f) => f.startsWith(`${id}/`))).toHaveLength(4);
    const res = await service.request({
      method: 'DELETE',
      url: `/api/v2/projects/${doomed.projectToken}`,
      headers: { authorization: owner.token },
    });
    expect(res.statusCode).toBe(200);
    expect((await storedFiles()).filter((f) => f.startsWith(`${id}/`))).toEqual([]);
    expect(await service.db.prisma.screenshot.count({ where: { projectId: id } })).toBe(0);
    expect(await queued()).toBe(0);
    // The other projects' files are untouched.
    expect((await storedFiles()).filter((f) => f.startsWith(`${projectId}/`)).length).toBeGreaterThan(0);
  });
});

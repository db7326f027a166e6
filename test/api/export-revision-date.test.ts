// A PO file's PO-Revision-Date is when the project's content last changed, not
// when the file was exported: the same content exports to the same bytes (a Git
// sync push of an unchanged PO file has nothing to commit; two exports a minute
// apart compared equal only within one minute before).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { exportText, importOk } from '../support/transfer.js';

let service: TestService;
let api: ProjectApi;
let projectId: number;

beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account(), 'PO revision date');
  await importOk(service, api.apiKey, JSON.stringify({ en: { hello: 'Hello' }, de: { hello: 'Hallo' } }), {
    uploadFormat: 'multi-language-json',
  });
  projectId = (await service.db.prisma.project.findUniqueOrThrow({ where: { projectToken: api.projectToken } })).id;
});
afterAll(() => service.close());

const revisionDate = async () =>
  /^"PO-Revision-Date: (.*)\\n"$/m.exec(
    await exportText(service, api.apiKey, { downloadFormat: 'po-pot', languageKeys: ['de'] }),
  )?.[1];

describe('PO-Revision-Date', () => {
  it("is the project's last change of content, whatever exports and publications came after it", async () => {
    // The project's history moved back to a known minute.
    await service.db.prisma.activity.updateMany({
      where: { projectId },
      data: { at: new Date('2020-01-02T03:04:05Z') },
    });
    expect(await revisionDate()).toBe('2020-01-02 03:04+0000');
    // The export itself, another one and a publication are no change of content.
    expect(await revisionDate()).toBe('2020-01-02 03:04+0000');
    expect((await api.post('/api/v2/environments/_latest/publish')).status).toBe(200);
    expect(await revisionDate()).toBe('2020-01-02 03:04+0000');
    const activity = await service.db.prisma.activity.findMany({ where: { projectId }, select: { kind: true } });
    expect(new Set(activity.map((a) => a.kind))).toEqual(new Set(['IMPORT', 'EXPORT', 'PUBLICATION']));
    // A translation written: the file's date is now that change's.
    expect((await api.patch('/api/v2/translations', { key: 'hello', language: 'de', text: 'Guten Tag' })).status).toBe(
      200,
    );
    const written = await service.db.prisma.activity.findFirstOrThrow({
      where: { projectId, kind: 'TRANSLATIONS' },
      select: { at: true },
    });
    expect(await revisionDate()).toBe(written.at.toISOString().slice(0, 16).replace('T', ' ') + '+0000');
  });

  it("is the project's creation when its history holds no change of content", async () => {
    await service.db.prisma.activity.deleteMany({ where: { projectId } });
    const project = await service.db.prisma.project.update({
      where: { id: projectId },
      data: { createdAt: new Date('2019-05-06T07:08:09Z') },
    });
    expect(project.createdAt.toISOString()).toBe('2019-05-06T07:08:09.000Z');
    expect(await revisionDate()).toBe('2019-05-06 07:08+0000');
  });
});

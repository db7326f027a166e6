// Helpers of the import/export tests: multipart uploads to /api/v2/import,
// exports through /api/v4 and /api/v3, and downloads of the exported files.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { envelope, type TestService } from './service.js';
import { saveUpload } from '../../src/transfer/uploaded-file.js';
import type { ImportRequest } from '../../src/transfer/import.js';

export function multipart(
  fields: { name: string; fileName?: string; content: string | Buffer; contentType?: string }[],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----lms${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const field of fields) {
    const disposition = `form-data; name="${field.name}"${field.fileName !== undefined ? `; filename="${field.fileName}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${field.fileName !== undefined ? `Content-Type: ${field.contentType ?? 'application/octet-stream'}\r\n` : ''}\r\n`;
    parts.push(
      Buffer.from(head, 'utf8'),
      Buffer.isBuffer(field.content) ? field.content : Buffer.from(field.content, 'utf8'),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export type Query = Record<string, string | string[] | undefined>;

/** importFile's request for a file, as the HTTP layer builds it (a temp file), `chunkCells` texts per chunk. */
export async function uploadedImport(
  service: TestService,
  projectId: number,
  content: string | Buffer,
  chunkCells: number,
  extra: Partial<ImportRequest> = {},
): Promise<ImportRequest> {
  const file = await saveUpload(
    Readable.from([Buffer.from(content)]),
    join(service.config.dataDir, 'tmp'),
    'file',
    'application/octet-stream',
  );
  return {
    projectId,
    uploadFormat: 'multi-language-json',
    file,
    options: [],
    maxUploadBytes: 1 << 30,
    chunkCells,
    ...extra,
  };
}

export function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

export function importRequest(
  service: TestService,
  apiKey: string,
  content: string | Buffer,
  query: Query,
  fileName = 'upload',
): Promise<LightMyRequestResponse> {
  const body = multipart([{ name: 'file', fileName, content }]);
  return service.request({
    method: 'POST',
    url: `/api/v2/import${queryString(query)}`,
    headers: { 'x-service-token': apiKey, ...body.headers },
    payload: body.payload,
  });
}

/** Imports and returns the envelope's data, failing on anything but 200. */
export async function importOk(
  service: TestService,
  apiKey: string,
  content: string | Buffer,
  query: Query,
): Promise<any> {
  const res = await importRequest(service, apiKey, content, query);
  if (res.statusCode !== 200) throw new Error(`import failed with ${res.statusCode}: ${res.body}`);
  return envelope(res).data;
}

export function exportRequest(
  service: TestService,
  apiKey: string,
  query: Query,
  version: 'v3' | 'v4' = 'v4',
): Promise<LightMyRequestResponse> {
  return service.request({
    url: `/api/${version}/export${queryString(query)}`,
    headers: { 'x-service-token': apiKey },
  });
}

/** The path of a download url of this service (inject takes paths). */
export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

export async function download(service: TestService, url: string): Promise<Buffer> {
  const res = await service.request({ url: pathOf(url) });
  if (res.statusCode !== 200) throw new Error(`download of ${url} failed with ${res.statusCode}: ${res.body}`);
  return res.rawPayload;
}

/** Exports with v4 and downloads every file: [{namespace?, language?, url, content}]. */
export async function exportFiles(
  service: TestService,
  apiKey: string,
  query: Query,
): Promise<{ url: string; namespace?: string; language?: string; content: Buffer }[]> {
  const res = await exportRequest(service, apiKey, query);
  if (res.statusCode !== 200) throw new Error(`export failed with ${res.statusCode}: ${res.body}`);
  const files = envelope(res).data.files as { url: string; namespace?: string; language?: string }[];
  return Promise.all(files.map(async (f) => ({ ...f, content: await download(service, f.url) })));
}

/** One exported file as text (fails unless the export gives exactly one). */
export async function exportText(service: TestService, apiKey: string, query: Query): Promise<string> {
  const files = await exportFiles(service, apiKey, query);
  if (files.length !== 1) throw new Error(`expected one file, got ${files.length}`);
  return files[0]!.content.toString('utf8');
}

/** Every row of a project's content, to prove that a refused request changed nothing. */
export async function projectSnapshot(service: TestService, projectToken: string): Promise<unknown> {
  const db = service.db.prisma;
  const { id } = await db.project.findUniqueOrThrow({ where: { projectToken }, select: { id: true } });
  const rows = (table: string, order: string) =>
    db.$queryRawUnsafe<{ row: unknown }[]>(
      `SELECT row_to_json(t)::text AS row FROM "${table}" t WHERE "projectId" = $1 ORDER BY ${order}`,
      id,
    );
  return {
    project: await db.$queryRawUnsafe(`SELECT "updatedAt"::text FROM "Project" WHERE id = $1`, id),
    activity: await rows('Activity', 'id'),
    cellChanges: await rows('CellChangeBatch', 'id'),
    languages: await rows('Language', 'id'),
    customers: await rows('Customer', 'id'),
    keys: await rows('TranslationKey', 'id'),
    translations: await rows('Translation', '"keyId", "languageId"'),
    customerTranslations: await rows('CustomerTranslation', '"keyId", "languageId", "customerId"'),
    publications: await rows('Publication', 'id'),
  };
}

/** language -> namespace/key -> text of a project's base texts ('' namespace omitted), or of one customer's overrides. */
export async function contentOf(
  service: TestService,
  projectToken: string,
  customer?: string,
): Promise<Record<string, Record<string, string>>> {
  const table = customer
    ? `"CustomerTranslation" t JOIN "Customer" c ON c.id = t."customerId" AND c.key = $2`
    : `"Translation" t`;
  const rows = await service.db.prisma.$queryRawUnsafe<
    { language: string; key: string; namespace: string; text: string }[]
  >(
    `SELECT l.key AS language, k.key, k.namespace, t.text FROM ${table}
       JOIN "Language" l ON l.id = t."languageId" JOIN "TranslationKey" k ON k.id = t."keyId"
       JOIN "Project" p ON p.id = t."projectId" WHERE p."projectToken" = $1 ORDER BY k."importOrder", l.key`,
    projectToken,
    ...(customer ? [customer] : []),
  );
  const out: Record<string, Record<string, string>> = {};
  for (const r of rows) (out[r.language] ??= {})[r.namespace ? `${r.namespace}/${r.key}` : r.key] = r.text;
  return out;
}

/** namespace/key of every key of a project, in import order. */
export async function keysOf(
  service: TestService,
  projectToken: string,
): Promise<{ key: string; namespace: string; description: string; tags: string[] }[]> {
  return service.db.prisma.$queryRawUnsafe(
    `SELECT k.key, k.namespace, k.description, k.tags FROM "TranslationKey" k JOIN "Project" p ON p.id = k."projectId"
      WHERE p."projectToken" = $1 ORDER BY k."importOrder"`,
    projectToken,
  );
}

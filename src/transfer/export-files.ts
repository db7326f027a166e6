// Export files: stored through the storage interface of src/storage (the local
// disk under DATA_DIR/exports, or the service's S3 bucket under `exports/` when
// S3 is configured, so every instance serves every download), recorded in the
// ExportFile table with an unguessable id (192 random bits) and an expiry.
// Expired files are purged lazily by each export and periodically by the
// download route's sweeper (src/http/downloads.ts).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { prisma } from '../db.js';
import { storage as serviceStorage, type Storage, type StoredObject } from '../storage/index.js';
import { LocalStorage } from '../storage/local.js';

type ExportConfig = Pick<Config, 'dataDir' | 'publicUrl' | 'exportTtlSeconds' | 'storage'>;

export interface NewExportFile {
  fileName: string;
  contentType: string;
  /** A local file holding the bytes (a temp file of the export). */
  path: string;
  size: number;
  language?: string;
  namespace?: string;
  /** SPLIT_BY_CUSTOMERS: the customer of the file. */
  customer?: string;
  /** The one file path (INCLUDE_FILE_PATH) of the file's keys. */
  remotePath?: string;
}

export interface ExportedFile {
  id: string;
  url: string;
  fileName: string;
  contentType: string;
  size: number;
  language?: string;
  namespace?: string;
  customer?: string;
  /**
   * Where the official client writes the file with `{remotePath}`: the path
   * recorded on its keys (INCLUDE_FILE_PATH), else its own name
   * (`<namespace>_<language>.<ext>`, as the vendor names split files). Never
   * empty: the client cannot write to a folder.
   */
  remotePath: string;
  expiresAt: Date;
}

function exportStorage(config: ExportConfig): { storage: Storage; prefix: string } {
  if (config.storage.kind === 's3') return { storage: serviceStorage(), prefix: 'exports/' };
  return { storage: new LocalStorage(join(config.dataDir, 'exports')), prefix: '' };
}

export function downloadUrl(config: Pick<Config, 'publicUrl'>, id: string, fileName: string): string {
  return `${config.publicUrl}/download/${id}/${encodeURIComponent(fileName)}`;
}

export async function storeExportFile(
  config: ExportConfig,
  projectId: number,
  file: NewExportFile,
): Promise<ExportedFile> {
  const id = randomBytes(24).toString('base64url');
  const { storage, prefix } = exportStorage(config);
  // The key is built from the random id only: the file name never reaches a path.
  const storageKey = `${prefix}${id}/file`;
  await storage.putFile(storageKey, file.path, { contentType: file.contentType });
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + config.exportTtlSeconds * 1000);
  await prisma().exportFile.create({
    data: {
      id,
      projectId,
      fileName: file.fileName,
      contentType: file.contentType,
      language: file.language ?? null,
      namespace: file.namespace ?? null,
      storageKey,
      size: file.size,
      createdAt,
      expiresAt,
    },
  });
  return {
    id,
    url: downloadUrl(config, id, file.fileName),
    fileName: file.fileName,
    contentType: file.contentType,
    size: file.size,
    language: file.language,
    namespace: file.namespace,
    customer: file.customer,
    remotePath: file.remotePath ?? file.fileName,
    expiresAt,
  };
}

export interface Download {
  fileName: string;
  contentType: string;
  object: StoredObject;
}

/** The bytes of an unexpired export file, or undefined (unknown id, other name, expired). */
export async function openDownload(config: ExportConfig, id: string, fileName: string): Promise<Download | undefined> {
  const row = await prisma().exportFile.findUnique({ where: { id } });
  if (!row || row.fileName !== fileName || row.expiresAt.getTime() <= Date.now()) return undefined;
  const object = await exportStorage(config).storage.get(row.storageKey);
  return object && { fileName: row.fileName, contentType: row.contentType, object };
}

/** Deletes expired export files and their rows; returns how many. */
export async function purgeExpiredExports(config: ExportConfig, limit = 1000): Promise<number> {
  const expired = await prisma().exportFile.findMany({
    where: { expiresAt: { lte: new Date() } },
    select: { id: true, storageKey: true },
    orderBy: { expiresAt: 'asc' },
    take: limit,
  });
  if (expired.length === 0) return 0;
  const { storage } = exportStorage(config);
  for (const file of expired)
    await storage.deletePrefix(file.storageKey.slice(0, file.storageKey.lastIndexOf('/') + 1));
  await prisma().exportFile.deleteMany({ where: { id: { in: expired.map((f) => f.id) } } });
  return expired.length;
}

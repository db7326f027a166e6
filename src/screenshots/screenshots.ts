// Screenshots of a project: upload (checked, thumbnail made, stored, then
// recorded), listing, reading the stored bytes, deletion. Access is checked by
// the callers (src/schema/screenshot.ts, src/http/screenshot-files.ts) with
// resolveProject; everything here takes the project id it resolved.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Prisma } from '../generated/prisma/client.js';
import { prisma } from '../db.js';
import { notFound, payloadTooLarge } from '../errors.js';
import { checkImage } from './image.js';
import {
  deleteScreenshotFolder,
  getScreenshotObject,
  imageLimits,
  projectFolder,
  putScreenshotObject,
  type ScreenshotObject,
} from './storage.js';
import { queueFolderDeletion, sweepScreenshotDeletions } from './sweep.js';

/** How long an upload's folder is protected from the sweep: far longer than any upload takes. */
const UPLOAD_GRACE_MS = 60 * 60_000;

export const SCREENSHOT_PAGE = { defaultSize: 50, maxSize: 200 } as const;

const NAME_LIMIT = 255;

export interface UploadScreenshot {
  projectId: number;
  /** The uploading account; null for a project API key. */
  accountId: number | null;
  /** The uploaded file (an UploadedFile of src/transfer: a temp file with the client's name). */
  file: { path: string; name: string; size: number };
  /** Shown in the console; default: the file's name. */
  name?: string | null;
}

export async function uploadScreenshot({ projectId, accountId, file, name }: UploadScreenshot) {
  const limits = imageLimits();
  // Refused before the file is read into memory.
  if (file.size > limits.maxBytes)
    throw payloadTooLarge(`The image is larger than ${limits.maxBytes} bytes (SCREENSHOT_MAX_BYTES)`);
  const bytes = await readFile(file.path);
  const image = await checkImage(bytes, limits);
  const folder = `${projectFolder(projectId)}${randomBytes(16).toString('base64url')}/`;
  // The folder is queued (not yet due) before anything is stored, and unqueued with the row:
  // an upload that fails or dies anywhere in between leaves the sweep a folder to remove.
  await queueFolderDeletion(prisma(), folder, new Date(Date.now() + UPLOAD_GRACE_MS));
  try {
    await putScreenshotObject(folder, 'image', bytes, image.mimeType);
    await putScreenshotObject(folder, 'thumbnail', image.thumbnail.bytes, 'image/webp');
    const [, row] = await prisma().$transaction([
      prisma().screenshotDeletion.delete({ where: { folder } }),
      prisma().screenshot.create({
        data: {
          projectId,
          storageFolder: folder,
          name: (name?.trim() || file.name || '').slice(0, NAME_LIMIT),
          mimeType: image.mimeType,
          width: image.width,
          height: image.height,
          bytes: bytes.length,
          thumbnailWidth: image.thumbnail.width,
          thumbnailHeight: image.thumbnail.height,
          thumbnailBytes: image.thumbnail.bytes.length,
          createdById: accountId,
        },
      }),
    ]);
    return row;
  } catch (error) {
    // Removed now rather than in an hour (the project may have been deleted meanwhile).
    await deleteScreenshotFolder(folder).catch(() => {});
    await prisma()
      .screenshotDeletion.deleteMany({ where: { folder } })
      .catch(() => {});
    throw error;
  }
}

/** A screenshot of the project, or NOT_FOUND (another project's id included). */
export async function screenshotOfProject(projectId: number, id: number) {
  const row = await prisma().screenshot.findFirst({ where: { id, projectId } });
  if (!row) throw notFound(`Screenshot ${id} not found`);
  return row;
}

export interface ScreenshotFilter {
  /** Only screenshots with (true) or without (false) a linked key. */
  linked?: boolean | null;
}

export function screenshotWhere(projectId: number, filter: ScreenshotFilter): Prisma.ScreenshotWhereInput {
  return {
    projectId,
    ...(filter.linked === true && { links: { some: {} } }),
    ...(filter.linked === false && { links: { none: {} } }),
  };
}

/** The stored image or thumbnail of a screenshot of the project. */
export async function openScreenshotObject(projectId: number, id: number, which: ScreenshotObject) {
  const row = await screenshotOfProject(projectId, id);
  const object = await getScreenshotObject(row.storageFolder, which);
  if (!object) throw notFound(`The ${which} of screenshot ${id} is missing from the storage`);
  return { object, contentType: which === 'image' ? row.mimeType : 'image/webp', name: row.name };
}

/** Deletes a screenshot with its links and stored files. */
export async function deleteScreenshot(projectId: number, id: number): Promise<void> {
  await prisma().$transaction(async (tx) => {
    const [gone] = await tx.$queryRaw<{ storageFolder: string }[]>(Prisma.sql`/* screenshots:delete */
      DELETE FROM "Screenshot" WHERE id = ${id} AND "projectId" = ${projectId} RETURNING "storageFolder"`);
    if (!gone) throw notFound(`Screenshot ${id} not found`);
    await queueFolderDeletion(tx, gone.storageFolder);
  });
  await sweepScreenshotDeletions();
}

/** The project token of a screenshot, for the access check of the byte route; undefined when there is none. */
export async function projectTokenOfScreenshot(id: number): Promise<string | undefined> {
  const row = await prisma().screenshot.findUnique({
    where: { id },
    select: { project: { select: { projectToken: true } } },
  });
  return row?.project.projectToken;
}

// Keys marked on screenshots: a link is a key, a screenshot of the same
// project and a rectangle in the image's pixels, inside the image. One
// screenshot shows many keys, one key appears on many screenshots (and twice
// on one when its text is there twice).
import { prisma } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { screenshotOfProject } from './screenshots.js';

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface KeyRef {
  key: string;
  namespace?: string | null;
}

export function checkRectangle(rectangle: Rectangle, image: { width: number; height: number }): Rectangle {
  const { x, y, width, height } = rectangle;
  for (const [name, value] of Object.entries({ x, y, width, height })) {
    if (!Number.isInteger(value))
      throw badRequest(`rectangle.${name} must be an integer number of pixels; got ${value}`);
  }
  if (x < 0 || y < 0)
    throw badRequest(`The rectangle must start inside the image: x and y of at least 0; got ${x}, ${y}`);
  if (width < 1 || height < 1)
    throw badRequest(`The rectangle needs a width and height of at least 1 pixel; got ${width} × ${height}`);
  if (x + width > image.width || y + height > image.height) {
    throw badRequest(
      `The rectangle (${x}, ${y}, ${width} × ${height}) reaches outside the ${image.width} × ${image.height} image`,
    );
  }
  return { x, y, width, height };
}

async function keyId(projectId: number, ref: KeyRef): Promise<number> {
  if (typeof ref.key !== 'string' || ref.key.trim() === '') throw badRequest('key must be a key name');
  const namespace = ref.namespace ?? '';
  const row = await prisma().translationKey.findUnique({
    where: { projectId_namespace_key: { projectId, namespace, key: ref.key } },
    select: { id: true },
  });
  if (!row) throw notFound(`Key ${namespace ? `${namespace}:` : ''}${ref.key} not found`);
  return row.id;
}

/** A screenshot, key or link deleted by someone else between the lookup and the write: the same 404 as before it. */
async function orGone<T>(write: Promise<T>, what: string): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'P2003' || code === 'P2025') throw notFound(`${what} not found`);
    throw error;
  }
}

export async function linkKey(projectId: number, screenshotId: number, ref: KeyRef, rectangle: Rectangle) {
  const screenshot = await screenshotOfProject(projectId, screenshotId);
  const area = checkRectangle(rectangle, screenshot);
  const data = { screenshotId, keyId: await keyId(projectId, ref), ...area };
  return orGone(prisma().keyScreenshot.create({ data }), `Screenshot ${screenshotId} or key ${ref.key}`);
}

/** A link of the project (and of `screenshotId` when given: a REST path names both). */
async function linkOfProject(projectId: number, linkId: number, screenshotId?: number | null) {
  const link = await prisma().keyScreenshot.findFirst({
    where: { id: linkId, screenshot: { projectId }, ...(screenshotId != null && { screenshotId }) },
    include: { screenshot: { select: { width: true, height: true } } },
  });
  if (!link)
    throw notFound(
      `Screenshot link ${linkId} not found${screenshotId != null ? ` on screenshot ${screenshotId}` : ''}`,
    );
  return link;
}

/** Moves a link's rectangle and/or points it at another key. */
export async function updateLink(
  projectId: number,
  linkId: number,
  change: { rectangle?: Rectangle | null; key?: KeyRef | null; screenshotId?: number | null },
) {
  const link = await linkOfProject(projectId, linkId, change.screenshotId);
  const area = change.rectangle ? checkRectangle(change.rectangle, link.screenshot) : {};
  const key = change.key ? { keyId: await keyId(projectId, change.key) } : {};
  return orGone(
    prisma().keyScreenshot.update({ where: { id: linkId }, data: { ...area, ...key } }),
    `Screenshot link ${linkId}`,
  );
}

/** Removes a link; the screenshot stays (it may be linked again). */
export async function unlink(projectId: number, linkId: number, screenshotId?: number | null): Promise<void> {
  await linkOfProject(projectId, linkId, screenshotId);
  await orGone(prisma().keyScreenshot.delete({ where: { id: linkId } }), `Screenshot link ${linkId}`);
}

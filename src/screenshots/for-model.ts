// A screenshot as a language model is shown it: scaled down so its long side
// is at most `maxSide` (vision models scale larger images down anyway and
// bill by pixels), the marked keys' rectangles drawn on it with their labels
// (the prompt's item ids), encoded as JPEG. The rectangles are returned in the
// sent image's pixels, for the prompt's text.
import sharp from 'sharp';
import { getScreenshotObject } from './storage.js';
import type { Rectangle } from './links.js';

export interface ModelImage {
  mediaType: 'image/jpeg';
  bytes: Buffer;
  width: number;
  height: number;
  /** Each box scaled to the sent image, by label. */
  boxes: Map<string, Rectangle>;
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function screenshotForModel(
  screenshot: { storageFolder: string; width: number; height: number },
  marks: readonly { label: string; rectangle: Rectangle }[],
  maxSide: number,
): Promise<ModelImage | undefined> {
  const stored = await getScreenshotObject(screenshot.storageFolder, 'image');
  if (!stored) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stored.body) chunks.push(chunk as Buffer);
  const scale = Math.min(1, maxSide / Math.max(screenshot.width, screenshot.height));
  const width = Math.max(1, Math.round(screenshot.width * scale));
  const height = Math.max(1, Math.round(screenshot.height * scale));
  const boxes = new Map<string, Rectangle>();
  for (const { label, rectangle } of marks) {
    boxes.set(label, {
      x: Math.round(rectangle.x * scale),
      y: Math.round(rectangle.y * scale),
      width: Math.max(1, Math.round(rectangle.width * scale)),
      height: Math.max(1, Math.round(rectangle.height * scale)),
    });
  }
  const shapes = [...boxes]
    .map(
      ([label, r]) =>
        `<rect x="${r.x + 1}" y="${r.y + 1}" width="${Math.max(1, r.width - 2)}" height="${Math.max(1, r.height - 2)}" fill="none" stroke="#e0007a" stroke-width="3"/>` +
        `<rect x="${r.x}" y="${Math.max(0, r.y - 16)}" width="${8 * label.length + 8}" height="16" fill="#e0007a"/>` +
        `<text x="${r.x + 4}" y="${Math.max(0, r.y - 16) + 12}" font-family="sans-serif" font-size="12" fill="#fff">${escapeXml(label)}</text>`,
    )
    .join('');
  const overlay = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shapes}</svg>`,
  );
  const bytes = await sharp(Buffer.concat(chunks), { failOn: 'truncated' })
    .resize(width, height, { fit: 'fill' })
    .composite(boxes.size ? [{ input: overlay, top: 0, left: 0 }] : [])
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer();
  return { mediaType: 'image/jpeg', bytes, width, height, boxes };
}

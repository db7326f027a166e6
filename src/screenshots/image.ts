// Checks an uploaded screenshot and makes its thumbnail, with sharp (libvips).
// Order matters for hostile files: the container is read first (format by its
// magic bytes, truncation, data after the end), then the header's dimensions
// are held against the pixel limit before anything is decoded (a decompression
// bomb declares a huge canvas in a few bytes), and only then is the image
// decoded whole, with sharp's own pixel limit as a second guard, to make the
// thumbnail; a decoding error refuses the file.
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { badRequest, payloadTooLarge, type AppError } from '../errors.js';
import { MIME_TYPES, NotAnImage, readContainer } from './container.js';

export interface ImageLimits {
  /** SCREENSHOT_MAX_BYTES */
  maxBytes: number;
  /** SCREENSHOT_MAX_PIXELS: width × height. */
  maxPixels: number;
}

export interface CheckedImage {
  mimeType: string;
  width: number;
  height: number;
  thumbnail: { bytes: Buffer; width: number; height: number };
}

/** The longest side of a thumbnail (WebP). */
export const THUMBNAIL_SIZE = 400;

// Decoded images are not kept between requests: uploads are rare and large.
sharp.cache(false);

function tooManyPixels(width: number, height: number, limits: ImageLimits): AppError {
  return payloadTooLarge(
    `The image has ${width} × ${height} = ${width * height} pixels, more than ${limits.maxPixels} (SCREENSHOT_MAX_PIXELS)`,
  );
}

export async function checkImage(bytes: Buffer, limits: ImageLimits): Promise<CheckedImage> {
  if (bytes.length === 0) throw badRequest('The file is empty');
  if (bytes.length > limits.maxBytes)
    throw payloadTooLarge(`The image is larger than ${limits.maxBytes} bytes (SCREENSHOT_MAX_BYTES)`);
  let container;
  try {
    container = readContainer(bytes);
  } catch (error) {
    if (error instanceof NotAnImage) throw badRequest(error.message);
    throw error;
  }
  if (container.width !== null && container.height !== null) {
    if (container.width === 0 || container.height === 0)
      throw badRequest('The image has no pixels (a width or height of 0)');
    if (container.width * container.height > limits.maxPixels)
      throw tooManyPixels(container.width, container.height, limits);
  }
  const options = { limitInputPixels: limits.maxPixels, failOn: 'truncated' as const };
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, options).metadata();
  } catch (error) {
    throw badRequest(`The image cannot be read: ${(error as Error).message}`);
  }
  const { width, height } = metadata;
  if (!width || !height) throw badRequest('The image has no dimensions');
  // sharp reads the same bytes as another format than the magic bytes said: not one image.
  if (metadata.format !== container.format)
    throw badRequest(`The file starts as ${container.format.toUpperCase()} but decodes as ${String(metadata.format)}`);
  if (width * height > limits.maxPixels) throw tooManyPixels(width, height, limits);
  let thumbnail: { data: Buffer; info: OutputInfo };
  try {
    thumbnail = await sharp(bytes, options)
      .rotate() // EXIF orientation, as browsers show the original
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    const message = (error as Error).message;
    if (/pixel limit/i.test(message)) throw tooManyPixels(width, height, limits);
    throw badRequest(`The image cannot be decoded: ${message}`);
  }
  // Rectangles are drawn on the image as browsers show it: with its EXIF orientation applied.
  const shown = metadata.autoOrient ?? { width, height };
  return {
    mimeType: MIME_TYPES[container.format],
    width: shown.width,
    height: shown.height,
    thumbnail: { bytes: thumbnail.data, width: thumbnail.info.width, height: thumbnail.info.height },
  };
}

// Where screenshots are stored: through the service's storage (src/storage),
// never the CDN's public tree. On the local disk a folder of their own
// (DATA_DIR/screenshots); on S3 the service's bucket under `screenshots/`, so
// every instance serves every image. Each screenshot is a folder
// `{projectId}/{random id}/` holding `image` and `thumbnail`; a project's
// screenshots share its folder, removed whole with the project.
import { join } from 'node:path';
import type { Config } from '../config.js';
import { storage as serviceStorage, type Storage, type StoredObject } from '../storage/index.js';
import { LocalStorage } from '../storage/local.js';
import type { ImageLimits } from './image.js';

export type ScreenshotObject = 'image' | 'thumbnail';

interface Settings {
  storage: Storage;
  prefix: string;
  limits: ImageLimits;
}

let current: Settings | undefined;

/** Set once at start-up (src/screenshots/runtime.ts), after the service's storage. */
export function setScreenshotSettings(config: Pick<Config, 'dataDir' | 'storage' | 'screenshots'> | undefined): void {
  if (!config) {
    current = undefined;
    return;
  }
  current =
    config.storage.kind === 's3'
      ? { storage: serviceStorage(), prefix: 'screenshots/', limits: config.screenshots }
      : { storage: new LocalStorage(join(config.dataDir, 'screenshots')), prefix: '', limits: config.screenshots };
}

function settings(): Settings {
  if (!current) throw new Error('Screenshots are not configured');
  return current;
}

export const imageLimits = (): ImageLimits => settings().limits;

export const projectFolder = (projectId: number) => `${projectId}/`;

export async function putScreenshotObject(
  folder: string,
  name: ScreenshotObject,
  bytes: Buffer,
  contentType: string,
): Promise<void> {
  const { storage, prefix } = settings();
  await storage.put(`${prefix}${folder}${name}`, bytes, { contentType });
}

export async function getScreenshotObject(folder: string, name: ScreenshotObject): Promise<StoredObject | undefined> {
  const { storage, prefix } = settings();
  return storage.get(`${prefix}${folder}${name}`);
}

/** Deletes a screenshot's folder, or a project's. */
export async function deleteScreenshotFolder(folder: string): Promise<void> {
  const { storage, prefix } = settings();
  await storage.deletePrefix(`${prefix}${folder}`);
}

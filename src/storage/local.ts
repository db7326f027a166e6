// Local-disk storage under one root folder (DATA_DIR/cdn by default). Objects
// are plain files; a key's '/' separators become folders.
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { assertFolderPrefix, type PutOptions, type Storage, type StoredObject } from './types.js';

export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The file of a key; a key that would leave the root is a programming error. */
  private path(key: string): string {
    const path = resolve(join(this.root, key));
    if (path !== this.root && !path.startsWith(this.root + sep))
      throw new Error(`Storage key outside the storage root: ${key}`);
    return path;
  }

  async put(key: string, bytes: Buffer, _options: PutOptions): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes);
  }

  async putFile(key: string, file: string, _options: PutOptions): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    await copyFile(file, path);
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const path = this.path(key);
    try {
      const info = await stat(path);
      if (!info.isFile()) return undefined;
      return { body: createReadStream(path), size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    const to = this.path(toKey);
    await mkdir(dirname(to), { recursive: true });
    await copyFile(this.path(fromKey), to);
  }

  async listFolders(prefix: string): Promise<string[]> {
    assertFolderPrefix(prefix);
    try {
      const entries = await readdir(this.path(prefix), { withFileTypes: true });
      return entries.filter((e) => e.isDirectory()).map((e) => e.name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertFolderPrefix(prefix);
    await rm(this.path(prefix), { recursive: true, force: true });
  }

  async close(): Promise<void> {}
}

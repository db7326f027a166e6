// The one shape of an uploaded file (src/transfer/uploaded-file.ts): a temp
// file with its name, type and size, read as a stream, removed by its owner.
import { existsSync, readdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterEach, describe, expect, it } from 'vitest';
import { saveUpload } from '../../../src/transfer/uploaded-file.js';
import { tempDirs } from '../../support/temp-dirs.js';

const uploadDir = tempDirs('uploaded-file-test-', afterEach);

describe('saveUpload', () => {
  it('writes the stream to a temp file with its name, type and size, read back as a stream', async () => {
    const dir = uploadDir();
    const content = Buffer.from('{"hello": "Grüß dich"}');
    const file = await saveUpload(
      Readable.from([content.subarray(0, 5), content.subarray(5)]),
      dir,
      'en.json',
      'application/json',
    );
    expect(file.name).toBe('en.json');
    expect(file.type).toBe('application/json');
    expect(file.size).toBe(content.length);
    expect(file.path.startsWith(dir)).toBe(true);
    expect(await buffer(file.stream())).toEqual(content);
    // Read twice: the file stays until removed.
    expect(await buffer(file.stream())).toEqual(content);
    const renamed = file.describedAs('home.json', '');
    expect([renamed.name, renamed.type, renamed.size, renamed.path]).toEqual([
      'home.json',
      '',
      content.length,
      file.path,
    ]);
    await file.remove();
    expect(existsSync(file.path)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves nothing behind when the stream fails', async () => {
    const dir = uploadDir();
    const failing = new Readable({
      read() {
        this.push('partial');
        this.destroy(new Error('client went away'));
      },
    });
    await expect(saveUpload(failing, dir, 'x.json', '')).rejects.toThrow('client went away');
    expect(readdirSync(dir)).toEqual([]);
  });
});

// Upload temp folders of killed imports (DATA_DIR/tmp/upload-*) are removed at
// start and by the periodic pass; those of uploads this process still reads
// are kept (and touched, the heartbeat instances sharing DATA_DIR go by).
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { startTestService, type TestService } from '../support/service.js';
import { tempDirs } from '../support/temp-dirs.js';
import { saveUpload } from '../../src/transfer/uploaded-file.js';
import { startUploadSweeper } from '../../src/transfer/upload-sweep.js';
import { setLogger } from '../../src/log.js';

const tempDir = tempDirs('upload-sweep-');
const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** A folder as a killed import leaves it, last written `ageMs` ago. */
function leftover(uploadDir: string, name: string, ageMs = 0): string {
  const dir = join(uploadDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'file'), '{"a":"b"}');
  backdate(dir, ageMs);
  return dir;
}

function backdate(dir: string, ageMs: number): void {
  const at = new Date(Date.now() - ageMs);
  for (const path of [join(dir, 'file'), dir]) if (existsSync(path)) utimesSync(path, at, at);
}

/** An upload still arriving in this process: its stream is open. */
async function uploadInProgress(uploadDir: string) {
  const body = new PassThrough();
  body.write('{"a":');
  const saving = saveUpload(body, uploadDir, 'de.json', 'application/json');
  // The folder exists as soon as the upload has begun.
  await expect
    .poll(() => (existsSync(uploadDir) ? readdirSync(uploadDir).filter((n) => n.startsWith('upload-')).length : 0))
    .toBe(1);
  const dir = join(
    uploadDir,
    readdirSync(uploadDir).find((n) => n.startsWith('upload-'))!,
  );
  return {
    dir,
    async finish() {
      body.end('"b"}');
      return saving;
    },
  };
}

const until = (condition: () => boolean) => expect.poll(condition, { timeout: 5_000, interval: 50 }).toBe(true);

describe('upload folders of killed imports', () => {
  it('are removed when the service starts; other temp files are not', async () => {
    const dataDir = tempDir();
    const uploadDir = join(dataDir, 'tmp');
    const fresh = leftover(uploadDir, 'upload-Ab12Cd');
    const old = leftover(uploadDir, 'upload-Xy34Zw', 48 * 3_600_000);
    mkdirSync(join(uploadDir, 'export-Q1w2E3'));
    const service: TestService = await startTestService({ env: { DATA_DIR: dataDir } });
    stops.push(() => service.close());
    expect(existsSync(fresh)).toBe(false);
    expect(existsSync(old)).toBe(false);
    expect(readdirSync(uploadDir)).toEqual(['export-Q1w2E3']);
  });

  it('are removed by the periodic pass, while an upload in use is kept', async () => {
    const dataDir = tempDir();
    const uploadDir = join(dataDir, 'tmp');
    const service: TestService = await startTestService({ env: { DATA_DIR: dataDir, UPLOAD_SWEEP_MS: '200' } });
    stops.push(() => service.close());
    const upload = await uploadInProgress(uploadDir);
    backdate(upload.dir, 3_600_000);
    const dead = leftover(uploadDir, 'upload-Dead01', 3_600_000);
    // Touched by a pass (another instance sees it alive). A pass may remove
    // the dead folder before it reaches the live one, so both are awaited.
    await until(() => !existsSync(dead) && Date.now() - statSync(upload.dir).mtimeMs < 60_000);
    expect(existsSync(upload.dir)).toBe(true);
    const file = await upload.finish();
    expect(file.size).toBe('{"a":"b"}'.length);
    await file.remove();
    expect(readdirSync(uploadDir)).toEqual([]);
  });

  it('of another instance sharing the directory go only once untouched for three periods', async () => {
    const uploadDir = join(tempDir(), 'tmp');
    const recent = leftover(uploadDir, 'upload-Other1', 100);
    const stale = leftover(uploadDir, 'upload-Other2', 3_600_000);
    const logged: unknown[] = [];
    const restoreLogger = setLogger({
      info: (o) => void logged.push(o),
      warn: (o) => void logged.push(o),
      error: (o) => void logged.push(o),
    });
    stops.push(await startUploadSweeper(uploadDir, { intervalMs: 1_000, exclusive: false }), restoreLogger);
    // The pass at start: only the stale one.
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    // Untouched (its owner is dead): gone after three periods. The pass says so once it has removed it: the
    // folder can be gone before its line is written (a loaded CI run checked in between).
    await until(() => !existsSync(recent) && logged.length >= 2);
    // Each removal said, with where.
    expect(logged).toEqual([
      { removed: 1, uploadDir },
      { removed: 1, uploadDir },
    ]);
  });
});

// Two `npm start` of one checkout at once: each builds dist/ (scripts/build.mjs)
// while the other may already run from it. Builds of a small fixture project
// (its own src/main.ts, which imports a chunk lazily, as the service does)
// run two at a time; a process started from the previous build must still
// load its lazy chunk after the sources changed and dist/ was rebuilt, and
// unchanged sources are not built again.
import { spawn } from 'node:child_process';
import { existsSync, readlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../support/temp-dirs.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const tempDir = tempDirs('lms-build-');

function run(args: string[], cwd = ROOT): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

function writeSources(root: string, version: string) {
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(root, 'src', 'lazy.ts'), `export const lazy = (): string => 'lazy ${version}';\n`);
  // The build's second entry (the findings updater's worker thread in the service).
  mkdirSync(join(root, 'src', 'findings'), { recursive: true });
  writeFileSync(join(root, 'src', 'findings', 'check-worker.ts'), 'export {};\n');
  // Prints "ready", then on a line of input loads its chunk, as a service does on a feature's first use.
  writeFileSync(
    join(root, 'src', 'main.ts'),
    [
      `const version: string = '${version}';`,
      `process.stdin.once('data', async () => { const { lazy } = await import('./lazy.js'); console.log(version + ' ' + lazy()); process.exit(0); });`,
      `console.log('ready');`,
    ].join('\n'),
  );
}

/** Starts dist/main.js of the fixture; resolves once it is running, with a function that makes it load its chunk. */
async function startFixture(root: string) {
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  while (!output.includes('ready')) {
    if (child.exitCode !== null) throw new Error(output);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    async loadChunk() {
      child.stdin.write('go\n');
      const code = await exited;
      return { code, output };
    },
  };
}

const build = (root: string) => run(['scripts/build.mjs', '--root', root]);

describe('scripts/build.mjs', { timeout: 120_000 }, () => {
  it('builds once for two concurrent runs, and rebuilds without pulling the files from under a running process', async () => {
    const root = tempDir();
    writeSources(root, 'v1');
    const first = await Promise.all([build(root), build(root)]);
    for (const result of first) expect(result, result.output).toMatchObject({ code: 0 });
    // One of them built; the other waited for it and found the same sources built.
    expect(first.filter((r) => /up to date/.test(r.output))).toHaveLength(1);
    const firstBuild = readlinkSync(join(root, 'dist'));

    const running = await startFixture(root);
    writeSources(root, 'v2');
    const second = await Promise.all([build(root), build(root)]);
    for (const result of second) expect(result, result.output).toMatchObject({ code: 0 });
    const secondBuild = readlinkSync(join(root, 'dist'));
    expect(secondBuild).not.toBe(firstBuild);

    // The process started before keeps its own build, lazy chunk included.
    expect(await running.loadChunk()).toEqual({ code: 0, output: 'ready\nv1 lazy v1\n' });
    // A process started now runs the new sources.
    expect(await (await startFixture(root)).loadChunk()).toEqual({ code: 0, output: 'ready\nv2 lazy v2\n' });

    // Unchanged sources: nothing built, the link unchanged.
    const again = await build(root);
    expect(again.output).toMatch(/dist\/ is up to date/);
    expect(readlinkSync(join(root, 'dist'))).toBe(secondBuild);
    // No temporary folder left behind.
    expect(existsSync(join(root, '.build.lock'))).toBe(false);
  });
});

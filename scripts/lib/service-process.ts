// Runs the service as a real child process (src/main.ts through tsx, or the bundle npm start runs), for tests
// and benchmarks that kill, restart or run several instances. Shared dev tooling:
// test/ and bench/ both import it; nothing under src/ does.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The options `npm start` gives node before dist/main.js (package.json's start script), so the bundle runs as there. */
export function startNodeOptions(): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  const words = scripts.start.trim().split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'dist/main.js')
    throw new Error(`package.json's start script is not "node [options] dist/main.js": ${scripts.start}`);
  return words.slice(1, -1);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `sources` runs src/main.ts through tsx (no build step: what the tests use);
 * `build` runs what `npm start` runs, the bundle dist/main.js, which the
 * caller builds first (scripts/build.mjs; the memory benchmark does).
 */
export type ServiceEntry = 'sources' | 'build';

export async function startServiceProcess(
  env: Record<string, string>,
  entry: ServiceEntry = 'sources',
): Promise<ServiceProcess> {
  const port = await freePort();
  let output = '';
  const args = entry === 'build' ? [...startNodeOptions(), 'dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // A deadline, not a count of tries: on a loaded machine a start (a first one
  // runs initdb) can take far longer than usual, and a caller must never get a
  // service that is not listening yet.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited: ${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`service not ready after 180 s: ${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    child,
    output: () => output,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

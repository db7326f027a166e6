// Logs: pretty, colored lines on a terminal, JSON lines otherwise; and every
// log line of the service goes through pino (no console.* in src/ or rest-compat/).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';

const ROOT = new URL('../..', import.meta.url).pathname;

function capture(pretty: boolean): () => string {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d) => (text += d));
  const log = createLogger('info', { pretty, destination: stream });
  log.info({ jobId: 'j1' }, 'job finished');
  log.debug({}, 'below the level');
  return () => text;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('logs', () => {
  it('are JSON lines when the output is not a terminal', async () => {
    const text = capture(false);
    await new Promise((r) => setImmediate(r));
    const lines = text().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: 'job finished', jobId: 'j1' });
  });

  it('are pretty, colored lines on a terminal', async () => {
    const text = capture(true);
    await new Promise((r) => setTimeout(r, 20));
    const out = text();
    const plain = out.replace(/\u001b\[[0-9;]*m/g, '');
    expect(plain).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: job finished\n\s+jobId: "j1"\n$/);
    expect(out).toContain('\u001b['); // ANSI colors
    expect(() => JSON.parse(out.trim())).toThrow();
    expect(out).not.toContain('below the level');
  });

  it('go through pino only: no console.* in the service code', () => {
    const offenders = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'rest-compat'))]
      .filter((file) => /\bconsole\.(log|error|warn|info|debug|table|trace)\s*\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });
});

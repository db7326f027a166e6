// GET /in-context/i18next-incontext.js: the in-context plugin for a <script>
// tag (docs/in-context.md), the IIFE built from packages/i18next-incontext by
// scripts/build-incontext.mjs (npm start builds it). A stable URL: the file
// is revalidated by its ETag after five minutes, so a new service version's
// plugin reaches pages within minutes without a changed URL. It holds no
// secret and no project's data; the token is the page's.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PROJECT_DIR } from '../paths.js';
import { sendEnvelope } from './envelope.js';

export const IN_CONTEXT_SCRIPT_PATH = '/in-context/i18next-incontext.js';
const FILE = join(PROJECT_DIR, 'packages', 'i18next-incontext', 'dist', 'i18next-incontext.iife.js');

let cached: { mtimeMs: number; body: Buffer; etag: string } | undefined;

async function script(): Promise<typeof cached> {
  const info = await stat(FILE).catch(() => undefined);
  if (!info) return undefined;
  if (cached?.mtimeMs !== info.mtimeMs) {
    const body = await readFile(FILE);
    cached = { mtimeMs: info.mtimeMs, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
  }
  return cached;
}

export function registerInContextScript(app: FastifyInstance): void {
  app.get(IN_CONTEXT_SCRIPT_PATH, async (request, reply) => {
    const file = await script();
    if (!file) return sendEnvelope(reply, 404, 'The in-context plugin is not built: run `npm run build` (scripts/build-incontext.mjs)');
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('etag', file.etag)
      .header('x-content-type-options', 'nosniff')
      // Loaded by pages of other origins, as a classic script or a module.
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin');
    if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
    return reply.send(file.body);
  });
}

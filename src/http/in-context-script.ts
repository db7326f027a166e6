// The in-context plugin's files (docs/in-context.md), built from
// packages/i18next-incontext by scripts/build-incontext.mjs (npm start builds
// them):
// - GET /in-context/i18next-incontext.js: the plugin's core for a <script>
//   tag (the IIFE);
// - GET /in-context/editor.js: the editor, an ES module the core (either
//   build) imports from here at run time, only when it has a token; it is
//   not in the npm package, so no application's build carries it.
// Stable URLs: each file is revalidated by its ETag after five minutes, so a
// new service version's files reach pages within minutes without a changed
// URL. They hold no secret and no project's data; the token is the page's.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PROJECT_DIR } from '../paths.js';
import { sendEnvelope } from './envelope.js';

export const IN_CONTEXT_SCRIPT_PATH = '/in-context/i18next-incontext.js';
export const IN_CONTEXT_EDITOR_PATH = '/in-context/editor.js';
const PACKAGE_DIR = join(PROJECT_DIR, 'packages', 'i18next-incontext');

interface StaticScript {
  mtimeMs: number;
  body: Buffer;
  etag: string;
}

/** A built file read once and again when it changes (a rebuild swaps it in). */
function builtFile(file: string): () => Promise<StaticScript | undefined> {
  let cached: StaticScript | undefined;
  return async () => {
    const info = await stat(file).catch(() => undefined);
    if (!info) return undefined;
    if (cached?.mtimeMs !== info.mtimeMs) {
      const body = await readFile(file);
      cached = {
        mtimeMs: info.mtimeMs,
        body,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      };
    }
    return cached;
  };
}

export function registerInContextScript(app: FastifyInstance): void {
  const files: [path: string, read: () => Promise<StaticScript | undefined>, name: string][] = [
    [IN_CONTEXT_SCRIPT_PATH, builtFile(join(PACKAGE_DIR, 'dist', 'i18next-incontext.iife.js')), 'in-context plugin'],
    [IN_CONTEXT_EDITOR_PATH, builtFile(join(PACKAGE_DIR, 'editor-dist', 'editor.js')), 'in-context editor'],
  ];
  for (const [path, read, name] of files) {
    app.get(path, async (request, reply) => {
      const file = await read();
      if (!file)
        return sendEnvelope(
          reply,
          404,
          `The ${name} is not built: run \`npm run build\` (scripts/build-incontext.mjs)`,
        );
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .header('etag', file.etag)
        .header('x-content-type-options', 'nosniff')
        // Loaded by applications' pages on other origins: as a classic script, or
        // (the editor) by `import()`, a CORS request the page must be allowed to
        // read. `*` for any origin is safe here: these are public, static code
        // without a secret or a project's data, and never sent with credentials;
        // what guards a project is its token, usable only from the origins the
        // project allows (src/http/in-context-cors.ts).
        .header('access-control-allow-origin', '*')
        .header('cross-origin-resource-policy', 'cross-origin');
      if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
      return reply.send(file.body);
    });
  }
}

// Serves the web console (built from web/ into web/dist by scripts/build-web.mjs,
// which `npm start` and `npm test` run first) at `/`, the same origin as /graphql.
// Only the built files are routes: every other path keeps the API's 404 envelope
// (the console routes with the URL hash). No asset comes from elsewhere: a
// Content-Security-Policy says so to the browser.
import { existsSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { PROJECT_DIR } from '../paths.js';

export const CONSOLE_DIST = join(PROJECT_DIR, 'web', 'dist') + sep;

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

export async function registerConsole(app: FastifyInstance, dist = CONSOLE_DIST): Promise<void> {
  if (!existsSync(`${dist}index.html`)) {
    app.get('/', async (_req, reply) =>
      reply
        .status(503)
        .type('text/plain')
        .send('The web console is not built: run `npm run generate` (npm start and npm test do it).'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    // The build itself, not the link web/dist: a later build switches the link
    // (scripts/build-web.mjs), and this process keeps serving the files it routed.
    root: realpathSync(dist) + sep,
    prefix: '/',
    // One route per built file, read at start: unknown paths stay the API's 404.
    wildcard: false,
    index: ['index.html'],
    // The build's .br and .gz copies (scripts/lib/precompress.mjs), sent to browsers that accept them.
    preCompressed: true,
    setHeaders: (res, path) => {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.header(name, value);
      // Hashed asset names never change content; index.html must be revalidated.
      res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

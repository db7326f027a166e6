// The small i18next application of the in-context browser tests
// (test/support/in-context-app/), built with Vite like a real application
// (its editor then imported from the service at run time),
// its service URL and token from the build's environment, and served by a
// static HTTP server on loopback: another origin than the service's.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { build } from 'vite';
// @ts-expect-error: a JavaScript build script without declarations.
import { PACKAGE_DIR } from '../../scripts/build-incontext.mjs';

const APP_DIR = join(import.meta.dirname, 'in-context-app');

/** Builds the application into outDir; without a token, as a production build would. */
export async function buildApp(outDir: string, env: { serviceUrl: string; token?: string }): Promise<void> {
  await build({
    root: APP_DIR,
    configFile: false,
    logLevel: 'silent',
    // The package as published: its built ES module (dist/index.js, the core; the editor comes from the service).
    resolve: { alias: { '@localization-service/i18next-incontext': join(PACKAGE_DIR, 'dist', 'index.js') } },
    define: {
      'import.meta.env.VITE_SERVICE_URL': JSON.stringify(env.serviceUrl),
      'import.meta.env.VITE_INCONTEXT_TOKEN': JSON.stringify(env.token ?? ''),
    },
    build: { outDir, emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
};

/** Serves a folder on 127.0.0.1; resolves to its origin and the server. */
export async function serveFolder(dir: string): Promise<{ origin: string; server: Server }> {
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  };
  const server = createServer((req, res) => void serve(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${address.port}`, server };
}

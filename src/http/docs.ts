// The REST API's description and reference page: /openapi.json (generated
// from the route declarations, rest-compat/openapi.ts) and /docs, Swagger UI
// served from the swagger-ui-dist package: no asset comes from the internet,
// so the page works on an offline installation.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';

// Only the package's directory: its main module would load Swagger UI's browser bundle into the service.
const ASSET_DIR = (createRequire(import.meta.url)('swagger-ui-dist/absolute-path.js') as () => string)();

/** The files of swagger-ui-dist the page loads, and their content types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Localization service REST API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to an online
// validator. BaseLayout: no top bar for loading other documents.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

export function registerDocs(app: FastifyInstance, document: object): void {
  const json = JSON.stringify(document);
  const cache = new Map<string, Buffer>();
  app.get('/openapi.json', (_request, reply) => reply.type('application/json; charset=utf-8').send(json));
  app.get('/docs', (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get('/docs/init.js', (_request, reply) => reply.type('application/javascript; charset=utf-8').send(INIT));
  app.get<{ Params: { file: string } }>('/docs/:file', async (request, reply) => {
    const { file } = request.params;
    const type = ASSETS[file];
    if (!type) return reply.callNotFound();
    let body = cache.get(file);
    if (!body) {
      body = await readFile(join(ASSET_DIR, file));
      cache.set(file, body);
    }
    return reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
  });
}

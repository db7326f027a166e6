// GET /api/v2/screenshots/{id}/image and /thumbnail: the bytes of a screenshot,
// for a credential that may read its project (an API key of the project, a
// member's personal token, basic credentials or console session: the same
// resolveProject check as the GraphQL fields). A screenshot of a project the
// credential cannot reach is a 404, like one that does not exist. The bytes go
// out with the type read from them at upload, never sniffed, and a policy
// that lets a browser do nothing with them but show an image.
import type { FastifyInstance } from 'fastify';
import { resolvePrincipal } from '../auth/principal.js';
import { AppError, HTTP_STATUS } from '../errors.js';
import { resolveProject } from '../projects/access.js';
import { openScreenshotObject, projectTokenOfScreenshot } from '../screenshots/screenshots.js';
import { need } from '../teams/permissions.js';
import { sendEnvelope } from './envelope.js';
import { requestHeaders } from './execute.js';
import { inContextCorsHeaders, isInContextRequest } from './in-context-cors.js';

const WHICH = { image: 'image', thumbnail: 'thumbnail' } as const;

export function registerScreenshotFiles(app: FastifyInstance): void {
  // The in-context editor shows thumbnails from the application's origin (src/http/in-context-cors.ts).
  app.options('/api/v2/screenshots/:id/:which', async (request, reply) => {
    const headers = requestHeaders(request.headers);
    const cors = isInContextRequest({ method: 'OPTIONS', headers })
      ? await inContextCorsHeaders({ method: 'OPTIONS', headers })
      : null;
    if (cors) reply.headers(cors);
    return reply.status(204).send();
  });
  app.get<{ Params: { id: string; which: string } }>('/api/v2/screenshots/:id/:which', async (request, reply) => {
    const which = WHICH[request.params.which as keyof typeof WHICH];
    const id = /^[1-9][0-9]{0,9}$/.test(request.params.id) ? Number(request.params.id) : NaN;
    if (!which || !Number.isSafeInteger(id) || id > 2 ** 31 - 1)
      return sendEnvelope(reply, 404, `No such screenshot file: ${request.url.split('?')[0]}`);
    try {
      const headers = requestHeaders(request.headers);
      if (isInContextRequest({ method: 'GET', headers })) {
        const cors = await inContextCorsHeaders({ method: 'GET', headers });
        if (cors) reply.headers(cors);
      }
      const principal = await resolvePrincipal(headers);
      const projectToken = await projectTokenOfScreenshot(id);
      // Checked before the existence is told: a credential of no project learns nothing.
      const projectId = await resolveProject(principal, projectToken ?? '-', need('screenshot'));
      const { object, contentType } = await openScreenshotObject(projectId, id, which);
      return (
        reply
          .header('content-type', contentType)
          .header('content-length', String(object.size))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('content-disposition', 'inline')
          // The bytes of an id never change, but access may end: kept by the browser only, briefly.
          .header('cache-control', 'private, max-age=300')
          .send(object.body)
      );
    } catch (error) {
      if (error instanceof AppError) return sendEnvelope(reply, HTTP_STATUS[error.code], error.message);
      throw error;
    }
  });
}

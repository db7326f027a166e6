// POST /api/git/hooks/:id: a forge's push webhook for a Git connection
// (src/gitsync/hooks.ts verifies and starts the pull). The body is kept as
// bytes: GitHub's signature is over them exactly as sent.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { AppError, HTTP_STATUS } from '../errors.js';
import { receiveForgeHook } from '../gitsync/hooks.js';
import { sendEnvelope } from './envelope.js';

export function registerGitHooks(app: FastifyInstance, config: Config): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post<{ Params: { id: string } }>(
      '/api/git/hooks/:id',
      { bodyLimit: config.requestLimits.bulkBodyBytes },
      async (request, reply) => {
        const id = /^\d{1,9}$/.test(request.params.id) ? Number(request.params.id) : NaN;
        try {
          const outcome = await receiveForgeHook(
            id,
            request.headers,
            (request.body as Buffer | undefined) ?? Buffer.alloc(0),
            config,
          );
          return sendEnvelope(reply, outcome.pull ? 202 : 200, outcome.message);
        } catch (error) {
          if (error instanceof AppError) return sendEnvelope(reply, HTTP_STATUS[error.code], error.message);
          throw error;
        }
      },
    );
  });
}

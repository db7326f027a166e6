// GET /download/{id}/{fileName}: the files of exports. No credential is
// needed: the id (192 random bits) is the secret, and a file answers 404 once
// it has expired (EXPORT_TTL_SECONDS). A sweeper deletes expired files.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { sendEnvelope } from './envelope.js';
import { openDownload, purgeExpiredExports } from '../transfer/export-files.js';

const SWEEP_INTERVAL_MS = 15 * 60_000;

/** attachment; with an ASCII fallback name and the exact name in RFC 5987 form. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export function registerDownloads(app: FastifyInstance, config: Config): void {
  app.get<{ Params: { id: string; fileName: string } }>('/download/:id/:fileName', async (request, reply) => {
    const { id, fileName } = request.params;
    const download = /^[A-Za-z0-9_-]{32}$/.test(id) ? await openDownload(config, id, fileName) : undefined;
    if (!download) return sendEnvelope(reply, 404, 'This download does not exist or has expired; export again');
    return reply
      .header('content-type', download.contentType)
      .header('content-length', String(download.object.size))
      .header('content-disposition', contentDisposition(download.fileName))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(download.object.body);
  });

  const sweep = () => {
    purgeExpiredExports(config).catch((error: unknown) =>
      app.log.warn({ err: error }, 'purging expired exports failed'),
    );
  };
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

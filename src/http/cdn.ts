// Serves published translation files at the path of CDN_URL (default /cdn):
// `{cdn}/{projectToken}/{environmentKey}/{resource path}` resolves through the
// environment's current publication, so a switch is atomic for readers too.
// ETag / If-None-Match (304), Cache-Control per environment, CORS for browser
// apps on any origin, and precompressed gzip / brotli variants chosen by
// Accept-Encoding. HEAD answers from the publication's metadata alone.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { sendEnvelope } from './envelope.js';
import { storage } from '../storage/index.js';
import { objectKey, type Encoding, type PublishedResource } from '../hosting/layout.js';
import { forgetServed, servedEnvironment } from '../hosting/served.js';
import { LATEST } from '../hosting/environments.js';

/** _latest changes often: always revalidate (cheap with ETags). Others: five minutes. */
export function cacheControlFor(environmentKey: string): string {
  return environmentKey === LATEST ? 'public, no-cache' : 'public, max-age=300, must-revalidate';
}

/** The path the service serves files at: CDN_URL's path, or /cdn when CDN_URL has none (an external CDN in front). */
export function cdnBasePath(cdnUrl: string): string {
  const path = new URL(cdnUrl).pathname.replace(/\/+$/, '');
  return path === '' ? '/cdn' : path;
}

const WHOLE_READ_BYTES = 1024 * 1024;

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Content-Length, Content-Encoding, X-Publication-Version',
};

/** Encodings the client accepts (q > 0), by the Accept-Encoding header. */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    if (name === '*') {
      accepted.add('br');
      accepted.add('gzip');
    } else accepted.add(name);
  }
  return accepted;
}

function chooseEncoding(resource: PublishedResource, header: string | undefined): { encoding: Encoding; size: number } {
  const accepted = acceptedEncodings(header);
  if (resource.br !== undefined && accepted.has('br')) return { encoding: 'br', size: resource.br };
  if (resource.gzip !== undefined && accepted.has('gzip')) return { encoding: 'gzip', size: resource.gzip };
  return { encoding: 'identity', size: resource.size };
}

const etagOf = (hash: string, encoding: Encoding) =>
  `"${hash}${encoding === 'identity' ? '' : encoding === 'gzip' ? '-gz' : '-br'}"`;

/** If-None-Match matches any representation of the same content (weak comparison). */
function notModified(header: string | undefined, hash: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    if (t === '*') return true;
    const opaque = t.replace(/^W\//, '').replace(/^"|"$/g, '');
    return opaque === hash || opaque === `${hash}-gz` || opaque === `${hash}-br`;
  });
}

function notFound(reply: FastifyReply, path: string): FastifyReply {
  reply.header('cache-control', 'no-cache');
  return sendEnvelope(reply, 404, `No published file at ${path}`, undefined, CORS);
}

export function registerCdn(app: FastifyInstance, config: Config): void {
  const base = cdnBasePath(config.cdnUrl);

  async function serve(request: FastifyRequest, reply: FastifyReply) {
    const rawPath = request.url.split('?')[0]!.slice(base.length + 1);
    let decoded: string;
    try {
      decoded = decodeURIComponent(rawPath);
    } catch {
      return notFound(reply, rawPath);
    }
    const [projectToken, environmentKey, ...rest] = decoded.split('/');
    const path = rest.join('/');
    if (!projectToken || !environmentKey || !path) return notFound(reply, decoded);
    const served = await servedEnvironment(projectToken, environmentKey);
    const resource = served?.files.get(path);
    if (!served || !resource) return notFound(reply, decoded);

    const { encoding, size } = chooseEncoding(resource, request.headers['accept-encoding']);
    reply.headers({
      ...CORS,
      'cache-control': cacheControlFor(environmentKey),
      vary: 'Accept-Encoding',
      etag: etagOf(resource.hash, encoding),
      'x-publication-version': served.version,
    });
    if (notModified(request.headers['if-none-match'], resource.hash)) return reply.status(304).send();

    reply.header('content-type', 'application/json; charset=utf-8');
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    reply.header('content-length', String(size));
    if (request.method === 'HEAD') return reply.status(200).send();
    const object = await storage().get(
      objectKey(projectToken, environmentKey, served.version, resource.hash, encoding),
    );
    if (!object) {
      // The cached version was replaced and collected meanwhile: look again next time.
      forgetServed(projectToken, environmentKey);
      reply.removeHeader('content-length');
      reply.removeHeader('content-encoding');
      reply.removeHeader('etag');
      return notFound(reply, decoded);
    }
    if (size > WHOLE_READ_BYTES) return reply.status(200).send(object.body);
    // Small files (nearly all) go out in one write: the response is finished as
    // soon as it is handed to the socket, and no file stays open for a slow client.
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
    return reply.status(200).send(Buffer.concat(chunks));
  }

  app.route({ method: ['GET', 'HEAD'], url: `${base}/*`, exposeHeadRoute: false, handler: serve });
  app.route({
    method: 'OPTIONS',
    url: `${base}/*`,
    handler: (request, reply) => {
      reply.headers({
        ...CORS,
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': request.headers['access-control-request-headers'] ?? 'If-None-Match',
        'access-control-max-age': '86400',
      });
      return reply.status(204).send();
    },
  });
}

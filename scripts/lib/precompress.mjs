// Writes a brotli (.br) and a gzip (.gz) copy beside each text file of a
// built folder, where it is smaller, once at build time: the service sends the
// copy a browser accepts (@fastify/static's preCompressed, src/http/console.ts)
// and compresses nothing per request.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(js|mjs|css|html|svg|json|txt|map)$/;

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** Returns the bytes before and after (brotli) of the files compressed. */
export function precompress(dir) {
  let before = 0;
  let after = 0;
  for (const file of filesUnder(dir).filter((f) => TEXT.test(f))) {
    const bytes = readFileSync(file);
    const br = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    const gz = gzipSync(bytes, { level: 9 });
    if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
    if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
    before += bytes.length;
    after += Math.min(br.length, bytes.length);
  }
  return { before, after };
}

// How a publication's files are precompressed (writer.ts; the benchmark's SQL
// baseline uses the same settings). A file is compressed once per publication
// and served many times, so the settings trade publish time against bytes
// served; the figures behind the choice are in docs/benchmarks.md ("Figures
// behind constants in the code").
//
// gzip 9 costs several times gzip 6 for files barely smaller, and browsers ask
// for brotli anyway (gzip goes to older clients and tools): gzip 6. Brotli 6
// is close to quality 7's bytes in a fraction of its time; 5 and below give
// larger files.
import { constants, type BrotliOptions, type ZlibOptions } from 'node:zlib';

export const GZIP_OPTIONS: ZlibOptions = { level: 6 };

export const BROTLI_QUALITY = 6;

export function brotliOptions(size: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

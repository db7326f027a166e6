// How a publication's files are precompressed (writer.ts; the benchmark's SQL
// baseline uses the same settings). A file is compressed once per publication
// and served many times, so the settings trade publish time against bytes
// served; the figures behind the choice are in docs/benchmarks.md ("Figures
// behind constants in the code").
//
// gzip 9 costs 5–9 times gzip 6 for files at most 1.5 % smaller, and browsers
// ask for brotli anyway (gzip goes to older clients and tools): gzip 6. Brotli
// 6 is within 2 % of quality 7's bytes at a third to a half of its time;
// quality 5 loses up to 3 %, and 4 gives files twice the size on large
// projects.
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

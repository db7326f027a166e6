// How a publication's files are precompressed (writer.ts; the benchmark's SQL
// baseline uses the same settings). A file is compressed once per publication
// and served many times, so the settings trade publish time against bytes
// served. Measured on one core (node:zlib, 2026-11-25):
//
//   file                                   gzip 6   gzip 9   br 4     br 5     br 6     br 7
//   `_index` of 2M translations, 193 MiB   2.2 s    20.7 s   1.2 s    1.7 s    2.0 s    5.6 s
//     compressed to (% of the JSON)        6.80     6.72     9.46     4.93     4.84     4.88
//   one language of it, 19 MiB             0.31 s   1.5 s    0.12 s   0.16 s   0.21 s   0.36 s
//   real files of 24–55 KiB (../shared/corpus/json: overseerr lt, excalidraw ru, actualbudget cs), % of the JSON:
//     gzip 6  20.15 26.77 37.89   gzip 9  19.86 26.69 37.86
//     br 5    19.38 25.90 36.97   br 6    19.18 25.48 36.94   br 7  19.09 25.06 36.31
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

// An import run by the import's domain function (src/transfer/import.ts) in
// this process, as the REST route runs it once the upload is saved: for the
// scenarios that compare the write gate with one of its parts left out
// (GateParts), which no request can ask for. Both sides of such a comparison
// import this way, so their ratio is the part's cost.
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { GateParts } from '../../src/content/translations/gate.js';
import { importFile } from '../../src/transfer/import.js';
import type { ImportOption } from '../../src/transfer/options.js';
import { saveUpload } from '../../src/transfer/uploaded-file.js';
import { projectIdOf } from './project-id.js';
import type { BenchService } from './service.js';

export async function importDirect(
  bench: BenchService,
  projectToken: string,
  file: Buffer,
  options: { importOptions?: ImportOption[]; gateParts?: GateParts } = {},
): Promise<void> {
  const { config, db } = bench.service;
  const projectId = await projectIdOf(db.prisma, projectToken);
  const upload = await saveUpload(
    Readable.from([file]),
    join(config.dataDir, 'tmp'),
    'translations.json',
    'application/json',
  );
  try {
    await importFile({
      projectId,
      uploadFormat: 'multi-language-json',
      file: upload,
      options: options.importOptions ?? [],
      maxUploadBytes: config.maxUploadBytes,
      chunkCells: config.importChunkCells,
      ...(options.gateParts && { gateParts: options.gateParts }),
    });
  } finally {
    await upload.remove();
  }
}

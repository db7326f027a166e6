// Where an export's writers put their output: a temp file per exported file
// (and one per extra section, appended at the end), so the bytes of a file
// never accumulate in memory. The caller removes the temp folder.
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import type { FileChunk, WriterOutput } from '../formats/model.js';

export interface WrittenFile {
  path: string;
  size: number;
}

/** Bytes a file may have in flight to the disk before its writer waits: a few pages. */
const BUFFER_BYTES = 1 << 20;

export class FileSink {
  private readonly sections: WriteStream[] = [];
  private size = 0;

  constructor(private readonly path: string) {}

  async add(output: WriterOutput): Promise<void> {
    const chunks: FileChunk[] = typeof output === 'string' || Buffer.isBuffer(output) ? [output] : output.sections;
    for (let i = 0; i < chunks.length; i++) {
      const chunk = chunks[i]!;
      if (chunk.length === 0) continue;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      this.size += bytes.length;
      const stream = this.section(i);
      // Respect backpressure: wait for the disk rather than buffer the file.
      if (!stream.write(bytes)) await once(stream, 'drain');
    }
  }

  private section(i: number): WriteStream {
    for (let n = this.sections.length; n <= i; n++)
      this.sections.push(createWriteStream(n === 0 ? this.path : `${this.path}.${n}`, { highWaterMark: BUFFER_BYTES }));
    return this.sections[i]!;
  }

  /** Closes the file, with its sections appended in order. */
  async finish(): Promise<WrittenFile> {
    const main = this.section(0);
    for (let n = 1; n < this.sections.length; n++) {
      const part = this.sections[n]!;
      part.end();
      await once(part, 'close');
      // Copied chunk by chunk (pipeline with end: false would leave listeners on `main` per section).
      for await (const chunk of createReadStream(`${this.path}.${n}`)) {
        if (!main.write(chunk)) await once(main, 'drain');
      }
    }
    main.end();
    await once(main, 'close');
    return { path: this.path, size: this.size };
  }

  /** Closes the streams without finishing (the export failed). */
  abort(): void {
    for (const stream of this.sections) stream.destroy();
  }
}

export function tempFilePath(dir: string, index: number): string {
  return join(dir, `file-${index}`);
}

// An S3-compatible server on loopback for tests: s3rver (in process, files in
// a temporary folder), with the one bucket the service is configured with.
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

// s3rver ships no type declarations; the constructor's shape is declared above.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export interface FakeS3 {
  endpoint: string;
  bucket: string;
  /** Credentials s3rver accepts. */
  accessKeyId: string;
  secretAccessKey: string;
  close(): Promise<void>;
}

export async function startFakeS3(bucket = 'translations'): Promise<FakeS3> {
  const directory = await mkdtemp(join(tmpdir(), 'fake-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

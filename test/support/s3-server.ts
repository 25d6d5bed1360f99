import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** s3rver's fixed credentials: it checks every request's SigV4 signature against them. */
export const S3_TEST_CREDENTIALS = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };

export interface TestS3Server {
  url: string;
  bucket: string;
  /** Where s3rver keeps the objects (for asserting what was written). */
  directory: string;
  /** The environment that points the service's media store at this bucket. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** An S3 server on a random loopback port, with one empty bucket, in its own temp directory. */
export async function startS3Server(bucket = 'inbox-media'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'inbox-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    bucket,
    directory,
    env: { MEDIA_STORE: 's3', S3_ENDPOINT: url, S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: 'true', ...S3_TEST_CREDENTIALS },
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

// An S3-compatible server in this process for tests (s3rver: objects in a temporary folder,
// signatures checked against its fixed S3RVER / S3RVER credentials).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../config.ts';

export interface TestS3Server {
  /** The store's settings for this server's one bucket (path-style, its credentials). */
  settings: S3Settings;
  /** The same as FILE_STORE=s3 settings, for a server started as a child process. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export const TEST_BUCKET = 'versus-test';

export async function startS3Server(): Promise<TestS3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'versus-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: TEST_BUCKET }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    settings: {
      bucket: TEST_BUCKET,
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    },
    env: { FILE_STORE: 's3', S3_BUCKET: TEST_BUCKET, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' },
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

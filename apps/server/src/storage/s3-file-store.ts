// FILE_STORE=s3: any S3-compatible bucket through AWS's own SDK; the key is the object key.
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../config.ts';
import { checkKey, type FileStore, type StoredFile } from './file-store.ts';

type Sdk = typeof import('@aws-sdk/client-s3');

/** A 404 from S3, whatever the service calls it (NoSuchKey, NotFound, or no code at all). */
function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

export class S3FileStore implements FileStore {
  constructor(
    private readonly sdk: Sdk,
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  /** Loads the SDK (only a site that chose S3 pays for it) and makes its client. */
  static async open(settings: S3Settings): Promise<S3FileStore> {
    const sdk = await import('@aws-sdk/client-s3');
    const client = new sdk.S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.credentials,
      // The SDK's newer default checksums are refused by some S3-compatible services.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return new S3FileStore(sdk, client, settings.bucket);
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    checkKey(key);
    await this.client.send(
      new this.sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentType: contentType, ContentLength: data.length }),
    );
  }

  async get(key: string): Promise<StoredFile | null> {
    checkKey(key);
    try {
      const object = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const bytes = await object.Body!.transformToByteArray();
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return { data, contentType: object.ContentType ?? 'application/octet-stream', size: data.length };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  close(): void {
    this.client.destroy();
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      if (isNotFound(error)) throw new Error(`S3 bucket "${this.bucket}" does not exist`, { cause: error });
      throw error;
    }
  }
}

import type { Readable } from 'node:stream';
import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { S3Config } from '../../infra/config/app-config.js';
import { DependencyUnavailableError } from '../../infra/http/dependency-errors.js';
import { isUuid } from '../inbox/dto/id.pipe.js';
import { isMediaFileName } from './media-file-name.js';
import type { MediaMeta, MediaStore, StoredMedia } from './media-store.port.js';

// S3 user metadata travels in `x-amz-meta-*` headers, which hold ASCII only: the sender's file
// name is stored percent-encoded.
const FILE_NAME_META = 'file-name';

/**
 * Media in an S3-compatible bucket (MEDIA_STORE=s3), so every api and worker process, on any
 * machine, reads and writes the same files: `<S3_KEY_PREFIX><workspace>/<file>`, with the content
 * type as the object's `Content-Type` and the file name as user metadata. A PUT is atomic in S3
 * (readers see the old object or the whole new one), which is the port's promise.
 */
@Injectable()
export class S3MediaStore implements MediaStore, OnApplicationShutdown {
  private readonly client: S3Client;

  constructor(private readonly s3: S3Config) {
    this.client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      credentials: s3.credentials,
      forcePathStyle: s3.forcePathStyle,
      // Checksums only where S3 requires them: many S3-compatible stores (older MinIO, Ceph, the
      // test server) refuse or mangle the SDK's default CRC trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A media download is a job (retried by the queue) and a GET has a client waiting: fail fast.
      maxAttempts: 2,
    });
  }

  async put(workspaceId: string, file: string, bytes: Buffer, meta: MediaMeta): Promise<void> {
    const object = new PutObjectCommand({
      Bucket: this.s3.bucket,
      Key: this.key(workspaceId, file),
      Body: bytes,
      ContentLength: bytes.length,
      ContentType: meta.mimeType,
      Metadata: meta.fileName ? { [FILE_NAME_META]: encodeURIComponent(meta.fileName) } : {},
    });
    await this.call(() => this.client.send(object));
  }

  async get(workspaceId: string, file: string): Promise<StoredMedia | null> {
    try {
      const key = this.key(workspaceId, file);
      const object = await this.call(() => this.client.send(new GetObjectCommand({ Bucket: this.s3.bucket, Key: key })));
      const encoded = object.Metadata?.[FILE_NAME_META];
      return {
        mimeType: object.ContentType || 'application/octet-stream',
        fileName: encoded ? decodeFileName(encoded) : null,
        size: object.ContentLength ?? 0,
        // In Node the body is the HTTP response itself (a Readable): streamed, never buffered.
        stream: object.Body as Readable,
      };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(workspaceId: string, file: string): Promise<boolean> {
    try {
      const key = this.key(workspaceId, file);
      await this.call(() => this.client.send(new HeadObjectCommand({ Bucket: this.s3.bucket, Key: key })));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  onApplicationShutdown(): void {
    this.client.destroy();
  }

  /**
   * The bucket unreachable (no answer at all) or failing (5xx, throttling) is a dependency outage:
   * the API answers 503 and a download job is retried. Anything else (403 on bad credentials, a
   * missing bucket) is a configuration error and stays one.
   */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (!isMissing(error) && (status === undefined || status >= 500 || status === 429 || status === 503)) {
        throw new DependencyUnavailableError(`media store unavailable: ${(error as Error).message}`, { cause: error });
      }
      throw error;
    }
  }

  /** Both parts are checked again here, as in the local store: no caller can name another key. */
  private key(workspaceId: string, file: string): string {
    if (!isUuid(workspaceId) || !isMediaFileName(file)) throw new Error(`media store: refused key ${JSON.stringify([workspaceId, file])}`);
    return `${this.s3.keyPrefix}${workspaceId.toLowerCase()}/${file}`;
  }
}

function isMissing(error: unknown): boolean {
  // GET says NoSuchKey; HEAD has no body, so only its status says NotFound.
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);
}

function decodeFileName(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { BYTES_PER_GB, ServiceFailure } from '@transmute/contracts';
import { FILE_STREAM_CHUNK_BYTES, type Storage, type StoredObject, type UploadOptions, type UploadTarget, assertSafeKey } from './storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (MinIO); empty for AWS. Path-style addressing when set. */
  endpoint: string;
  /** Where clients reach the store, when not at `endpoint` (in a cluster: an ingress or a node port); empty: `endpoint`. */
  publicEndpoint?: string;
  /** Empty: the AWS SDK's default chain (environment, instance role ...). */
  accessKeyId: string;
  secretAccessKey: string;
}

/** Parts of a multipart upload: S3's minimum is 5 MiB; two in flight bound the memory one upload holds. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/** The spec: "the file is application/octet-stream", whatever it holds; stored and served as such. */
export const STORED_CONTENT_TYPE = 'application/octet-stream';
/** S3 takes at most 5 GB in one POST; a ceiling above that is S3's, not the quota's. */
const POST_MAX_BYTES = 5 * BYTES_PER_GB;

/**
 * The platform's storage in an S3 bucket (AWS or MinIO). Clients upload with a
 * presigned POST policy that fixes Content-Type and bounds the size to the
 * account's remaining quota (a presigned PUT cannot bound a size it does not
 * know), or, without a ceiling, a presigned PUT that signs Content-Type; and
 * download with a presigned GET that names the file.
 */
export class S3Storage implements Storage {
  private readonly client: S3Client;
  /** Signs the links clients use; SigV4 signs the host, so a link must be signed for the address the client will call. */
  private readonly signer: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    this.client = s3Client(options, options.endpoint);
    this.signer = options.publicEndpoint ? s3Client(options, options.publicEndpoint) : this.client;
  }

  /**
   * Creates the bucket unless it exists (TRANSMUTE_STORAGE_S3_CREATE_BUCKET):
   * for a store the platform runs itself, where nobody made it beforehand.
   * Two services racing here both succeed.
   */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
      return;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: this.options.bucket }));
    } catch (error) {
      if ((error as { name?: string }).name !== 'BucketAlreadyOwnedByYou') throw error;
    }
  }

  async put(key: string, body: Readable): Promise<StoredObject> {
    assertSafeKey(key);
    let size = 0;
    body.on('data', (chunk: Buffer) => (size += chunk.length));
    await new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: key, Body: body, ContentType: STORED_CONTENT_TYPE },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
    }).done();
    return { size };
  }

  async putFile(key: string, path: string): Promise<StoredObject> {
    const { size } = await stat(path);
    await this.put(key, createReadStream(path, { highWaterMark: FILE_STREAM_CHUNK_BYTES }));
    return { size };
  }

  async getFile(key: string, path: string, signal?: AbortSignal): Promise<void> {
    await pipeline(await this.get(key), createWriteStream(path, { highWaterMark: FILE_STREAM_CHUNK_BYTES }), { signal });
  }

  async get(key: string): Promise<Readable> {
    assertSafeKey(key);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      if (!(object.Body instanceof Readable)) throw new Error(`S3 answered GET ${key} without a body stream`);
      return object.Body;
    } catch (error) {
      if (isNotFound(error)) throw ServiceFailure.notFound(`no stored file ${key}`);
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    assertSafeKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  /** Listed a page (up to 1000 keys) at a time and deleted in one request per page. A bucket lifecycle rule can do the same. */
  async deleteOlderThan(cutoff: Date): Promise<number> {
    let deleted = 0;
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.options.bucket })) {
      const expired = (page.Contents ?? []).filter((object) => object.Key && object.LastModified && object.LastModified < cutoff);
      if (expired.length === 0) continue;
      const answer = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: expired.map((object) => ({ Key: object.Key! })), Quiet: true } }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length > 0) throw new Error(`S3 refused to delete ${failed.length} expired object(s), e.g. ${failed[0]?.Key}: ${failed[0]?.Message}`);
      deleted += expired.length;
    }
    return deleted;
  }

  async presignUpload(key: string, options: UploadOptions): Promise<UploadTarget> {
    assertSafeKey(key);
    if (options.ceiling) return this.presignPost(key, options, options.ceiling.maxBytes);
    const command = new PutObjectCommand({ Bucket: this.options.bucket, Key: key, ContentType: options.contentType });
    const url = await getSignedUrl(this.signer, command, { expiresIn: options.expiresInSeconds, signableHeaders: new Set(['content-type']) });
    return {
      url,
      method: 'PUT',
      headers: { 'Content-Type': options.contentType },
      parameters: {},
      expiresAt: new Date(Date.now() + options.expiresInSeconds * 1000),
    };
  }

  /**
   * A POST policy: S3 itself refuses a body over `maxBytes` (EntityTooLarge)
   * or of another Content-Type before it stores anything. The client sends a
   * multipart form: every parameter, then the file as the last field.
   */
  private async presignPost(key: string, options: UploadOptions, maxBytes: number): Promise<UploadTarget> {
    const { url, fields } = await createPresignedPost(this.signer, {
      Bucket: this.options.bucket,
      Key: key,
      // Every field is also a condition of the policy; 200 (not S3's default 204) answers like the PUT route.
      Conditions: [['content-length-range', 0, Math.min(maxBytes, POST_MAX_BYTES)]],
      Fields: { 'Content-Type': options.contentType, success_action_status: '200' },
      Expires: options.expiresInSeconds,
    });
    return { url, method: 'POST', headers: {}, parameters: fields, expiresAt: new Date(Date.now() + options.expiresInSeconds * 1000) };
  }

  async presignDownload(key: string, options: { filename: string; expiresInSeconds: number }): Promise<string> {
    assertSafeKey(key);
    const command = new GetObjectCommand({
      Bucket: this.options.bucket,
      Key: key,
      ResponseContentDisposition: contentDisposition(options.filename),
      // Signed into the link: S3 answers with this type even for an object stored with another (an older upload).
      ResponseContentType: STORED_CONTENT_TYPE,
    });
    return getSignedUrl(this.signer, command, { expiresIn: options.expiresInSeconds });
  }
}

function s3Client(options: S3StorageOptions, endpoint: string): S3Client {
  return new S3Client({
    region: options.region,
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    ...(options.accessKeyId ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } } : {}),
  });
}

function isNotFound(error: unknown): boolean {
  const { name, $metadata } = (error ?? {}) as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}

/** attachment with an ASCII fallback and the RFC 8187 UTF-8 name. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

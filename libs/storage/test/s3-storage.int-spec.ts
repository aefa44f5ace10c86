import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { type RunningMinio, startMinio } from '@transmute/devstack';
import { S3Storage } from '../src/s3-storage';
import { createStorage, openStorage } from '../src/storage.module';
import type { StorageConfig } from '../src/storage-config';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the s3 storage driver against MinIO', () => {
  let minio: RunningMinio;
  let storage: S3Storage;

  beforeAll(async () => {
    minio = await startMinio();
    const admin = new S3Client({ region: minio.region, endpoint: minio.endpoint, forcePathStyle: true, credentials: minio });
    await admin.send(new CreateBucketCommand({ Bucket: 'platform' }));
    admin.destroy();
    storage = createStorage(s3Config()) as S3Storage;
  });

  function s3Config(overrides: Partial<StorageConfig> = {}): StorageConfig {
    return {
      storageDriver: 's3',
      storageS3Bucket: 'platform',
      storageS3Region: minio.region,
      storageS3Endpoint: minio.endpoint,
      storageS3PublicEndpoint: '',
      storageS3CreateBucket: false,
      storageS3AccessKeyId: minio.accessKeyId,
      storageS3SecretAccessKey: minio.secretAccessKey,
      storageFsRoot: '',
      storageSigningKey: 'k'.repeat(32),
      publicUrl: 'http://127.0.0.1:1',
      ...overrides,
    };
  }
  afterAll(() => minio?.stop());

  it('streams a multipart-sized object in and out', async () => {
    const bytes = randomBytes(17 * 1024 * 1024 + 3); // three parts of 8 MiB
    const chunks = Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) => bytes.subarray(i * 65536, (i + 1) * 65536));
    expect(await storage.put('jobs/a/big.bin', Readable.from(chunks))).toEqual({ size: bytes.length });
    expect(await storage.stat('jobs/a/big.bin')).toEqual({ size: bytes.length });
    expect(sha256(await buffer(await storage.get('jobs/a/big.bin')))).toBe(sha256(bytes));
  });

  it('sweeps the objects last written before the cutoff and keeps the rest', async () => {
    await storage.put('jobs/sweep/a', Readable.from([Buffer.from('a')]));
    await storage.put('uploads/sweep/b', Readable.from([Buffer.from('b')]));
    expect(await storage.deleteOlderThan(new Date(Date.now() - 3_600_000))).toBe(0);
    expect(await storage.stat('jobs/sweep/a')).toEqual({ size: 1 });
    // A cutoff just ahead of now: everything in the bucket was written before it.
    const before = await storage.deleteOlderThan(new Date(Date.now() + 1_000));
    expect(before).toBeGreaterThanOrEqual(2);
    expect(await storage.stat('jobs/sweep/a')).toBeNull();
    expect(await storage.stat('uploads/sweep/b')).toBeNull();
  });

  it('answers null and NOT_FOUND for a missing object, and deletes', async () => {
    expect(await storage.stat('jobs/none')).toBeNull();
    await expect(storage.get('jobs/none')).rejects.toMatchObject({ name: 'ServiceFailure', code: 5 });
    await storage.put('jobs/b/x', Readable.from([Buffer.from('x')]));
    await storage.delete('jobs/b/x');
    expect(await storage.stat('jobs/b/x')).toBeNull();
  });

  it('hands out a signed PUT that holds the Content-Type, and a signed GET that names the file', async () => {
    const target = await storage.presignUpload('uploads/j/in', { contentType: 'image/png', expiresInSeconds: 60 });
    expect(target.headers).toEqual({ 'Content-Type': 'image/png' });
    const wrongType = await fetch(target.url, { method: 'PUT', headers: { 'Content-Type': 'text/html' }, body: 'evil' });
    expect(wrongType.status).toBe(403);
    const bytes = randomBytes(4096);
    const put = await fetch(target.url, { method: 'PUT', headers: target.headers, body: bytes });
    expect(put.status).toBe(200);

    const link = await storage.presignDownload('uploads/j/in', { filename: 'résumé.png', expiresInSeconds: 60 });
    const got = await fetch(link);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-disposition')).toContain(`filename*=UTF-8''r%C3%A9sum%C3%A9.png`);
    expect(sha256(Buffer.from(await got.arrayBuffer()))).toBe(sha256(bytes));
    const tampered = new URL(link);
    tampered.searchParams.set('response-content-disposition', 'inline');
    expect((await fetch(tampered)).status).toBe(403);
  });

  it('creates a missing bucket at start-up only when told to, and twice is harmless', async () => {
    const absent = createStorage(s3Config({ storageS3Bucket: 'made-at-start' }));
    await expect(absent.put('jobs/x', Readable.from([Buffer.from('x')]))).rejects.toMatchObject({ name: 'NoSuchBucket' });

    const [first, second] = await Promise.all([
      openStorage(s3Config({ storageS3Bucket: 'made-at-start', storageS3CreateBucket: true })),
      openStorage(s3Config({ storageS3Bucket: 'made-at-start', storageS3CreateBucket: true })),
    ]);
    await first.put('jobs/x', Readable.from([Buffer.from('x')]));
    expect(await second.stat('jobs/x')).toEqual({ size: 1 });
  });

  it('gives up with the bucket and the endpoint named when the store never answers', async () => {
    const config = s3Config({ storageS3Endpoint: 'http://127.0.0.1:9', storageS3CreateBucket: true });
    await expect(openStorage(config, 3_000)).rejects.toThrow(/could not create or find bucket platform at http:\/\/127\.0\.0\.1:9 within 3 s/);
  });

  it('signs links for the public endpoint, where clients reach the store, and still works inside', async () => {
    // The same MinIO under a second name: the services use 127.0.0.1, clients "localhost".
    const publicEndpoint = minio.endpoint.replace('127.0.0.1', 'localhost');
    const split = createStorage(s3Config({ storageS3PublicEndpoint: publicEndpoint })) as S3Storage;
    await split.put('jobs/public/a.bin', Readable.from([Buffer.from('inside')]));

    const link = await split.presignDownload('jobs/public/a.bin', { filename: 'a.bin', expiresInSeconds: 60 });
    expect(new URL(link).host).toBe(new URL(publicEndpoint).host);
    expect(await (await fetch(link)).text()).toBe('inside');
    // SigV4 signs the host: the same link sent to the other name is refused, so the split matters.
    const elsewhere = new URL(link);
    elsewhere.host = new URL(minio.endpoint).host;
    expect((await fetch(elsewhere)).status).toBe(403);

    const target = await split.presignUpload('uploads/public/b', { contentType: 'application/octet-stream', expiresInSeconds: 60 });
    expect(new URL(target.url).host).toBe(new URL(publicEndpoint).host);
    expect((await fetch(target.url, { method: 'PUT', headers: target.headers, body: 'sent' })).status).toBe(200);
    expect(await buffer(await split.get('uploads/public/b'))).toEqual(Buffer.from('sent'));
  });
});

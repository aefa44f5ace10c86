import { buffer } from 'node:stream/consumers';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type RunningMinio, startMinio } from '@transmute/devstack';
import type { FsStorage } from '@transmute/storage';
import { createGuardedAgents } from '@transmute/net-guard';
import { S3Source } from '../src/sources/s3.source';
import { context, importerConfigFor, sampleBytes, sha256, tempStorage, workFor } from './connector-fixtures';

describe('import/s3 against MinIO', () => {
  let minio: RunningMinio;
  let storage: FsStorage;
  let cleanup: () => Promise<void>;
  const bytes = sampleBytes();

  beforeAll(async () => {
    minio = await startMinio();
    ({ storage, cleanup } = await tempStorage());
    const admin = new S3Client({ region: minio.region, endpoint: minio.endpoint, forcePathStyle: true, credentials: minio });
    await admin.send(new CreateBucketCommand({ Bucket: 'sources' }));
    await admin.send(new PutObjectCommand({ Bucket: 'sources', Key: 'in/scan.tiff', Body: bytes }));
    admin.destroy();
  });
  afterAll(async () => {
    await minio?.stop();
    await cleanup?.();
  });

  const source = (allowPrivateNetworks = true) =>
    new S3Source(storage, importerConfigFor({ TRANSMUTE_ALLOW_PRIVATE_NETWORKS: String(allowPrivateNetworks) }), createGuardedAgents({ allowPrivateNetworks }));
  const spec = (fields: Record<string, string> = {}) =>
    workFor({
      operation: 'import/s3',
      bucket: 'sources',
      key: 'in/scan.tiff',
      endpoint: minio.endpoint,
      region: minio.region,
      accessKeyId: minio.accessKeyId,
      secretAccessKey: minio.secretAccessKey,
      ...fields,
    });

  it('brings the object in byte for byte', async () => {
    const imported = await source().import(spec(), context());
    expect(imported.filename).toBe('scan.tiff');
    expect(sha256(await buffer(await storage.get(imported.key)))).toBe(sha256(bytes));
  });

  it.each([
    ['a missing bucket', { bucket: 'no-such-bucket' }, /bucket no-such-bucket does not exist/],
    ['a missing object', { key: 'in/none.tiff' }, /has no object in\/none\.tiff/],
    ['a wrong secret key', { secretAccessKey: 'wrong-secret-key-0000' }, /refused the credentials \(SignatureDoesNotMatch\)/],
    ['an unknown access key', { accessKeyId: 'UNKNOWNKEY' }, /refused the credentials \(InvalidAccessKeyId\)/],
    ['an unreachable endpoint', { endpoint: 'http://127.0.0.1:1' }, /could not be reached \(ECONNREFUSED\)/],
  ])('fails with a clear message for %s', async (_name, fields, message) => {
    const attempt = source().import(spec(fields), context());
    await expect(attempt).rejects.toThrow(message);
    await expect(attempt).rejects.not.toThrow(minio.secretAccessKey);
  });

  it('refuses the loopback endpoint with the default setting', async () => {
    await expect(source(false).import(spec(), context())).rejects.toThrow(/is not allowed: 127\.0\.0\.1 is a loopback address/);
  });
});

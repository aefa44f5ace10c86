import { CreateBucketCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type RunningMinio, startMinio } from '@transmute/devstack';
import type { FsStorage } from '@transmute/storage';
import { createGuardedAgents } from '@transmute/net-guard';
import { S3Destination } from '../src/destinations/s3.destination';
import { context, exportWork, exporterConfigFor, sampleBytes, sha256, tempStorage } from './export-fixtures';

describe('export/s3 against MinIO', () => {
  let minio: RunningMinio;
  let admin: S3Client;
  let storage: FsStorage;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    minio = await startMinio();
    ({ storage, cleanup } = await tempStorage());
    admin = new S3Client({ region: minio.region, endpoint: minio.endpoint, forcePathStyle: true, credentials: minio });
    await admin.send(new CreateBucketCommand({ Bucket: 'results' }));
  });
  afterAll(async () => {
    admin?.destroy();
    await minio?.stop();
    await cleanup?.();
  });

  const destination = (allowPrivateNetworks = true) =>
    new S3Destination(storage, exporterConfigFor({ TRANSMUTE_ALLOW_PRIVATE_NETWORKS: String(allowPrivateNetworks) }), createGuardedAgents({ allowPrivateNetworks }));
  const credentials = () => ({ endpoint: minio.endpoint, region: minio.region, accessKeyId: minio.accessKeyId, secretAccessKey: minio.secretAccessKey });
  const read = async (key: string) => Buffer.from(await (await admin.send(new GetObjectCommand({ Bucket: 'results', Key: key }))).Body!.transformToByteArray());

  it('delivers a multipart-sized result byte for byte under the given key', async () => {
    const bytes = sampleBytes(19 * 1024 * 1024 + 5);
    await destination().export(
      await exportWork(storage, { operation: 'export/s3', bucket: 'results', key: 'out/video.mp4', ...credentials() }, [{ filename: 'x.mp4', bytes }]),
      context(),
    );
    expect(sha256(await read('out/video.mp4'))).toBe(sha256(bytes));
  });

  it('puts several results under a prefix, and one under its own name without a key', async () => {
    const files = [
      { filename: 'a.png', bytes: sampleBytes(2000) },
      { filename: 'b.png', bytes: sampleBytes(3000) },
    ];
    await destination().export(await exportWork(storage, { operation: 'export/s3', bucket: 'results', key: 'batch', ...credentials() }, files), context());
    for (const file of files) expect(sha256(await read(`batch/${file.filename}`))).toBe(sha256(file.bytes));
    const single = sampleBytes(100);
    await destination().export(await exportWork(storage, { operation: 'export/s3', bucket: 'results', ...credentials() }, [{ filename: 'plain.txt', bytes: single }]), context());
    expect(sha256(await read('plain.txt'))).toBe(sha256(single));
  });

  it.each([
    ['a missing bucket', { bucket: 'no-such-bucket' }, /bucket no-such-bucket does not exist/],
    ['a wrong secret key', { secretAccessKey: 'wrong-secret-key-0000' }, /refused the credentials/],
    ['an unreachable endpoint', { endpoint: 'http://127.0.0.1:1' }, /could not be reached \(ECONNREFUSED\)/],
  ])('fails with a clear message for %s', async (_name, fields, message) => {
    const work = await exportWork(storage, { operation: 'export/s3', bucket: 'results', key: 'x.png', ...credentials(), ...fields }, [
      { filename: 'x.png', bytes: sampleBytes(10) },
    ]);
    await expect(destination().export(work, context())).rejects.toThrow(message);
  });

  it('refuses the loopback endpoint with the default setting', async () => {
    const work = await exportWork(storage, { operation: 'export/s3', bucket: 'results', ...credentials() }, [{ filename: 'x.png', bytes: sampleBytes(10) }]);
    await expect(destination(false).export(work, context())).rejects.toThrow(/not allowed/);
  });
});

import { CreateBucketCommand, ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { createConnection } from 'node:net';
import { startFakeGcs, startMinio, startSshd } from '../src/infra';

/** Each test server of the connectors issue starts, answers, and stops (its port closes). */
describe('connector test servers', () => {
  const closed = (port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });

  it('starts MinIO with fresh credentials', async () => {
    const minio = await startMinio();
    try {
      expect((await fetch(`${minio.endpoint}/minio/health/ready`)).status).toBe(200);
      const client = (secretAccessKey: string) =>
        new S3Client({ region: minio.region, endpoint: minio.endpoint, forcePathStyle: true, credentials: { accessKeyId: minio.accessKeyId, secretAccessKey } });
      await client(minio.secretAccessKey).send(new CreateBucketCommand({ Bucket: 'probe' }));
      // The server checks credentials: a wrong secret is refused.
      await expect(client('wrong-secret-value').send(new ListBucketsCommand({}))).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    } finally {
      await minio.stop();
    }
    expect(await closed(Number(new URL(minio.endpoint).port))).toBe(true);
  });

  it('starts fake-gcs-server and creates buckets', async () => {
    const gcs = await startFakeGcs();
    try {
      await gcs.createBucket('probe-bucket');
      const listing = (await (await fetch(`${gcs.endpoint}/storage/v1/b`)).json()) as { items?: Array<{ name: string }> };
      expect(listing.items?.map((bucket) => bucket.name)).toContain('probe-bucket');
    } finally {
      await gcs.stop();
    }
  });

  it('starts sshd with an SSH banner on a loopback port', async () => {
    const sshd = await startSshd();
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        const socket = createConnection({ host: sshd.host, port: sshd.port });
        socket.once('data', (chunk) => {
          socket.destroy();
          resolve(chunk.toString());
        });
        socket.once('error', reject);
      });
      expect(banner).toMatch(/^SSH-2\.0-OpenSSH/);
      expect(sshd.privateKey).toContain('PRIVATE KEY');
    } finally {
      await sshd.stop();
    }
    expect(await closed(sshd.port)).toBe(true);
  });
});

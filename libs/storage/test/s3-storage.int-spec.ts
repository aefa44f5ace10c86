import { createHash, randomBytes } from 'node:crypto';
import { type IncomingHttpHeaders, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type RunningMinio, startMinio } from '@transmute/devstack';
import { S3Storage } from '../src/s3-storage';
import { createStorage, openStorage } from '../src/storage.module';
import type { StorageConfig } from '../src/storage-config';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * A pass-through in front of MinIO that notes each request's method, path and
 * headers. MinIO stores an object sent without a type as
 * application/octet-stream on its own (AWS says binary/octet-stream), so what
 * the driver sends is watched on the wire. The Host header is kept, so the
 * signatures still hold.
 */
async function recordingProxy(target: string): Promise<{ endpoint: string; seen: { method: string; path: string; headers: IncomingHttpHeaders }[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  const seen: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    const forwarded = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

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

  it('stores a local file and writes an object to one, byte for byte', async () => {
    const dir = await mkdtemp(join(tmpdir(), 's3-files-'));
    try {
      const bytes = randomBytes(9 * 1024 * 1024 + 5); // two parts
      await writeFile(join(dir, 'out.bin'), bytes);
      expect(await storage.putFile('jobs/f/out.bin', join(dir, 'out.bin'))).toEqual({ size: bytes.length });
      await storage.getFile('jobs/f/out.bin', join(dir, 'in.bin'));
      expect(sha256(await readFile(join(dir, 'in.bin')))).toBe(sha256(bytes));
      await expect(storage.getFile('jobs/none', join(dir, 'none'))).rejects.toMatchObject({ name: 'ServiceFailure', code: 5 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stores results as application/octet-stream and serves every download as such (the spec)', async () => {
    const proxy = await recordingProxy(minio.endpoint);
    const watched = createStorage(s3Config({ storageS3Endpoint: proxy.endpoint }));
    try {
      await watched.put('jobs/ct/result.png', Readable.from([randomBytes(64)]));
      await watched.put('jobs/ct/big.mp4', Readable.from([randomBytes(9 * 1024 * 1024)]));
    } finally {
      await proxy.close();
    }
    // The requests that create an object fix its type: a PutObject, or the start of a multipart upload (over 8 MiB).
    const creations = proxy.seen.filter((request) => request.path.includes('x-id=PutObject') || /[?&]uploads(=|&|$)/.test(request.path));
    expect(creations.map((request) => [request.path.split('?')[0], request.headers['content-type']])).toEqual([
      ['/platform/jobs/ct/result.png', 'application/octet-stream'],
      ['/platform/jobs/ct/big.mp4', 'application/octet-stream'],
    ]);
    const admin = new S3Client({ region: minio.region, endpoint: minio.endpoint, forcePathStyle: true, credentials: minio });
    const head = await admin.send(new HeadObjectCommand({ Bucket: 'platform', Key: 'jobs/ct/result.png' }));
    admin.destroy();
    expect(head.ContentType).toBe('application/octet-stream');
    const got = await fetch(await storage.presignDownload('jobs/ct/result.png', { filename: 'result.png', expiresInSeconds: 60 }));
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
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
    // Uploaded as image/png, served as the spec's application/octet-stream all the same.
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
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

    // The POST policy of an upload held to the remaining quota goes to the public endpoint too.
    const post = await split.presignUpload('uploads/public/c', { contentType: 'application/octet-stream', expiresInSeconds: 60, ceiling: { accountId: 'acme', maxBytes: 100 } });
    expect(new URL(post.url).host).toBe(new URL(publicEndpoint).host);
    const form = new FormData();
    for (const [name, value] of Object.entries(post.parameters)) form.append(name, value);
    form.append('file', new Blob([Buffer.from('posted')]));
    expect((await fetch(post.url, { method: 'POST', body: form })).status).toBe(200);
    expect(await buffer(await split.get('uploads/public/c'))).toEqual(Buffer.from('posted'));
  });

  describe('an upload held to a ceiling (the remaining quota): a signed POST policy', () => {
    const CEILING = 10_000;
    const send = (target: { url: string; parameters: Record<string, string> }, bytes: Buffer, override: Record<string, string> = {}) => {
      const form = new FormData();
      for (const [name, value] of Object.entries({ ...target.parameters, ...override })) form.append(name, value);
      form.append('file', new Blob([bytes]));
      return fetch(target.url, { method: 'POST', body: form });
    };
    const ceilinged = (key: string) =>
      storage.presignUpload(key, { contentType: 'application/octet-stream', expiresInSeconds: 60, ceiling: { accountId: 'acme', maxBytes: CEILING } });

    it('is a POST with the policy in its parameters and no headers to send', async () => {
      const target = await ceilinged('uploads/policy/in');
      expect(target.method).toBe('POST');
      expect(target.headers).toEqual({});
      expect(target.parameters).toMatchObject({ key: 'uploads/policy/in', 'Content-Type': 'application/octet-stream', Policy: expect.any(String) });
      const policy = JSON.parse(Buffer.from(target.parameters['Policy']!, 'base64').toString()) as { conditions: unknown[] };
      expect(policy.conditions).toContainEqual(['content-length-range', 0, CEILING]);
    });

    it('stores a file of exactly the ceiling, as application/octet-stream', async () => {
      const bytes = randomBytes(CEILING);
      const sent = await send(await ceilinged('uploads/policy/at'), bytes);
      expect(sent.status).toBe(200);
      expect(await storage.stat('uploads/policy/at')).toEqual({ size: CEILING });
      expect(sha256(await buffer(await storage.get('uploads/policy/at')))).toBe(sha256(bytes));
    });

    it('is refused by S3 itself one byte past the ceiling, before anything is stored', async () => {
      const sent = await send(await ceilinged('uploads/policy/over'), randomBytes(CEILING + 1));
      expect(sent.status).toBe(400);
      expect(await sent.text()).toContain('<Code>EntityTooLarge</Code>');
      expect(await storage.stat('uploads/policy/over')).toBeNull();
    });

    it('refuses another Content-Type, as the signed PUT does', async () => {
      const sent = await send(await ceilinged('uploads/policy/type'), randomBytes(100), { 'Content-Type': 'text/html' });
      expect(sent.status).toBe(403);
      expect(await storage.stat('uploads/policy/type')).toBeNull();
    });
  });
});

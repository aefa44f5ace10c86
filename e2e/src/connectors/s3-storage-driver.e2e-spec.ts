/**
 * The platform on its `s3` storage driver with a real MinIO: the upload form
 * is a presigned POST policy straight to MinIO (Content-Type fixed, size held
 * to the account's remaining quota), the conversion reads and writes the
 * bucket, and the download's 302 points at a presigned MinIO GET that names
 * the file and serves it as application/octet-stream.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { type RunningMinio, startMinio } from '@transmute/devstack';
import { TransmuteClient, taskOf, uploadConvertExport, waitForFinished } from '../support';
import { platformFixture } from '../support/platform-fixture';
import { accountWithKey, charge } from '../limits/limits-support';
import { connect } from 'nats';

let minio: RunningMinio;
const run = promisify(execFile);
let sample: { bytes: Buffer };
/** tar -> zip (archive family) on a tar made here; the result is checked by listing it. */
/** 1 MB: the account the ceiling test spends nearly all of. */
const SMALL_PLANS = { 'e2e-small': { monthlyGb: 0.001, additionalGb: 0, dailyConversions: 100, convertAllowance: 5, rateLimitPerMinute: 100000 } };
const platformOptions = { name: 's3-storage-driver', families: ['archive'], extraEnv: { TRANSMUTE_PLANS: JSON.stringify(SMALL_PLANS) } as Record<string, string> };
async function withDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 's3-driver-'));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
const makeTar = () =>
  withDir(async (dir) => {
    await writeFile(join(dir, 'member.bin'), randomBytes(256 * 1024));
    await run('bsdtar', ['-cf', join(dir, 'in.tar'), '-C', dir, 'member.bin']);
    return { bytes: await readFile(join(dir, 'in.tar')) };
  });
beforeAll(async () => {
  [minio, sample] = await Promise.all([startMinio(), makeTar()]);
  const admin = new S3Client({ region: minio.region, endpoint: minio.endpoint, forcePathStyle: true, credentials: minio });
  await admin.send(new CreateBucketCommand({ Bucket: 'transmute-platform' }));
  admin.destroy();
  Object.assign(platformOptions.extraEnv, {
    TRANSMUTE_STORAGE_DRIVER: 's3',
    TRANSMUTE_STORAGE_S3_BUCKET: 'transmute-platform',
    TRANSMUTE_STORAGE_S3_REGION: minio.region,
    TRANSMUTE_STORAGE_S3_ENDPOINT: minio.endpoint,
    TRANSMUTE_STORAGE_S3_ACCESS_KEY_ID: minio.accessKeyId,
    TRANSMUTE_STORAGE_S3_SECRET_ACCESS_KEY: minio.secretAccessKey,
  });
}, 60_000);
afterAll(() => minio?.stop());

const env = platformFixture(platformOptions);

it('uploads to a signed MinIO POST policy, converts from and to the bucket, and downloads through a signed MinIO GET', async () => {
  const { client } = env();
  const created = await client.createJob(uploadConvertExport('tar', 'zip', 'e2e-s3-driver'));
  const form = taskOf(created, 'import-my-file').result?.form;
  if (!form) throw new Error(`no upload form: ${JSON.stringify(created)}`);
  expect(form.url.startsWith(`${minio.endpoint}/transmute-platform`)).toBe(true);
  expect(form).toMatchObject({ method: 'POST', headers: {}, parameters: { 'Content-Type': 'application/octet-stream' } });

  // The Content-Type is part of the policy: MinIO itself refuses another one.
  expect((await client.upload({ ...form, parameters: { ...form.parameters, 'Content-Type': 'text/html' } }, sample.bytes)).status).toBe(403);
  expect((await client.upload(form, sample.bytes)).status).toBe(200);

  await client.completeUpload(created.id);
  const finished = await waitForFinished(client, created.id, 60_000);
  const link = taskOf(finished, 'export-my-file').result?.url;
  if (!link) throw new Error(`no export link: ${JSON.stringify(finished)}`);
  const { location, file } = await client.download(link);
  expect(location.startsWith(`${minio.endpoint}/transmute-platform/`)).toBe(true);
  expect(file.headers.get('content-disposition')).toMatch(/attachment; filename=/);
  expect(file.headers.get('content-type')).toBe('application/octet-stream');
  const listing = await withDir(async (dir) => {
    await writeFile(join(dir, 'out.zip'), file.bytes);
    return (await run('bsdtar', ['-tf', join(dir, 'out.zip')])).stdout;
  });
  expect(listing.split('\n')).toContain('member.bin');

  // Sources and results live in the bucket, not on local disk.
  const admin = new S3Client({ region: minio.region, endpoint: minio.endpoint, forcePathStyle: true, credentials: minio });
  const listed = await admin.send(new ListObjectsV2Command({ Bucket: 'transmute-platform' }));
  admin.destroy();
  expect((listed.Contents ?? []).length).toBeGreaterThanOrEqual(2);
});

it("holds the upload to the account's remaining quota: MinIO refuses a larger file before storing it", async () => {
  const { platform } = env();
  const { accountId, key } = await accountWithKey(platform, 'e2e-small');
  const nats = await connect({ servers: platform.env['TRANSMUTE_NATS_URL'] });
  try {
    // 1 MB allowance; leave 100 kB.
    await charge(nats, accountId, 900_000, 'e2e-s3-prespend');
  } finally {
    await nats.close();
  }
  const client = new TransmuteClient(platform.baseUrl, key);
  const created = await client.createJob(uploadConvertExport('tar', 'zip', 'e2e-s3-ceiling'));
  const form = taskOf(created, 'import-my-file').result!.form!;
  const policy = JSON.parse(Buffer.from(form.parameters['Policy']!, 'base64').toString()) as { conditions: unknown[] };
  expect(policy.conditions).toContainEqual(['content-length-range', 0, 100_000]);

  const refused = await client.upload(form, randomBytes(100_001));
  expect(refused.status).toBe(400);
  expect(refused.text).toContain('<Code>EntityTooLarge</Code>');
  const admin = new S3Client({ region: minio.region, endpoint: minio.endpoint, forcePathStyle: true, credentials: minio });
  const listed = await admin.send(new ListObjectsV2Command({ Bucket: 'transmute-platform', Prefix: `uploads/${created.id}/` }));
  admin.destroy();
  expect(listed.Contents ?? []).toEqual([]);
  expect((await client.upload(form, randomBytes(100_000))).status).toBe(200);
});

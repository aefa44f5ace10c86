/**
 * Issue 5 on the whole platform: every source and destination against real
 * servers on loopback (MinIO, fake-gcs-server, OpenSSH), bytes in -> convert ->
 * bytes out, compared with the platform's own export/url download; failures
 * that end a task with a clear message; 422 at creation; and a scan of every
 * response, webhook body and service log for the secrets the run used.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Storage as GcsStorage } from '@google-cloud/storage';
import SftpClient from 'ssh2-sftp-client';
import { type RunningFakeGcs, type RunningMinio, type RunningSshd, startFakeGcs, startMinio, startSshd } from '@transmute/devstack';
import { type CreateJobRequest, type HttpReply, type Job, TERMINAL_JOB_STATUSES, type TaskRequest, taskOf, waitForJob } from '../support';
import { platformFixture } from '../support/platform-fixture';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const task = (fields: Record<string, unknown>) => fields as unknown as TaskRequest;
const JOB_TIMEOUT_MS = 60_000;
const run = promisify(execFile);

/**
 * The conversion in the middle: tar -> zip (archive family, bsdtar and 7-Zip),
 * on a tar generated here. Any family would do; this one's result is checked
 * by listing it.
 */
const CONVERSION = { family: 'archive', input: 'tar', output: 'zip' };
const MEMBER = 'report.bin';
async function makeSample(): Promise<{ bytes: Buffer }> {
  const dir = await mkdtemp(join(tmpdir(), 'connectors-sample-'));
  try {
    await writeFile(join(dir, MEMBER), randomBytes(512 * 1024));
    await run('bsdtar', ['-cf', join(dir, 'sample.tar'), '-C', dir, MEMBER]);
    return { bytes: await readFile(join(dir, 'sample.tar')) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
async function checkResult(bytes: Buffer): Promise<void> {
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
  const dir = await mkdtemp(join(tmpdir(), 'connectors-result-'));
  try {
    await writeFile(join(dir, 'result.zip'), bytes);
    expect((await run('bsdtar', ['-tf', join(dir, 'result.zip')])).stdout.split('\n')).toContain(MEMBER);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let minio: RunningMinio;
let gcs: RunningFakeGcs;
let sshd: RunningSshd;
let web: Server;
let webUrl: string;
const webhookBodies: string[] = [];
let sample: { bytes: Buffer };
const gcsAccount = (() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { generateKeyPairSync } = require('node:crypto') as typeof import('node:crypto');
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { client_email: 'transmute-e2e@transmute-test.iam.gserviceaccount.com', private_key: key, project_id: 'transmute-test' };
})();

// The servers start first: their addresses go into the platform's environment.
const platformOptions = { name: 'connectors', families: [CONVERSION.family], extraEnv: {} as Record<string, string> };
beforeAll(async () => {
  [minio, gcs, sshd, sample] = await Promise.all([startMinio(), startFakeGcs(), startSshd(), makeSample()]);
  const admin = new S3Client({ region: minio.region, endpoint: minio.endpoint, forcePathStyle: true, credentials: minio });
  await admin.send(new CreateBucketCommand({ Bucket: 'sources' }));
  await admin.send(new CreateBucketCommand({ Bucket: 'results' }));
  await admin.send(new PutObjectCommand({ Bucket: 'sources', Key: 'in/bundle.tar', Body: sample.bytes }));
  admin.destroy();
  await gcs.createBucket('gcs-sources');
  await gcs.createBucket('gcs-results');
  await new GcsStorage({ apiEndpoint: gcs.endpoint, projectId: 'transmute-test' }).bucket('gcs-sources').file('in/bundle.tar').save(sample.bytes, { resumable: false });
  const sftp = await sftpSession();
  await sftp.put(sample.bytes, `${sshd.root}/bundle.tar`);
  await sftp.end();
  web = createServer((req, res) => {
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        webhookBodies.push(Buffer.concat(chunks).toString('utf8'));
        res.end('ok');
      });
    } else if (req.url?.startsWith('/files/bundle.tar')) {
      res.writeHead(200, { 'content-type': 'application/x-tar', 'content-disposition': 'attachment; filename="from-url.tar"' }).end(sample.bytes);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  Object.assign(platformOptions.extraEnv, {
    // Everything here is on loopback; the refusals with the default are proven in the integration tests.
    TRANSMUTE_ALLOW_PRIVATE_NETWORKS: 'true',
    TRANSMUTE_GCS_API_ENDPOINT: gcs.endpoint,
    TRANSMUTE_RETRY_DELAYS_MS: '200',
    TRANSMUTE_MAX_DELIVER: '2',
  });
}, 120_000);
afterAll(async () => {
  await Promise.all([minio?.stop(), gcs?.stop(), sshd?.stop(), new Promise((resolve) => (web ? web.close(resolve) : resolve(undefined)))]);
});

const env = platformFixture(platformOptions);

/** Every reply the API gave in this file, for the credential scan. */
const replies: HttpReply[] = [];
function client() {
  const { client } = env();
  if (!(client as { recording?: boolean }).recording) {
    const original = client.request.bind(client);
    client.request = async (...args: Parameters<typeof original>) => {
      const reply = await original(...args);
      replies.push(reply);
      return reply;
    };
    (client as { recording?: boolean }).recording = true;
  }
  return client;
}

function sftpSession(credentials: { password?: string; privateKey?: string } = { password: sshd.password }): Promise<SftpClient> {
  const session = new SftpClient('e2e', { error: () => undefined, end: () => undefined, close: () => undefined });
  return session.connect({ host: sshd.host, port: sshd.port, username: sshd.username, ...credentials }).then(() => session);
}

const s3Credentials = () => ({ endpoint: minio.endpoint, region: minio.region, access_key_id: minio.accessKeyId, secret_access_key: minio.secretAccessKey });
const sftpLogin = () => ({ host: sshd.host, port: sshd.port, username: sshd.username });

/** import -> convert (CONVERSION) -> the given export, plus an export/url of the same convert to compare with. */
function roundTrip(source: Record<string, unknown>, destination: Record<string, unknown>, tag: string): CreateJobRequest {
  return {
    tag,
    webhook_url: `${webUrl}/hook`,
    tasks: {
      in: task(source),
      convert: task({ operation: 'convert', input: 'in', input_format: CONVERSION.input, output_format: CONVERSION.output }),
      out: task({ input: 'convert', ...destination }),
      link: task({ operation: 'export/url', input: 'convert' }),
    },
  };
}

async function runToEnd(body: CreateJobRequest): Promise<Job> {
  const created = await client().createJob(body);
  // Jobs wait for complete-upload even when they only fetch (docs/decisions.md).
  await client().completeUpload(created.id);
  return waitForJob(client(), created.id, (job) => TERMINAL_JOB_STATUSES.includes(job.status), JOB_TIMEOUT_MS, { stopOnTerminal: false, waitingFor: 'the job to end' });
}

/** The converted file as export/url delivers it: what every other destination must hold byte for byte. */
async function viaExportUrl(job: Job): Promise<Buffer> {
  const url = taskOf(job, 'link').result?.url;
  if (!url) throw new Error(`no export/url link on ${JSON.stringify(job)}`);
  const bytes = (await client().download(url)).file.bytes;
  await checkResult(bytes);
  return bytes;
}

function expectFinished(job: Job): void {
  expect({ status: job.status, error: job.error, tasks: job.tasks.map((t) => [t.name, t.status, t.result?.['error'] ?? '']) }).toMatchObject({
    status: 'finished',
    tasks: expect.arrayContaining([['out', 'finished', '']]),
  });
}

describe('sources and destinations, both ways, byte-correct', () => {
  it('S3: import/s3 -> convert -> export/s3 (MinIO)', async () => {
    const job = await runToEnd(
      roundTrip(
        { operation: 'import/s3', bucket: 'sources', key: 'in/bundle.tar', ...s3Credentials() },
        { operation: 'export/s3', bucket: 'results', key: 'out/s3.zip', ...s3Credentials() },
        'e2e-s3',
      ),
    );
    expectFinished(job);
    const admin = new S3Client({ region: minio.region, endpoint: minio.endpoint, forcePathStyle: true, credentials: minio });
    const object = Buffer.from(await (await admin.send(new GetObjectCommand({ Bucket: 'results', Key: 'out/s3.zip' }))).Body!.transformToByteArray());
    admin.destroy();
    expect(sha256(object)).toBe(sha256(await viaExportUrl(job)));
  });

  it('SFTP: import/sftp with a password -> convert -> export/sftp with a key (OpenSSH)', async () => {
    const job = await runToEnd(
      roundTrip(
        { operation: 'import/sftp', ...sftpLogin(), password: sshd.password, path: `${sshd.root}/bundle.tar` },
        { operation: 'export/sftp', ...sftpLogin(), private_key: sshd.privateKey, path: `${sshd.root}/results`, filename: 'sftp.zip' },
        'e2e-sftp',
      ),
    );
    expectFinished(job);
    const session = await sftpSession({ privateKey: sshd.privateKey });
    const delivered = (await session.get(`${sshd.root}/results/sftp.zip`)) as Buffer;
    await session.end();
    expect(sha256(delivered)).toBe(sha256(await viaExportUrl(job)));
  });

  it('Google Cloud Storage: import/googlecloud -> convert -> export/googlecloud (fake-gcs-server)', async () => {
    const job = await runToEnd(
      roundTrip(
        { operation: 'import/googlecloud', bucket: 'gcs-sources', key: 'in/bundle.tar', ...gcsAccount },
        { operation: 'export/googlecloud', bucket: 'gcs-results', key: 'out/gcs.zip', ...gcsAccount },
        'e2e-gcs',
      ),
    );
    expectFinished(job);
    const [delivered] = await new GcsStorage({ apiEndpoint: gcs.endpoint, projectId: 'transmute-test' }).bucket('gcs-results').file('out/gcs.zip').download();
    expect(sha256(delivered)).toBe(sha256(await viaExportUrl(job)));
  });

  it('import/url (name from Content-Disposition) and import/base64 with a data: prefix', async () => {
    const fromUrl = await runToEnd(roundTrip({ operation: 'import/url', url: `${webUrl}/files/bundle.tar?token=abc` }, { operation: 'export/url' }, 'e2e-url'));
    expectFinished(fromUrl);
    await viaExportUrl(fromUrl);
    const fromBase64 = await runToEnd(
      roundTrip(
        { operation: 'import/base64', file: `data:application/x-tar;base64,${sample.bytes.toString('base64')}`, filename: 'inline.tar' },
        { operation: 'export/url' },
        'e2e-base64',
      ),
    );
    expectFinished(fromBase64);
    await viaExportUrl(fromBase64);
  });
});

describe('failures end the task with a message that says why', () => {
  it.each([
    ['a missing bucket', () => ({ operation: 'import/s3', ...s3Credentials(), bucket: 'no-such-bucket', key: 'a.tar' }), /bucket no-such-bucket does not exist/],
    [
      'wrong S3 credentials',
      () => ({ operation: 'import/s3', ...s3Credentials(), bucket: 'sources', key: 'in/bundle.tar', secret_access_key: 'wrong-secret-0000' }),
      /refused the credentials/,
    ],
    ['an unreachable SFTP host', () => ({ operation: 'import/sftp', ...sftpLogin(), port: 1, password: 'x', path: '/a.tar' }), /could not be reached \(ECONNREFUSED\)/],
    ['a URL that answers 404', () => ({ operation: 'import/url', url: `${webUrl}/missing.tar` }), /answered 404/],
  ])('import with %s fails the job', async (_name, source, message) => {
    const job = await runToEnd(roundTrip(source(), { operation: 'export/url' }, 'e2e-import-failure'));
    expect(job.status).toBe('failed');
    expect(taskOf(job, 'in').status).toBe('failed');
    expect(taskOf(job, 'in').result?.['error']).toMatch(message);
    expect(job.error).toMatch(message);
  });

  it.each([
    ['a wrong SFTP password', () => ({ operation: 'export/sftp', ...sftpLogin(), password: 'not-the-password' }), /refused the login/],
    ['a missing GCS bucket', () => ({ operation: 'export/googlecloud', bucket: 'no-such-bucket', ...gcsAccount }), /bucket no-such-bucket does not exist/],
    ['an unreachable S3 endpoint', () => ({ operation: 'export/s3', ...s3Credentials(), bucket: 'results', endpoint: 'http://127.0.0.1:1' }), /could not be reached/],
  ])('export with %s fails that export task, not the job', async (_name, destination, message) => {
    const job = await runToEnd(roundTrip({ operation: 'import/base64', file: sample.bytes.toString('base64'), filename: 'in.tar' }, destination(), 'e2e-export-failure'));
    expect(job.status).toBe('finished');
    expect(taskOf(job, 'out').status).toBe('failed');
    expect(taskOf(job, 'out').result?.['error']).toMatch(message);
  });

  it.each([
    ['import/s3 without key', { operation: 'import/s3', bucket: 'b', access_key_id: 'a', secret_access_key: 's' }, /key/],
    ['import/sftp without password or private_key', { operation: 'import/sftp', host: 'h', username: 'u', path: '/a.tar' }, /password/],
    ['import/googlecloud without client_email', { operation: 'import/googlecloud', bucket: 'b', key: 'a.tar', private_key: 'k' }, /client_email/],
    ['import/base64 that is not base64', { operation: 'import/base64', file: 'this is not base64!', filename: 'a.tar' }, /base64/],
  ])('%s is 422 at creation', async (_name, source, message) => {
    const reply = await client().request('POST', '/v1/process/jobs', { json: roundTrip(source, { operation: 'export/url' }, 'e2e-422') });
    expect(reply.status).toBe(422);
    expect(reply.json).toEqual({ status: 'error', message: expect.stringMatching(message) });
  });
});

describe('credentials never leave', () => {
  it('no response, webhook body, service log, JetStream file or database file of this run holds a secret it used', async () => {
    // Wait for the last webhooks to land before scanning.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const secrets = {
      's3 access key id': minio.accessKeyId,
      's3 secret access key': minio.secretAccessKey,
      'sftp password': sshd.password,
      'sftp private key': sshd.privateKey.split('\n')[2] ?? '',
      'gcs private key': gcsAccount.private_key.split('\n')[2] ?? '',
    };
    const { logDir, rootDir } = env();
    const logs: Record<string, string> = {};
    for (const file of await readdir(logDir)) logs[file] = await readFile(join(logDir, file), 'utf8');
    // NATS's stream files and FerretDB's SQLite files, byte for byte: work messages and stored specs carry credentials only sealed.
    const stored: Record<string, string> = {};
    for (const entry of await readdir(join(rootDir, 'infra'), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) stored[join(entry.parentPath, entry.name)] = (await readFile(join(entry.parentPath, entry.name))).toString('latin1');
    }
    const places = {
      ...Object.fromEntries(replies.map((reply, index) => [`reply ${index} (${reply.method} ${new URL(reply.url).pathname})`, reply.text])),
      ...Object.fromEntries(webhookBodies.map((body, index) => [`webhook body ${index}`, body])),
      ...logs,
      ...stored,
    };
    expect(replies.length).toBeGreaterThan(20);
    expect(webhookBodies.length).toBeGreaterThan(5);
    expect(Object.keys(logs).length).toBeGreaterThan(3);
    expect(Object.keys(stored).some((path) => path.includes('jetstream'))).toBe(true);
    expect(Object.keys(stored).some((path) => path.endsWith('.sqlite'))).toBe(true);
    const found: string[] = [];
    for (const [secretName, secret] of Object.entries(secrets)) {
      expect(secret.length).toBeGreaterThan(8);
      for (const [place, text] of Object.entries(places)) if (text.includes(secret)) found.push(`${secretName} in ${place}`);
    }
    expect(found).toEqual([]);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Storage as GcsStorage } from '@google-cloud/storage';
import SftpClient from 'ssh2-sftp-client';
import { ErrorCode } from '@transmute/contracts';
import { type RunningFakeGcs, type RunningMinio, type RunningSshd, startFakeGcs, startMinio, startSshd } from '@transmute/devstack';
import { createGuardedAgents } from '@transmute/net-guard';
import type { FsStorage } from '@transmute/storage';
import type { ImportSource } from '../src/sources/source';
import { GcsSource } from '../src/sources/gcs.source';
import { S3Source } from '../src/sources/s3.source';
import { SftpSource } from '../src/sources/sftp.source';
import { UrlSource } from '../src/sources/url.source';
import { context, importerConfigFor, sampleBytes, serviceAccount, tempStorage, workFor } from './connector-fixtures';

/**
 * The spec: "Cloud imports are size-limited like import/url". Every fetched
 * source, against its real server, stops at one ceiling with one error; a
 * file of exactly the ceiling still comes in.
 */
const CEILING = 1_000_000;
const atCeiling = sampleBytes(CEILING);
const overCeiling = sampleBytes(CEILING + 1);
const CEILING_ERROR = / is larger than the import ceiling of 1 MB \(1000000 bytes\)$/;

describe('the import ceiling, the same for import/url, s3, sftp and googlecloud', () => {
  let storage: FsStorage;
  let cleanup: () => Promise<void>;
  let server: Server;
  let minio: RunningMinio;
  let sshd: RunningSshd;
  let gcs: RunningFakeGcs;
  let httpBase: string;
  const account = serviceAccount();

  beforeAll(async () => {
    ({ storage, cleanup } = await tempStorage());
    [minio, sshd, gcs] = await Promise.all([startMinio(), startSshd(), startFakeGcs()]);

    server = createServer((req, res) => res.end(req.url === '/over.bin' ? overCeiling : atCeiling));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    httpBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const s3 = new S3Client({ region: minio.region, endpoint: minio.endpoint, forcePathStyle: true, credentials: minio });
    await s3.send(new CreateBucketCommand({ Bucket: 'sources' }));
    await s3.send(new PutObjectCommand({ Bucket: 'sources', Key: 'at.bin', Body: atCeiling }));
    await s3.send(new PutObjectCommand({ Bucket: 'sources', Key: 'over.bin', Body: overCeiling }));
    s3.destroy();

    const sftp = new SftpClient();
    await sftp.connect({ host: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password });
    await sftp.put(atCeiling, `${sshd.root}/at.bin`);
    await sftp.put(overCeiling, `${sshd.root}/over.bin`);
    await sftp.end();

    await gcs.createBucket('sources');
    const bucket = new GcsStorage({ apiEndpoint: gcs.endpoint, projectId: 'transmute-test' }).bucket('sources');
    await bucket.file('at.bin').save(atCeiling, { resumable: false });
    await bucket.file('over.bin').save(overCeiling, { resumable: false });
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await Promise.all([minio?.stop(), sshd?.stop(), gcs?.stop()]);
    await cleanup?.();
  });

  const config = () => importerConfigFor({ TRANSMUTE_MAX_FETCH_BYTES: String(CEILING), TRANSMUTE_ALLOW_PRIVATE_NETWORKS: 'true', TRANSMUTE_GCS_API_ENDPOINT: gcs.endpoint });

  const sources: [string, () => ImportSource, (file: string) => Parameters<ImportSource['import']>[0]][] = [
    ['import/url', () => new UrlSource(storage, config(), createGuardedAgents(config())), (file) => workFor({ operation: 'import/url', url: `${httpBase}/${file}` })],
    [
      'import/s3',
      () => new S3Source(storage, config(), createGuardedAgents(config())),
      (file) =>
        workFor({
          operation: 'import/s3',
          bucket: 'sources',
          key: file,
          endpoint: minio.endpoint,
          region: minio.region,
          accessKeyId: minio.accessKeyId,
          secretAccessKey: minio.secretAccessKey,
        }),
    ],
    [
      'import/sftp',
      () => new SftpSource(storage, config()),
      (file) => workFor({ operation: 'import/sftp', host: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password, path: `${sshd.root}/${file}` }),
    ],
    ['import/googlecloud', () => new GcsSource(storage, config()), (file) => workFor({ operation: 'import/googlecloud', bucket: 'sources', key: file, ...account })],
  ];

  it.each(sources)('%s brings in a file of exactly the ceiling', async (_operation, source, work) => {
    const imported = await source().import(work('at.bin'), context());
    expect(imported.size).toBe(CEILING);
  });

  it.each(sources)('%s stops one byte past it: 413 class, permanent, the same message', async (_operation, source, work) => {
    const attempt = source().import(work('over.bin'), context());
    await expect(attempt).rejects.toMatchObject({ code: ErrorCode.PAYLOAD_TOO_LARGE, retryable: false, message: expect.stringMatching(CEILING_ERROR) });
  });

  it("defaults to the spec's 5 GB, counted in decimal like quota", () => {
    expect(importerConfigFor({}).maxImportBytes).toBe(5_000_000_000);
  });
});

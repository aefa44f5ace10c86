import { buffer } from 'node:stream/consumers';
import { Storage as GcsStorage } from '@google-cloud/storage';
import { type RunningFakeGcs, startFakeGcs } from '@transmute/devstack';
import type { FsStorage } from '@transmute/storage';
import { GcsSource } from '../src/sources/gcs.source';
import { importerConfigFor, sampleBytes, serviceAccount, sha256, tempStorage, workFor } from './connector-fixtures';

describe('import/googlecloud against fake-gcs-server', () => {
  let gcs: RunningFakeGcs;
  let storage: FsStorage;
  let cleanup: () => Promise<void>;
  const bytes = sampleBytes();
  const account = serviceAccount();

  beforeAll(async () => {
    gcs = await startFakeGcs();
    ({ storage, cleanup } = await tempStorage());
    await gcs.createBucket('sources');
    await new GcsStorage({ apiEndpoint: gcs.endpoint, projectId: 'transmute-test' }).bucket('sources').file('in/report.bin').save(bytes, { resumable: false });
  });
  afterAll(async () => {
    await gcs?.stop();
    await cleanup?.();
  });

  const source = (endpoint = gcs.endpoint) => new GcsSource(storage, importerConfigFor({ TRANSMUTE_GCS_API_ENDPOINT: endpoint }));
  const spec = (fields: Record<string, string>) => workFor({ operation: 'import/googlecloud', bucket: 'sources', key: 'in/report.bin', ...account, ...fields });

  it('brings the object in byte for byte', async () => {
    const imported = await source().import(spec({}));
    expect(imported.filename).toBe('report.bin');
    expect(sha256(await buffer(await storage.get(imported.key)))).toBe(sha256(bytes));
  });

  it('takes path when no key is given', async () => {
    const imported = await source().import(spec({ key: '', path: 'in/report.bin' }));
    expect(imported.size).toBe(bytes.length);
  });

  it.each([
    ['a missing bucket', () => source().import(spec({ bucket: 'no-such-bucket' })), /bucket no-such-bucket does not exist/],
    ['a missing object', () => source().import(spec({ key: 'in/none.bin' })), /has no object in\/none\.bin/],
    ['an unreachable endpoint', () => source('http://127.0.0.1:1').import(spec({})), /could not be reached \(ECONNREFUSED\)/],
  ])('fails with a clear message for %s', async (_name, attempt, message) => {
    await expect(attempt()).rejects.toThrow(message);
  });
});

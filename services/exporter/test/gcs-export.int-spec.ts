import { Storage as GcsStorage } from '@google-cloud/storage';
import { type RunningFakeGcs, startFakeGcs } from '@transmute/devstack';
import type { FsStorage } from '@transmute/storage';
import { GcsDestination } from '../src/destinations/gcs.destination';
import { exportWork, exporterConfigFor, sampleBytes, serviceAccount, sha256, tempStorage } from './export-fixtures';

describe('export/googlecloud against fake-gcs-server', () => {
  let gcs: RunningFakeGcs;
  let storage: FsStorage;
  let cleanup: () => Promise<void>;
  const account = serviceAccount();

  beforeAll(async () => {
    gcs = await startFakeGcs();
    await gcs.createBucket('results');
    ({ storage, cleanup } = await tempStorage());
  });
  afterAll(async () => {
    await gcs?.stop();
    await cleanup?.();
  });

  const destination = (endpoint = gcs.endpoint) => new GcsDestination(storage, exporterConfigFor({ TRANSMUTE_GCS_API_ENDPOINT: endpoint }));
  const download = async (key: string) => (await new GcsStorage({ apiEndpoint: gcs.endpoint, projectId: 'transmute-test' }).bucket('results').file(key).download())[0];

  it('delivers a result byte for byte under the given key', async () => {
    const bytes = sampleBytes();
    await destination().export(
      await exportWork(storage, { operation: 'export/googlecloud', bucket: 'results', key: 'out/final.webp', ...account }, [{ filename: 'x.webp', bytes }]),
    );
    expect(sha256(await download('out/final.webp'))).toBe(sha256(bytes));
  });

  it('puts several results under a prefix', async () => {
    const files = [
      { filename: 'a.png', bytes: sampleBytes(2000) },
      { filename: 'b.png', bytes: sampleBytes(3000) },
    ];
    await destination().export(await exportWork(storage, { operation: 'export/googlecloud', bucket: 'results', path: 'many/', ...account }, files));
    for (const file of files) expect(sha256(await download(`many/${file.filename}`))).toBe(sha256(file.bytes));
  });

  it.each([
    ['a missing bucket', () => destination(), 'nope', /bucket nope does not exist/],
    ['an unreachable endpoint', () => destination('http://127.0.0.1:1'), 'results', /could not be reached \(ECONNREFUSED\)/],
  ])('fails with a clear message for %s', async (_name, make, bucket, message) => {
    const work = await exportWork(storage, { operation: 'export/googlecloud', bucket, key: 'x.png', ...account }, [{ filename: 'x.png', bytes: sampleBytes(10) }]);
    await expect(make().export(work)).rejects.toThrow(message);
  });
});

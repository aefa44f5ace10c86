import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecrets, loadOrCreateSecrets } from './platform-secrets';

describe('loadOrCreateSecrets', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'devstack-secrets-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('creates owner-only secrets on the first start and returns the same ones afterwards', async () => {
    const first = await loadOrCreateSecrets(join(dataDir, 'fresh'));
    const again = await loadOrCreateSecrets(join(dataDir, 'fresh'));

    expect(again).toEqual(first);
    expect(first.storageSigningKey).toMatch(/^[0-9a-f]{64}$/);
    expect(first.downloadTokenKey).toMatch(/^[0-9a-f]{64}$/);
    expect(first.credentialsKey).toMatch(/^[0-9a-f]{64}$/);
    expect(first.devApiKey).toMatch(/^tm_dev_[0-9a-f]{32}$/);
    expect((await stat(join(dataDir, 'fresh', 'secrets.json'))).mode & 0o777).toBe(0o600);
  });

  it('adds a key that a file from an earlier version lacks, keeping the others', async () => {
    const earlier = { storageSigningKey: 'a'.repeat(64), downloadTokenKey: 'b'.repeat(64), devApiKey: `tm_dev_${'c'.repeat(32)}` };
    await writeFile(join(dataDir, 'secrets.json'), JSON.stringify(earlier));

    const loaded = await loadOrCreateSecrets(dataDir);
    expect(loaded).toMatchObject(earlier);
    expect(loaded.credentialsKey).toMatch(/^[0-9a-f]{64}$/);
    expect(await loadOrCreateSecrets(dataDir)).toEqual(loaded);
  });

  it('generates different keys for different platforms', () => {
    expect(generateSecrets().devApiKey).not.toBe(generateSecrets().devApiKey);
  });

  it.each([
    { scenario: 'not JSON', content: 'nope', error: 'is not valid JSON' },
    { scenario: 'a missing key', content: JSON.stringify({ storageSigningKey: 'a', downloadTokenKey: 'b' }), error: 'lacks devApiKey' },
  ])('names the file and the fix when it holds $scenario', async ({ content, error }) => {
    await writeFile(join(dataDir, 'secrets.json'), content);

    await expect(loadOrCreateSecrets(dataDir)).rejects.toThrow(error);
    await expect(loadOrCreateSecrets(dataDir)).rejects.toThrow(`delete ${join(dataDir, 'secrets.json')}`);
    expect(await readFile(join(dataDir, 'secrets.json'), 'utf8')).toBe(content);
  });
});

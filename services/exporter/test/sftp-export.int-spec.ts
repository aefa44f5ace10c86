import { generateKeyPairSync } from 'node:crypto';
import SftpClient from 'ssh2-sftp-client';
import { type RunningSshd, startSshd } from '@transmute/devstack';
import type { FsStorage } from '@transmute/storage';
import { SftpDestination } from '../src/destinations/sftp.destination';
import { exportWork, exporterConfigFor, sampleBytes, sha256, tempStorage } from './export-fixtures';

/** A valid RSA key the server does not know. */
const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

describe('export/sftp against OpenSSH', () => {
  let sshd: RunningSshd;
  let storage: FsStorage;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    sshd = await startSshd();
    ({ storage, cleanup } = await tempStorage());
  });
  afterAll(async () => {
    await sshd?.stop();
    await cleanup?.();
  });

  const destination = (allowPrivateNetworks = true) => new SftpDestination(storage, exporterConfigFor({ TRANSMUTE_ALLOW_PRIVATE_NETWORKS: String(allowPrivateNetworks) }));
  const login = () => ({ operation: 'export/sftp', host: sshd.host, port: sshd.port, username: sshd.username });
  const readBack = async (path: string, credentials: { password?: string; privateKey?: string }) => {
    const client = new SftpClient('test', { error: () => undefined, end: () => undefined, close: () => undefined });
    await client.connect({ host: sshd.host, port: sshd.port, username: sshd.username, ...credentials });
    try {
      return (await client.get(path)) as Buffer;
    } finally {
      await client.end();
    }
  };

  it.each([
    ['a password', () => ({ password: sshd.password })],
    ['a private key', () => ({ privateKey: sshd.privateKey })],
  ])('delivers results byte for byte into a new directory with %s', async (name, credentials) => {
    const files = [
      { filename: 'a.png', bytes: sampleBytes() },
      { filename: 'b.png', bytes: sampleBytes(1000) },
    ];
    const directory = `${sshd.root}/out/${name.replace(/\W/g, '-')}`;
    const result = await destination().export(await exportWork(storage, { ...login(), ...credentials(), path: directory }, files));
    expect(result.filename).toBe('a.png');
    for (const file of files) expect(sha256(await readBack(`${directory}/${file.filename}`, credentials()))).toBe(sha256(file.bytes));
  });

  it('names a single file after the task filename', async () => {
    const bytes = sampleBytes(5000);
    await destination().export(await exportWork(storage, { ...login(), password: sshd.password, path: sshd.root, filename: 'renamed.pdf' }, [{ filename: 'x.pdf', bytes }]));
    expect(sha256(await readBack(`${sshd.root}/renamed.pdf`, { password: sshd.password }))).toBe(sha256(bytes));
  });

  it.each([
    ['a wrong password', () => ({ ...login(), password: 'wrong' }), /refused the login/],
    ['a key that is not authorised', () => ({ ...login(), privateKey: otherKey }), /refused the login of user transmute-sftp/],
    ['an unreachable host', () => ({ ...login(), port: 1, password: sshd.password }), /could not be reached \(ECONNREFUSED\)/],
    ['a directory it may not write', () => ({ ...login(), password: sshd.password, path: '/root/forbidden' }), /denied access to \/root\/forbidden/],
  ])('fails with a clear message for %s', async (_name, spec, message) => {
    const work = await exportWork(storage, spec(), [{ filename: 'a.png', bytes: sampleBytes(10) }]);
    await expect(destination().export(work)).rejects.toThrow(message);
  });

  it('refuses a loopback host with the default setting', async () => {
    const work = await exportWork(storage, { ...login(), password: sshd.password }, [{ filename: 'a.png', bytes: sampleBytes(10) }]);
    await expect(destination(false).export(work)).rejects.toThrow(/not a public one/);
  });
});

import { buffer } from 'node:stream/consumers';
import SftpClient from 'ssh2-sftp-client';
import { type RunningSshd, startSshd } from '@transmute/devstack';
import type { FsStorage } from '@transmute/storage';
import { SftpSource } from '../src/sources/sftp.source';
import { importerConfigFor, sampleBytes, sha256, tempStorage, workFor } from './connector-fixtures';

describe('import/sftp against OpenSSH', () => {
  let sshd: RunningSshd;
  let storage: FsStorage;
  let cleanup: () => Promise<void>;
  const bytes = sampleBytes();
  let remotePath: string;

  beforeAll(async () => {
    sshd = await startSshd();
    ({ storage, cleanup } = await tempStorage());
    const seed = new SftpClient();
    await seed.connect({ host: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password });
    remotePath = `${sshd.root}/in/photo one.bin`;
    await seed.mkdir(`${sshd.root}/in`, true);
    await seed.put(bytes, remotePath);
    await seed.end();
  });
  afterAll(async () => {
    await sshd?.stop();
    await cleanup?.();
  });

  const source = (allowPrivateNetworks: boolean) => new SftpSource(storage, importerConfigFor({ TRANSMUTE_ALLOW_PRIVATE_NETWORKS: String(allowPrivateNetworks) }));
  const login = () => ({ host: sshd.host, port: sshd.port, username: sshd.username, path: remotePath });

  it.each([
    ['a password', () => ({ password: sshd.password })],
    ['a private key', () => ({ privateKey: sshd.privateKey })],
  ])('brings the file in byte for byte with %s', async (_name, credentials) => {
    const imported = await source(true).import(workFor({ operation: 'import/sftp', ...login(), ...credentials() }));
    expect(imported.filename).toBe('photo one.bin');
    expect(imported.size).toBe(bytes.length);
    expect(sha256(await buffer(await storage.get(imported.key)))).toBe(sha256(bytes));
  });

  it.each([
    ['a wrong password', () => ({ ...login(), password: 'not-the-password' }), /refused the login of user transmute-sftp/],
    ['a missing file', () => ({ ...login(), password: sshd.password, path: `${sshd.root}/nope.bin` }), /has no .*nope\.bin/],
    ['an unreachable host', () => ({ ...login(), port: 1, password: sshd.password }), /could not be reached \(ECONNREFUSED\)/],
  ])('fails with a clear message for %s', async (_name, spec, message) => {
    await expect(source(true).import(workFor({ operation: 'import/sftp', ...spec() }))).rejects.toThrow(message);
  });

  it('refuses the loopback host when private networks are not allowed', async () => {
    await expect(source(false).import(workFor({ operation: 'import/sftp', ...login(), password: sshd.password }))).rejects.toThrow(/not a public one/);
  });
});

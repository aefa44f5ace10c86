import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, LOOPBACK } from '../net/free-ports';
import { waitForTcp } from '../net/wait-for-tcp';
import { ManagedProcess } from '../process/managed-process';
import { stopOnce } from './test-servers-common';

const run = promisify(execFile);

/** The one system account the test sshd lets in; SFTP only (ForceCommand internal-sftp). */
export const SFTP_TEST_USER = 'transmute-sftp';
const SSHD = '/usr/sbin/sshd';

export interface RunningSshd {
  host: string;
  port: number;
  username: string;
  password: string;
  /** OpenSSH-format ed25519 private key whose public half is authorised. */
  privateKey: string;
  /** A directory the user owns; give remote paths under it. */
  root: string;
  stop(): Promise<void>;
}

/**
 * Debian's OpenSSH sshd on a free loopback port, SFTP only, with password and
 * key logins for one test account. sshd checks passwords against the system's
 * accounts, so the harness creates `transmute-sftp` (no shell, no home) once,
 * with a random password kept in /var/lib/transmute-devstack/sftp-test-user.json; it needs root.
 */
export async function startSshd(): Promise<RunningSshd> {
  try {
    accessSync(SSHD, constants.X_OK);
  } catch {
    throw new Error(`${SSHD} not found: install openssh-server (listed in libs/devstack/bin/packages/apt-test.txt; run make test-tools)`);
  }
  const { password, uid, gid } = await ensureTestAccount();
  const dir = await mkdtemp(join(tmpdir(), 'transmute-sshd-'));
  await chmod(dir, 0o755);
  const root = join(dir, 'files');
  await mkdir(root);
  await chown(root, uid, gid);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'transmute-test', '-f', join(dir, 'client_key')]);
  await writeFile(join(dir, 'authorized_keys'), await readFile(join(dir, 'client_key.pub')), { mode: 0o644 });
  await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const config = [
    `Port ${port}`,
    `ListenAddress ${LOOPBACK}`,
    `HostKey ${join(dir, 'host_key')}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    'PasswordAuthentication yes',
    'PubkeyAuthentication yes',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin no',
    'UsePAM no',
    'StrictModes no',
    `AllowUsers ${SFTP_TEST_USER}`,
    'Subsystem sftp internal-sftp',
    'ForceCommand internal-sftp',
    'AllowTcpForwarding no',
    'X11Forwarding no',
    'PermitTTY no',
    'LogLevel ERROR',
    '',
  ].join('\n');
  await writeFile(join(dir, 'sshd_config'), config, { mode: 0o600 });
  const managed = new ManagedProcess({
    name: 'sshd',
    command: SSHD,
    args: ['-D', '-e', '-f', join(dir, 'sshd_config')],
    output: { kind: 'tail-only' },
  });
  const stop = stopOnce(managed, () => rm(dir, { recursive: true, force: true }));
  try {
    await waitForTcp(port, { timeoutMs: 15_000, check: () => managed.assertRunning() });
  } catch (error) {
    await stop();
    throw new Error(`sshd did not start on ${LOOPBACK}:${port}: ${(error as Error).message}\n${managed.outputTail(20)}`);
  }
  return {
    host: LOOPBACK,
    port,
    username: SFTP_TEST_USER,
    password,
    privateKey: await readFile(join(dir, 'client_key'), 'utf8'),
    root,
    stop,
  };
}

/**
 * The account is the machine's, not a checkout's, so its password is kept
 * beside it on the machine: two clones of the repository (a CI run next to a
 * working copy) then share one password instead of resetting each other's.
 */
const ACCOUNT_FILE_DIR = '/var/lib/transmute-devstack';

/** Creates the account and its password on first use; later runs (and parallel ones) reuse them. */
async function ensureTestAccount(): Promise<{ password: string; uid: number; gid: number }> {
  const file = join(ACCOUNT_FILE_DIR, 'sftp-test-user.json');
  let password: string;
  let created = false;
  try {
    password = (JSON.parse(await readFile(file, 'utf8')) as { password: string }).password;
  } catch {
    password = randomBytes(18).toString('base64url');
    await mkdir(ACCOUNT_FILE_DIR, { recursive: true, mode: 0o700 });
    try {
      await writeFile(file, JSON.stringify({ username: SFTP_TEST_USER, password }), { mode: 0o600, flag: 'wx' });
      created = true;
    } catch {
      password = (JSON.parse(await readFile(file, 'utf8')) as { password: string }).password;
    }
  }
  const exists = await run('id', ['-u', SFTP_TEST_USER]).then(
    () => true,
    () => false,
  );
  if (!exists || created) {
    if (process.getuid?.() !== 0) {
      throw new Error(`the SFTP test account ${SFTP_TEST_USER} is missing and only root can create it: run the tests as root once`);
    }
    if (!exists) await run('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', SFTP_TEST_USER]);
    await new Promise<void>((resolve, reject) => {
      const child = execFile('chpasswd', (error) => (error ? reject(new Error(`chpasswd failed: ${error.message}`, { cause: error })) : resolve()));
      child.stdin?.end(`${SFTP_TEST_USER}:${password}\n`);
    });
  }
  const uid = Number((await run('id', ['-u', SFTP_TEST_USER])).stdout.trim());
  const gid = Number((await run('id', ['-g', SFTP_TEST_USER])).stdout.trim());
  return { password, uid, gid };
}

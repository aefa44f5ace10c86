import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePorts, repoRoot } from '@transmute/devstack';

/**
 * The DOCX -> PDF peer: unoserver (PyPI), the warm-LibreOffice server that
 * self-hosters deploy, driven by its own `unoconvert` client. It imports
 * Debian's python3-uno, so it runs on /usr/bin/python3 from a venv made with
 * --system-site-packages in <repo>/.tools/unoserver-venv (installed here when
 * missing). One daemon per office process the platform's pool has.
 */
const UNOSERVER_VERSION = '3.7';
const SYSTEM_PYTHON = '/usr/bin/python3';
const run = promisify(execFile);

const venv = () => join(repoRoot(), '.tools', 'unoserver-venv');

export async function ensureUnoserver(log: (line: string) => void): Promise<void> {
  if (existsSync(join(venv(), 'bin', 'unoconvert')) && existsSync(join(venv(), 'bin', 'unoserver'))) return;
  try {
    await run(SYSTEM_PYTHON, ['-c', 'import uno'], { timeout: 30_000 });
  } catch (error) {
    throw new Error(`unoserver needs Debian's python3-uno for ${SYSTEM_PYTHON}: apt-get install python3-uno (listed in libs/devstack/bin/packages/apt.txt)`, { cause: error });
  }
  log(`installing unoserver==${UNOSERVER_VERSION} into ${venv()} (venv of ${SYSTEM_PYTHON} with --system-site-packages)...`);
  try {
    await run(SYSTEM_PYTHON, ['-m', 'venv', '--system-site-packages', venv()], { timeout: 120_000 });
    await run(join(venv(), 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `unoserver==${UNOSERVER_VERSION}`], { timeout: 300_000 });
  } catch (error) {
    throw new Error(`could not install unoserver from PyPI into ${venv()}: ${(error as Error).message.split('\n')[0]}; use --skip-docx to run without the peer`, { cause: error });
  }
}

/** Where LibreOffice binds its single-instance pipe: one per profile, left behind when soffice is killed. */
const OSL_PIPE_DIR = '/tmp';
const isSingleInstancePipe = (name: string) => /^OSL_PIPE_\d+_SingleOfficeIPC_/.test(name);

/** True when nothing listens on the socket file any more. */
function refusesConnections(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/**
 * Removes the single-instance pipes that appeared since `before` and that
 * nobody listens on: those of the peer's killed soffice processes. A pipe of
 * a LibreOffice still running (the platform's pool) accepts, and stays.
 */
async function removeDeadPipes(before: ReadonlySet<string>): Promise<void> {
  for (const name of await readdir(OSL_PIPE_DIR)) {
    const path = join(OSL_PIPE_DIR, name);
    if (isSingleInstancePipe(name) && !before.has(name) && (await refusesConnections(path))) await rm(path, { force: true });
  }
}

export interface UnoserverPeer {
  readonly version: string;
  /** DOCX -> PDF through daemon `slot % daemons`; resolves with the milliseconds the unoconvert call took. */
  convert(slot: number, input: string, output: string): Promise<number>;
  stop(): Promise<void>;
}

/** Starts `daemons` unoserver processes (each with its LibreOffice) on loopback and waits until each converts. */
export async function startUnoservers(daemons: number, dir: string, sample: string): Promise<UnoserverPeer> {
  const bin = (name: string) => join(venv(), 'bin', name);
  const pipesBefore = new Set(await readdir(OSL_PIPE_DIR));
  const ports = await freePorts(daemons * 2);
  const children: ChildProcess[] = [];
  const servers = Array.from({ length: daemons }, (_, index) => ({ port: ports[2 * index] as number, unoPort: ports[2 * index + 1] as number }));
  for (const [index, server] of servers.entries()) {
    const args = ['--interface', '127.0.0.1', '--uno-interface', '127.0.0.1', '--port', String(server.port), '--uno-port', String(server.unoPort)];
    // A plain path: unoserver makes the file URL itself.
    args.push('--user-installation', join(dir, `unoserver-profile-${index}`), '--quiet');
    // soffice's lu*.tmp, which a SIGKILLed one never removes, goes with the run's directory instead of /tmp.
    const tempDir = join(dir, `unoserver-tmp-${index}`);
    await mkdir(tempDir, { recursive: true });
    // Its own process group, so stop() ends the daemon and the soffice it started together.
    children.push(spawn(bin('unoserver'), args, { detached: true, stdio: 'ignore', env: { ...process.env, TMPDIR: tempDir } }));
  }
  const convertOn = async (port: number, input: string, output: string) => {
    const began = performance.now();
    await run(bin('unoconvert'), ['--host', '127.0.0.1', '--port', String(port), '--host-location', 'local', '--convert-to', 'pdf', input, output], { timeout: 120_000 });
    return performance.now() - began;
  };
  // The daemon ignores SIGTERM while its LibreOffice runs: SIGKILL the group when it has not exited after a grace period.
  const signalGroup = (signal: NodeJS.Signals) => {
    for (const child of children) {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    }
  };
  const stop = async () => {
    process.off('exit', killOnExit);
    signalGroup('SIGTERM');
    for (let waited = 0; waited < 5_000 && children.some((child) => child.exitCode === null && child.signalCode === null); waited += 250) await sleep(250);
    signalGroup('SIGKILL');
    await removeDeadPipes(pipesBefore);
  };
  // The daemons live in their own process groups: an interrupted benchmark must not leave them behind.
  const killOnExit = () => signalGroup('SIGKILL');
  process.once('exit', killOnExit);
  try {
    for (const [index, server] of servers.entries()) {
      const deadline = Date.now() + 90_000;
      for (;;) {
        try {
          await convertOn(server.port, sample, join(dir, `unoserver-warm-up-${index}.pdf`));
          break;
        } catch (error) {
          if (Date.now() > deadline) throw new Error(`unoserver on port ${server.port} did not convert within 90 s: ${(error as Error).message.split('\n')[0]}`);
          await sleep(1_000);
        }
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const version = (await run(bin('unoserver'), ['--version'], { timeout: 30_000 })).stdout.trim();
  return { version, convert: (slot, input, output) => convertOn(servers[slot % daemons]!.port, input, output), stop };
}
